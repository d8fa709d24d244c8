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

use crate::families::lsft::recognize_degraded as degraded_lsft;
use crate::families::mols::recognize_degraded as degraded_mols;
use crate::families::pgft::recognize_degraded as degraded_pgft;
pub(crate) mod graph;
pub mod report;
use crate::families::railopt::report as report_rails;
use crate::families::tree::recognize as tree;
use crate::families::tree::report as report_tree;

pub use report::{report, RecognitionReport};

use crate::error::{Error, Result};
use crate::families::{Family, FAMILIES};
use crate::topology::{Fabric, Layout};
pub mod degraded;
pub use degraded::{Degraded, Fault};
use graph::SwitchGraph;

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
    pub family: Family,
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
        closest: Option<Family>,
        /// Every family tried, with its reason.
        attempts: Vec<Attempt>,
        /// The family the fabric is with faults, when it is one ([`degraded`]): reported,
        /// and routed by [`crate::families::lsft::route_degraded`] where that family has detours.
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
    pub(crate) fn into_layout(self) -> Result<Layout> {
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

macro_rules! make_run {
    ($($variant:ident: $folder:ident,)*) => {
        /// Run one family's recogniser (each folder's `recognize::recognize`).
        fn run(family: Family, g: &SwitchGraph<'_>) -> std::result::Result<Layout, Fail> {
            match family {
                $(Family::$variant => crate::families::$folder::recognize::recognize(g),)*
            }
        }
    };
}
crate::families::for_each_family!(make_run);

/// A family that did not fit, and whether its reason was made without names
/// ([`SwitchGraph::quietly`]).
type Failed = (Family, Fail, bool);

/// Recognise the family of a fabric. `hint` restricts the search to one family.
pub fn recognize(fabric: &Fabric, hint: Option<Family>) -> Recognition {
    recognize_with(fabric, hint, Reasons::Always)
}

/// [`recognize()`] for a caller that routes what it finds and shows no reasons once the
/// fabric is a family with faults: then the reasons of the families that did not fit
/// ([`Recognition::Unrecognized`]'s `reason` and `attempts`) are left as they were made
/// without switch names, sparing the recognisers a second run. When no family fits, with
/// or without faults, the reasons are the same as [`recognize()`]'s.
pub fn recognize_to_route(fabric: &Fabric, hint: Option<Family>) -> Recognition {
    recognize_with(fabric, hint, Reasons::UnlessDegraded)
}

/// When the reasons of the families that did not fit are made again with names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Reasons {
    /// Always (they may be shown).
    Always,
    /// Only when the fabric is no family with faults either.
    UnlessDegraded,
}

fn recognize_with(fabric: &Fabric, hint: Option<Family>, reasons: Reasons) -> Recognition {
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
        None => FAMILIES.iter().filter(|e| e.auto).map(|e| e.family).collect(),
    };
    let mut fails: Vec<Failed> = Vec::new();
    for family in families {
        match g.quietly(|| run(family, &g)) {
            (Ok(layout), _) => {
                let equivalent = layout.ops().equivalent();
                return Recognition::Recognized { layout, equivalent };
            }
            (Err(fail), inexact) => fails.push((family, fail, inexact)),
        }
    }
    // not intact: maybe a family with faults
    let tried = |x: Family| fails.iter().any(|(f, ..)| *f == x);
    let mut degraded = tried(Family::Lsft).then(|| degraded_lsft::lsft(&g).ok()).flatten();
    if degraded.is_none()
        && (tried(Family::Kary) || tried(Family::Pgft) || tried(Family::Twolevel) || tried(Family::Railopt))
    {
        degraded = degraded_pgft::pgft(&g, hint).ok();
    }
    if degraded.is_none() && tried(Family::Mols) {
        degraded = degraded_mols::mols(&g).ok();
    }
    // no family, with or without faults: a tree as it is found, if it is one
    if degraded.is_none() && hint.is_none() {
        match g.quietly(|| tree::recognize(&g)) {
            (Ok(layout), _) => {
                return Recognition::Recognized {
                    layout,
                    equivalent: None,
                }
            }
            (Err(fail), inexact) => fails.push((Family::Tree, fail, inexact)),
        }
    }
    if reasons == Reasons::Always || degraded.is_none() {
        name_reasons(&g, &mut fails);
    }
    unrecognized(&fails, hint, degraded)
}

