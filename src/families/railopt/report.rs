//! What `recognize` and `cabling` report about a rail-optimised fabric
//! ([`crate::families::railopt::model`]): its servers, rails and scalable units, and how many
//! rail findings the check has.

use crate::families::railopt::model::check::{check, Finding, Severity};
use crate::families::railopt::model::{RailFabric, RailSource, NONE};
use crate::formats::slurm::hostlist;
use crate::recognize::report::{node_ref, NodeRef};
use crate::topology::Fabric;
use serde::Serialize;

/// Servers, rails and units (JSON `rail_optimised`).
#[derive(Clone, Debug, Serialize)]
pub struct RailsReport {
    /// Servers of several HCAs.
    pub servers: usize,
    /// The device of each rail (`mlx5_0` …), or `rail<k>` when rails come from leaves.
    pub rails: Vec<String>,
    /// `devices` (the HCAs' device names) or `leaves` (descriptions name no devices).
    pub rails_from: &'static str,
    /// Scalable units: leaves serving the same servers.
    pub units: Vec<UnitReport>,
    /// Host ports outside the servers (management or storage hosts of one HCA), by
    /// description.
    pub other_hosts: Vec<String>,
    /// Rail check errors (`ibfat cabling DISCOVERED` lists them).
    pub errors: usize,
    /// Rail check warnings.
    pub warnings: usize,
}

/// One scalable unit.
#[derive(Clone, Debug, Serialize)]
pub struct UnitReport {
    /// `su1`, `su2` … in the order of their first server.
    pub name: String,
    /// Its servers as a Slurm host list (`dgx[001-031]`).
    pub servers: String,
    /// How many.
    pub server_count: usize,
    /// Its leaves, by rail.
    pub leaves: Vec<RailLeaf>,
}

/// A leaf of a unit.
#[derive(Clone, Debug, Serialize)]
pub struct RailLeaf {
    /// The rail it serves (null when it serves none).
    pub rail: Option<u32>,
    /// The switch; its GUID, name and description appear inline in the JSON object.
    #[serde(flatten)]
    pub node: NodeRef,
}

impl RailsReport {
    /// The report of `rf` and its findings.
    pub fn new(fabric: &Fabric, rf: &RailFabric, findings: &[Finding]) -> RailsReport {
        let units = rf
            .units
            .iter()
            .enumerate()
            .map(|(u, unit)| {
                let names: Vec<String> = unit
                    .servers
                    .iter()
                    .map(|&s| rf.servers[s as usize].name.clone())
                    .collect();
                UnitReport {
                    name: format!("su{}", u + 1),
                    servers: hostlist(&names),
                    server_count: names.len(),
                    leaves: unit
                        .leaves
                        .iter()
                        .map(|&l| RailLeaf {
                            rail: Some(rf.leaf_rail[l as usize]).filter(|&r| r != NONE),
                            node: node_ref(fabric, l),
                        })
                        .collect(),
                }
            })
            .collect();
        let errors = findings.iter().filter(|f| f.severity == Severity::Error).count();
        RailsReport {
            servers: rf.servers.len(),
            rails: rf.rails.clone(),
            rails_from: match rf.source {
                RailSource::Devices => "devices",
                RailSource::Leaves => "leaves",
            },
            units,
            other_hosts: rf.others.iter().map(|e| fabric.node(e.node).desc.clone()).collect(),
            errors,
            warnings: findings.len() - errors,
        }
    }

    /// The report of `fabric` when it is rail-optimised.
    pub(crate) fn of(fabric: &Fabric) -> Option<RailsReport> {
        let rf = RailFabric::of(fabric)?;
        Some(RailsReport::new(fabric, &rf, &check(fabric, &rf)))
    }

    /// Text lines: `124 servers × 8 rails (mlx5_0 … mlx5_7) in 4 scalable units` and one
    /// line per unit.
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![format!(
            "rail-optimised: {} servers x {} rails ({}) in {} scalable unit{}{}",
            self.servers,
            self.rails.len(),
            match self.rails_from {
                "devices" => self.rails.join(" "),
                _ => "from the leaves: the descriptions name no devices".into(),
            },
            self.units.len(),
            if self.units.len() == 1 { "" } else { "s" },
            match self.other_hosts.len() {
                0 => String::new(),
                n => format!("; {n} other host{}", if n == 1 { "" } else { "s" }),
            }
        )];
        for u in &self.units {
            out.push(format!(
                "  {}: {} server{} {}, {} leaves",
                u.name,
                u.server_count,
                if u.server_count == 1 { "" } else { "s" },
                u.servers,
                u.leaves.len()
            ));
        }
        out.push(match (self.errors, self.warnings) {
            (0, 0) => "rail check: every HCA on its rail's leaf".into(),
            (e, w) => format!("rail check: {e} error(s), {w} warning(s); `ibfat cabling DISCOVERED` lists them"),
        });
        out
    }
}
