//! Why a routing pass steps aside: every reason the engine leaves a fabric to the next
//! engine of OpenSM's list, as one type, so the log line names the cause the same way
//! every time and tests and operators can tell the causes apart.

use ibfat::routing::Refusal;
use std::fmt;

/// Why the engine did not route this pass (OpenSM falls back to its next engine).
#[derive(Debug)]
pub enum StepAside {
    /// The `event_plugin_options` line could not be read.
    Options(String),
    /// The subnet could not be read from OpenSM's structures.
    Subnet(String),
    /// The fabric is of no family ibfat knows.
    Unrecognized {
        switches: usize,
        cas: usize,
        reason: String,
    },
    /// A known family with faults, and `degraded=refuse`.
    DegradedRefused(String),
    /// Host roles that cannot apply (a role file contradicts the fabric, or roles on a
    /// degraded fabric or with the spread objective).
    Roles(String),
    /// OpenSM's LIDs are missing or incomplete.
    Lids(String),
    /// The routing pipeline refused: its reason, in OpenSM's terms.
    Route(String),
    /// The tables failed their proof (a bug: the log has the proof's lines).
    Unproven(String),
    /// OpenSM would not take the tables.
    Program(String),
}

impl StepAside {
    /// The pipeline's refusal of `what`, with the VL reason `vl_reason(need)` gives.
    pub fn route(what: &str, r: Refusal, vl_reason: impl Fn(u8) -> Option<String>) -> StepAside {
        let why = match r {
            Refusal::Vls { need, .. } => {
                let why = vl_reason(need).unwrap_or_else(|| format!("the routes need {need} data VLs"));
                format!("{what}: {why}")
            }
            Refusal::Input(e) => e.to_string(),
        };
        StepAside::Route(why)
    }
}

impl fmt::Display for StepAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepAside::Options(e) => write!(f, "bad plugin options: {e}"),
            StepAside::Subnet(e) | StepAside::Lids(e) | StepAside::Program(e) => write!(f, "{e}"),
            StepAside::Unrecognized { switches, cas, reason } => write!(
                f,
                "not a fabric ibfat recognises ({switches} switches, {cas} CAs): {reason}"
            ),
            StepAside::DegradedRefused(d) => {
                write!(f, "{d}; degraded fabrics are left to the next engine (degraded=refuse)")
            }
            StepAside::Roles(e) | StepAside::Route(e) => write!(f, "{e}"),
            StepAside::Unproven(d) => write!(f, "{d}: the computed tables fail validation"),
        }
    }
}
