//! Recognising a discovered fabric: which family it is, its parameters, and the layout
//! (which switch is which leaf/spine/level switch, which port leads where) that routing
//! and the all-to-all schedules use.
//!
//! The recognisers only look at the cabling (which ports of which switches are joined),
//! never at names, descriptions or GUIDs, so a fabric cabled "in any order" is found as
//! long as its structure is right; GUID order only breaks ties between labellings that
//! are all correct, so that the answer is deterministic. Every recogniser ends in the
//! same `*Layout::resolve` the builders use: a recognised fabric routes and schedules
//! exactly like a planned one.
//!
//! When nothing fits, the answer is [`Recognition::Unrecognized`] with the reason of the
//! family that came closest ("leaves "L3" and "L9" share 2 spines") and the reasons of
//! the others.
//!
//! A MOLS 3-level tree with standard wiring *is* a 3-level k-ary tree (k = n). In
//! automatic mode it is reported as `kary` (the simpler name for the same fabric) with
//! [`Recognition::Recognized::equivalent`] saying so; ask for `mols` explicitly to get
//! its MOLS layout.

pub mod degraded;
mod degraded_mols;
pub mod degraded_pgft;
mod fullmesh;
mod graph;
mod kary;
mod lsft;
mod mols;
mod pgft;
mod plane_iso;
mod rail_slots;
pub mod report;
pub mod report_rails;
pub mod report_tree;
mod tree;

pub use graph::label;
pub use report::{report, RecognitionReport};

use crate::error::{Error, Result};
use crate::topology::twolevel::TwolevelParams;
use crate::topology::{Fabric, Layout, Wiring};
pub use degraded::{Degraded, Fault};
use graph::SwitchGraph;
use std::fmt;
use std::str::FromStr;

/// The family to look for (`None` = try all).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FamilyHint {
    /// Latin-square fat-tree (`lsft`): leaves and spines are the points and lines of PG(2,q).
    Lsft,
    /// Standard k-ary n-tree (`kary`).
    Kary,
    /// Proximity 3-level tree with Latin-square middle wiring (`mols`).
    Mols,
    /// Parallel-ports generalised fat-tree (`pgft`): any arities, parallel cables,
    /// oversubscription, partly populated leaves.
    Pgft,
    /// Full mesh of switches (`fullmesh`): every pair of switches cabled, hosts on all.
    Fullmesh,
    /// Two-level fat-tree (`twolevel`): a 2-level PGFT named in leaves, hosts per leaf,
    /// spines and links per pair (only when asked for; automatic mode says `pgft`).
    Twolevel,
    /// A fat-tree as it is found (`tree`): switches in levels by distance from the hosts,
    /// any irregularity; what automatic mode says when no family fits, with or without
    /// faults.
    Tree,
}

impl fmt::Display for FamilyHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FamilyHint::Lsft => "lsft",
            FamilyHint::Kary => "kary",
            FamilyHint::Mols => "mols",
            FamilyHint::Pgft => "pgft",
            FamilyHint::Fullmesh => "fullmesh",
            FamilyHint::Twolevel => "twolevel",
            FamilyHint::Tree => "tree",
        })
    }
}

impl FromStr for FamilyHint {
    type Err = Error;
    fn from_str(s: &str) -> Result<FamilyHint> {
        match s {
            "lsft" => Ok(FamilyHint::Lsft),
            "kary" => Ok(FamilyHint::Kary),
            "mols" => Ok(FamilyHint::Mols),
            "pgft" => Ok(FamilyHint::Pgft),
            "fullmesh" => Ok(FamilyHint::Fullmesh),
            "twolevel" => Ok(FamilyHint::Twolevel),
            "tree" => Ok(FamilyHint::Tree),
            other => Err(Error::input(
                "family",
                format!("unknown family `{other}`"),
                Some("one of lsft, kary, mols, pgft, twolevel, fullmesh, tree (or auto)".into()),
            )),
        }
    }
}

impl FamilyHint {
    /// Parse `auto|lsft|kary|mols|pgft|twolevel|fullmesh|tree`; `auto` is `None`.
    pub fn parse_opt(s: &str) -> Result<Option<FamilyHint>> {
        if s == "auto" {
            Ok(None)
        } else {
            s.parse().map(Some)
        }
    }

