//! Slurm's view of a fabric: `topology.conf` for the `topology/tree` plugin, so that the
//! scheduler places jobs under few switches. Sites write these by hand from
//! `ibnetdiscover` output; ibfat writes it from the recognised (or levelled) fabric.
//!
//! One line per switch: a switch with hosts lists them (`SwitchName=L3 Nodes=node[01-12]`),
//! a switch above lists the switches of the level below cabled to it
//! (`SwitchName=S0 Switches=L[0-12]`). Levels are the family's (or, for an unrecognised
//! fabric, distance from the hosts, as in the pictures). Host names are the first word of
//! the HCA's NodeDescription, the name Slurm knows the node by (`node042 mlx5_0` →
//! `node042`; a `--node-name-map` name wins); a host with two ports on the fabric is one
//! node. Lists are compressed the way Slurm writes host lists (`node[1-4,7]`). Of a
//! recognised fabric only the ranks are listed: non-compute hosts (host roles) and hosts
//! beside the tree (a management server on a spine) are not Slurm's compute nodes.

use super::picture::Scene;
use crate::error::{Error, Result};
use crate::families::railopt::model::{host_words, RailFabric, NONE};
use crate::topology::{Fabric, Layout, NodeId, NodeKind};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The Slurm name of a node: a host's first word of its description (its name when the
/// description is empty), a switch's ibfat name; characters Slurm's parser treats
/// specially (`,` `=` `[` `]` `#` blanks) make it an input error.
fn slurm_name(fabric: &Fabric, n: NodeId) -> Result<String> {
    let node = fabric.node(n);
    let name = match node.kind {
        NodeKind::Switch => std::borrow::Cow::Borrowed(node.name.as_str()),
        _ => host_words(fabric, n).0,
    };
    checked_name(&name, node.guid)
}

/// `name` when Slurm's parser can read it (see [`slurm_name`]); `guid` is for the message.
fn checked_name(name: &str, guid: u64) -> Result<String> {
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || ",=[]#\"'".contains(c)) {
        return Err(Error::input(
            "name",
            format!("node 0x{guid:016x} would be named \"{name}\" in topology.conf, which Slurm cannot parse"),
            Some("give it a plain name with --node-name-map".into()),
        ));
    }
    Ok(name.to_string())
}

/// Compress names into a Slurm host list: names that differ only in a trailing number of
/// the same width (or without leading zeros) share one bracket, `node[1-3,7]`; groups in
/// order of first appearance, numbers ascending.
pub(crate) fn hostlist(names: &[String]) -> String {
    // (prefix, digits width when zero-padded else 0) -> numbers
    let mut groups: Vec<((String, usize), Vec<u64>)> = Vec::new();
    let mut plain: Vec<(usize, String)> = Vec::new();
    let split = |name: &str| -> (usize, bool) {
        let digits = name.bytes().rev().take_while(u8::is_ascii_digit).count();
        (digits, digits > 1 && name.as_bytes()[name.len() - digits] == b'0')
    };
    // zero-padded widths per prefix: `dgx100` joins `dgx094` in `dgx[094-100]`
    let padded: std::collections::HashSet<(&str, usize)> = names
        .iter()
        .filter_map(|n| match split(n) {
            (d @ 1..=18, true) => Some((&n[..n.len() - d], d)),
            _ => None,
        })
        .collect();
    for (i, name) in names.iter().enumerate() {
        let (digits, zero) = split(name);
        let (prefix, num) = name.split_at(name.len() - digits);
        match (digits, num.parse::<u64>()) {
            (1..=18, Ok(v)) => {
                let width = if zero || padded.contains(&(prefix, digits)) {
                    num.len()
                } else {
                    0
                };
                let key = (prefix.to_string(), width);
                match groups.iter_mut().find(|g| g.0 == key) {
                    Some(g) => g.1.push(v),
                    None => groups.push((key, vec![v])),
                }
            }
            _ => plain.push((i, name.clone())),
        }
    }
    let mut parts: Vec<String> = plain.into_iter().map(|p| p.1).collect();
    for ((prefix, width), mut nums) in groups {
        nums.sort_unstable();
        nums.dedup();
        let fmt = |v: u64| format!("{v:0width$}");
        if nums.len() == 1 {
            parts.push(format!("{prefix}{}", fmt(nums[0])));
            continue;
        }
        let mut ranges = Vec::new();
        let mut start = nums[0];
        let mut prev = nums[0];
        for &v in &nums[1..] {
            if v != prev + 1 {
                ranges.push((start, prev));
                start = v;
            }
            prev = v;
        }
        ranges.push((start, prev));
        let inner: Vec<String> = ranges
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    fmt(a)
                } else {
                    format!("{}-{}", fmt(a), fmt(b))
                }
            })
            .collect();
        parts.push(format!("{prefix}[{}]", inner.join(",")));
    }
    parts.join(",")
}

