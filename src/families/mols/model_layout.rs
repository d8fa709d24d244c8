//! What the generic layers ask of a proximity tree's layout ([`FamilyLayout`]).

use super::model::{MolsLayout, Wiring};
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::{FamilyLayout, Parameters, SwitchRow};

impl FamilyLayout for MolsLayout {
    fn family(&self) -> Family {
        Family::Mols
    }

    crate::topology::ranked_hosts!(n, b_host);

    fn mark_levels(&self, level: &mut [u8]) {
        self.bottoms.iter().for_each(|&n| level[n as usize] = 1);
        self.middles.iter().for_each(|&n| level[n as usize] = 2);
        self.tops.iter().for_each(|&n| level[n as usize] = 3);
    }

    fn describe(&self) -> String {
        format!("{}-ary 3-level proximity fat-tree, {} wiring", self.n, self.wiring)
    }

    fn switch_rows(&self) -> Vec<SwitchRow> {
        let n = self.n as usize;
        vec![
            SwitchRow::new("bottoms", &self.bottoms, |i| format!("pod {} c{}", i / n, i % n)),
            SwitchRow::new("middles", &self.middles, |i| format!("plane {} r{}", i / n, i % n)),
            SwitchRow::new("tops", &self.tops, |i| format!("plane {} t{}", i / n, i % n)),
        ]
    }

    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        ("arity", SizedFamily::Mols)
    }

    /// Standard wiring is the 3-level k-ary tree.
    fn equivalent(&self) -> Option<String> {
        (self.wiring == Wiring::Standard).then(|| format!("kary arity {} levels 3", self.n))
    }

    fn parameters(&self) -> Parameters {
        Parameters {
            arity: self.n,
            levels: 3,
            wiring: Some(self.wiring),
            ..Parameters::default()
        }
    }

    /// With LMC 1, base+1 is the latency route, held minimal.
    fn minimal_promise(&self, lmc: u8) -> u32 {
        if lmc >= 1 {
            0b10
        } else {
            0
        }
    }

    fn tree_positions(&self) -> Option<&[u32]> {
        Some(&self.host_pos)
    }

    fn native_pattern(&self) -> &'static str {
        "mols-shift"
    }
}