    /// The family of a layout.
    pub fn of(layout: &Layout) -> FamilyHint {
        match layout {
            Layout::Lsft(_) => FamilyHint::Lsft,
            Layout::Kary(_) => FamilyHint::Kary,
            Layout::Mols(_) => FamilyHint::Mols,
            Layout::Pgft(l) if l.twolevel => FamilyHint::Twolevel,
            Layout::Pgft(_) => FamilyHint::Pgft,
            Layout::Fullmesh(_) => FamilyHint::Fullmesh,
            Layout::Tree(_) => FamilyHint::Tree,
        }
    }

    pub(crate) fn long_name(self) -> &'static str {
        match self {
            FamilyHint::Lsft => "Latin-square fat-tree",
            FamilyHint::Kary => "k-ary n-tree",
            FamilyHint::Mols => "MOLS 3-level proximity tree",
            FamilyHint::Pgft => "parallel-ports generalised fat-tree",
            FamilyHint::Fullmesh => "full mesh of switches",
            FamilyHint::Twolevel => "two-level fat-tree",
            FamilyHint::Tree => "fat-tree as found",
        }
    }
}

/// How far a recogniser got before it gave up (the furthest one gives the reason).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Stage {
    /// Switch counts or degrees do not fit the family at all.
    Counts,
    /// Counts fit, the cabling does not.
    Structure,
    /// The structure is right but cannot be put in canonical coordinates.
    Geometry,
    /// Everything mapped, the layout was still refused.
    Layout,
}

/// A recogniser's failure.
#[derive(Clone, Debug)]
pub(crate) struct Fail {
    stage: Stage,
    reason: String,
}

impl Fail {
    pub(crate) fn counts(reason: String) -> Fail {
        Fail {
            stage: Stage::Counts,
            reason,
        }
    }
    pub(crate) fn structure(reason: String) -> Fail {
        Fail {
            stage: Stage::Structure,
            reason,
        }
    }
    pub(crate) fn geometry(reason: String) -> Fail {
        Fail {
            stage: Stage::Geometry,
            reason,
        }
    }
    pub(crate) fn layout(reason: String) -> Fail {
        Fail {
            stage: Stage::Layout,
            reason,
        }
    }
}

/// Why one family did not fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attempt {
    /// The family that was tried.
    pub family: FamilyHint,
    /// Why it does not fit, naming the switches or counts at fault.
    pub reason: String,
}

/// The answer of [`recognize`]. (Made once per recognition, so the size difference of
/// the variants does not matter, and callers match on the layout directly.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Recognition {
    /// The fabric is one of the families, in canonical coordinates.
    Recognized {
        /// Which switch is which and which port leads where: what routing and the
        /// schedules use, exactly as for a planned fabric.
        layout: Layout,
        /// Another family and parameters that describe the very same fabric, if any
        /// (a 3-level k-ary tree is a MOLS tree with standard wiring and vice versa).
        equivalent: Option<String>,
    },
    /// No family fits (or not the one asked for).
    Unrecognized {
        /// The reason of the family that came closest.
        reason: String,
        /// That family, if any recogniser got past the counts.
        closest: Option<FamilyHint>,
        /// Every family tried, with its reason.
        attempts: Vec<Attempt>,
        /// The family the fabric is with faults, when it is one ([`degraded`]): reported,
        /// and routed by [`crate::routing::degraded`] where that family has detours.
        degraded: Option<Degraded>,
    },
}

impl Recognition {
    /// The layout, if recognised.
    pub fn layout(&self) -> Option<&Layout> {
        match self {
            Recognition::Recognized { layout, .. } => Some(layout),
            Recognition::Unrecognized { .. } => None,
        }
    }

    /// The layout, or an input error carrying the reason (for commands that need a
    /// family to work with).
    pub fn into_layout(self) -> Result<Layout> {
        match self {
            Recognition::Recognized { layout, .. } => Ok(layout),
            Recognition::Unrecognized { degraded: Some(d), .. } => Err(Error::input(
                "topology",
                format!(
                    "{} (first fault: {}); this needs the intact family (`ibfat route` routes the degraded fabric)",
                    d.description,
                    d.faults.first().map(|f| f.describe()).unwrap_or_default()
                ),
                Some("`ibfat recognize` lists every fault".into()),
            )),
            Recognition::Unrecognized { reason, closest, .. } => Err(Error::input(
                "topology",
                match closest {
                    Some(f) => format!(
                        "not a recognisable fabric: closest is the {}, but {reason}",
                        f.long_name()
                    ),
                    None => format!("not a recognisable fabric: {reason}"),
                },
                Some("`ibfat recognize --json` lists what each family needs".into()),
            )),
        }
    }
}

