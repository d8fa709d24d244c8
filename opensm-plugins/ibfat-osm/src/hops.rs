//! The hop counts OpenSM keeps per switch, taken from ibfat's own routes instead of
//! OpenSM's min-hop propagation.
//!
//! Before any engine's tables, OpenSM builds "LID matrices": for every switch, every switch
//! LID and every port, the hops to that LID through that port, by repeated relaxation over
//! all switches (switches × switch ports × switches per round, until nothing changes). On a
//! degraded LSFT(13) that is most of the pass, and the ibfat engine does not read it. What
//! OpenSM itself reads later is the least hop count towards a switch LID and which ports
//! reach it in that many hops: the multicast manager picks its tree root by average hops
//! and grows the tree along the ports with the least hops towards the root switch. The
//! engine therefore skips the propagation (its `build_lid_matrices` does nothing) and,
//! once its tables are programmed, records for every switch and every switch LID the one
//! port its table uses and the hops along its route — as OpenSM's dfsssp engine records
//! its own routes. Multicast trees then follow ibfat's routes towards the root switch: the
//! union of one destination's routes is a tree, so they stay loop-free.
//!
//! One exception: parallel cables. ibfat spreads the routes to different LIDs over the
//! parallel cables to one neighbour, but the multicast manager must send a group to that
//! neighbour over one cable only: it takes the first port with the least hops, which keeps
//! "more than one multicast path to the same remote switch" (a loop: the copy on the second
//! cable comes back up the first) out only when every port to that neighbour shows the
//! count. So the count of a route is recorded on all the parallel cables of its port, and
//! the manager uses the lowest-numbered of them. Unicast tables are not touched.

use ibfat::routing::{LftSet, Lids, NO_ROUTE};
use ibfat::topology::{Fabric, NodeId, NodeKind, NO_PEER};

/// Not reachable along the tables (OpenSM's `OSM_NO_PATH`).
const NO_PATH: u8 = 0xff;

/// Every switch's (switch LID, port its table uses, hops along the route) for every other
/// switch LID its route reaches, and the same count on every other parallel cable of that
/// port, indexed like `lfts.switches`. A switch's own LID is port 0 at 0 hops. Routes that
/// loop, fall off the fabric or exceed 254 hops are left out (OpenSM then has no hop
/// count for them, as for an unreachable LID).
pub(crate) fn switch_lid_hops(fabric: &Fabric, lids: &Lids, lfts: &LftSet) -> Vec<Vec<(u16, u8, u8)>> {
    let rows = lfts.switches.len();
    let mut out = vec![Vec::new(); rows];
    // the switch LIDs the tables hold, with the row of their switch
    let targets: Vec<(u16, usize)> = lfts
        .switches
        .iter()
        .enumerate()
        .filter_map(|(row, &sw)| {
            let lid = lids.lid(fabric, sw, 0);
            (lid != 0 && (lid as usize) < lfts.stride && lids.owner.get(lid as usize) != Some(&NO_PEER))
                .then_some((lid, row))
        })
        .collect();
    let mut hops = vec![NO_PATH; rows];
    let mut done = vec![false; rows];
    let mut path: Vec<usize> = Vec::new();
    let parallel = parallel_ports(fabric, lfts);
    for &(lid, t_row) in &targets {
        hops.fill(NO_PATH);
        done.fill(false);
        hops[t_row] = 0;
        done[t_row] = true;
        for start in 0..rows {
            // walk until a switch whose count is known, then count back along the walk
            path.clear();
            let mut row = start;
            let mut known = loop {
                if done[row] {
                    break hops[row];
                }
                if path.len() > rows {
                    break NO_PATH; // a loop: no count for anyone on it
                }
                path.push(row);
                match next_switch(fabric, lfts, lfts.switches[row], lid) {
                    Some(next) => row = lfts.row_of[next as usize] as usize,
                    None => break NO_PATH,
                }
            };
            for &r in path.iter().rev() {
                known = if known == NO_PATH || known >= NO_PATH - 1 {
                    NO_PATH
                } else {
                    known + 1
                };
                hops[r] = known;
                done[r] = true;
            }
        }
        for (row, &h) in hops.iter().enumerate() {
            if h != NO_PATH {
                let port = if row == t_row { 0 } else { lfts.row(row)[lid as usize] };
                out[row].push((lid, port, h));
                for &twin in parallel[row].iter().find(|g| g.contains(&port)).into_iter().flatten() {
                    if twin != port {
                        out[row].push((lid, twin, h));
                    }
                }
            }
        }
    }
    out
}

