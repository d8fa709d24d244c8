//! What changed between two LFT sets of one fabric (`ibfat lfts diff`).
//!
//! After a fault the subnet manager reroutes and sends the switches the LFT blocks that
//! changed; every changed entry may disturb a flow of a running job. Comparing the tables
//! before and after, entry by entry, says how small a reroute was: which switches changed,
//! which LIDs moved to which port, and what fraction of all entries that is. Entries are
//! matched by switch (GUID) and LID, so both dumps must be read with the same LIDs; a LID
//! one table routes and the other does not, and a switch one dump has no section for, are
//! reported as such rather than as a port change.

use crate::error::{Error, Result};
use crate::routing::{LftSet, Lids, NO_ROUTE};
use crate::topology::label::Labels;
use crate::topology::{Fabric, NodeId, NO_PEER};
use serde::Serialize;

/// One side of the comparison: the LIDs a dump was read with, its tables, and which rows
/// (switches) it had a section for.
#[derive(Clone, Copy)]
pub struct DumpTables<'a> {
    /// The LIDs the entries are indexed by.
    pub lids: &'a Lids,
    /// The tables as read.
    pub lfts: &'a LftSet,
    /// `listed[row]`: the dump had a section for the switch of that row.
    pub listed: &'a [bool],
}

/// A switch, as reports name it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SwitchName {
    /// Node GUID, `0x` + 16 hex digits.
    pub guid: String,
    /// Its LID (0 when neither side gave it one).
    pub lid: u16,
    /// Its label ([`Labels`]): the node description, made unique where needed.
    pub name: String,
}

/// One entry that differs; a port is absent where that table has no entry for the LID.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EntryChange {
    /// The destination LID.
    pub lid: u16,
    /// Output port in the old table (0 = the switch itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub old: Option<u8>,
    /// Output port in the new table.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new: Option<u8>,
}

/// The entries of one switch that differ, in LID order.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct SwitchChanges {
    /// The switch.
    #[serde(flatten)]
    pub switch: SwitchName,
    /// Its changed entries.
    pub changes: Vec<EntryChange>,
}

/// The comparison (`ibfat.lfts-diff/1`, docs/json.md §11).
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct LftDiff {
    /// Switches both dumps have a section for.
    pub switches_compared: usize,
    /// Of those, switches with at least one changed entry.
    pub switches_changed: usize,
    /// Entries of the compared switches that either table routes.
    pub entries_compared: usize,
    /// Of those, entries that differ (including the two kinds below).
    pub entries_changed: usize,
    /// Entries only the old table routes.
    pub entries_only_old: usize,
    /// Entries only the new table routes.
    pub entries_only_new: usize,
    /// `entries_changed / entries_compared` (0 when nothing was compared).
    pub changed_fraction: f64,
    /// Switches only the old dump has a section for, in GUID order.
    pub switches_only_old: Vec<SwitchName>,
    /// Switches only the new dump has a section for, in GUID order.
    pub switches_only_new: Vec<SwitchName>,
    /// Every changed switch, in GUID order.
    pub switches: Vec<SwitchChanges>,
}

impl LftDiff {
    /// The two dumps route alike: no changed entry and no switch missing from either.
    pub fn identical(&self) -> bool {
        self.entries_changed == 0 && self.switches_only_old.is_empty() && self.switches_only_new.is_empty()
    }
}

/// The entry of `lid` at `row`, `None` where the table has none.
fn entry(t: &LftSet, row: usize, lid: usize) -> Option<u8> {
    (lid < t.stride)
        .then(|| t.ports[row * t.stride + lid])
        .filter(|&p| p != NO_ROUTE)
}

/// The LID of switch `sw` in `lids`, 0 when it has none.
fn switch_lid(fabric: &Fabric, lids: &Lids, sw: NodeId) -> u16 {
    lids.base.get(fabric.port_index(sw, 0) as usize).copied().unwrap_or(0)
}

/// Both sides must index their entries by the same LIDs: a LID owned by different ports
/// would compare routes to different destinations. A LID only one side owns is fine (a
/// host that left or joined): its entries show up as routed on one side only.
fn same_lids(fabric: &Fabric, old: &Lids, new: &Lids) -> Result<()> {
    for (lid, (&a, &b)) in old.owner.iter().zip(&new.owner).enumerate().skip(1) {
        if a != NO_PEER && b != NO_PEER && a != b {
            return Err(Error::input(
                "lfts",
                format!(
                    "LID 0x{lid:04x} belongs to port 0x{:016x} in OLD but to port 0x{:016x} in NEW: the dumps were made for different LIDs",
                    fabric.ports[a as usize].guid, fabric.ports[b as usize].guid
                ),
                Some("pass the guid2lid both were made for (--lids), or compare dumps of the same sweep".into()),
            ));
        }
    }
    Ok(())
}