/// What else describes the same fabric.
fn equivalent(layout: &Layout) -> Option<String> {
    match layout {
        Layout::Kary(l) if l.levels == 3 => Some(format!("mols arity {} wiring standard", l.k)),
        Layout::Mols(l) if l.wiring == Wiring::Standard => Some(format!("kary arity {} levels 3", l.n)),
        Layout::Pgft(l) if !l.twolevel => TwolevelParams::from_pgft(&l.params).map(|t| t.describe()),
        Layout::Pgft(l) => Some(l.params.describe()),
        _ => None,
    }
}

fn run(family: FamilyHint, g: &SwitchGraph<'_>) -> std::result::Result<Layout, Fail> {
    match family {
        FamilyHint::Lsft => lsft::recognize(g),
        FamilyHint::Kary => kary::recognize(g),
        FamilyHint::Mols => mols::recognize(g),
        FamilyHint::Pgft => pgft::recognize(g),
        FamilyHint::Fullmesh => fullmesh::recognize(g),
        FamilyHint::Twolevel => {
            let mut layout = pgft::recognize(g)?;
            crate::topology::twolevel::mark(&mut layout).map_err(Fail::layout)?;
            Ok(layout)
        }
        FamilyHint::Tree => tree::recognize(g),
    }
}

/// Recognise the family of a fabric. `hint` restricts the search to one family.
pub fn recognize(fabric: &Fabric, hint: Option<FamilyHint>) -> Recognition {
    let g = match SwitchGraph::new(fabric) {
        Ok(g) => g,
        Err(reason) => {
            return Recognition::Unrecognized {
                reason,
                closest: None,
                attempts: Vec::new(),
                degraded: None,
            }
        }
    };
    let families = match hint {
        Some(f) => vec![f],
        None => vec![
            FamilyHint::Lsft,
            FamilyHint::Kary,
            FamilyHint::Mols,
            FamilyHint::Pgft,
            FamilyHint::Fullmesh,
        ],
    };
    let mut fails: Vec<(FamilyHint, Fail)> = Vec::new();
    for family in families {
        match run(family, &g) {
            Ok(layout) => {
                let equivalent = equivalent(&layout);
                return Recognition::Recognized { layout, equivalent };
            }
            Err(fail) => fails.push((family, fail)),
        }
    }
    // not intact: maybe a family with faults
    let tried = |x: FamilyHint| fails.iter().any(|(f, _)| *f == x);
    let mut degraded = tried(FamilyHint::Lsft).then(|| degraded::lsft(&g).ok()).flatten();
    if degraded.is_none() && (tried(FamilyHint::Kary) || tried(FamilyHint::Pgft) || tried(FamilyHint::Twolevel)) {
        degraded = degraded_pgft::pgft(&g, hint).ok();
    }
    if degraded.is_none() && tried(FamilyHint::Mols) {
        degraded = degraded_mols::mols(&g).ok();
    }
    // no family, with or without faults: a tree as it is found, if it is one
    if degraded.is_none() && hint.is_none() {
        match tree::recognize(&g) {
            Ok(layout) => {
                return Recognition::Recognized {
                    layout,
                    equivalent: None,
                }
            }
            Err(fail) => fails.push((FamilyHint::Tree, fail)),
        }
    }
    // the furthest stage wins; ties go to the earlier family
    let best = fails
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, f))| (f.stage, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
        .unwrap_or(0);
    let (family, fail) = &fails[best];
    Recognition::Unrecognized {
        degraded,
        reason: fail.reason.clone(),
        closest: (fail.stage > Stage::Counts || hint.is_some()).then_some(*family),
        attempts: fails
            .iter()
            .map(|(f, fail)| Attempt {
                family: *f,
                reason: fail.reason.clone(),
            })
            .collect(),
    }
}
