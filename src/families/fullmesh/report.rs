//! A full mesh's part of a recognition report: which node is which, in its coordinates.

use super::model::FullmeshLayout;
use crate::recognize::report::{
    host_map, node_ref, non_compute, FaultReport, RecognitionReport, ReportSection, SwitchMap,
};
use crate::topology::Fabric;

impl ReportSection for FullmeshLayout {
    /// A full mesh: switches by index, and its cut cables as faults.
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        r.hosts_per_switch = Some(self.h);
        r.cables_per_pair = Some(self.w);
        r.switch_map = self
            .switches
            .iter()
            .enumerate()
            .map(|(i, &n)| SwitchMap {
                node: node_ref(fabric, n),
                role: "switch".into(),
                index: i as u32,
                position: format!("switch {i}"),
            })
            .collect();
        r.host_map = host_map(fabric, &self.hosts, |rank| self.host_pos[rank]);
        r.non_compute = non_compute(fabric, &self.others, &self.other_pos);
        r.faults = self
            .cut
            .iter()
            .map(|&(i, j, k)| FaultReport {
                kind: "missing-cable",
                point: None,
                line: None,
                leaf: None,
                spine: None,
                switches: vec![
                    node_ref(fabric, self.switches[i as usize]),
                    node_ref(fabric, self.switches[j as usize]),
                ],
                missing: Some(k),
                positions: Vec::new(),
            })
            .collect();
    }
}
