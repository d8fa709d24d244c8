//! Fabric families as port-level models, and the plan that ties a fabric to its family.
//!
//! A [`Topology`] is a [`Fabric`] plus a [`Layout`]: the layout says which node is which
//! leaf/spine/level switch and which port leads where, in the canonical numbering the
//! routing and the schedules use. Topologies come from the builders here (same parameters,
//! same fabric: names, GUIDs and ports are deterministic) or from recognising a
//! discovered fabric; both end in the same `*Layout::resolve` functions, so routing does
//! not care where a fabric came from.

pub mod degraded;
pub(crate) mod fabric;
pub mod faults;
use crate::families::fullmesh::model as fullmesh;
use crate::families::kary::model as kary;
pub(crate) mod label;
mod layout;
pub mod lidspace;
use crate::families::lsft::model as lsft;
use crate::families::mols::model as mols;
use crate::families::pgft::model as pgft;
pub mod rails;
pub mod rate;
pub mod roles;
pub mod spec;

pub(crate) use fabric::PortIdx;
pub use fabric::{Endpoint, Fabric, Link, Node, NodeId, NodeKind, Port, Speed, Width, NO_PEER};
pub(crate) use fullmesh::FullmeshLayout;
pub(crate) use kary::KaryLayout;
pub(crate) use layout::{ranked_hosts, FamilyLayout, SwitchRow};
pub use layout::{Layout, Parameters};
pub use lsft::LsftLayout;
pub(crate) use mols::MolsLayout;
pub use mols::Wiring;
pub(crate) use pgft::PgftLayout;
pub use spec::{FamilySpec, Spec};

use crate::error::{Error, Result};
use crate::rng::SplitMix64;
use std::collections::HashSet;

/// Default GUID base: the 00:02:c9 OUI that ibsim and the lab fabrics use.
pub(crate) const DEFAULT_GUID_BASE: u64 = 0x0002_c900_0000_0000;

/// How a family is turned into a concrete fabric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// First GUID; switches get `base + 0x1000_0000 + i`, CAs `base + 0x2000_0000 + 2i`.
    pub guid_base: u64,
    /// When set, permute every switch's ports and draw random GUIDs from this seed
    /// (for testing recognition and routing on fabrics cabled "in any order").
    pub shuffle: Option<u64>,
    /// Width of every cable.
    pub width: Width,
    /// Speed of every cable.
    pub speed: Speed,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            guid_base: DEFAULT_GUID_BASE,
            shuffle: None,
            width: Width::X4,
            speed: Speed::Sdr,
        }
    }
}

/// A fabric with its family structure — planned (built from a [`Spec`]) or discovered
/// and recognised. This is the one value routing, schedules, checks, the C ABI and the
/// OpenSM plugin work on, so none of them cares where a fabric came from.
#[derive(Clone, Debug)]
pub struct Topology {
    /// The fabric, port by port.
    pub fabric: Fabric,
    /// Which node is which switch of the family, in canonical order.
    pub layout: Layout,
    /// Short name for reports (`lsft7`, or the dump's file name).
    pub name: String,
    /// The spec that rebuilds this fabric, when it was planned (`None` when discovered).
    pub spec: Option<Spec>,
}

impl Topology {
    /// A discovered fabric with the layout recognition found for it.
    pub fn discovered(fabric: Fabric, layout: Layout, name: impl Into<String>) -> Topology {
        Topology {
            fabric,
            layout,
            name: name.into(),
            spec: None,
        }
    }
}

/// What is known about a fabric: only its nodes and cables, or also its family. A loader
/// or a C host program holds this before and after recognition.
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)] // one per loaded file or C handle: size does not matter
pub enum Model {
    /// Nodes and cables only: the family is not known (yet).
    Bare(Fabric),
    /// The fabric with its family layout.
    Known(Topology),
}

impl Model {
    /// The fabric, whatever is known about its family.
    pub fn fabric(&self) -> &Fabric {
        match self {
            Model::Bare(f) => f,
            Model::Known(t) => &t.fabric,
        }
    }

    /// The fabric with its family, when known.
    pub fn topology(&self) -> Option<&Topology> {
        match self {
            Model::Bare(_) => None,
            Model::Known(t) => Some(t),
        }
    }

    /// The family layout, when known.
    pub fn layout(&self) -> Option<&Layout> {
        self.topology().map(|t| &t.layout)
    }

    /// The fabric for editing. Its family is forgotten: a changed fabric must be
    /// recognised again before it is routed.
    pub fn fabric_mut(&mut self) -> &mut Fabric {
        if let Model::Known(t) = self {
            *self = Model::Bare(std::mem::take(&mut t.fabric));
        }
        match self {
            Model::Bare(f) => f,
            Model::Known(_) => unreachable!("made bare above"),
        }
    }

