//! Re-sweeps of a subnet that has not changed, or that came back to an earlier state.
//!
//! OpenSM recomputes every table on every heavy sweep: a SIGHUP, a trap, a port that
//! bounced and came back as it was. ibfat's tables are a function of what the pass reads —
//! OpenSM's node and port records (GUIDs, cables, LIDs, rates, VL capabilities), OpenSM's
//! VL offer — and of the plugin's options, which are fixed when it loads. When the records
//! and the offer are field for field those of a recent successful pass, the pass hands
//! OpenSM that pass's tables and hop counts again (OpenSM clears its new LFTs before every
//! pass, so they are always written) and skips recognition and routing.
//!
//! The last few distinct states are kept ([`Recent`]), not only the last one: a flapping
//! cable (the usual cause of a storm of heavy sweeps) alternates between two subnets, and
//! the pass that sees it come back reprograms the tables it had before the cut. Host
//! roles come from files read during the pass, outside the records: with role options
//! every pass computes anew. A failed pass forgets everything kept, so the next one
//! computes too.

use crate::lanes::{ActiveLanes, VlOffer};
use crate::subnet::Records;
use crate::Found;
use ibfat::routing::{LftSet, Lids};
use std::mem::size_of_val;
use std::sync::Arc;

/// How many distinct subnets are kept: a flapping cable needs two, two of them four.
const KEPT: usize = 4;

/// The memory the states past the newest may hold together (tables, hop counts, records
/// and the recognised fabric, roughly): a 10,000-host tree's state is some 20 MiB, so
/// there only the newest is kept.
const KEPT_BYTES: usize = 64 << 20;

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
    /// The SL/VL rules its routes need (detours), shared with OpenSM's SA and QoS
    /// callbacks while its tables are the programmed ones; `None`: OpenSM's own stand.
    pub lanes: Option<Arc<ActiveLanes>>,
}

impl LastPass {
    /// Whether a pass that read `records` under `offer` would compute these tables again.
    pub fn serves(&self, records: &Records, offer: &VlOffer) -> bool {
        self.offer == *offer && self.records == *records
    }
}

impl LastPass {
    /// Roughly the heap bytes this state holds.
    pub fn bytes(&self) -> usize {
        let fabric = self.found.fabric();
        let hops: usize = self.hops.iter().map(|h| size_of_val(h.as_slice())).sum();
        self.records.bytes()
            + size_of_val(self.lfts.ports.as_slice())
            + hops
            + size_of_val(fabric.ports.as_slice())
            + fabric.nodes.len() * 128
            + size_of_val(self.lids.owner.as_slice())
            + size_of_val(self.lids.base.as_slice())
    }
}

/// The states of the last successful passes, newest first, each a different subnet.
#[derive(Default)]
pub(crate) struct Recent {
    kept: Vec<LastPass>,
}

impl Recent {
    /// Take out the state a pass that read `records` under `offer` would compute again.
    pub fn take(&mut self, records: &Records, offer: &VlOffer) -> Option<LastPass> {
        let k = self.kept.iter().position(|l| l.serves(records, offer))?;
        Some(self.kept.remove(k))
    }

    /// Whether a state serves a pass that reads `records` under `offer`.
    pub fn serves(&self, records: &Records, offer: &VlOffer) -> bool {
        self.kept.iter().any(|l| l.serves(records, offer))
    }

    /// The state of the last successful pass.
    pub fn newest(&self) -> Option<&LastPass> {
        self.kept.first()
    }

    /// Keep `done` as the newest state; the oldest past [`KEPT`] states or [`KEPT_BYTES`]
    /// come back, for the caller to free where it suits ([`crate::ahead::Ahead::discard`]).
    pub fn keep(&mut self, done: LastPass) -> Vec<LastPass> {
        self.kept.insert(0, done);
        let n = kept_of(self.kept.iter().skip(1).map(LastPass::bytes));
        self.kept.split_off(n)
    }
}

/// How many states to keep: the newest, and the next older ones (of `older` bytes each,
/// newest first) while they are fewer than [`KEPT`] in all and fit [`KEPT_BYTES`].
fn kept_of(older: impl Iterator<Item = usize>) -> usize {
    let mut bytes = 0usize;
    let fit = older.take(KEPT - 1).take_while(|&b| {
        bytes = bytes.saturating_add(b);
        bytes <= KEPT_BYTES
    });
    1 + fit.count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_newest_is_always_kept_and_older_ones_by_count_and_bytes() {
        assert_eq!(kept_of([].into_iter()), 1);
        assert_eq!(kept_of([10, 10].into_iter()), 3);
        assert_eq!(kept_of([10; 9].into_iter()), KEPT);
        // a 10,000-host tree's state alone is past the budget for older states
        assert_eq!(kept_of([KEPT_BYTES + 1, 10].into_iter()), 1);
        assert_eq!(kept_of([KEPT_BYTES / 2, KEPT_BYTES / 2, 1].into_iter()), 3);
        assert_eq!(kept_of([usize::MAX, usize::MAX].into_iter()), 1);
    }
}