/// Most names a host list may expand to: more hosts than one subnet holds is a typo.
pub(crate) const MAX_HOSTLIST: u64 = 1 << 17;

/// Expand a Slurm host list (`dgx[001-031,040],login1`) into names, in the order
/// written; a range keeps the width of its lower bound (`[098-101]` gives `dgx098` …
/// `dgx101`). One bracket per name (Slurm's multi-dimensional lists are not fabric names);
/// the error says what is wrong with which part.
pub(crate) fn expand_hostlist(list: &str) -> std::result::Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut start = 0;
    let mut parts = Vec::new();
    for (i, c) in list.char_indices() {
        match c {
            '[' => depth += 1,
            ']' if depth == 0 => return Err(format!("`]` without `[` in `{list}`")),
            ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&list[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(format!("`[` without `]` in `{list}`"));
    }
    parts.push(&list[start..]);
    for part in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
        let Some((prefix, rest)) = part.split_once('[') else {
            out.push(part.to_string());
            continue;
        };
        let (inner, suffix) = rest.split_once(']').unwrap_or((rest, ""));
        if suffix.contains('[') {
            return Err(format!("`{part}` has two brackets; write one range per name"));
        }
        for item in inner.split(',').map(str::trim) {
            let (a, b) = item.split_once('-').unwrap_or((item, item));
            let num = |t: &str| {
                t.parse::<u64>()
                    .ok()
                    .filter(|_| t.bytes().all(|c| c.is_ascii_digit()))
                    .ok_or_else(|| format!("`{item}` in `{part}` is not a number or a range a-b"))
            };
            let (lo, hi) = (num(a)?, num(b)?);
            if lo > hi {
                return Err(format!(
                    "the range `{item}` in `{part}` is empty; write the lower number first"
                ));
            }
            if hi - lo >= MAX_HOSTLIST || out.len() as u64 + (hi - lo) >= MAX_HOSTLIST {
                return Err(format!("`{list}` names more than {MAX_HOSTLIST} hosts"));
            }
            let width = a.len();
            out.extend((lo..=hi).map(|v| format!("{prefix}{v:0width$}{suffix}")));
        }
    }
    if out.is_empty() {
        return Err("the host list names no host".into());
    }
    Ok(out)
}

/// Which Slurm topology plugin a `topology.conf` is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlurmForm {
    /// `topology/tree`: switches and what hangs below them.
    Tree,
    /// `topology/block` (Slurm 23.11 and later): blocks of nodes, here one per scalable
    /// unit of a rail-optimised fabric.
    Block,
}

