//! An LSFT's part of a recognition report: which node is which, in its coordinates.

use super::model::LsftLayout;
use crate::recognize::report::{host_map, node_ref, LeafMap, RecognitionReport, ReportSection, SpineMap};
use crate::topology::Fabric;

impl ReportSection for LsftLayout {
    /// An LSFT: leaves by point, spines by line, hosts by leaf slot.
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        r.order = Some(self.q);
        r.sides = Some(self.sides);
        r.hosts_per_leaf = Some(self.hosts_per_leaf);
        let npts = self.npts() as usize;
        let d = self.degree() as usize;
        r.leaves = self
            .leaves
            .iter()
            .enumerate()
            .map(|(i, &n)| LeafMap {
                node: node_ref(fabric, n),
                side: (i / npts) as u32,
                point: self.plane.point((i % npts) as u32).to_string(),
                point_index: (i % npts) as u32,
                hosts: self.leaf_host[i * d..(i + 1) * d].iter().filter(|&&p| p != 0).count(),
            })
            .collect();
        r.spines = self
            .spines
            .iter()
            .enumerate()
            .map(|(i, &n)| SpineMap {
                node: node_ref(fabric, n),
                line: self.plane.line(i as u32).to_string(),
                line_index: i as u32,
            })
            .collect();
        // slot of each rank
        let mut slot_of = vec![0u32; self.hosts.len()];
        for (i, &rank) in self.slot_rank.iter().enumerate() {
            if rank != u32::MAX {
                slot_of[rank as usize] = (i % d) as u32;
            }
        }
        r.host_map = host_map(fabric, &self.hosts, |rank| slot_of[rank]);
    }
}
