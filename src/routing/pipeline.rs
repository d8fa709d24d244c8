//! The one place that decides how a fabric is routed.
//!
//! Every front end — the CLI's `route` and `schedule`, the C ABI, the OpenSM plugin —
//! hands [`route_fabric`] what recognition found ([`Shape`]), the LIDs and what it asks
//! for ([`Ask`]), and gets [`Routed`]: the tables, the lane rules when the routes need more
//! than one VL, and what they leave unserved. No front end matches on a family or a
//! fault variant to pick a router; which router serves which shape is written once, in
//! [`route_fabric`]. `check::prove` is the one soundness check of its result.
//!
//! The per-family routers of degraded fabrics and their results (`route_lsft`,
//! `route_pgft`, `route_mols`, `TreeRoutes`) are crate-private: a caller cannot route
//! around this choice, nor get a tree's detours without the drop one VL calls for.

use super::degraded::{route_lsft, route_lsft_spread, DegradedRoutes};
use super::degraded_tree::TreeRoutes;
use super::escape::Escape;
use super::lanes::LaneRules;
use super::{LftSet, Lids};
use crate::error::Error;
use crate::families::lsft::lanes::LsftLanes;
use crate::families::lsft::model_holes::LsftHoles;
use crate::topology::degraded::Holes;
use crate::topology::{Fabric, Layout};
use std::fmt;

/// What recognition found: a family as built, or a family with cables or switches missing.
#[derive(Clone, Copy)]
pub enum Shape<'a> {
    /// An intact family (its layout, host roles applied).
    Intact(&'a Layout),
    /// A known family with holes, and the one line that names it and its faults.
    Degraded {
        /// The family's structure with its holes.
        holes: &'a Holes,
        /// One line: family, parameters and fault counts.
        description: &'a str,
    },
}

impl Shape<'_> {
    /// The line that names the fabric in reports and refusals.
    pub fn describe(&self) -> String {
        match self {
            Shape::Intact(l) => l.describe(),
            Shape::Degraded { description, .. } => description.to_string(),
        }
    }

    /// The family's name for refusals (a degraded one by its description).
    fn family(&self) -> String {
        match self {
            Shape::Intact(l) => l.family_name().to_string(),
            Shape::Degraded { description, .. } => format!("degraded {description}"),
        }
    }
}

/// What the routes optimise.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The family's own routes, on which its all-to-all schedules are conflict-free.
    #[default]
    Family,
    /// LSFT only: every host slot of a leaf entered over its own spine, one-turn detours on
    /// two data VLs, for traffic the family's schedules do not arrange.
    Spread,
}

/// What a front end asks of the routes.
#[derive(Clone, Copy, Debug)]
pub struct Ask {
    /// What they optimise.
    pub objective: Objective,
    /// Data VLs the subnet can operate on every link (15: all). Routes needing more are
    /// refused ([`Refusal::Vls`]), except a degraded tree's relay detours and escape lane,
    /// which are dropped (their pairs left unrouted, [`Routed::dropped`]).
    pub vls: u8,
}

impl Default for Ask {
    fn default() -> Ask {
        Ask {
            objective: Objective::Family,
            vls: 15,
        }
    }
}

/// How the tables were computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The intact family's routes (d-mod-k, LSFT minimal paths, full-mesh relays).
    Family,
    /// A degraded LSFT: intact pairs keep their route, broken ones detour through a leaf.
    Detours,
    /// An LSFT spread over its spines (`Objective::Spread`), intact or degraded.
    Spread,
    /// A degraded tree or a tree as found: up*/down* around the holes (relay detours for
    /// switch LIDs).
    UpDown,
}

impl Method {
    /// The name reports use.
    pub fn name(self) -> &'static str {
        match self {
            Method::Family => "family",
            Method::Detours => "detours",
            Method::Spread => "spread",
            Method::UpDown => "updown",
        }
    }
}

/// Lane rules a subnet manager can keep after routing (they own what they need).
pub(crate) type LaneBox = Box<dyn LaneRules + Send + Sync>;

/// Relay detours and escape-lane pairs a degraded tree dropped for want of VLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// (Leaf, switch LID) relay detours dropped.
    pub detours: usize,
    /// Escape-lane pairs dropped.
    pub escape_pairs: usize,
    /// Data VLs they needed.
    pub need: u8,
    /// Of the pairs they served, those routed again on the one VL through a turn that
    /// keeps its channel dependency graph acyclic.
    pub turned: u64,
}

/// The routes of a fabric and what comes with them.
pub struct Routed {
    /// Forwarding tables of every switch.
    pub lfts: LftSet,
    /// How they were computed.
    pub method: Method,
    /// SL per path and VL per hop, when the routes need more than one VL.
    pub lanes: Option<LaneBox>,
    /// (Leaf, host LID) pairs no path serves (a degraded tree's cut-off hosts).
    pub unrouted: u64,
    /// The first of them, named (source leaf, destination host port).
    pub unrouted_named: Vec<(String, String)>,
    /// (Leaf, switch LID) pairs left unrouted.
    pub unrouted_switch_lids: u64,
    /// Pairs no rule path serves, on the escape lane (SL 15, a VL of its own).
    pub escape: Escape,
    /// (Leaf, host LID) and (leaf, switch LID) pairs whose detour turns twice (LSFT).
    pub two_turn: (u64, u64),
    /// (Leaf, switch LID) pairs routed through a relay on SL 1-2 (degraded trees).
    pub switch_lid_detours: usize,
    /// What a degraded tree dropped because the subnet offered too few VLs.
    pub dropped: Option<Dropped>,
}