    /// The fabric for a change that keeps its cabling (names, GUIDs, LIDs): the family,
    /// which depends on the cabling alone, stays known.
    pub fn fabric_same_cabling_mut(&mut self) -> &mut Fabric {
        match self {
            Model::Bare(f) => f,
            Model::Known(t) => &mut t.fabric,
        }
    }

    /// Give the fabric a family layout (replacing any earlier one).
    pub fn set_layout(&mut self, layout: Layout, name: impl Into<String>) {
        let fabric = std::mem::take(self.fabric_mut());
        *self = Model::Known(Topology::discovered(fabric, layout, name));
    }
}

/// Assigns node GUIDs: deterministic from the base, or random (but reproducible) when
/// shuffling. Switches take one GUID, an n-port CA n+1 (ibsim's rule).
pub(crate) struct GuidAlloc {
    base: u64,
    rng: Option<SplitMix64>,
    used: HashSet<u64>,
}

/// Largest GUID base: the CA GUIDs of the largest plan (2^20 hosts of up to 255 GUIDs each,
/// from `base + 0x2000_0000`) must stay below 2^64 instead of wrapping onto other nodes.
pub(crate) const MAX_GUID_BASE: u64 = u64::MAX - (1 << 30);

impl GuidAlloc {
    /// The allocator for `opts`; a GUID base whose plan would wrap past 2^64 is refused,
    /// naming the field and the valid range.
    pub(crate) fn new(opts: &BuildOptions) -> Result<GuidAlloc> {
        if opts.guid_base > MAX_GUID_BASE {
            return Err(Error::input(
                "guid_base",
                format!(
                    "0x{:016x} is out of range: the plan's GUIDs would wrap past 0xffffffffffffffff; valid 0x0..=0x{MAX_GUID_BASE:016x}",
                    opts.guid_base
                ),
                None,
            ));
        }
        Ok(GuidAlloc {
            base: opts.guid_base,
            rng: opts.shuffle.map(|s| SplitMix64::new(s ^ 0x6775_6964)),
            used: HashSet::new(),
        })
    }

    fn draw(&mut self, span: u64) -> u64 {
        let oui = self.base & 0xFFFF_FF00_0000_0000;
        let rng = self.rng.as_mut().expect("random mode");
        loop {
            let g = oui | (rng.next_u64() & 0x00FF_FFFF_FFFF_FFF0);
            // a draw at the top of the space whose span would wrap is drawn again
            if g.checked_add(span).is_some() && (0..span).all(|k| !self.used.contains(&(g + k))) {
                self.used.extend((0..span).map(|k| g + k));
                return g;
            }
        }
    }

    pub(crate) fn switch(&mut self, i: u32) -> u64 {
        if self.rng.is_some() {
            self.draw(1)
        } else {
            self.base + 0x1000_0000 + i as u64
        }
    }

    pub(crate) fn ca(&mut self, i: u32, nports: u32) -> u64 {
        if self.rng.is_some() {
            self.draw(nports as u64 + 1)
        } else {
            self.base + 0x2000_0000 + (nports as u64 + 1) * i as u64
        }
    }
}

/// Per-switch port permutation: logical port k (1-based) is cabled at `map(k)`.
pub(crate) struct PortShuffle {
    rng: Option<SplitMix64>,
}

impl PortShuffle {
    pub(crate) fn new(opts: &BuildOptions) -> PortShuffle {
        PortShuffle {
            rng: opts.shuffle.map(|s| SplitMix64::new(s ^ 0x706f_7274)),
        }
    }

    /// A permutation of 1..=nports as a lookup table indexed by the logical port.
    pub(crate) fn ports(&mut self, nports: u32) -> Vec<u8> {
        let mut v: Vec<u8> = (0..=nports).map(|p| p as u8).collect();
        if let Some(rng) = &mut self.rng {
            rng.shuffle(&mut v[1..]);
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::kary::KaryParams;
    use super::*;

    #[test]
    fn a_changed_fabric_forgets_its_family_until_given_one_again() {
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 2, levels: 2 }))
            .build()
            .unwrap();
        assert_eq!(plan.name, "kary2x2");
        assert!(plan.spec.is_some());
        let layout = plan.layout.clone();
        let mut m = Model::Known(plan.clone());
        assert_eq!(m.layout().map(Layout::family_name), Some("kary"));
        assert_eq!(*m.fabric(), plan.fabric);
        // editing the cabling makes it bare: the old layout may no longer fit
        let f = m.fabric_mut();
        assert_eq!(*f, plan.fabric);
        assert!(m.topology().is_none());
        m.set_layout(layout, "found.txt");
        let t = m.topology().unwrap();
        assert_eq!((t.name.as_str(), t.spec.is_none()), ("found.txt", true));
        assert_eq!(t.fabric, plan.fabric);
    }
}
