//! The pre-deployment cabling audit: compare what `ibnetdiscover` found with the plan,
//! cable by cable, and say how to fix every difference.
//!
//! [`audit`] is a pipeline of three steps:
//! 1. [`matching`]: pair the nodes of plan and dump (by GUID, description or structure);
//! 2. [`compare`]: the cables in plan terms; what is in place, degraded, swapped,
//!    miswired, missing, extra, or cannot be compared;
//! 3. [`explain`]: the fix text for every finding, and the [`CablingReport`].

mod compare;
mod explain;
mod matching;
mod rails;

use crate::formats::dump::Discovered;
use crate::topology::{Fabric, Layout};
use serde::Serialize;

/// How nodes were paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum MatchedBy {
    /// The dump's GUIDs are the plan's (ibsim, or a plan made with the real GUIDs).
    Guid,
    /// Node descriptions, unique per kind, identify the nodes.
    Description,
    /// Neither identifies them: the cabling itself (see the report's notes).
    Structure,
}

impl std::fmt::Display for MatchedBy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            MatchedBy::Guid => "GUID",
            MatchedBy::Description => "node description",
            MatchedBy::Structure => "structure",
        })
    }
}

/// One end of a cable as the report shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EndRef {
    /// The plan's name of the node (`L3`), or the dump's description/id for nodes the
    /// plan does not have.
    pub node: String,
    /// The node description, for finding the box in the room.
    pub description: String,
    /// The node GUID, `0x` and 16 hex digits.
    pub guid: String,
    /// The port number on that node.
    pub port: u8,
    /// False for a node that is only in the dump.
    pub planned: bool,
}

/// A cable by its two ends.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct CableRef {
    /// One end (the smaller in plan terms).
    pub a: EndRef,
    /// The other end.
    pub b: EndRef,
}

/// A planned cable that is not there.
#[derive(Clone, Debug, Serialize)]
pub struct Missing {
    /// The planned cable.
    pub cable: CableRef,
    /// What to do about it.
    pub fix: String,
}

/// A cable that is not in the plan.
#[derive(Clone, Debug, Serialize)]
pub struct Extra {
    /// The found cable.
    pub cable: CableRef,
    /// What to do about it.
    pub fix: String,
}

/// A planned cable found with one or both ends elsewhere.
#[derive(Clone, Debug, Serialize)]
pub struct Miswired {
    /// `wrong_port` (same node, other port), `wrong_switch`, `wrong_host`, `wrong_ports`
    /// (both ends on other ports of the right nodes).
    pub kind: String,
    /// The cable as planned.
    pub planned: CableRef,
    /// The cable as found.
    pub found: CableRef,
    /// What to do about it.
    pub fix: String,
}

/// Two planned cables found with their ends exchanged.
#[derive(Clone, Debug, Serialize)]
pub struct Swapped {
    /// Where the exchange happened: `at L3` (one switch) or `between L3 and L5`.
    pub at: String,
    /// The two cables as planned.
    pub planned: [CableRef; 2],
    /// The two cables as found.
    pub found: [CableRef; 2],
    /// What to do about it.
    pub fix: String,
}

/// A cable in place that runs narrower or slower than planned.
#[derive(Clone, Debug, Serialize)]
pub struct Degraded {
    /// The cable.
    pub cable: CableRef,
    /// Planned width and speed (`4xEDR`).
    pub planned: String,
    /// Found width and speed.
    pub found: String,
    /// What to do about it.
    pub fix: String,
}

/// A dump problem, with its line.
#[derive(Clone, Debug, Serialize)]
pub struct DumpProblem {
    /// Line of the dump.
    pub line: usize,
    /// What is wrong with it.
    pub message: String,
}

/// The audit's result.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct CablingReport {
    /// How nodes were paired.
    pub matched_by: MatchedBy,
    /// Cables in the plan.
    pub planned_cables: usize,
    /// Cables in the dump.
    pub found_cables: usize,
    /// Planned cables found in place (possibly degraded).
    pub matching_cables: usize,
    /// Planned cables not found.
    pub missing: Vec<Missing>,
    /// Found cables not planned.
    pub extra: Vec<Extra>,
    /// Planned cables found with one or both ends elsewhere.
    pub miswired: Vec<Miswired>,
    /// Pairs of cables found with their ends exchanged.
    pub swapped: Vec<Swapped>,
    /// Cables in place at a lower rate than planned.
    pub degraded: Vec<Degraded>,
    /// Inconsistencies of the dump itself.
    pub problems: Vec<DumpProblem>,
    /// What could not be compared, and why.
    pub uncompared: Vec<String>,
    /// Remarks (nodes matched by description though their GUID differs, ...).
    pub notes: Vec<String>,
    /// A rail-optimised plan: the misplaced HCAs in its terms (server, HCA, rail, unit),
    /// swaps paired (`rails::check_against_plan`). Every one is also a cable finding
    /// above, so they do not add to [`CablingReport::faults`]. JSON writers put them
    /// under `rail_findings`, as without a plan.
    #[serde(skip)]
    pub rail_findings: Vec<crate::families::railopt::model::check::Finding>,
}

impl CablingReport {
    /// True when the fabric was fully compared and matches the plan.
    pub fn is_match(&self) -> bool {
        self.missing.is_empty()
            && self.extra.is_empty()
            && self.miswired.is_empty()
            && self.swapped.is_empty()
            && self.degraded.is_empty()
            && self.problems.is_empty()
            && self.uncompared.is_empty()
    }

    /// Number of findings (cabling faults).
    pub fn faults(&self) -> usize {
        self.missing.len() + self.extra.len() + self.miswired.len() + self.swapped.len() + self.degraded.len()
    }
}

/// Audit a discovered fabric against the plan: match nodes, compare cables, explain
/// every difference with a fix.
pub fn audit(plan: &Fabric, plan_layout: Option<&Layout>, found: &Discovered) -> CablingReport {
    let matched = matching::match_nodes(plan, plan_layout, &found.fabric);
    let terms = compare::Terms::new(plan, &found.fabric, &matched.nodes);
    let comparison = compare::compare(&terms, found);
    explain::report(&terms, &matched, comparison, found)
}
