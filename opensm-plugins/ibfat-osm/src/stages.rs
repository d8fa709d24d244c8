//! The stage line of a routing pass: how long reading the subnet, recognition, routing,
//! validation and handing the tables to OpenSM took, under the names `ibfat route
//! --timings` reports, so a site can put the engine inside OpenSM next to the command line.

use std::time::Duration;

/// The time of each stage of one routing pass, named as `ibfat route --timings` names
/// them, so a site compares the engine inside OpenSM with the command line stage by stage.
pub(crate) struct Stages {
    /// Reading the subnet out of OpenSM (and its LIDs).
    pub read: Duration,
    /// Recognising the family and its coordinates, and applying host roles.
    pub recognize: Duration,
    /// Computing every LFT entry.
    pub route: Duration,
    /// Validating the tables (0 unless `validate=1`).
    pub validate: Duration,
    /// Handing the tables to OpenSM (it sends the LFT blocks to the switches afterwards).
    pub write: Duration,
}

impl Stages {
    /// One line for OpenSM's log: `pass N stages: read_s=… recognize_s=… …` (seconds).
    pub fn line(&self, pass: u64) -> String {
        format!(
            "pass {pass} stages: read_s={:.6} recognize_s={:.6} route_s={:.6} validate_s={:.6} write_s={:.6}",
            self.read.as_secs_f64(),
            self.recognize.as_secs_f64(),
            self.route.as_secs_f64(),
            self.validate.as_secs_f64(),
            self.write.as_secs_f64()
        )
    }
}

/// Stage times of a pass, from its start.
pub(crate) struct Marks {
    pub read: std::time::Duration,
    pub recognised: std::time::Duration,
    pub lids: std::time::Duration,
    pub routed: std::time::Duration,
    pub validated: std::time::Duration,
    pub done: std::time::Duration,
}

impl Marks {
    /// The marks of a pass that read the subnet by `read` and computed nothing.
    pub fn at(read: std::time::Duration) -> Marks {
        Marks {
            read,
            recognised: read,
            lids: read,
            routed: read,
            validated: read,
            done: read,
        }
    }

    pub fn stages(&self) -> Stages {
        Stages {
            read: self.read + (self.lids - self.recognised),
            recognize: self.recognised - self.read,
            route: self.routed - self.lids,
            validate: self.validated - self.routed,
            write: self.done - self.validated,
        }
    }
}
