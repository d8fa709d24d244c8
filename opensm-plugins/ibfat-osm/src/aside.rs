//! Why a routing pass steps aside: every reason the engine leaves a fabric to the next
//! engine of OpenSM's list, as one type whose variants carry the cause as data (GUIDs,
//! counts, the library's typed errors), so the log line names the cause the same way
//! every time and tests and operators can tell the causes apart.

use ibfat::error::Error;
use ibfat::routing::Refusal;
use std::fmt;
use std::sync::Arc;

/// Why the engine did not route this pass (OpenSM falls back to its next engine).
#[derive(Debug)]
pub enum StepAside {
    /// The `event_plugin_options` line could not be read (when the plugin was created).
    Options(Arc<Error>),
    /// The subnet could not be read from OpenSM's structures.
    Subnet(SubnetFault),
    /// The fabric is of no family ibfat knows.
    Unrecognized {
        /// Switches in the subnet.
        switches: usize,
        /// Channel adapters in the subnet.
        cas: usize,
        /// Recognition's reason (the furthest recogniser's account).
        reason: String,
    },
    /// A known family with faults, and `degraded=refuse`.
    DegradedRefused {
        /// The degraded fabric, as recognition describes it.
        fabric: String,
    },
    /// Host roles that cannot apply.
    Roles(RolesRefusal),
    /// OpenSM's LIDs are missing or incomplete.
    Lids(LidsFault),
    /// The routing pipeline refused.
    Route {
        /// The fabric, as recognition describes it.
        fabric: String,
        /// The pipeline's refusal.
        refusal: Refusal,
        /// For a refusal over VLs: why the ports cannot offer them, in OpenSM's terms.
        vl_reason: Option<String>,
    },
    /// The tables failed their proof (a bug: the log has the proof's lines).
    Unproven {
        /// The fabric, as recognition describes it.
        fabric: String,
    },
    /// OpenSM would not take the tables.
    Program(ProgramFault),
}

/// What went wrong reading the subnet.
#[derive(Debug)]
pub enum SubnetFault {
    /// OpenSM's tables kept changing under the read.
    Changed,
    /// A port's peer is a node the subnet does not have.
    UnknownPeer {
        /// The port's node GUID.
        node: u64,
        /// The port number.
        port: u8,
        /// The peer's node GUID.
        peer: u64,
    },
    /// The records do not make a fabric (the library's reason).
    Fabric(Error),
}

/// Why host roles cannot apply.
#[derive(Debug)]
pub enum RolesRefusal {
    /// Roles with `objective=spread`, whose rank order is the family's.
    Spread {
        /// The fabric, as recognition describes it.
        fabric: String,
    },
    /// Roles on a degraded fabric, whose repaired schedule keeps the family's rank order.
    Degraded {
        /// The fabric, as recognition describes it.
        fabric: String,
    },
    /// A role file or pattern that contradicts the fabric (the library's reason).
    Apply(Error),
}

/// What is wrong with OpenSM's LIDs.
#[derive(Debug)]
pub enum LidsFault {
    /// No port has a LID yet (the first sweep has not assigned them).
    Unassigned,
    /// The LIDs cannot serve (duplicates, a port without one; the library's reason).
    Unusable(Error),
}

/// Why OpenSM would not take the tables.
#[derive(Debug)]
pub enum ProgramFault {
    /// OpenSM has no switch of this GUID (the subnet changed since it was read).
    UnknownSwitch(u64),
    /// The switch's LFT is smaller than the table.
    ShortLft {
        /// The switch's GUID.
        switch: u64,
        /// Entries OpenSM's LFT has.
        size: u32,
        /// Entries the table needs.
        needed: usize,
    },
}

impl StepAside {
    /// The pipeline's refusal on `fabric`, with the VL reason `vl_reason(need)` gives.
    pub fn route(fabric: &str, refusal: Refusal, vl_reason: impl Fn(u8) -> Option<String>) -> StepAside {
        let vl_reason = match &refusal {
            Refusal::Vls { need, .. } => vl_reason(*need),
            Refusal::Input(_) => None,
        };
        StepAside::Route {
            fabric: fabric.to_string(),
            refusal,
            vl_reason,
        }
    }
}

