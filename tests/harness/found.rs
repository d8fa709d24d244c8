//! Fabrics shaped like the ones sites run (issue 39 item 6), for tests and benches: a
//! grown two-level lab cluster, storage hosts on a spine with a cable cut, edge switches
//! cabled unevenly to director chassis whose chips appear as switches, SuperPOD-shaped
//! rail-optimised units, and a large irregular three-level tree.
//!
//! They are written the way the real tools would see them: every switch of one model has
//! its full port count, cables land on random free ports (empty ports anywhere), GUIDs are
//! random, switches of one model share a description, and servers may have several HCAs.
//! A test runs them in ibsim and reads them back with `ibnetdiscover` for real records.

use ibfat::topology::{Fabric, NodeId, NodeKind};
use ibfat::SplitMix64;

/// A fabric under construction with random GUIDs and random free ports.
pub struct Gen {
    pub f: Fabric,
    rng: SplitMix64,
    free: Vec<Vec<u8>>,
    used: std::collections::HashSet<u64>,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen {
            f: Fabric::new(),
            rng: SplitMix64::new(seed),
            free: Vec::new(),
            used: Default::default(),
        }
    }

    fn guid(&mut self, span: u64) -> u64 {
        loop {
            let g = 0x0002_c900_0000_0000 | (self.rng.next_u64() & 0x00ff_ffff_ffff_fff0);
            if (0..=span).all(|k| !self.used.contains(&(g + k))) {
                self.used.extend((0..=span).map(|k| g + k));
                return g;
            }
        }
    }

    /// A switch of `ports` ports described `desc` (several switches may share it).
    pub fn switch(&mut self, ports: u32, desc: &str) -> NodeId {
        let g = self.guid(1);
        let n = self
            .f
            .add_node(NodeKind::Switch, ports, g, format!("S-{g:016x}"), desc)
            .unwrap();
        self.track(n, ports);
        n
    }

    /// A server with `hcas` single-port HCAs described `<name> mlx5_<k>`.
    pub fn server(&mut self, name: &str, hcas: u32) -> Vec<NodeId> {
        (0..hcas)
            .map(|k| {
                let g = self.guid(2);
                let n = self
                    .f
                    .add_node(NodeKind::Ca, 1, g, format!("H-{g:016x}"), format!("{name} mlx5_{k}"))
                    .unwrap();
                self.track(n, 1);
                n
            })
            .collect()
    }

    fn track(&mut self, n: NodeId, ports: u32) {
        assert_eq!(n as usize, self.free.len());
        let mut v: Vec<u8> = (1..=ports as u8).collect();
        self.rng.shuffle(&mut v);
        self.free.push(v);
    }

    /// Cable a random free port of `a` to a random free port of `b`.
    pub fn cable(&mut self, a: NodeId, b: NodeId) {
        let pa = self.free[a as usize].pop().expect("a free port");
        let pb = self.free[b as usize].pop().expect("a free port");
        self.f.connect(a, pa as u32, b, pb as u32).unwrap();
    }

    /// `k` cables between `a` and `b`.
    pub fn cables(&mut self, a: NodeId, b: NodeId, k: usize) {
        (0..k).for_each(|_| self.cable(a, b));
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.rng.below(n)
    }
}

/// A leaf with `hosts` single-HCA servers named `<prefix><i>`.
fn leaf_with(g: &mut Gen, hosts: u32, prefix: &str, next: &mut u32) -> NodeId {
    let leaf = g.switch(36, "MF0;switch-ib:MSB7700/U1");
    for _ in 0..hosts {
        *next += 1;
        let h = g.server(&format!("{prefix}{:04}", *next), 1)[0];
        g.cable(h, leaf);
    }
    leaf
}

