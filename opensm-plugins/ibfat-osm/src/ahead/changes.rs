//! The single changes a subnet most often sees next — one cable gone, one switch gone —
//! and the records OpenSM would read after each, so their tables can be computed before
//! the sweep that needs them ([`super`]).
//!
//! OpenSM drops a link whose port went down from both ends, and drops every node its
//! sweep no longer reaches from its own port. The prediction does the same, taking the
//! largest connected part as the one the SM sits in. A wrong guess (the SM on the small
//! side, a rate that changed with the cable) only costs the work: a pass takes tables
//! computed ahead only when its records equal the predicted ones field for field.

use crate::subnet::{description, Records, ShimPort, SWITCH_KIND};

/// [`Change::Unchanged`] in words: the pass line of a saved subnet's own tables says
/// nothing of a change ([`crate::passlog::pass_line`]).
pub(crate) const NO_CHANGE: &str = "no change";

/// One change of a subnet: an index into its records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Nothing: the subnet as it is (a saved subnet's own tables, [`super::Base::Saved`]).
    Unchanged,
    /// The cable of this port record (both ends) is gone.
    Cable(usize),
    /// This node (a switch) is gone with all its cables.
    Switch(usize),
}

impl Records {
    /// Every single change, the likeliest first: each switch-to-switch cable, each host
    /// cable, then each switch. A cable is listed once, at its lower (GUID, port) end.
    pub(crate) fn changes(&self) -> Vec<Change> {
        let switch = self.switch_guids();
        let is_switch = |g: u64| switch.binary_search(&g).is_ok();
        let once = |p: &ShimPort| (p.node_guid, p.port) < (p.remote_node_guid, p.remote_port);
        let cables = |inner: bool| {
            self.ports
                .iter()
                .enumerate()
                .filter(move |(_, p)| once(p) && (is_switch(p.node_guid) && is_switch(p.remote_node_guid)) == inner)
                .map(|(i, _)| Change::Cable(i))
        };
        let switches = self.nodes.iter().enumerate().filter(|(_, n)| n.kind == SWITCH_KIND);
        cables(true)
            .chain(cables(false))
            .chain(switches.map(|(i, _)| Change::Switch(i)))
            .collect()
    }

    /// The records OpenSM would read after `change`: the cable's two port records gone
    /// (or the switch's node and every record of its cables), then only the largest
    /// connected part kept.
    pub(crate) fn after(&self, change: Change) -> Records {
        let (ends, gone) = match change {
            Change::Unchanged => return self.clone(),
            Change::Cable(i) => {
                let p = &self.ports[i];
                ([(p.node_guid, p.port), (p.remote_node_guid, p.remote_port)], None)
            }
            Change::Switch(i) => ([(0, 0); 2], Some(self.nodes[i].guid)),
        };
        let cut = |p: &ShimPort| {
            ends.contains(&(p.node_guid, p.port)) || gone.is_some_and(|g| p.node_guid == g || p.remote_node_guid == g)
        };
        let ports: Vec<ShimPort> = self.ports.iter().filter(|p| !cut(p)).cloned().collect();
        let keep = largest_part(&self.nodes.iter().map(|n| n.guid).collect::<Vec<_>>(), &ports, gone);
        let nodes: Vec<_> = self
            .nodes
            .iter()
            .zip(&keep)
            .filter(|(_, &k)| k)
            .map(|(n, _)| n.clone())
            .collect();
        let mut kept: Vec<u64> = nodes.iter().map(|n| n.guid).collect();
        kept.sort_unstable();
        let ports = ports
            .into_iter()
            .filter(|p| kept.binary_search(&p.node_guid).is_ok())
            .collect();
        Records::new(nodes, ports)
    }

    /// The change in words, for the log: the cable by both ends, the switch by GUID and
    /// description.
    pub(crate) fn describe(&self, change: Change) -> String {
        let name = |guid: u64| {
            let desc = self
                .nodes
                .iter()
                .find(|n| n.guid == guid)
                .map(|n| description(&n.desc))
                .unwrap_or_default();
            format!("0x{guid:016x} ({desc})")
        };
        match change {
            Change::Unchanged => NO_CHANGE.to_string(),
            Change::Cable(i) => {
                let p = &self.ports[i];
                format!(
                    "the cable {} port {} - {} port {} gone",
                    name(p.node_guid),
                    p.port,
                    name(p.remote_node_guid),
                    p.remote_port
                )
            }
            Change::Switch(i) => format!("the switch {} gone", name(self.nodes[i].guid)),
        }
    }

    /// The GUIDs of the switches, sorted.
    fn switch_guids(&self) -> Vec<u64> {
        let mut s: Vec<u64> = self
            .nodes
            .iter()
            .filter(|n| n.kind == SWITCH_KIND)
            .map(|n| n.guid)
            .collect();
        s.sort_unstable();
        s
    }
}

