//! What the generic layers ask of a PGFT's layout ([`FamilyLayout`]); a two-level tree
//! and a rail-optimised cluster are PGFTs and answer through it.

use super::model::PgftLayout;
use crate::error::Result;
use crate::families::twolevel::model::TwolevelParams;
use crate::families::Family;
use crate::topology::lidspace::SizedFamily;
use crate::topology::roles::{self, Roles};
use crate::topology::{Endpoint, Fabric, FamilyLayout, Parameters, SwitchRow};

impl FamilyLayout for PgftLayout {
    fn family(&self) -> Family {
        if self.twolevel {
            Family::Twolevel
        } else {
            Family::Pgft
        }
    }

    fn hosts(&self) -> &[Endpoint] {
        &self.hosts
    }

    fn others(&self) -> &[Endpoint] {
        &self.others
    }

    fn apply_roles(&mut self, fabric: &Fabric, roles: &Roles) -> Result<usize> {
        let m1 = self.params.m(1);
        let off = &self.down_off;
        let lists = roles::HostLists::new(
            &mut self.hosts,
            &mut self.host_pos,
            &mut self.others,
            &mut self.other_pos,
        );
        roles::assign(fabric, roles, lists, m1, &mut self.down, |d| {
            (off[(d / m1) as usize] + d % m1) as usize
        })
    }

    /// Recognition leaves hosts on upper levels out of the rank order; they are routed
    /// through their switch.
    fn hosts_beside_allowed(&self) -> bool {
        true
    }

    fn mark_levels(&self, level: &mut [u8]) {
        for (s, &n) in self.switches.iter().enumerate() {
            level[n as usize] = self.level_of(s as u32).0 as u8;
        }
    }

    fn describe(&self) -> String {
        if self.twolevel {
            return match TwolevelParams::from_pgft(&self.params) {
                Some(t) => format!(
                    "two-level fat-tree: {} leaves of {} hosts, {} spines, {} cables per leaf-spine pair ({})",
                    t.leaves,
                    t.hosts_per_leaf,
                    t.spines,
                    t.links_per_pair,
                    self.params.describe()
                ),
                None => self.params.describe(),
            };
        }
        let over: Vec<String> = (1..self.params.levels)
            .filter_map(|lv| self.params.oversubscription(lv))
            .map(|o| format!("{o}:1"))
            .collect();
        format!(
            "parallel-ports generalised fat-tree {}, {} hosts, oversubscription {}",
            self.params.describe(),
            self.hosts.len(),
            if over.is_empty() { "none".into() } else { over.join(" ") }
        )
    }

    fn switch_rows(&self) -> Vec<SwitchRow> {
        (1..=self.params.levels)
            .map(|lv| {
                let first = self.offset[lv as usize - 1];
                SwitchRow::new(SwitchRow::level_title(lv), self.level(lv), |i| {
                    let (_, a, b) = self.coords(first + i as u32);
                    format!("t{a} c{b}")
                })
            })
            .collect()
    }

    fn lid_budget(&self) -> (&'static str, SizedFamily) {
        ("down", SizedFamily::Pgft { params: self.params })
    }

    /// A PGFT of two levels is also a two-level tree, and the other way round.
    fn equivalent(&self) -> Option<String> {
        if self.twolevel {
            Some(self.params.describe())
        } else {
            TwolevelParams::from_pgft(&self.params).map(|t| t.describe())
        }
    }

    fn parameters(&self) -> Parameters {
        Parameters {
            levels: self.params.levels,
            ..Parameters::default()
        }
    }

    fn tree_positions(&self) -> Option<&[u32]> {
        Some(&self.host_pos)
    }

    fn native_pattern(&self) -> &'static str {
        "kary-shift"
    }
}
