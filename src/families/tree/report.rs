//! What `recognize` reports about a tree as found: its levels with their counts, the
//! groups of parallel cables between levels, and every irregularity by switch.

use crate::families::tree::model::TreeLayout;
use crate::recognize::report::{host_map, node_ref, NodeRef, RecognitionReport, ReportSection, SwitchMap};
use crate::topology::{Fabric, NodeId, NodeKind};
use serde::Serialize;
use std::collections::BTreeMap;

/// One level of a tree as found.
#[derive(Clone, Debug, Serialize)]
pub struct LevelReport {
    /// 1 = leaves.
    pub level: u32,
    /// Switches on it.
    pub switches: usize,
    /// Host ports cabled to its switches.
    pub hosts: usize,
    /// Cables from it to the level above (0 at the top).
    pub up_cables: usize,
    /// Switch pairs (this level, the one above) joined by n parallel cables, as
    /// `"n": pairs` (`{"1": 40, "3": 2}`).
    pub parallel_groups: BTreeMap<usize, usize>,
}

/// One irregularity at one switch.
#[derive(Clone, Debug, Serialize)]
pub struct IrregularityReport {
    /// Stable kind name ([`crate::families::tree::model::Irregularity::kind`]).
    pub kind: &'static str,
    /// The switch; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub switch: NodeRef,
    /// Its LID, when the dump gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lid: Option<u16>,
    /// Its level (1 = leaves).
    pub level: u8,
    /// What was found against what the level mostly has.
    pub detail: String,
}

impl ReportSection for TreeLayout {
    /// Fill the tree's part of the report: its levels and its irregularities.
    fn fill_report(&self, r: &mut RecognitionReport, fabric: &Fabric) {
        r.levels = Some(self.levels());
        r.tree_levels = (1..=self.levels()).map(|lv| level_report(fabric, self, lv)).collect();
        r.irregularities = self
            .irregular
            .iter()
            .map(|i| IrregularityReport {
                kind: i.kind,
                switch: node_ref(fabric, i.switch),
                lid: Some(fabric.port(i.switch, 0).lid).filter(|&x| x != 0),
                level: self.level[i.switch as usize],
                detail: i.detail.clone(),
            })
            .collect();
        r.switch_map = self
            .switches
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                let lv = self.level[n as usize];
                SwitchMap {
                    node: node_ref(fabric, n),
                    role: format!("level{lv}"),
                    index: i as u32,
                    position: format!("level {lv} switch {}", i as u32 - self.offset[lv as usize - 1]),
                }
            })
            .collect();
        r.host_map = host_map(fabric, &self.hosts, |rank| rank as u32);
        r.non_compute = host_map(fabric, &self.others, |i| (self.hosts.len() + i) as u32);
    }
}

/// Counts of level `lv`.
fn level_report(fabric: &Fabric, l: &TreeLayout, lv: u32) -> LevelReport {
    let mut hosts = 0;
    let mut up_cables = 0;
    let mut groups: BTreeMap<usize, usize> = BTreeMap::new();
    for &n in l.at(lv) {
        let mut per: BTreeMap<NodeId, usize> = BTreeMap::new();
        for p in 1..=fabric.node(n).nports {
            let Some((peer, _)) = fabric.peer(n, p) else { continue };
            if fabric.node(peer).kind != NodeKind::Switch {
                hosts += 1;
            } else if l.level[peer as usize] == lv as u8 + 1 {
                up_cables += 1;
                *per.entry(peer).or_default() += 1;
            }
        }
        per.values().for_each(|&k| *groups.entry(k).or_default() += 1);
    }
    LevelReport {
        level: lv,
        switches: l.at(lv).len(),
        hosts,
        up_cables,
        parallel_groups: groups,
    }
}
