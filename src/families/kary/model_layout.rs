//! What the generic layers ask of a k-ary n-tree's layout ([`FamilyLayout`]).

use super::model::KaryLayout;
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::{FamilyLayout, Parameters, SwitchRow};

impl FamilyLayout for KaryLayout {
    fn family(&self) -> Family {
        Family::Kary
    }

    crate::topology::ranked_hosts!(k, down);

    fn mark_levels(&self, level: &mut [u8]) {
        let per = self.per_level() as usize;
        for (i, &n) in self.switches.iter().enumerate() {
            level[n as usize] = (i / per + 1) as u8;
        }
    }

    fn describe(&self) -> String {
        format!("{}-ary {}-tree", self.k, self.levels)
    }

    fn switch_rows(&self) -> Vec<SwitchRow> {
        let per = self.per_level() as usize;
        (1..=self.levels)
            .map(|lv| {
                let first = (lv as usize - 1) * per;
                SwitchRow::new(SwitchRow::level_title(lv), &self.switches[first..first + per], |i| {
                    let (_, g, lane) = self.coords((first + i) as u32);
                    format!("g{g} λ{lane}")
                })
            })
            .collect()
    }

    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        let (k, levels) = (self.k, self.levels);
        ("levels", SizedFamily::Kary { k, levels })
    }

    /// A 3-level k-ary tree is the proximity tree with standard wiring.
    fn equivalent(&self) -> Option<String> {
        (self.levels == 3).then(|| format!("mols arity {} wiring standard", self.k))
    }

    fn parameters(&self) -> Parameters {
        Parameters {
            arity: self.k,
            levels: self.levels,
            ..Parameters::default()
        }
    }

    fn minimal_promise(&self, _lmc: u8) -> u32 {
        u32::MAX
    }

    fn tree_positions(&self) -> Option<&[u32]> {
        Some(&self.host_pos)
    }

    fn native_pattern(&self) -> &'static str {
        "kary-shift"
    }
}