impl fmt::Display for StepAside {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StepAside::Options(e) => write!(f, "bad plugin options: {e}"),
            StepAside::Subnet(e) => write!(f, "{e}"),
            StepAside::Unrecognized { switches, cas, reason } => write!(
                f,
                "not a fabric ibfat recognises ({switches} switches, {cas} CAs): {reason}"
            ),
            StepAside::DegradedRefused { fabric } => {
                write!(
                    f,
                    "{fabric}; degraded fabrics are left to the next engine (degraded=refuse)"
                )
            }
            StepAside::Roles(e) => write!(f, "{e}"),
            StepAside::Lids(e) => write!(f, "{e}"),
            StepAside::Route {
                fabric,
                refusal,
                vl_reason,
            } => match (refusal, vl_reason) {
                (Refusal::Vls { .. }, Some(why)) => write!(f, "{fabric}: {why}"),
                (Refusal::Vls { need, .. }, None) => write!(f, "{fabric}: the routes need {need} data VLs"),
                (Refusal::Input(e), _) => write!(f, "{e}"),
            },
            StepAside::Unproven { fabric } => write!(f, "{fabric}: the computed tables fail validation"),
            StepAside::Program(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for SubnetFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SubnetFault::Changed => f.write_str("the subnet changed while it was read"),
            SubnetFault::UnknownPeer { node, port, peer } => {
                write!(f, "port {port} of 0x{node:016x} leads to an unknown node 0x{peer:016x}")
            }
            SubnetFault::Fabric(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for RolesRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RolesRefusal::Spread { fabric } => write!(
                f,
                "{fabric}: host roles do not apply to the spread objective (its rank order is the family's)"
            ),
            RolesRefusal::Degraded { fabric } => write!(
                f,
                "{fabric}: host roles do not apply to a degraded fabric (its repaired schedule keeps the family's rank order)"
            ),
            RolesRefusal::Apply(e) => write!(f, "host roles: {e}"),
        }
    }
}

impl fmt::Display for LidsFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LidsFault::Unassigned => f.write_str("OpenSM has assigned no LIDs yet"),
            LidsFault::Unusable(e) => write!(f, "{e}"),
        }
    }
}

impl fmt::Display for ProgramFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProgramFault::UnknownSwitch(g) => write!(f, "OpenSM does not know switch 0x{g:016x}"),
            ProgramFault::ShortLft { switch, size, needed } => {
                write!(
                    f,
                    "switch 0x{switch:016x} has an LFT of {size} entries, {needed} needed"
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The log line of each cause: the operator's words, with the data the variant holds.
    #[test]
    fn each_cause_reads_as_before() {
        let fabric = "LSFT(3) with 2 cables missing".to_string();
        let lines = [
            (StepAside::Subnet(SubnetFault::Changed), "the subnet changed while it was read"),
            (
                StepAside::Subnet(SubnetFault::UnknownPeer { node: 0x2c9, port: 3, peer: 0x10 }),
                "port 3 of 0x00000000000002c9 leads to an unknown node 0x0000000000000010",
            ),
            (StepAside::Lids(LidsFault::Unassigned), "OpenSM has assigned no LIDs yet"),
            (
                StepAside::Program(ProgramFault::ShortLft { switch: 1, size: 64, needed: 97 }),
                "switch 0x0000000000000001 has an LFT of 64 entries, 97 needed",
            ),
            (
                StepAside::DegradedRefused { fabric: fabric.clone() },
                "LSFT(3) with 2 cables missing; degraded fabrics are left to the next engine (degraded=refuse)",
            ),
            (
                StepAside::Roles(RolesRefusal::Degraded { fabric: fabric.clone() }),
                "LSFT(3) with 2 cables missing: host roles do not apply to a degraded fabric (its repaired schedule keeps the family's rank order)",
            ),
            (
                StepAside::route(&fabric, Refusal::Vls { need: 3, have: 2 }, |_| None),
                "LSFT(3) with 2 cables missing: the routes need 3 data VLs",
            ),
            (
                StepAside::route(&fabric, Refusal::Vls { need: 3, have: 2 }, |n| Some(format!("{n} VLs; the ports offer 2"))),
                "LSFT(3) with 2 cables missing: 3 VLs; the ports offer 2",
            ),
            (StepAside::Unproven { fabric }, "LSFT(3) with 2 cables missing: the computed tables fail validation"),
        ];
        for (aside, line) in lines {
            assert_eq!(aside.to_string(), line);
        }
    }
}