impl Routed {
    /// Data VLs the routes use: 1 without lanes.
    pub fn data_vls(&self) -> u8 {
        self.lanes.as_ref().map_or(1, |l| l.data_vls())
    }

    /// The highest SL of the lane rule (0 without lanes).
    pub fn rule_sls(&self) -> u8 {
        self.lanes.as_ref().map_or(0, |l| l.rule_sls())
    }

    fn plain(lfts: LftSet, method: Method, lanes: Option<LaneBox>) -> Routed {
        Routed {
            lfts,
            method,
            lanes,
            unrouted: 0,
            unrouted_named: Vec::new(),
            unrouted_switch_lids: 0,
            escape: Escape::default(),
            two_turn: (0, 0),
            switch_lid_detours: 0,
            dropped: None,
        }
    }
}

/// Why the routes were not computed.
#[derive(Debug)]
pub enum Refusal {
    /// The fabric, LIDs or request do not allow them (exit 2, `IBFAT_E_INPUT`).
    Input(Error),
    /// The routes need more data VLs than the subnet offers.
    Vls {
        /// Data VLs they need.
        need: u8,
        /// Data VLs offered ([`Ask::vls`]).
        have: u8,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Input(e) => write!(f, "{e}"),
            Refusal::Vls { need, have } => write!(f, "the routes need {need} data VLs; the subnet offers {have}"),
        }
    }
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Refusal {
        Refusal::Input(e)
    }
}

impl From<Refusal> for Error {
    fn from(r: Refusal) -> Error {
        match r {
            Refusal::Input(e) => e,
            Refusal::Vls { .. } => Error::input("vls", r.to_string(), None),
        }
    }
}

/// The LMC the routes of `shape` allow with `objective`, checked before LIDs are planned
/// (so a front end refuses `--lmc 7` on a tree before sizing its LIDs).
pub fn check_lmc(shape: Shape<'_>, objective: Objective, lmc: u8) -> Result<(), Error> {
    let (max, what) = match (shape, objective) {
        (_, Objective::Spread) => (0, "an LSFT is spread with LMC 0".to_string()),
        (Shape::Intact(l), _) => {
            let (max, family) = (l.ops().max_lmc(), l.family().long_name());
            let what = match max {
                0 => format!("a {family} is routed with LMC 0"),
                1 => format!(
                    "LMC {lmc} is for full meshes; a {} is routed with LMC 0 or 1",
                    l.family_name()
                ),
                m => format!("a {family} is routed with LMC 0..={m}"),
            };
            (max, what)
        }
        (Shape::Degraded { holes, description }, _) => match holes.ops().max_lmc() {
            0 => (0, format!("a degraded {description} is routed with LMC 0")),
            1 => (
                1,
                format!("LMC {lmc} is for full meshes; a degraded tree is routed with LMC 0 or 1"),
            ),
            m => (m, format!("a degraded {description} is routed with LMC 0..={m}")),
        },
    };
    if lmc <= max {
        return Ok(());
    }
    let hint = match max {
        0 => "drop --lmc".to_string(),
        1 => "--lmc 0 or --lmc 1".to_string(),
        m => format!("--lmc 0..={m}"),
    };
    Err(Error::input("lmc", what, Some(hint)))
}

/// Route `fabric` as recognition found it, with `lids` (complete, of the LMC the shape
/// allows), as `ask` asks.
pub fn route_fabric(fabric: &Fabric, shape: Shape<'_>, lids: &Lids, ask: &Ask) -> Result<Routed, Refusal> {
    let entries = fabric.switches().count().saturating_mul(lids.owner.len());
    super::small::sized(entries, || route_on(fabric, shape, lids, ask))
}

/// [`route_fabric`] on the threads it was given.
fn route_on(fabric: &Fabric, shape: Shape<'_>, lids: &Lids, ask: &Ask) -> Result<Routed, Refusal> {
    check_lmc(shape, ask.objective, lids.lmc)?;
    match shape {
        Shape::Intact(layout) => match super::hosts::routed(layout).route_own(fabric, lids, ask) {
            Some(routed) => routed,
            None if ask.objective == Objective::Family => intact(fabric, layout, lids, ask),
            None => Err(spread_is_for_lsfts(&shape.family()).into()),
        },
        Shape::Degraded { holes, description } => routed_holes(holes).route(&Around {
            fabric,
            lids,
            ask,
            description,
        }),
    }
}

