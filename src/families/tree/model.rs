//! A fat-tree as it is found (`tree`): switches in levels by their distance from the
//! leaves, cables only between neighbouring levels, and whatever irregularities a site's
//! cluster grew — uneven hosts per leaf, empty leaves, uneven or missing up-cables, any
//! number of parallel cables, leaves cabled to part of the level above, switches of
//! several radices, director chassis whose chips appear as switches, hosts above the
//! leaves.
//!
//! The exact families describe a fabric by parameters and coordinates; a tree as found
//! has neither, so its layout is the levels themselves: which switch is on which level,
//! the compute hosts in rank order (leaf by leaf, port order within a leaf, counted
//! without gaps), and the hosts above the leaves (login, storage: routed, not ranked).
//! Recognition ([`crate::recognize()`]) decides the levels; the router
//! ([`crate::families::tree::route`]) works on the cables between them. `docs/tree.md` says
//! why the levels and the routes are what they are.

use crate::error::{Error, Result};
use crate::topology::fabric::{Endpoint, Fabric, NodeId, NodeKind};
use crate::topology::roles::Roles;

/// Most switch levels a tree as found may have (field trees have 2 to 4; director chassis
/// add up to two inside).
pub(crate) const MAX_LEVELS: usize = 8;

/// One way a tree differs from a regular fat-tree, at one switch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Irregularity {
    /// What kind: `uneven-hosts`, `empty-leaf`, `no-down-cables`, `hosts-above-leaves`,
    /// `uneven-up-cables`, `partial-parents`, `uneven-parallel-cables`, `radix`,
    /// `no-up-cables` or `unreachable-leaves` (stable names: they are `--json` values).
    pub kind: &'static str,
    /// The switch.
    pub switch: NodeId,
    /// What was found there against what its level mostly has.
    pub detail: String,
}

/// The structure of a tree as found.
#[derive(Clone, Debug)]
pub struct TreeLayout {
    /// Switches level by level, leaves first (leaves in rank order, the others by GUID).
    pub switches: Vec<NodeId>,
    /// Start of each level in `switches`: one entry per level and one past the end.
    pub offset: Vec<u32>,
    /// Level of every node: 1 for leaves up to [`TreeLayout::levels`]; 0 for hosts.
    pub level: Vec<u8>,
    /// Compute host ports in rank order: leaf by leaf, port order within a leaf.
    pub hosts: Vec<Endpoint>,
    /// Non-compute host ports: hosts above the leaves, and hosts the role options name.
    pub others: Vec<Endpoint>,
    /// Every irregularity, switch by switch, in level order.
    pub irregular: Vec<Irregularity>,
    /// What giving the hosts their roles accepted with a warning.
    pub role_warnings: Vec<String>,
}

impl TreeLayout {
    /// Number of switch levels.
    pub fn levels(&self) -> u32 {
        self.offset.len() as u32 - 1
    }

    /// The switches of level `l` (1 = leaves).
    pub fn at(&self, l: u32) -> &[NodeId] {
        &self.switches[self.offset[l as usize - 1] as usize..self.offset[l as usize] as usize]
    }

    /// The leaves, in rank order.
    pub(crate) fn leaves(&self) -> &[NodeId] {
        self.at(1)
    }

    /// Hosts attached to a switch above the leaves: routed the way to their switch.
    pub fn above_leaves(&self, fabric: &Fabric, ep: Endpoint) -> bool {
        fabric
            .peer(ep.node, ep.port)
            .is_some_and(|(sw, _)| self.level[sw as usize] > 1)
    }

    /// One line: levels with their switch counts, hosts, irregularity count.
    pub(crate) fn describe(&self) -> String {
        let per: Vec<String> = (1..=self.levels()).map(|l| self.at(l).len().to_string()).collect();
        let kinds = {
            let mut k: Vec<&str> = self.irregular.iter().map(|i| i.kind).collect();
            k.sort_unstable();
            k.dedup();
            k
        };
        format!(
            "fat-tree as found: {} levels ({} switches), {} compute hosts{}{}",
            self.levels(),
            per.join(" + "),
            self.hosts.len(),
            match self.others.len() {
                0 => String::new(),
                n => format!(", {n} non-compute"),
            },
            if kinds.is_empty() {
                ", regular".to_string()
            } else {
                format!(", irregular: {}", kinds.join(" "))
            }
        )
    }

    /// Give the hosts their roles: a non-compute leaf host leaves the rank order; a host
    /// above the leaves joins it only when the roles name it compute, with a warning (the
    /// levels say it is not; kept in `role_warnings`). Returns how many hosts are
    /// non-compute.
    pub fn apply_roles(&mut self, fabric: &Fabric, roles: &Roles) -> Result<usize> {
        let mut all: Vec<Endpoint> = self.hosts.iter().chain(&self.others).copied().collect();
        // leaf hosts first in leaf order, as recognition ranked them; hosts above after
        let leaf_rank: Vec<u32> = {
            let mut v = vec![u32::MAX; fabric.len()];
            for (i, &n) in self.leaves().iter().enumerate() {
                v[n as usize] = i as u32;
            }
            v
        };
        let key = |ep: &Endpoint| {
            let (sw, p) = fabric.peer(ep.node, ep.port).unwrap_or((ep.node, 0));
            (leaf_rank[sw as usize], self.level[sw as usize], sw, p)
        };
        all.sort_by_key(key);
        self.hosts.clear();
        self.others.clear();
        let mut warnings = Vec::new();
        for ep in all {
            let compute = roles.is_compute(fabric, ep);
            if compute && self.above_leaves(fabric, ep) {
                let sw = fabric.peer(ep.node, ep.port).map_or(ep.node, |(s, _)| s);
                warnings.push(format!(
                    "{} is compute by the role options but sits on \"{}\" (level {}), above the leaves: ranked, routed through that switch",
                    fabric.node(ep.node).desc,
                    fabric.node(sw).desc,
                    self.level[sw as usize]
                ));
            }
            if compute {
                self.hosts.push(ep);
            } else {
                self.others.push(ep);
            }
        }
        if self.hosts.is_empty() {
            return Err(Error::input(
                "host roles",
                "no compute host is left: every host is non-compute",
                Some("the compute list or the patterns name the wrong hosts".into()),
            ));
        }
        self.role_warnings = warnings;
        Ok(self.others.len())
    }
}