/// The reasons made without names, made again with them (the recognisers are
/// deterministic: the same failure, now as it is shown).
fn name_reasons(g: &SwitchGraph<'_>, fails: &mut [Failed]) {
    for (family, fail, inexact) in fails.iter_mut().filter(|f| f.2) {
        let again = match family {
            Family::Tree => tree::recognize(g),
            _ => run(*family, g),
        };
        if let Err(named) = again {
            *fail = named;
            *inexact = false;
        }
    }
}

/// The answer when no family fits: the furthest stage's reason (ties go to the earlier
/// family) and every family's.
fn unrecognized(fails: &[Failed], hint: Option<Family>, degraded: Option<Degraded>) -> Recognition {
    let best = fails
        .iter()
        .enumerate()
        .max_by_key(|(i, (_, f, _))| (f.stage, std::cmp::Reverse(*i)))
        .map(|(i, _)| i)
        .unwrap_or(0);
    let (family, fail, _) = &fails[best];
    Recognition::Unrecognized {
        degraded,
        reason: fail.reason.clone(),
        closest: (fail.stage > Stage::Counts || hint.is_some()).then_some(*family),
        attempts: fails
            .iter()
            .map(|(f, fail, _)| Attempt {
                family: *f,
                reason: fail.reason.clone(),
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::{FamilySpec, NodeKind, Spec};

    /// The reasons of a recognition as shown: (reason, closest, attempts).
    fn reasons(r: &Recognition) -> (String, Option<Family>, Vec<Attempt>) {
        match r {
            Recognition::Unrecognized {
                reason,
                closest,
                attempts,
                ..
            } => (reason.clone(), *closest, attempts.clone()),
            Recognition::Recognized { .. } => panic!("recognised"),
        }
    }

    #[test]
    fn recognize_to_route_finds_what_recognize_finds() {
        let t = Spec::new(FamilySpec::Lsft(LsftParams::new(3, false))).build().unwrap();
        // one switch-to-switch cable cut: the family with faults, with or without names
        let mut cut = t.fabric.clone();
        let (s, p) = cut
            .switches()
            .find_map(|s| {
                (1..=cut.node(s).nports)
                    .find(|&p| {
                        cut.peer(s, p)
                            .is_some_and(|(n, _)| cut.node(n).kind == NodeKind::Switch)
                    })
                    .map(|p| (s, p))
            })
            .unwrap();
        cut.disconnect(s, p);
        let (named, quiet) = (recognize(&cut, None), recognize_to_route(&cut, None));
        let degraded = |r: &Recognition| match r {
            Recognition::Unrecognized { degraded: Some(d), .. } => d.description.clone(),
            _ => panic!("not degraded"),
        };
        assert_eq!(degraded(&named), degraded(&quiet));
        // nothing fits (a family the fabric is not, with or without faults): the named
        // reasons either way
        for f in [Family::Fullmesh, Family::Mols, Family::Lsft] {
            let named = recognize(&t.fabric, Some(f));
            if let Recognition::Unrecognized { degraded: None, .. } = named {
                assert_eq!(reasons(&named), reasons(&recognize_to_route(&t.fabric, Some(f))), "{f}");
            }
            let named = recognize(&cut, Some(f));
            if let Recognition::Unrecognized { degraded: None, .. } = named {
                assert!(!reasons(&named).0.is_empty());
                assert_eq!(reasons(&named), reasons(&recognize_to_route(&cut, Some(f))), "{f}");
            }
        }
    }
}