/// A two-level cluster grown over years (issue 39's 89-host one): leaves of 24, 24, 21,
/// 9, 6 and 5 hosts cabled to 4 spines: one leaf to 2 spines by
/// 6 cables each, one by 1 cable to each spine, the others 3 to each; one switch without
/// hosts on 2 spines by 2 cables each.
pub fn grown_lab(seed: u64) -> Fabric {
    let mut g = Gen::new(seed);
    let spines: Vec<NodeId> = (0..4).map(|_| g.switch(36, "MF0;switch-ib:MSB7700/U1")).collect();
    let mut next = 0;
    for (i, hosts) in [24u32, 24, 21, 9, 6, 5].into_iter().enumerate() {
        let leaf = leaf_with(&mut g, hosts, "node", &mut next);
        match i {
            0 => (0..2).for_each(|s| g.cables(leaf, spines[s], 6)),
            5 => spines.iter().for_each(|&s| g.cable(leaf, s)),
            _ => spines.iter().for_each(|&s| g.cables(leaf, s, 3)),
        }
    }
    let empty = g.switch(36, "MF0;switch-ib:MSB7700/U1");
    (2..4).for_each(|s| g.cables(empty, spines[s], 2));
    g.f
}

/// Storage on a spine and a cable cut (issue 39's 145-host one): 6 leaves of 22 to 24
/// hosts, 2 spines, 4 cables per leaf-spine pair but one of 3, 3 storage hosts on spine 0.
pub fn storage_on_spine(seed: u64) -> Fabric {
    let mut g = Gen::new(seed);
    let spines: Vec<NodeId> = (0..2).map(|_| g.switch(36, "MF0;ib:SX6036/U1")).collect();
    let mut next = 0;
    for (i, hosts) in [24u32, 24, 24, 23, 22, 24].into_iter().enumerate() {
        let leaf = leaf_with(&mut g, hosts, "cn", &mut next);
        for (s, &spine) in spines.iter().enumerate() {
            g.cables(leaf, spine, if i == 2 && s == 1 { 3 } else { 4 });
        }
    }
    for k in 0..3 {
        let h = g.server(&format!("tank{k}"), 1)[0];
        g.cable(h, spines[0]);
    }
    g.f
}

/// Edge switches under director chassis (issue 39's 1,356-host one, scaled by `edges`):
/// `chassis` directors of `chips` leaf chips and 18 spine chips each (a leaf chip: 18
/// cables up, one to every spine chip of its chassis); every edge switch carries 5 to 18
/// hosts and 15 to 18 uplinks, in groups of 1 to 6 parallel cables to random leaf chips
/// with free ports, the groups dealt over the chassis in turn (as Janus's edges reach all
/// three directors; an edge on one chassis alone would reach the others' edges by no
/// up*/down* path).
pub fn under_directors(seed: u64, edges: usize, chassis: usize, chips: usize) -> Fabric {
    let mut g = Gen::new(seed);
    let mut leaf_chips: Vec<(NodeId, u32)> = Vec::new();
    for c in 0..chassis {
        let desc_s = format!("MF0;Director-{c}:IS5600/S/U1");
        let spines: Vec<NodeId> = (0..18).map(|_| g.switch(36, &desc_s)).collect();
        for _ in 0..chips {
            let chip = g.switch(36, &format!("MF0;Director-{c}:IS5600/L/U1"));
            spines.iter().for_each(|&s| g.cable(chip, s));
            leaf_chips.push((chip, 18));
        }
    }
    let mut next = 0;
    for _ in 0..edges {
        let hosts = 5 + g.below(14) as u32;
        let edge = leaf_with(&mut g, hosts, "node", &mut next);
        let mut up = 15 + g.below(4) as u32;
        let mut turn = g.below(chassis as u64) as usize;
        while up > 0 {
            let free = |i: usize| leaf_chips[i].1 > 0;
            let mine = |i: usize| i / chips == turn % chassis;
            let mut open: Vec<usize> = (0..leaf_chips.len()).filter(|&i| free(i) && mine(i)).collect();
            if open.is_empty() {
                open = (0..leaf_chips.len()).filter(|&i| free(i)).collect();
            }
            if open.is_empty() {
                break;
            }
            turn += 1;
            let i = open[g.below(open.len() as u64) as usize];
            let k = (1 + g.below(6) as u32).min(up).min(leaf_chips[i].1);
            g.cables(edge, leaf_chips[i].0, k as usize);
            leaf_chips[i].1 -= k;
            up -= k;
        }
    }
    g.f
}

