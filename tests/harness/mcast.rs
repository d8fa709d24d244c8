//! Multicast in the lab: hosts join a group through the SA with the small C tool
//! `mcjoin.c` (one process per simulated host, under ibsim's umad shim), the multicast
//! forwarding tables are read back from the switches with `ibroute -M`, and plain checks
//! decide whether the port masks of one MLID form a tree that delivers to every member.
//!
//! Facts this encodes (ibsim 0.10, OpenSM 3.3.23, infiniband-diags 44):
//! * ibsim and its shim keep the upper 32 bits of a request's TID for themselves (client
//!   and agent), so a requester matches its answer on the lower 32 bits only;
//! * the shim does not reassemble RMPP, so an SA table of more than 3 MCMemberRecords
//!   comes back cut short: membership is read from OpenSM's log (log flag 0x04) instead;
//! * `ibroute -M <lid>` prints a port header (`Ports: 0 1 2 ...`, one digit a port) and one
//!   row a valid MLID with `x` under every port in the mask.

use super::{tail, OpenSm, Sim};
use ibfat::topology::{Fabric, NodeId, NodeKind};
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The group the tests join: IPoIB's IPv6 all-nodes group on the default partition.
pub const MGID: &str = "ff12:601b:ffff::1";

/// Compile `mcjoin.c` with gcc against libibumad into `dir`; the program's path.
pub fn build_mcjoin(dir: &Path) -> PathBuf {
    let src = dir.join("mcjoin.c");
    std::fs::write(&src, include_str!("mcjoin.c")).unwrap();
    let bin = dir.join("mcjoin");
    let out = std::process::Command::new("gcc")
        .args(["-O1", "-Wall", "-Werror", "-o"])
        .arg(&bin)
        .arg(&src)
        .arg("-libumad")
        .output()
        .expect("run gcc (the lab needs gcc and libibumad-dev)");
    assert!(
        out.status.success(),
        "gcc mcjoin.c failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

/// Join ibsim node `host` (its port 1) to `mgid` as a full member, by running `mcjoin` as
/// that host; the MLID the SA answered with. A join the SA left unanswered (it is busy
/// while OpenSM sweeps) is sent again, as IPoIB would, a few times.
pub fn join(sim: &Sim, mcjoin: &Path, host: &str, mgid: &str) -> u16 {
    let prog = mcjoin.to_str().expect("a UTF-8 path");
    let mut last = String::new();
    for _ in 0..4 {
        // mcjoin gives up on its own after 20 s: it is never killed (ibsim would lose a slot)
        let out = sim.try_tool_on(Some(host), prog, &[mgid], Duration::from_secs(120));
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if out.status.success() {
            let mlid = stdout
                .split_whitespace()
                .skip_while(|w| *w != "mlid")
                .nth(1)
                .and_then(|h| u16::from_str_radix(h.trim_start_matches("0x"), 16).ok())
                .unwrap_or_else(|| panic!("mcjoin on {host}: no MLID in {stdout:?}"));
            assert!(mlid >= 0xc000, "mcjoin on {host}: {mlid:#x} is not a multicast LID");
            return mlid;
        }
        last = format!("{}{stdout}{stderr}", out.status);
        assert!(stderr.contains("no answer"), "mcjoin on {host} was refused: {last}");
        std::thread::sleep(Duration::from_secs(2));
    }
    panic!("mcjoin on {host}: no answer from the SA: {last}")
}

/// Require that OpenSM's log (run with log flag 0x04) shows every port GUID in `guids`
/// joining `mgid` with `mlid`: the members are in OpenSM's multicast manager.
pub fn assert_members_logged(osm: &OpenSm, mgid: &str, mlid: u16, guids: &[u64]) {
    let log = osm.log();
    for g in guids {
        let line = format!("Port 0x{g:016x} joining MC group {mgid} (mlid {mlid:#x})");
        assert!(log.contains(&line), "OpenSM never logged {line:?}:\n{}", tail(&log, 30));
    }
}

/// `ibroute -M` output: MLID → the ports in its mask.
pub fn parse_ibroute_mft(text: &str) -> BTreeMap<u16, BTreeSet<u8>> {
    let mut columns: Vec<usize> = Vec::new();
    let mut out = BTreeMap::new();
    for line in text.lines() {
        if let Some(at) = line.find("Ports:") {
            // port p is the p-th digit after "Ports:"; its column is where an 'x' goes
            columns = line
                .char_indices()
                .filter(|&(i, c)| i > at + 5 && c.is_ascii_digit())
                .map(|(i, _)| i)
                .collect();
        } else if let Some(hex) = line.strip_prefix("0x") {
            let mlid = u16::from_str_radix(hex.split_whitespace().next().unwrap_or(""), 16)
                .unwrap_or_else(|e| panic!("ibroute -M row {line:?}: {e}"));
            assert!(
                !columns.is_empty(),
                "ibroute -M: a row before the port header: {line:?}"
            );
            let bytes = line.as_bytes();
            let ports = columns
                .iter()
                .enumerate()
                .filter(|&(_, &c)| bytes.get(c) == Some(&b'x'))
                .map(|(p, _)| p as u8)
                .collect();
            out.insert(mlid, ports);
        }
    }
    out
}

/// The mask of `mlid` on every switch of `fabric` (empty sets left out), read with
/// `ibroute -M <switch LID>`.
pub fn read_masks(sim: &Sim, fabric: &Fabric, lids: &ibfat::routing::Lids, mlid: u16) -> Masks {
    let mut masks = Masks::new();
    for sw in fabric.switches() {
        let lid = lids.lid(fabric, sw, 0).to_string();
        let text = sim.tool("ibroute", &["-M", &lid]);
        if let Some(ports) = parse_ibroute_mft(&text).remove(&mlid) {
            if !ports.is_empty() {
                masks.insert(sw, ports);
            }
        }
    }
    masks
}

/// [`read_masks`] until two reads a second apart agree: OpenSM programs the tables of a
/// new member at idle time, after its answer to the join.
pub fn read_settled_masks(sim: &Sim, fabric: &Fabric, lids: &ibfat::routing::Lids, mlid: u16) -> Masks {
    let mut last = read_masks(sim, fabric, lids, mlid);
    for _ in 0..30 {
        std::thread::sleep(Duration::from_secs(1));
        let now = read_masks(sim, fabric, lids, mlid);
        if now == last {
            return now;
        }
        last = now;
    }
    panic!("the MFTs of MLID {mlid:#x} kept changing for 30 s")
}

/// Switch → ports of its MFT entry for one MLID.
pub type Masks = BTreeMap<NodeId, BTreeSet<u8>>;

/// The masks as a reader checks them by hand: per switch, each masked port and what is
/// at its far end.
pub fn describe_masks(f: &Fabric, masks: &Masks) -> String {
    let mut out = String::new();
    for (&s, ports) in masks {
        let ends: Vec<String> = ports
            .iter()
            .map(|&p| match f.peer(s, p) {
                Some((t, q)) => format!("{p}->{}[{q}]", name(f, t)),
                None => format!("{p}->(none)"),
            })
            .collect();
        out.push_str(&format!("  {}: {}\n", name(f, s), ends.join(" ")));
    }
    out
}

/// The size of a multicast tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TreeSize {
    /// Switches whose mask has a port.
    pub switches: usize,
    /// Switch-to-switch cables forwarding (both ends in their masks).
    pub cables: usize,
}

fn name(f: &Fabric, n: NodeId) -> String {
    let node = f.node(n);
    if node.desc.is_empty() {
        node.name.clone()
    } else {
        node.desc.clone()
    }
}

fn is_switch(f: &Fabric, n: NodeId) -> bool {
    f.node(n).kind == NodeKind::Switch
}

fn in_mask(masks: &Masks, sw: NodeId, port: u8) -> bool {
    masks.get(&sw).is_some_and(|m| m.contains(&port))
}

/// The switch-to-switch cables the tree forwards on, (switch, port, switch, port) with
/// the lower end first: both ends have the cable's port in their masks.
pub fn tree_cables(f: &Fabric, masks: &Masks) -> Vec<(NodeId, u8, NodeId, u8)> {
    let mut v = Vec::new();
    for (&s, ports) in masks {
        for &p in ports {
            if let Some((t, q)) = f.peer(s, p) {
                if is_switch(f, t) && (s, p) < (t, q) && in_mask(masks, t, q) {
                    v.push((s, p, t, q));
                }
            }
        }
    }
    v
}

/// Every masked port leads somewhere it may: to a member host, or over a cable to a
/// switch whose mask holds the other end too. A cable enabled on one end only, a
/// non-member host in a mask, an uncabled port or port 0 (no switch is a member) is a
/// defect, named.
pub fn one_sided_ports(f: &Fabric, masks: &Masks, members: &BTreeSet<(NodeId, u8)>) -> Vec<String> {
    let mut defects = Vec::new();
    for (&s, ports) in masks {
        for &p in ports {
            let at = format!("switch {} port {p}", name(f, s));
            match f.peer(s, p) {
                _ if p == 0 => defects.push(format!("{at}: port 0 in the mask, but the switch is no member")),
                None => defects.push(format!("{at}: forwards on an uncabled port")),
                Some((t, q)) if is_switch(f, t) && !in_mask(masks, t, q) => defects.push(format!(
                    "{at}: forwards to switch {} port {q}, which does not forward back (cable enabled on one end only)",
                    name(f, t)
                )),
                Some((t, q)) if !is_switch(f, t) && !members.contains(&(t, q)) => {
                    defects.push(format!("{at}: forwards to non-member host {}", name(f, t)))
                }
                _ => {}
            }
        }
    }
    defects
}

/// The forwarding cables form no loop: every cable joins two parts not yet joined.
/// Parallel cables between two switches that both forward are a loop too.
pub fn loops(f: &Fabric, cables: &[(NodeId, u8, NodeId, u8)]) -> Vec<String> {
    let mut part: BTreeMap<NodeId, NodeId> = BTreeMap::new();
    fn root(part: &mut BTreeMap<NodeId, NodeId>, n: NodeId) -> NodeId {
        let up = *part.entry(n).or_insert(n);
        if up == n {
            return n;
        }
        let r = root(part, up);
        part.insert(n, r);
        r
    }
    let mut defects = Vec::new();
    for &(s, p, t, q) in cables {
        let (a, b) = (root(&mut part, s), root(&mut part, t));
        if a == b {
            defects.push(format!(
                "cable {}[{p}] - {}[{q}] closes a loop of forwarding cables",
                name(f, s),
                name(f, t)
            ));
        } else {
            part.insert(a, b);
        }
    }
    defects
}

/// The switches with a masked port form one connected tree, which holds every member's
/// switch, and no branch of it leads nowhere: stripping switches that have one
/// forwarding cable or none and no member host strips nothing. (The root a manager picks
/// may be no member's switch; it has two branches at least.)
pub fn outside_the_tree(f: &Fabric, masks: &Masks, members: &BTreeSet<(NodeId, u8)>) -> Vec<String> {
    let cables = tree_cables(f, masks);
    let mut defects = Vec::new();
    let mut adj: BTreeMap<NodeId, Vec<NodeId>> = masks.keys().map(|&s| (s, Vec::new())).collect();
    for &(s, _, t, _) in &cables {
        adj.get_mut(&s).unwrap().push(t);
        adj.get_mut(&t).unwrap().push(s);
    }
    for &(h, hp) in members {
        let (sw, p) = f.peer(h, hp).expect("a member is cabled");
        if !in_mask(masks, sw, p) {
            defects.push(format!(
                "member {}: its switch {} port {p} is not in the mask",
                name(f, h),
                name(f, sw)
            ));
        }
    }
    // one component
    if let Some(&start) = adj.keys().next() {
        let mut seen = BTreeSet::from([start]);
        let mut todo = vec![start];
        while let Some(s) = todo.pop() {
            for &t in &adj[&s] {
                if seen.insert(t) {
                    todo.push(t);
                }
            }
        }
        for s in adj.keys().filter(|s| !seen.contains(s)) {
            defects.push(format!(
                "switch {} forwards the MLID but is cut off from the tree of {}",
                name(f, *s),
                name(f, start)
            ));
        }
    }
    // strip branches that lead to no member
    let has_member = |s: NodeId| {
        masks[&s]
            .iter()
            .any(|&p| f.peer(s, p).is_some_and(|(t, _)| !is_switch(f, t)))
    };
    let mut degree: BTreeMap<NodeId, usize> = adj.iter().map(|(&s, v)| (s, v.len())).collect();
    let mut strip: Vec<NodeId> = degree
        .iter()
        .filter(|&(&s, &d)| d <= 1 && !has_member(s))
        .map(|(&s, _)| s)
        .collect();
    let mut stripped = BTreeSet::new();
    while let Some(s) = strip.pop() {
        if !stripped.insert(s) {
            continue;
        }
        defects.push(format!(
            "switch {} forwards the MLID on {:?} but leads to no member (a branch outside the tree)",
            name(f, s),
            masks[&s]
        ));
        for &t in &adj[&s] {
            let d = degree.get_mut(&t).unwrap();
            *d -= 1;
            if *d <= 1 && !has_member(t) && !stripped.contains(&t) {
                strip.push(t);
            }
        }
    }
    defects
}

/// Flood a packet from every member as switches do (in at a port, out on every other
/// port of the mask) and require that it reaches every other member exactly once.
pub fn flood_from_every_member(f: &Fabric, masks: &Masks, members: &BTreeSet<(NodeId, u8)>) -> Vec<String> {
    let mut defects = Vec::new();
    for &(h, hp) in members {
        let mut got: BTreeMap<(NodeId, u8), usize> = BTreeMap::new();
        let mut entered: BTreeMap<NodeId, usize> = BTreeMap::new();
        let mut todo = VecDeque::from([f.peer(h, hp).expect("a member is cabled")]);
        while let Some((s, inp)) = todo.pop_front() {
            let n = entered.entry(s).or_default();
            *n += 1;
            if *n > 1 {
                continue; // a second copy: counted, not forwarded again (a loop would not end)
            }
            for &p in masks.get(&s).into_iter().flatten().filter(|&&p| p != inp) {
                match f.peer(s, p) {
                    Some((t, q)) if is_switch(f, t) => todo.push_back((t, q)),
                    Some((t, q)) => *got.entry((t, q)).or_default() += 1,
                    None => {}
                }
            }
        }
        let missed: Vec<String> = members
            .iter()
            .filter(|&&m| m != (h, hp) && !got.contains_key(&m))
            .map(|&(m, _)| name(f, m))
            .collect();
        if !missed.is_empty() {
            defects.push(format!("from member {}: members not reached: {missed:?}", name(f, h)));
        }
        let twice: Vec<String> = entered
            .iter()
            .filter(|&(_, &n)| n > 1)
            .map(|(&s, n)| format!("{} ({n} copies)", name(f, s)))
            .collect();
        if !twice.is_empty() {
            defects.push(format!(
                "from member {}: switches entered more than once: {twice:?}",
                name(f, h)
            ));
        }
        if got.contains_key(&(h, hp)) {
            defects.push(format!("from member {}: its packet came back to it", name(f, h)));
        }
        let dup: Vec<String> = got
            .iter()
            .filter(|&(_, &n)| n > 1)
            .map(|(&(m, _), n)| format!("{} ({n} copies)", name(f, m)))
            .collect();
        if !dup.is_empty() {
            defects.push(format!(
                "from member {}: members reached more than once: {dup:?}",
                name(f, h)
            ));
        }
    }
    defects
}

/// All the checks of one MLID's masks: the tree's size, or every defect found.
pub fn check_tree(f: &Fabric, masks: &Masks, members: &BTreeSet<(NodeId, u8)>) -> Result<TreeSize, Vec<String>> {
    let cables = tree_cables(f, masks);
    let mut defects = flood_from_every_member(f, masks, members);
    defects.extend(loops(f, &cables));
    defects.extend(one_sided_ports(f, masks, members));
    defects.extend(outside_the_tree(f, masks, members));
    if defects.is_empty() {
        Ok(TreeSize {
            switches: masks.len(),
            cables: cables.len(),
        })
    } else {
        Err(defects)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two leaves (L0, L1; hosts on ports 1-2) under one spine S by two parallel cables
    /// each (leaf ports 3-4 to spine ports 1-2 and 3-4).
    fn fabric() -> Fabric {
        let mut f = Fabric::new();
        let s = f.add_node(NodeKind::Switch, 4, 0x100, "S", "S").unwrap();
        for l in 0..2u32 {
            let leaf = f
                .add_node(NodeKind::Switch, 4, 0x200 + l as u64, format!("L{l}"), format!("L{l}"))
                .unwrap();
            for h in 0..2u32 {
                let host = f
                    .add_node(
                        NodeKind::Ca,
                        1,
                        0x300 + 4 * (2 * l + h) as u64,
                        format!("H{l}_{h}"),
                        format!("H{l}_{h}"),
                    )
                    .unwrap();
                f.connect(leaf, h + 1, host, 1).unwrap();
            }
            f.connect(leaf, 3, s, 2 * l + 1).unwrap();
            f.connect(leaf, 4, s, 2 * l + 2).unwrap();
        }
        f
    }

    fn ids(f: &Fabric) -> (NodeId, NodeId, NodeId, BTreeSet<(NodeId, u8)>) {
        let find = |n: &str| (0..f.len() as NodeId).find(|&i| f.node(i).name == n).unwrap();
        let members = BTreeSet::from([(find("H0_0"), 1), (find("H1_1"), 1)]);
        (find("S"), find("L0"), find("L1"), members)
    }

    #[test]
    fn a_tree_passes_and_its_size_is_counted() {
        let f = fabric();
        let (s, l0, l1, members) = ids(&f);
        let masks = Masks::from([
            (s, BTreeSet::from([1, 3])),
            (l0, BTreeSet::from([1, 3])),
            (l1, BTreeSet::from([2, 3])),
        ]);
        assert_eq!(
            check_tree(&f, &masks, &members),
            Ok(TreeSize { switches: 3, cables: 2 })
        );
    }

    #[test]
    fn defects_are_named() {
        let f = fabric();
        let (s, l0, l1, members) = ids(&f);
        let has = |masks: &Masks, what: &str| {
            let d = check_tree(&f, masks, &members).unwrap_err();
            assert!(d.iter().any(|x| x.contains(what)), "{what:?} not in {d:?}");
        };
        // both parallel cables to L0: a loop, and a second copy
        let looped = Masks::from([
            (s, BTreeSet::from([1, 2, 3])),
            (l0, BTreeSet::from([1, 3, 4])),
            (l1, BTreeSet::from([2, 3])),
        ]);
        has(&looped, "closes a loop");
        has(&looped, "entered more than once");
        // the spine does not forward back to L1: one-sided, and H1_1 unreached from H0_0
        let one_sided = Masks::from([
            (s, BTreeSet::from([1])),
            (l0, BTreeSet::from([1, 3])),
            (l1, BTreeSet::from([2, 3])),
        ]);
        has(&one_sided, "does not forward back");
        has(&one_sided, "members not reached");
        // a non-member host in a mask
        let extra = Masks::from([
            (s, BTreeSet::from([1, 3])),
            (l0, BTreeSet::from([1, 2, 3])),
            (l1, BTreeSet::from([2, 3])),
        ]);
        has(&extra, "non-member host H0_1");
    }
}
