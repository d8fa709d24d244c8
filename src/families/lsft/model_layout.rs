//! What the generic layers ask of an LSFT's layout ([`FamilyLayout`]).

use super::model::LsftLayout;
use crate::error::{Error, Result};
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::roles::Roles;
use crate::topology::{Endpoint, Fabric, FamilyLayout, Parameters, SwitchRow};

impl FamilyLayout for LsftLayout {
    fn family(&self) -> Family {
        Family::Lsft
    }

    fn hosts(&self) -> &[Endpoint] {
        &self.hosts
    }

    /// LSFTs refuse non-compute hosts: their rank order is the geometry of the
    /// conflict-free all-to-all; a pattern on part of the hosts is a job (`--job`).
    fn apply_roles(&mut self, fabric: &Fabric, roles: &Roles) -> Result<usize> {
        match self.hosts.iter().find(|&&ep| !roles.is_compute(fabric, ep)) {
            None => Ok(0),
            Some(ep) => Err(Error::input(
                "host roles",
                format!(
                    "{} is non-compute, but every host of an LSFT is a rank of its all-to-all",
                    fabric.node(ep.node).desc
                ),
                Some("run patterns on part of the hosts with --job".into()),
            )),
        }
    }

    fn mark_levels(&self, level: &mut [u8]) {
        self.leaves.iter().for_each(|&n| level[n as usize] = 1);
        self.spines.iter().for_each(|&n| level[n as usize] = 2);
    }

    fn describe(&self) -> String {
        format!(
            "Latin-square fat-tree LSFT({}) {}-sided, {} hosts per leaf",
            self.q,
            if self.sides == 2 { "two" } else { "one" },
            self.hosts_per_leaf
        )
    }

    /// Two-sided: side 0's leaves then side 1's; the names (L3a, L3b) tell the side.
    fn switch_rows(&self) -> Vec<SwitchRow> {
        vec![
            SwitchRow::new("leaves", &self.leaves, |i| {
                self.plane.point(i as u32 % self.npts()).to_string()
            }),
            SwitchRow::new("spines", &self.spines, |i| self.plane.line(i as u32).to_string()),
        ]
    }

    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        let hosts_per_leaf = (self.hosts_per_leaf != self.q + 1).then_some(self.hosts_per_leaf);
        ("order", SizedFamily::Lsft { hosts_per_leaf })
    }

    fn parameters(&self) -> Parameters {
        Parameters {
            order: self.q,
            sides: self.sides,
            ..Parameters::default()
        }
    }

    fn minimal_promise(&self, _lmc: u8) -> u32 {
        u32::MAX
    }

    fn native_pattern(&self) -> &'static str {
        "lsft"
    }
}
