//! The climb-weighted chain rule of small trees (docs/tree.md §3). On a tree whose leaves
//! reach different subsets of the level above (the grown lab: one leaf cabled to 2 of the
//! 4 spines), the sources of that leaf climb to those parents for every destination
//! elsewhere, whatever the chains do. Counting the chains through a parent misses that
//! traffic; counting the source hosts whose routes climb into it, per cable it has below,
//! sees it, and the other leaves' chains lean away from those parents (on the grown lab,
//! random permutations 0.6097 → 0.6189 of the ideal). The count needs every switch's entry
//! for a destination before the next chain is drawn, so the pass runs destination by
//! destination; the caller keeps it to fabrics routed on one thread anyway.

use super::{entry, first_hop, Chains, Dest, Load, Rows};
use crate::routing::lft::LftSet;
use crate::routing::lids::Lids;
use crate::topology::{Endpoint, Fabric};

/// Every switch's entry for every host in `hosts` (rank order), each destination's chain
/// weighted by [`Climb`]; the entries go into a column per destination first (what
/// [`Climb::add`] reads), written into the table rows at the end.
pub(super) fn route_hosts(
    fabric: &Fabric,
    rows: &Rows,
    lfts: &mut LftSet,
    lids: &Lids,
    hosts: &[Endpoint],
) -> Vec<Dest> {
    let n = rows.level.len();
    let mut climb = Climb::new(fabric, rows, lfts, hosts);
    let mut loads: Vec<Load> = (0..n).map(|r| Load::new(rows, r)).collect();
    let mut drawn = Chains::new(rows, hosts.len());
    let mut dests = Vec::with_capacity(hosts.len());
    let mut columns = Vec::with_capacity(hosts.len() * n);
    for ep in hosts {
        let Some(start) = first_hop(fabric, lfts, lids, ep) else {
            continue;
        };
        let weigh = |p: usize| (climb.into[p], rows.downs(p).len().max(1) as u64);
        let d = drawn.draw(rows, start, dests.len(), weigh);
        let on_chain = &drawn.chain[d.start as usize..d.end as usize];
        let from = columns.len();
        columns.extend(
            loads
                .iter_mut()
                .enumerate()
                .map(|(r, l)| entry(rows, r, &d, on_chain, l)),
        );
        climb.add(&columns[from..]);
        dests.push(d);
    }
    for (r, row) in lfts.ports.chunks_mut(lfts.stride).enumerate() {
        for (i, d) in dests.iter().enumerate() {
            row[d.lid as usize] = columns[i * n + r];
        }
    }
    dests
}

/// The traffic the host routes so far climb into each switch: per switch, how many
/// source hosts' routes enter it from below, summed over the destinations routed (on a
/// random permutation, the flows its cables from below carry up, times the host count).
/// The climbs of sources that cannot reach a chain's top count as well as the chain's.
struct Climb {
    /// Per row, source hosts whose routes climbed into it.
    into: Vec<u64>,
    /// Per row, the hosts that hang off it: where traffic starts.
    hosts: Vec<u64>,
    /// Per (row, port): the parent row the cable leads up to (`u32::MAX` for any other port).
    up: Vec<u32>,
    /// The rows by level, leaves first: what climbs into a row comes from the level below.
    order: Vec<u32>,
    /// Per row, the source hosts climbing through it towards the destination at hand.
    passing: Vec<u64>,
}

impl Climb {
    fn new(fabric: &Fabric, rows: &Rows, lfts: &LftSet, hosts: &[Endpoint]) -> Climb {
        let n = rows.level.len();
        let mut per = vec![0u64; n];
        for ep in hosts {
            if let Some((sw, _)) = fabric.peer(ep.node, ep.port) {
                per[lfts.row_of[sw as usize] as usize] += 1;
            }
        }
        let mut up = vec![u32::MAX; n * 256];
        for r in 0..n {
            for &(p, q, _) in rows.ups(r) {
                up[r * 256 + p as usize] = q;
            }
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&r| rows.level[r as usize]);
        Climb {
            into: vec![0; n],
            hosts: per,
            up,
            order,
            passing: vec![0; n],
        }
    }

    /// Count the hosts of every switch into every switch their routes to one destination
    /// climb to, from its column of entries: level by level upwards, each row passes what
    /// starts or arrives there up its entry's cable (a route that turns up again after
    /// going down, which the down-only rule never makes, would count up to its turn).
    fn add(&mut self, column: &[u8]) {
        self.passing.copy_from_slice(&self.hosts);
        for &r in &self.order {
            let r = r as usize;
            let parent = self.up[r * 256 + column[r] as usize];
            if parent != u32::MAX && self.passing[r] > 0 {
                self.passing[parent as usize] += self.passing[r];
                self.into[parent as usize] += self.passing[r];
            }
        }
    }
}