/// Per row of `lfts`, the groups of ports cabled to one neighbour switch by two cables
/// or more (usually none).
fn parallel_ports(fabric: &Fabric, lfts: &LftSet) -> Vec<Vec<Vec<u8>>> {
    lfts.switches
        .iter()
        .map(|&sw| {
            let mut by_peer: Vec<(NodeId, Vec<u8>)> = Vec::new();
            for p in 1..=fabric.node(sw).nports {
                let Some((peer, _)) = fabric.peer(sw, p) else { continue };
                if fabric.node(peer).kind != NodeKind::Switch {
                    continue;
                }
                match by_peer.iter_mut().find(|(n, _)| *n == peer) {
                    Some((_, ports)) => ports.push(p),
                    None => by_peer.push((peer, vec![p])),
                }
            }
            by_peer
                .into_iter()
                .map(|(_, ports)| ports)
                .filter(|g| g.len() > 1)
                .collect()
        })
        .collect()
}

/// The switch that `sw`'s entry for `lid` leads to, if it leads to one.
fn next_switch(fabric: &Fabric, lfts: &LftSet, sw: NodeId, lid: u16) -> Option<NodeId> {
    let port = lfts.get(sw, lid)?;
    if port == NO_ROUTE || port == 0 {
        return None;
    }
    let (peer, _) = fabric.peer(sw, port)?;
    (fabric.node(peer).kind == NodeKind::Switch).then_some(peer)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibfat::families::lsft::model::LsftParams;
    use ibfat::routing::route;
    use ibfat::topology::{BuildOptions, FamilySpec, Spec};

    /// On an intact LSFT(3) every switch reaches every switch LID; the counts are the
    /// lengths of the routes the tables hold, and a switch's own LID is port 0 at 0 hops.
    #[test]
    fn counts_follow_the_tables() {
        let mut spec = Spec::new(FamilySpec::Lsft(LsftParams::new(3, false)));
        spec.options = BuildOptions {
            shuffle: Some(5),
            ..Default::default()
        };
        let topo = spec.build().unwrap();
        let lids = Lids::plan(&topo.fabric, topo.layout.hosts(), 0).unwrap();
        let lfts = route(&topo.fabric, &topo.layout, &lids).unwrap();
        let rows = switch_lid_hops(&topo.fabric, &lids, &lfts);
        let n = lfts.switches.len();
        assert_eq!(rows.len(), n);
        for (row, entries) in rows.iter().enumerate() {
            assert_eq!(entries.len(), n, "every switch LID reached from row {row}");
            let sw = lfts.switches[row];
            for &(lid, port, h) in entries {
                // walk the tables ourselves
                let (mut at, mut steps) = (sw, 0u8);
                while lids.lid(&topo.fabric, at, 0) != lid {
                    let p = lfts.get(at, lid).unwrap();
                    at = topo.fabric.peer(at, p).unwrap().0;
                    steps += 1;
                }
                assert_eq!(h, steps);
                assert_eq!(port, if h == 0 { 0 } else { lfts.get(sw, lid).unwrap() });
                // leaves and spines of an LSFT are at most 2 switch hops apart on its routes
                assert!(h <= 4);
            }
        }
    }
    /// On a PGFT with parallel cables ibfat's routes to one neighbour's subtree use both
    /// cables, but every switch LID shows its count on all the parallel cables of the
    /// table's port (the multicast manager then keeps to the lowest-numbered one), and on
    /// no other port.
    #[test]
    fn counts_cover_parallel_cables() {
        use ibfat::families::pgft::model::PgftParams;
        let pg = PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap();
        let mut spec = Spec::new(FamilySpec::Pgft(pg));
        spec.options = BuildOptions {
            shuffle: Some(3),
            ..Default::default()
        };
        let topo = spec.build().unwrap();
        let f = &topo.fabric;
        let lids = Lids::plan(f, topo.layout.hosts(), 0).unwrap();
        let lfts = route(f, &topo.layout, &lids).unwrap();
        let rows = switch_lid_hops(f, &lids, &lfts);
        let mut parallel_seen = 0;
        for (row, entries) in rows.iter().enumerate() {
            let sw = lfts.switches[row];
            let mut by_lid: std::collections::BTreeMap<u16, Vec<(u8, u8)>> = Default::default();
            for &(lid, port, h) in entries {
                by_lid.entry(lid).or_default().push((port, h));
            }
            assert_eq!(
                by_lid.len(),
                lfts.switches.len(),
                "every switch LID reached from row {row}"
            );
            for (lid, got) in by_lid {
                let (port, h) = got[0];
                assert!(got.iter().all(|&(_, g)| g == h), "one count per LID: {got:?}");
                let want: Vec<u8> = if port == 0 {
                    vec![0]
                } else {
                    let peer = f.peer(sw, port).unwrap().0;
                    (1..=f.node(sw).nports)
                        .filter(|&p| f.peer(sw, p).is_some_and(|(n, _)| n == peer))
                        .collect()
                };
                let mut ports: Vec<u8> = got.iter().map(|&(p, _)| p).collect();
                ports.sort_unstable();
                assert_eq!(
                    ports, want,
                    "row {row} LID {lid}: the table's port {port} and its parallel cables"
                );
                parallel_seen += (want.len() > 1) as usize;
            }
        }
        assert!(parallel_seen > 0, "the PGFT has parallel cables on some route");
    }
}