/// `topology.conf` of a rail-optimised fabric: one Slurm node per server. Slurm's tree
/// wants every node below one leaf switch, but a server is below all of its unit's
/// leaves, so each unit is one virtual switch (`SwitchName=su1 Nodes=dgx[001-031]`)
/// with the switches above listing the units they reach; the block form is one block per
/// unit. Hosts outside the servers (management) are not Slurm's compute nodes.
pub fn rail_topology_conf(fabric: &Fabric, rf: &RailFabric, form: SlurmForm, title: &str) -> Result<String> {
    let mut out = String::new();
    let plugin = match form {
        SlurmForm::Tree => "topology/tree",
        SlurmForm::Block => "topology/block",
    };
    let _ = writeln!(out, "# Slurm topology.conf (TopologyPlugin={plugin}) for {title}");
    let _ = writeln!(
        out,
        "# written by ibfat {}; rail-optimised: {} servers x {} rails, one {} per scalable unit",
        env!("CARGO_PKG_VERSION"),
        rf.servers.len(),
        rf.rails_n(),
        if form == SlurmForm::Tree { "switch" } else { "block" }
    );
    let key = if form == SlurmForm::Tree {
        "SwitchName"
    } else {
        "BlockName"
    };
    for (u, unit) in rf.units.iter().enumerate() {
        let names: Vec<String> = unit
            .servers
            .iter()
            .map(|&s| {
                let s = &rf.servers[s as usize];
                checked_name(&s.name, fabric.node(s.hcas[0].endpoint.node).guid)
            })
            .collect::<Result<_>>()?;
        let _ = writeln!(out, "{key}=su{} Nodes={}", u + 1, hostlist(&names));
    }
    if form == SlurmForm::Block {
        return Ok(out);
    }
    // the switches above the units, level by level: what each reaches one level down
    let mut level = vec![0u32; fabric.len()];
    let mut below: Vec<NodeId> = Vec::new();
    for &l in rf.units.iter().flat_map(|u| &u.leaves) {
        level[l as usize] = 1;
        below.push(l);
    }
    let mut lv = 1;
    while !below.is_empty() {
        let mut above: BTreeMap<NodeId, Vec<String>> = BTreeMap::new();
        for &b in &below {
            for p in 1..=fabric.node(b).nports {
                let Some((up, _)) = fabric.peer(b, p) else { continue };
                if fabric.node(up).kind != NodeKind::Switch || (level[up as usize] != 0 && level[up as usize] != lv + 1)
                {
                    continue;
                }
                level[up as usize] = lv + 1;
                let child = match rf.leaf_unit[b as usize] {
                    u if lv == 1 && u != NONE => format!("su{}", u + 1),
                    _ => slurm_name(fabric, b)?,
                };
                let list = above.entry(up).or_default();
                if !list.contains(&child) {
                    list.push(child);
                }
            }
        }
        for (sw, children) in &above {
            let _ = writeln!(
                out,
                "SwitchName={} Switches={}",
                slurm_name(fabric, *sw)?,
                hostlist(children)
            );
        }
        below = above.into_keys().collect();
        lv += 1;
    }
    Ok(out)
}

