//! Re-sweeps of a subnet that has not changed.
//!
//! OpenSM recomputes every table on every heavy sweep: a SIGHUP, a trap, a port that
//! bounced and came back as it was. ibfat's tables are a function of what the pass reads —
//! OpenSM's node and port records (GUIDs, cables, LIDs, rates, VL capabilities), OpenSM's
//! VL offer — and of the plugin's options, which are fixed when it loads. When the records
//! and the offer are field for field those of the last successful pass, the pass hands
//! OpenSM that pass's tables and hop counts again (OpenSM clears its new LFTs before every
//! pass, so they are always written) and skips recognition and routing. Host roles come
//! from files read during the pass, outside the records: with role options every pass
//! computes anew. A failed pass forgets what it had, so the next one computes too.

use crate::lanes::VlOffer;
use crate::subnet::Records;
use crate::Found;
use ibfat::routing::{LftSet, Lids};

/// What the last successful pass computed, and what it computed it from.
pub(crate) struct LastPass {
    /// The records it read.
    pub records: Records,
    /// OpenSM's VL offer it routed for.
    pub offer: VlOffer,
    /// Its number, for the log.
    pub pass: u64,
    /// The fabric as recognised (host roles applied), for the schedule.
    pub found: Found,
    /// OpenSM's LIDs.
    pub lids: Lids,
    /// The tables.
    pub lfts: LftSet,
    /// The hop counts of its routes to switch LIDs ([`crate::hops`]).
    pub hops: Vec<Vec<(u16, u8, u8)>>,
    /// How the fabric is described in the log.
    pub description: String,
    /// The log lines about the fabric and its routes (faults, lanes, proof), (error, text):
    /// a reusing pass logs them again, so every pass's log says what the tables are.
    pub notes: Vec<(bool, String)>,
}

impl LastPass {
    /// Whether a pass that read `records` under `offer` would compute these tables again.
    pub fn serves(&self, records: &Records, offer: &VlOffer) -> bool {
        self.offer == *offer && self.records == *records
    }
}