/// How a family's degraded structure is routed; each family with a degraded router
/// implements it in its folder (`route_degraded*`).
pub(crate) trait RoutedHoles {
    /// Route around the holes as `at.ask` asks.
    fn route(&self, at: &Around<'_>) -> Result<Routed, Refusal>;
}

/// What a degraded router is handed: the fabric, its LIDs, what is asked, and the line
/// that names the fabric in refusals.
pub(crate) struct Around<'a> {
    pub(crate) fabric: &'a Fabric,
    pub(crate) lids: &'a Lids,
    pub(crate) ask: &'a Ask,
    pub(crate) description: &'a str,
}

impl Around<'_> {
    /// The routes of a degraded tree (PGFT, k-ary, MOLS): up*/down* around the holes, or
    /// the refusal of the spread objective.
    pub(crate) fn up_down(&self, routes: impl FnOnce() -> Result<TreeRoutes, Error>) -> Result<Routed, Refusal> {
        if self.ask.objective == Objective::Spread {
            return Err(spread_is_for_lsfts(&format!("degraded {}", self.description)).into());
        }
        Ok(tree(self.fabric, routes()?, self.lids, self.ask))
    }
}

macro_rules! make_routed_holes {
    ($(holes $variant:ident: $folder:ident,)*) => {
        /// What routes this degraded structure's family.
        fn routed_holes(holes: &Holes) -> &dyn RoutedHoles {
            match holes {
                $(Holes::$variant(h) => h,)*
            }
        }
    };
}
crate::families::for_each_holes!(make_routed_holes);

/// `Objective::Spread` on a family it does not apply to.
pub(crate) fn spread_is_for_lsfts(family: &str) -> Error {
    Error::input(
        "objective",
        format!("the spread objective is for Latin-square fat-trees, not a {family}"),
        Some("trees already spread by destination (d-mod-k); drop --objective".into()),
    )
}

/// An intact family: its own routes; a full mesh's detours (LMC offsets, or around missing
/// cables) turn at the relay and need two VLs.
fn intact(fabric: &Fabric, layout: &Layout, lids: &Lids, ask: &Ask) -> Result<Routed, Refusal> {
    let lfts = super::route(fabric, layout, lids)?;
    let lanes = super::hosts::routed(layout).lanes(fabric, lids);
    let routed = Routed::plain(lfts, Method::Family, lanes);
    fits(routed.data_vls(), ask)?;
    Ok(routed)
}

/// An LSFT routed with lanes: detours around holes, or spread; every (leaf, LID) pair must
/// be served (a leaf cut off from every spine is refused, naming the count).
pub(crate) fn lsft_lanes(
    fabric: &Fabric,
    h: &LsftHoles,
    lids: &Lids,
    ask: &Ask,
    description: &str,
) -> Result<Routed, Refusal> {
    let spread = ask.objective == Objective::Spread;
    let r: DegradedRoutes = if spread {
        route_lsft_spread(fabric, h, lids)?
    } else {
        route_lsft(fabric, h, lids)?
    };
    if r.unrouted > 0 {
        return Err(Error::input(
            "topology",
            format!(
                "{description}: {} (leaf, LID) pairs have no surviving path the lanes can serve",
                r.unrouted
            ),
            Some("too many faults around some leaves; `ibfat recognize` lists them".into()),
        )
        .into());
    }
    // the SL table moves into the rules (a copy would cost as much as a table)
    let lanes = LsftLanes::with_sl(fabric, h, r.sl, r.stride, (r.data_vls, r.escape.used()));
    fits(lanes.data_vls(), ask)?;
    Ok(Routed {
        unrouted_switch_lids: r.unrouted_switch_lids,
        two_turn: (r.two_turn, r.two_turn_switch_lids),
        escape: r.escape,
        ..Routed::plain(
            r.lfts,
            if spread { Method::Spread } else { Method::Detours },
            Some(Box::new(lanes)),
        )
    })
}

/// A degraded tree: up*/down* on one VL; relay detours and the escape lane when the subnet
/// offers their VLs, dropped (their pairs unrouted) when it does not.
pub(crate) fn tree(fabric: &Fabric, mut r: TreeRoutes, lids: &Lids, ask: &Ask) -> Routed {
    let need = r.data_vls();
    let dropped = (need > ask.vls).then(|| {
        let mut d = Dropped {
            detours: r.detours.len(),
            escape_pairs: r.escape.pairs.len(),
            need,
            turned: 0,
        };
        r.drop_detours(fabric, lids);
        d.turned = r.turn_on_one_vl(fabric, lids);
        d
    });
    let lanes: Option<LaneBox> = (r.data_vls() > 1).then(|| Box::new(r.lanes(fabric)) as LaneBox);
    Routed {
        unrouted: r.unrouted,
        unrouted_named: std::mem::take(&mut r.unrouted_named),
        unrouted_switch_lids: r.unrouted_switch_lids,
        switch_lid_detours: r.detours.len(),
        escape: std::mem::take(&mut r.escape),
        dropped,
        ..Routed::plain(r.lfts, Method::UpDown, lanes)
    }
}

/// Refuse routes needing more data VLs than offered.
fn fits(need: u8, ask: &Ask) -> Result<(), Refusal> {
    if need > ask.vls {
        return Err(Refusal::Vls { need, have: ask.vls });
    }
    Ok(())
}
