//! What the generic layers ask of a full mesh's layout ([`FamilyLayout`]).

use super::model::FullmeshLayout;
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::{FamilyLayout, SwitchRow};

impl FamilyLayout for FullmeshLayout {
    fn family(&self) -> Family {
        Family::Fullmesh
    }

    crate::topology::ranked_hosts!(h, down);

    fn mark_levels(&self, level: &mut [u8]) {
        self.switches.iter().for_each(|&n| level[n as usize] = 1);
    }

    fn describe(&self) -> String {
        format!(
            "full mesh of {} switches, {} hosts per switch, {} cable{} per switch pair{}",
            self.n,
            self.h,
            self.w,
            if self.w == 1 { "" } else { "s" },
            match self.cut.iter().map(|c| c.2).sum::<u32>() {
                0 => String::new(),
                k => format!(", degraded: {k} missing cables"),
            }
        )
    }

    fn switch_rows(&self) -> Vec<SwitchRow> {
        vec![SwitchRow::new("switches (full mesh)", &self.switches, |i| {
            format!("s{i}")
        })]
    }

    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        (
            "switches",
            SizedFamily::Fullmesh {
                hosts_per_switch: self.h,
            },
        )
    }

    /// LMC offsets carry the one-relay detours.
    fn max_lmc(&self) -> u8 {
        7
    }

    /// The base LID is the direct route; the other offsets detour.
    fn minimal_promise(&self, _lmc: u8) -> u32 {
        0b1
    }
}
