//! A k-ary n-tree's part of a recognition report: which node is which, in its coordinates.

use super::model::KaryLayout;
use crate::recognize::report::{host_map, node_ref, non_compute, RecognitionReport, ReportSection, SwitchMap};
use crate::topology::Fabric;

impl ReportSection for KaryLayout {
    /// A k-ary n-tree: switches by (level, subtree, lane), hosts by tree position.
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        r.arity = Some(self.k);
        r.levels = Some(self.levels);
        r.switch_map = self
            .switches
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let (lv, g, lane) = self.coords(i as u32);
                SwitchMap {
                    node: node_ref(fabric, n),
                    role: format!("level{lv}"),
                    index: i as u32,
                    position: format!("level {lv} subtree {g} lane {lane}"),
                }
            })
            .collect();
        r.host_map = host_map(fabric, &self.hosts, |rank| self.host_pos[rank]);
        r.non_compute = non_compute(fabric, &self.others, &self.other_pos);
    }
}
