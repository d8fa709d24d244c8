//! A proximity tree's part of a recognition report: which node is which, in its coordinates.

use super::model::MolsLayout;
use crate::recognize::report::{host_map, node_ref, non_compute, RecognitionReport, ReportSection, SwitchMap};
use crate::topology::Fabric;

impl ReportSection for MolsLayout {
    /// A MOLS tree: bottoms by (pod, colour), middles by (plane, row), tops by (plane,
    /// index).
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        r.arity = Some(self.n);
        r.wiring = Some(self.wiring.to_string());
        r.proximity_switches = Some(self.proximity().mean);
        let n = self.n;
        r.switch_map = [
            (&self.bottoms, "bottom", "pod", "colour"),
            (&self.middles, "middle", "plane", "row"),
            (&self.tops, "top", "plane", "index"),
        ]
        .into_iter()
        .flat_map(|(nodes, role, major, minor)| {
            nodes.iter().enumerate().map(move |(i, &s)| SwitchMap {
                node: node_ref(fabric, s),
                role: role.into(),
                index: i as u32,
                position: format!("{major} {} {minor} {}", i as u32 / n, i as u32 % n),
            })
        })
        .collect();
        r.host_map = host_map(fabric, &self.hosts, |rank| self.host_pos[rank]);
        r.non_compute = non_compute(fabric, &self.others, &self.other_pos);
    }
}
