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
use crate::topology::{Fabric, Layout, NodeId, NodeKind};
use std::collections::BTreeMap;
use std::fmt::Write;

/// The Slurm name of a node: a host's first word of its description (its name when the
/// description is empty), a switch's ibfat name; characters Slurm's parser treats
/// specially (`,` `=` `[` `]` `#` blanks) make it an input error.
fn slurm_name(fabric: &Fabric, n: NodeId) -> Result<String> {
    let node = fabric.node(n);
    let name = match node.kind {
        NodeKind::Switch => node.name.as_str(),
        _ => node.desc.split_whitespace().next().unwrap_or(node.name.as_str()),
    };
    if name.is_empty() || name.chars().any(|c| c.is_whitespace() || ",=[]#\"'".contains(c)) {
        return Err(Error::input(
            "name",
            format!(
                "node 0x{:016x} would be named \"{name}\" in topology.conf, which Slurm cannot parse",
                node.guid
            ),
            Some("give it a plain name with --node-name-map".into()),
        ));
    }
    Ok(name.to_string())
}

/// Compress names into a Slurm host list: names that differ only in a trailing number of
/// the same width (or without leading zeros) share one bracket, `node[1-3,7]`; groups in
/// order of first appearance, numbers ascending.
pub fn hostlist(names: &[String]) -> String {
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
    fn a_full_mesh_gets_one_virtual_switch_above_its_switches() {
        let t = crate::topology::Spec::new(crate::topology::FamilySpec::Fullmesh(
            crate::topology::fullmesh::FullmeshParams {
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
        let t = crate::topology::Spec::new(crate::topology::FamilySpec::Kary(crate::topology::kary::KaryParams {
            arity: 2,
            levels: 2,
        }))
        .build()
        .unwrap();
        let conf = topology_conf(&t.fabric, Some(&t.layout), "kary").unwrap();
        let lines: Vec<&str> = conf.lines().filter(|l| !l.starts_with('#')).collect();
        assert_eq!(lines.len(), 4, "{conf}");
        assert!(lines[0].starts_with("SwitchName=S1_0 Nodes=H[0-1]"), "{conf}");
        assert!(lines[2].starts_with("SwitchName=S2_0 Switches=S1_[0-1]"), "{conf}");
    }
}