/// A SuperPOD-shaped rail-optimised cluster of `sus` scalable units: per unit 8 leaves
/// of 64 ports (32 down, 32 up), 31 servers of 8 HCAs (HCA r on the unit's rail-r leaf, on
/// a random port) and one management host on the first leaf; spines of 64 ports with the
/// same number of cables to every leaf (4 units: 16 spines, 2 cables per pair; 1 unit: 4
/// spines, 8 per pair).
pub fn superpod(seed: u64, sus: usize) -> Fabric {
    let mut g = Gen::new(seed);
    let leaves_n = 8 * sus;
    let spines_n = 16.min(4 * sus.max(1));
    let per_pair = 32 / spines_n;
    let spines: Vec<NodeId> = (0..spines_n).map(|_| g.switch(64, "MF0;spine:MQM9700/U1")).collect();
    let leaves: Vec<NodeId> = (0..leaves_n).map(|_| g.switch(64, "MF0;leaf:MQM9700/U1")).collect();
    for su in 0..sus {
        for s in 0..31 {
            let hcas = g.server(&format!("dgx{:03}", su * 31 + s + 1), 8);
            for (r, &h) in hcas.iter().enumerate() {
                g.cable(h, leaves[su * 8 + r]);
            }
        }
        if su == 0 {
            let m = g.server("mgmt0", 1)[0];
            g.cable(m, leaves[0]);
        }
    }
    for &l in &leaves {
        spines.iter().for_each(|&s| g.cables(l, s, per_pair));
    }
    g.f
}

/// [`superpod`] cabled by the convention sites follow: server `s` of a unit on port `s + 1`
/// of each of its unit's leaves (the management host on port 32 of the first), uplinks
/// on ports 33..64; GUIDs random. Returns the fabric and, per unit, its 8 leaves.
pub fn superpod_by_convention(seed: u64, sus: usize) -> (Fabric, Vec<Vec<NodeId>>) {
    let mut g = Gen::new(seed);
    let spines_n = 16.min(4 * sus.max(1));
    let per_pair = 32 / spines_n;
    let spines: Vec<NodeId> = (0..spines_n).map(|_| g.switch(64, "MF0;spine:MQM9700/U1")).collect();
    let mut units = Vec::new();
    for su in 0..sus {
        let leaves: Vec<NodeId> = (0..8).map(|_| g.switch(64, "MF0;leaf:MQM9700/U1")).collect();
        for s in 0..31u32 {
            let hcas = g.server(&format!("dgx{:03}", su * 31 + s as usize + 1), 8);
            for (r, &h) in hcas.iter().enumerate() {
                g.f.connect(h, 1, leaves[r], s + 1).unwrap();
            }
        }
        if su == 0 {
            let m = g.server("mgmt0", 1)[0];
            g.f.connect(m, 1, leaves[0], 32).unwrap();
        }
        for &l in &leaves {
            let mut up = 33;
            for &s in &spines {
                for _ in 0..per_pair {
                    let ps = g.free[s as usize].pop().expect("a free spine port");
                    g.f.connect(l, up, s, ps as u32).unwrap();
                    up += 1;
                }
            }
        }
        units.push(leaves);
    }
    (g.f, units)
}

/// A large irregular three-level tree: `pods` pods of 18 leaves (36 ports: 10 to 18 hosts,
/// 18 up, a few cut) and 18 middle switches, each middle switch with 18 up-cables to the
/// `18` top switches of its plane; about 14 · 18 · pods hosts.
pub fn big_irregular(seed: u64, pods: usize) -> Fabric {
    let mut g = Gen::new(seed);
    let tops: Vec<Vec<NodeId>> = (0..18)
        .map(|_| {
            (0..pods.div_ceil(2).max(1))
                .map(|_| g.switch(36, "MF0;core:MQM8700/U1"))
                .collect()
        })
        .collect();
    let mut next = 0;
    for p in 0..pods {
        let mids: Vec<NodeId> = (0..18).map(|_| g.switch(36, "MF0;mid:MQM8700/U1")).collect();
        for (plane, &m) in mids.iter().enumerate() {
            // a middle switch reaches the tops of its plane, two cables to some
            let t = &tops[plane];
            for k in 0..18 {
                g.cable(m, t[(p + k) % t.len()]);
            }
        }
        for _ in 0..18 {
            let hosts = 10 + g.below(9) as u32;
            let leaf = leaf_with(&mut g, hosts, "n", &mut next);
            for &m in &mids {
                if g.below(40) != 0 {
                    g.cable(leaf, m);
                }
            }
        }
    }
    g.f
}
