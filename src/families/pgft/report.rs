//! A PGFT's part of a recognition report (also a two-level tree's and a rail-optimised cluster's): which node is which, in its coordinates.

use super::model::PgftLayout;
use crate::recognize::report::{host_map, node_ref, non_compute, RecognitionReport, ReportSection, SwitchMap};
use crate::topology::Fabric;

impl ReportSection for PgftLayout {
    /// A PGFT: the per-level lists (and a two-level tree's own terms), switches by (level,
    /// subtree, copy).
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        let pp = &self.params;
        let h = pp.levels as usize;
        r.levels = Some(pp.levels);
        r.down = Some(pp.down[..h].to_vec());
        r.up = Some(pp.up[..h].to_vec());
        r.parallel = Some(pp.parallel[..h].to_vec());
        r.oversubscription = Some((1..pp.levels).filter_map(|lv| pp.oversubscription(lv)).collect());
        if let Some(t) = crate::families::twolevel::model::TwolevelParams::from_pgft(pp).filter(|_| self.twolevel) {
            r.leaf_switches = Some(t.leaves);
            r.hosts_per_leaf = Some(t.hosts_per_leaf);
            r.spine_switches = Some(t.spines);
            r.links_per_pair = Some(t.links_per_pair);
        }
        r.switch_map = self
            .switches
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let (lv, a, b) = self.coords(i as u32);
                SwitchMap {
                    node: node_ref(fabric, n),
                    role: format!("level{lv}"),
                    index: i as u32,
                    position: format!("level {lv} subtree {a} copy {b}"),
                }
            })
            .collect();
        r.host_map = host_map(fabric, &self.hosts, |rank| self.host_pos[rank]);
        r.non_compute = non_compute(fabric, &self.others, &self.other_pos);
    }
}
