//! Link loads of one step of a collective, for performance models: any multiset of flows
//! between hosts (not only a partial permutation, as [`super::check`] requires), with the
//! host links counted too — a node whose ranks send several messages at once shares its
//! one cable between them.
//!
//! A step's flows are routed along the compiled LFT routes ([`CompiledRoutes`], compiled
//! over the job's nodes); every directed link counts the flows (times their weight) that
//! cross it: switch-to-switch channels, each node's cable to its switch (outgoing) and
//! back (incoming). The step's congestion is the largest count: when every message of a
//! step has the same size, the slowest message of the step is one crossing that link,
//! sharing it with that many others, so it finishes at 1/congestion of the link rate.
//! Flows within a node are not on any link.

use super::conflicts::{CompiledRoutes, FAULT_BASE, NO_LINK};
use crate::{Error, Result};

/// The sink a step's flows go to: `(source node, destination node, weight)`.
pub(crate) type Emit<'e> = dyn FnMut(u32, u32, u32) + 'e;

/// Per-thread counters for [`StepMeter::measure`].
pub(crate) struct StepScratch {
    load: Vec<u32>,
    touched: Vec<u32>,
}

/// Measures steps on the routes between a job's nodes.
pub struct StepMeter<'a> {
    routes: &'a CompiledRoutes,
}

/// What one step puts on the links.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct StepLoad {
    /// Largest (weighted) flow count on any link, host cables included; 0 when no flow
    /// leaves its node.
    pub congestion: u32,
    /// Flows between different nodes.
    pub inter_node: u64,
    /// Flows within a node (no link).
    pub intra_node: u64,
}

impl<'a> StepMeter<'a> {
    /// A meter over routes compiled for the job's nodes (rank i of the routes = node i).
    pub fn new(routes: &'a CompiledRoutes) -> StepMeter<'a> {
        StepMeter { routes }
    }

    /// Zeroed counters for one thread.
    pub(crate) fn scratch(&self) -> StepScratch {
        StepScratch {
            load: vec![0; self.routes.channels() + 2 * self.routes.ranks],
            touched: Vec::new(),
        }
    }

    /// Route the flows `emit` produces — `(source node, destination node, weight)` — and
    /// return the step's load. A route that does not deliver is an error naming the pair.
    pub(crate) fn measure(&self, s: &mut StepScratch, emit: &mut dyn FnMut(&mut Emit)) -> Result<StepLoad> {
        let r = self.routes;
        let nch = r.channels();
        let w = r.width;
        let mut out = StepLoad::default();
        let mut fault: Option<(u32, u32)> = None;
        {
            let load = &mut s.load;
            let touched = &mut s.touched;
            let mut bump = |i: usize, by: u32| {
                if load[i] == 0 {
                    touched.push(i as u32);
                }
                load[i] += by;
            };
            emit(&mut |a, b, weight| {
                if a == b {
                    out.intra_node += 1;
                    return;
                }
                out.inter_node += 1;
                let (a, b) = (a as usize, b as usize);
                bump(nch + 2 * a, weight);
                bump(nch + 2 * b + 1, weight);
                let idx = (r.entry_of[a] as usize * r.cols + r.col_of[b] as usize) * w;
                for &c in &r.slots[idx..idx + w] {
                    if c == NO_LINK {
                        break;
                    }
                    if c >= FAULT_BASE {
                        fault.get_or_insert((a as u32, b as u32));
                        break;
                    }
                    bump(c as usize, weight);
                }
            });
        }
        for &i in &s.touched {
            out.congestion = out.congestion.max(s.load[i as usize]);
            s.load[i as usize] = 0;
        }
        s.touched.clear();
        match fault {
            Some((a, b)) => Err(Error::input(
                "lfts",
                format!("the route from job node {a} to job node {b} does not deliver"),
                Some("`ibfat lfts validate` names the broken entries".into()),
            )),
            None => Ok(out),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::pgft::model::PgftParams;
    use crate::routing::{route, Lids};
    use crate::topology::{FamilySpec, Spec};

    #[test]
    fn host_cables_and_uplinks_are_shared_by_the_flows_that_cross_them() {
        // 2 leaves of 4 hosts, 1 spine, 1 cable: every cross-leaf flow shares the uplink
        let p = PgftParams::from_lists(&[4, 2], &[1, 1], &[1, 1], None).unwrap();
        let t = Spec::new(FamilySpec::Pgft(p)).build().unwrap();
        let lids = Lids::plan(&t.fabric, t.layout.hosts(), 0).unwrap();
        let lfts = route(&t.fabric, &t.layout, &lids).unwrap();
        let routes = CompiledRoutes::compile(&t.fabric, &lids, &lfts, t.layout.hosts(), 0).unwrap();
        let m = StepMeter::new(&routes);
        let mut s = m.scratch();
        // hosts 0..3 → 4..7: four flows on leaf 0's single uplink
        let l = m.measure(&mut s, &mut |f| (0..4).for_each(|a| f(a, a + 4, 1))).unwrap();
        assert_eq!((l.congestion, l.inter_node), (4, 4));
        // within leaf 0 and within a node: one flow per cable, none
        let l = m
            .measure(&mut s, &mut |f| {
                (0..4).for_each(|a| f(a, (a + 1) % 4, 1));
                f(5, 5, 1);
            })
            .unwrap();
        assert_eq!((l.congestion, l.inter_node, l.intra_node), (1, 4, 1));
        // one node sending to three others: its cable carries three, weighted twice
        let l = m.measure(&mut s, &mut |f| (1..4).for_each(|b| f(0, b, 2))).unwrap();
        assert_eq!(l.congestion, 6);
    }
}