/// `topology.conf` for Slurm's tree plugin (see the module documentation).
pub fn topology_conf(fabric: &Fabric, layout: Option<&Layout>, title: &str) -> Result<String> {
    let scene = Scene::new(fabric, layout);
    let mut out = String::new();
    let _ = writeln!(out, "# Slurm topology.conf (TopologyPlugin=topology/tree) for {title}");
    let _ = writeln!(
        out,
        "# written by ibfat {}; one line per switch, leaves first",
        env!("CARGO_PKG_VERSION")
    );
    let mut seen_hosts: BTreeMap<String, NodeId> = BTreeMap::new();
    // with a family, only its ranks are Slurm's nodes: non-compute hosts (host roles) and
    // hosts beside the tree (a management server on a spine) are not
    let ranked: Option<std::collections::HashSet<NodeId>> = layout.map(|l| l.hosts().iter().map(|e| e.node).collect());
    for (r, row) in scene.rows.iter().enumerate() {
        for (i, &sw) in row.nodes.iter().enumerate() {
            let mut parts = Vec::new();
            // hosts cabled to this switch, in port order, one name per host node
            let mut hosts = Vec::new();
            for p in 1..=fabric.node(sw).nports {
                if let Some((h, _)) = fabric.peer(sw, p) {
                    if fabric.node(h).kind != NodeKind::Switch && ranked.as_ref().map_or(true, |s| s.contains(&h)) {
                        let name = slurm_name(fabric, h)?;
                        match seen_hosts.get(&name) {
                            Some(&other) if other != h => {
                                return Err(Error::input(
                                    "name",
                                    format!(
                                        "two hosts are named \"{name}\" (GUIDs 0x{:016x} and 0x{:016x}): Slurm needs \
                                         one name per node",
                                        fabric.node(other).guid,
                                        fabric.node(h).guid
                                    ),
                                    Some("name them apart with --node-name-map".into()),
                                ));
                            }
                            _ => {
                                seen_hosts.insert(name.clone(), h);
                            }
                        }
                        if !hosts.contains(&name) {
                            hosts.push(name);
                        }
                    }
                }
            }
            if !hosts.is_empty() {
                parts.push(format!("Nodes={}", hostlist(&hosts)));
            }
            if r > 0 {
                let below: Vec<String> = scene
                    .bundles
                    .iter()
                    .filter(|b| b.row + 1 == r && b.upper == i)
                    .map(|b| slurm_name(fabric, scene.rows[r - 1].nodes[b.lower]))
                    .collect::<Result<_>>()?;
                if !below.is_empty() {
                    parts.push(format!("Switches={}", hostlist(&below)));
                }
            }
            if !parts.is_empty() {
                let _ = writeln!(out, "SwitchName={} {}", slurm_name(fabric, sw)?, parts.join(" "));
            }
        }
    }
    if let Some(Layout::Fullmesh(l)) = layout {
        // no switch sits above the others: one virtual switch tells Slurm that every
        // switch reaches every other (in one hop), so jobs may span switches
        let all: Vec<String> = l
            .switches
            .iter()
            .map(|&s| slurm_name(fabric, s))
            .collect::<Result<_>>()?;
        let _ = writeln!(
            out,
            "# full mesh: every pair of switches is cabled; a virtual switch joins them"
        );
        let _ = writeln!(out, "SwitchName=fullmesh Switches={}", hostlist(&all));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn host_lists_compress_like_slurm() {
        assert_eq!(hostlist(&s(&["node1", "node2", "node3", "node7"])), "node[1-3,7]");
        assert_eq!(hostlist(&s(&["n001", "n002", "n010"])), "n[001-002,010]");
        assert_eq!(hostlist(&s(&["dgx099", "dgx100", "dgx101"])), "dgx[099-101]");
        assert_eq!(hostlist(&s(&["node9", "node10", "n100"])), "node[9-10],n100");
        assert_eq!(hostlist(&s(&["H0_0", "H0_1", "H1_0"])), "H0_[0-1],H1_0");
        assert_eq!(hostlist(&s(&["login", "node5"])), "login,node5");
        assert_eq!(hostlist(&s(&["S3"])), "S3");
    }

    #[test]
    fn host_lists_expand_like_slurm() {
        assert_eq!(
            expand_hostlist("dgx[098-101],login").unwrap(),
            s(&["dgx098", "dgx099", "dgx100", "dgx101", "login"])
        );
        assert_eq!(expand_hostlist("n[1,3-4]-ib").unwrap(), s(&["n1-ib", "n3-ib", "n4-ib"]));
        for (bad, why) in [
            ("dgx[3-1]", "is empty"),
            ("dgx[1-x]", "not a number"),
            ("dgx[1-2", "without `]`"),
            ("dgx]", "without `[`"),
            ("a[1-2]b[1-2]", "two brackets"),
            ("n[0-18446744073709551615]", "more than"),
            (",", "no host"),
        ] {
            let e = expand_hostlist(bad).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
    }

    #[test]
    fn a_full_mesh_gets_one_virtual_switch_above_its_switches() {
        let t = crate::topology::Spec::new(crate::topology::FamilySpec::Fullmesh(
            crate::families::fullmesh::model::FullmeshParams {
                switches: 4,
                hosts_per_switch: 2,
                cables_per_pair: 1,
            },
        ))
        .build()
        .unwrap();
        let conf = topology_conf(&t.fabric, Some(&t.layout), "mesh").unwrap();
        assert!(conf.contains("SwitchName=S0 Nodes=H[0-1]\n"), "{conf}");
        assert!(conf.ends_with("SwitchName=fullmesh Switches=S[0-3]\n"), "{conf}");
    }

    #[test]
    fn a_tree_becomes_leaf_and_upper_switch_lines() {
        let t = crate::topology::Spec::new(crate::topology::FamilySpec::Kary(
            crate::families::kary::model::KaryParams { arity: 2, levels: 2 },
        ))
        .build()
        .unwrap();
        let conf = topology_conf(&t.fabric, Some(&t.layout), "kary").unwrap();
        let lines: Vec<&str> = conf.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 4, "{conf}");
        assert!(lines[0].starts_with("SwitchName=S1_0 Nodes=H[0-1]"), "{conf}");
        assert!(lines[2].starts_with("SwitchName=S2_0 Switches=S1_[0-1]"), "{conf}");
    }
}