/// Compare two LFT sets of `fabric`, read from two dumps (both against this fabric, so
/// their rows are the same switches).
pub fn diff(fabric: &Fabric, old: DumpTables, new: DumpTables) -> Result<LftDiff> {
    same_lids(fabric, old.lids, new.lids)?;
    let labels = Labels::new(fabric);
    let name = |row: usize| {
        let sw = old.lfts.switches[row];
        let lid = match switch_lid(fabric, old.lids, sw) {
            0 => switch_lid(fabric, new.lids, sw),
            l => l,
        };
        SwitchName {
            guid: format!("0x{:016x}", fabric.node(sw).guid),
            lid,
            name: labels.get(sw).to_string(),
        }
    };
    let mut rows: Vec<usize> = (0..old.lfts.switches.len()).collect();
    rows.sort_by_key(|&r| fabric.node(old.lfts.switches[r]).guid);
    let width = old.lfts.stride.max(new.lfts.stride);
    let mut d = LftDiff {
        switches_compared: 0,
        switches_changed: 0,
        entries_compared: 0,
        entries_changed: 0,
        entries_only_old: 0,
        entries_only_new: 0,
        changed_fraction: 0.0,
        switches_only_old: Vec::new(),
        switches_only_new: Vec::new(),
        switches: Vec::new(),
    };
    for row in rows {
        match (old.listed[row], new.listed[row]) {
            (true, true) => {}
            (true, false) => {
                d.switches_only_old.push(name(row));
                continue;
            }
            (false, true) => {
                d.switches_only_new.push(name(row));
                continue;
            }
            (false, false) => continue,
        }
        d.switches_compared += 1;
        let mut changes = Vec::new();
        for lid in 1..width {
            let (a, b) = (entry(old.lfts, row, lid), entry(new.lfts, row, lid));
            if a.is_none() && b.is_none() {
                continue;
            }
            d.entries_compared += 1;
            if a != b {
                d.entries_only_old += usize::from(b.is_none());
                d.entries_only_new += usize::from(a.is_none());
                changes.push(EntryChange {
                    lid: lid as u16,
                    old: a,
                    new: b,
                });
            }
        }
        if !changes.is_empty() {
            d.entries_changed += changes.len();
            d.switches_changed += 1;
            d.switches.push(SwitchChanges {
                switch: name(row),
                changes,
            });
        }
    }
    if d.entries_compared > 0 {
        d.changed_fraction = d.entries_changed as f64 / d.entries_compared as f64;
    }
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::NodeKind;

    /// Two switches, one host on each, one cable between them.
    fn pair() -> (Fabric, Lids) {
        let mut f = Fabric::new();
        let a = f.add_node(NodeKind::Switch, 4, 0x20, "A", "sw A").unwrap();
        let b = f.add_node(NodeKind::Switch, 4, 0x10, "B", "sw B").unwrap();
        let h = f.add_node(NodeKind::Ca, 1, 0x30, "H", "host").unwrap();
        f.connect(a, 1, b, 1).unwrap();
        f.connect(a, 2, h, 1).unwrap();
        let lids = Lids::plan(&f, &[], 0).unwrap();
        (f, lids)
    }

    #[test]
    fn reports_moved_added_and_removed_entries_and_missing_switches() {
        let (f, lids) = pair();
        let old = LftSet::new(&f, lids.max_lid());
        let mut new = old.clone();
        let mut base = old.clone();
        let (a, b) = (old.switches[0], old.switches[1]);
        base.set(a, 1, 1);
        base.set(a, 2, 2);
        new.set(a, 1, 3); // moved
        new.set(a, 3, 2); // added; LID 2 removed
        let listed = vec![true, true];
        let only_a = vec![true, false];
        let side = |t, l| DumpTables {
            lids: &lids,
            lfts: t,
            listed: l,
        };
        let d = diff(&f, side(&base, &listed), side(&new, &only_a)).unwrap();
        assert_eq!((d.switches_compared, d.switches_changed), (1, 1));
        assert_eq!((d.entries_compared, d.entries_changed), (3, 3));
        assert_eq!((d.entries_only_old, d.entries_only_new), (1, 1));
        assert_eq!(d.switches_only_old.len(), 1);
        assert_eq!(d.switches_only_old[0].guid, format!("0x{:016x}", f.node(b).guid));
        let c = &d.switches[0].changes;
        assert_eq!(
            c[0],
            EntryChange {
                lid: 1,
                old: Some(1),
                new: Some(3)
            }
        );
        assert_eq!(
            c[1],
            EntryChange {
                lid: 2,
                old: Some(2),
                new: None
            }
        );
        assert_eq!(
            c[2],
            EntryChange {
                lid: 3,
                old: None,
                new: Some(2)
            }
        );
        assert!(!d.identical());
        let same = diff(&f, side(&base, &listed), side(&base, &listed)).unwrap();
        assert!(same.identical() && same.changed_fraction == 0.0);
    }
}
