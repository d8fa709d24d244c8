//! What the generic layers ask of a tree as found ([`FamilyLayout`]).

use super::model::TreeLayout;
use crate::error::Result;
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::roles::Roles;
use crate::topology::{Endpoint, Fabric, FamilyLayout, Parameters, SwitchRow};

impl FamilyLayout for TreeLayout {
    fn family(&self) -> Family {
        Family::Tree
    }

    fn hosts(&self) -> &[Endpoint] {
        &self.hosts
    }

    fn others(&self) -> &[Endpoint] {
        &self.others
    }

    fn apply_roles(&mut self, fabric: &Fabric, roles: &Roles) -> Result<usize> {
        TreeLayout::apply_roles(self, fabric, roles)
    }

    fn role_warnings(&self) -> &[String] {
        &self.role_warnings
    }

    /// Hosts above the leaves are routed through their switch.
    fn hosts_beside_allowed(&self) -> bool {
        true
    }

    fn mark_levels(&self, level: &mut [u8]) {
        level.copy_from_slice(&self.level);
    }

    fn describe(&self) -> String {
        TreeLayout::describe(self)
    }

    /// A switch's coordinate is its index in its level (leaves in rank order).
    fn switch_rows(&self) -> Vec<SwitchRow> {
        (1..=self.levels())
            .map(|lv| SwitchRow::new(SwitchRow::level_title(lv), self.at(lv), |i| format!("#{i}")))
            .collect()
    }

    /// Nothing to vary: the fabric is what it is.
    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        ("topology", SizedFamily::Found)
    }

    fn parameters(&self) -> Parameters {
        Parameters {
            levels: self.levels(),
            ..Parameters::default()
        }
    }

    /// Routed on one VL, one LID per port.
    fn max_lmc(&self) -> u8 {
        0
    }
}