/// A switch's cables to the levels beside its own, in port order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Cables {
    /// (own port, parent, parent's port) of every cable to the level above.
    pub up: Vec<(u8, NodeId, u8)>,
    /// (own port, child, child's port) of every cable to the level below.
    pub down: Vec<(u8, NodeId, u8)>,
}

/// The up and down cables of switch `n` of `layout`.
pub(crate) fn cables(fabric: &Fabric, layout: &TreeLayout, n: NodeId) -> Cables {
    let me = layout.level[n as usize];
    let mut c = Cables::default();
    for p in 1..=fabric.node(n).nports {
        let Some((peer, pp)) = fabric.peer(n, p) else { continue };
        if fabric.node(peer).kind != NodeKind::Switch {
            continue;
        }
        let them = layout.level[peer as usize];
        if them == me + 1 {
            c.up.push((p, peer, pp));
        } else if them + 1 == me {
            c.down.push((p, peer, pp));
        }
    }
    c
}

/// Which leaves each switch reaches, as bitsets over the leaves: going down only
/// (`down`), and by up*/down* (`reach`: down, or up to a parent that reaches it). What
/// recognition asks (does every leaf reach every other?) and what the router chooses by.
#[derive(Clone, Debug)]
pub(crate) struct LeafReach {
    words: usize,
    /// Leaves reachable going down only, `words` per switch.
    pub down: Vec<u64>,
    /// Leaves reachable by up*/down*, `words` per switch.
    pub reach: Vec<u64>,
    /// Leaves reachable by going down first and then up*/down* (management only).
    pub any: Vec<u64>,
}

impl LeafReach {
    /// For switches `0..n` with `level[s]` (1 = leaf; 0 = left out), neighbours
    /// `nbrs(s)` (one entry per cable) and `leaf[s]` the leaf index of a leaf (`u32::MAX`
    /// otherwise).
    pub(crate) fn new<'a>(level: &[u32], nbrs: impl Fn(usize) -> &'a [u32], leaf: &[u32], leaves: usize) -> LeafReach {
        let n = level.len();
        let words = leaves.div_ceil(64).max(1);
        let mut order: Vec<usize> = (0..n).filter(|&s| level[s] > 0).collect();
        order.sort_by_key(|&s| level[s]);
        let mut down = vec![0u64; n * words];
        for &s in &order {
            if leaf[s] != u32::MAX {
                down[s * words + leaf[s] as usize / 64] |= 1 << (leaf[s] % 64);
            }
            for &c in nbrs(s) {
                let c = c as usize;
                if level[c] > 0 && level[c] + 1 == level[s] {
                    or_row(&mut down, words, s, c);
                }
            }
        }
        let mut reach = down.clone();
        for &s in order.iter().rev() {
            for &p in nbrs(s) {
                let p = p as usize;
                if level[p] == level[s] + 1 {
                    or_row(&mut reach, words, s, p);
                }
            }
        }
        let mut any = reach.clone();
        for &s in &order {
            for &c in nbrs(s) {
                let c = c as usize;
                if level[c] > 0 && level[c] + 1 == level[s] {
                    or_row(&mut any, words, s, c);
                }
            }
        }
        LeafReach {
            words,
            down,
            reach,
            any,
        }
    }

    /// Whether switch `s` reaches leaf `leaf` going down first, then by up*/down*.
    #[inline]
    pub(crate) fn any(&self, s: usize, leaf: u32) -> bool {
        self.any[s * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }

    /// Whether switch `s` reaches leaf `leaf` going down only.
    #[inline]
    pub(crate) fn down(&self, s: usize, leaf: u32) -> bool {
        self.down[s * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }

    /// Whether switch `s` reaches leaf `leaf` by up*/down*.
    #[inline]
    pub(crate) fn reaches(&self, s: usize, leaf: u32) -> bool {
        self.reach[s * self.words + leaf as usize / 64] >> (leaf % 64) & 1 == 1
    }

    /// How many of the `leaves` switch `s` reaches by up*/down*.
    pub(crate) fn reach_count(&self, s: usize) -> u32 {
        self.reach[s * self.words..(s + 1) * self.words]
            .iter()
            .map(|w| w.count_ones())
            .sum()
    }
}

/// `bits[to] |= bits[from]`, rows of `words`.
pub(crate) fn or_row(bits: &mut [u64], words: usize, to: usize, from: usize) {
    if to == from {
        return;
    }
    let (a, b) = if to < from {
        let (lo, hi) = bits.split_at_mut(from * words);
        (&mut lo[to * words..(to + 1) * words], &hi[..words])
    } else {
        let (lo, hi) = bits.split_at_mut(to * words);
        (&mut hi[..words], &lo[from * words..(from + 1) * words])
    };
    a.iter_mut().zip(b).for_each(|(x, y)| *x |= y);
}