/// Which nodes (by position in `guids`) lie in the connected part with the most nodes
/// over `ports`; `gone` is dropped whatever it touches. Ties go to the part of the
/// earliest node.
fn largest_part(guids: &[u64], ports: &[ShimPort], gone: Option<u64>) -> Vec<bool> {
    let mut order: Vec<(u64, usize)> = guids.iter().copied().zip(0..).collect();
    order.sort_unstable();
    let index = |g: u64| order.binary_search_by_key(&g, |e| e.0).ok().map(|k| order[k].1);
    let mut parent: Vec<usize> = (0..guids.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for p in ports {
        if let (Some(a), Some(b)) = (index(p.node_guid), index(p.remote_node_guid)) {
            let (ra, rb) = (root(&mut parent, a), root(&mut parent, b));
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    let mut size = vec![0usize; guids.len()];
    for (i, &g) in guids.iter().enumerate() {
        if Some(g) != gone {
            let r = root(&mut parent, i);
            size[r] += 1;
        }
    }
    let best = (0..guids.len())
        .max_by_key(|&r| (size[r], std::cmp::Reverse(r)))
        .unwrap_or(0);
    (0..guids.len())
        .map(|i| Some(guids[i]) != gone && root(&mut parent, i) == best)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::subnet::made::{cable, node, records};

    /// Two switches joined by two cables; H1 on S1, H2 on S2, H3 with a port on each.
    fn subnet() -> Records {
        let (s1, s2, h1, h2, h3) = (0x10, 0x20, 0x1, 0x2, 0x3);
        records(
            vec![
                node(s2, 2, 36, "S2"),
                node(h1, 1, 1, "H1"),
                node(s1, 2, 36, "S1"),
                node(h3, 1, 2, "H3"),
                node(h2, 1, 1, "H2"),
            ],
            &[
                cable(s1, 1, s2, 1),
                cable(s1, 2, s2, 2),
                cable(h1, 1, s1, 3),
                cable(h2, 1, s2, 3),
                cable(h3, 1, s1, 4),
                cable(h3, 2, s2, 4),
            ],
        )
    }

    fn guids(r: &Records) -> Vec<u64> {
        r.nodes.iter().map(|n| n.guid).collect()
    }

    fn ends(r: &Records) -> Vec<(u64, u8)> {
        r.ports.iter().map(|p| (p.node_guid, p.port)).collect()
    }

    #[test]
    fn switch_cables_come_first_then_host_cables_then_switches() {
        let r = subnet();
        let c = r.changes();
        let words: Vec<String> = c.iter().map(|&c| r.describe(c)).collect();
        assert_eq!(c.len(), 2 + 4 + 2, "{words:#?}");
        assert!(words[0].starts_with("the cable 0x0000000000000010 (S1) port 1 - 0x0000000000000020 (S2) port 1"));
        assert!(words[1].contains("(S1) port 2 - ") && words[1].contains("(S2) port 2"));
        for w in &words[2..6] {
            assert!(w.contains("(H"), "a host cable: {w}");
        }
        assert_eq!(words[6], "the switch 0x0000000000000010 (S1) gone");
        assert_eq!(words[7], "the switch 0x0000000000000020 (S2) gone");
    }

    #[test]
    fn a_switch_cable_leaves_every_node_and_loses_its_two_ends() {
        let r = subnet();
        let after = r.after(r.changes()[0]);
        assert_eq!(guids(&after), guids(&r));
        assert_eq!(after.ports.len(), r.ports.len() - 2);
        assert!(!ends(&after).contains(&(0x10, 1)) && !ends(&after).contains(&(0x20, 1)));
        // what stays is in the walk's order
        let kept: Vec<_> = ends(&r)
            .into_iter()
            .filter(|e| *e != (0x10, 1) && *e != (0x20, 1))
            .collect();
        assert_eq!(ends(&after), kept);
    }

    #[test]
    fn a_host_cable_takes_the_host_unless_another_port_holds_it() {
        let r = subnet();
        let by_words = |text: &str| {
            let c = r.changes().into_iter().find(|&c| r.describe(c).contains(text)).unwrap();
            r.after(c)
        };
        let h1 = by_words("(H1) port 1");
        assert_eq!(guids(&h1), vec![0x2, 0x3, 0x10, 0x20]);
        assert!(!ends(&h1).contains(&(0x10, 3)));
        let h3 = by_words("(H3) port 1");
        assert_eq!(guids(&h3), guids(&r), "H3 still hangs on S2");
        assert_eq!(h3.ports.len(), r.ports.len() - 2);
    }

    #[test]
    fn a_dead_switch_takes_its_cables_and_the_hosts_only_it_reached() {
        let r = subnet();
        let s1 = r.changes().into_iter().find(|&c| c == Change::Switch(3)).unwrap();
        let after = r.after(s1);
        assert_eq!(guids(&after), vec![0x2, 0x3, 0x20]);
        assert_eq!(ends(&after), vec![(0x2, 1), (0x3, 2), (0x20, 3), (0x20, 4)]);
        // the whole subnet cut in two keeps the larger part (the SM's, most likely)
        let lone = records(
            vec![node(0x10, 2, 8, "S"), node(0x1, 1, 1, "A"), node(0x2, 1, 1, "B")],
            &[cable(0x1, 1, 0x10, 1), cable(0x2, 1, 0x10, 2)],
        );
        let gone = lone.after(Change::Switch(2));
        assert!(
            gone.ports.is_empty() && gone.nodes.len() == 1,
            "a tie keeps the first node alone"
        );
    }
}
