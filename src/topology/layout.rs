//! The family structure of a fabric, [`Layout`], and what every family's layout answers,
//! [`FamilyLayout`].
//!
//! `Layout` has one variant per family with a layout of its own; the variants are made
//! from the registry (`crate::families`), so a new family adds none by hand. What the
//! generic layers ask of a layout (its hosts in rank order, its levels, its description,
//! its rows in a picture, its LID budget, …) is a method of [`FamilyLayout`], which each
//! family implements in its own folder (`model*`): a new family that forgets one does not
//! compile, and no generic module matches on the families.

use super::fabric::{Endpoint, Fabric, NodeId};
use super::lidspace::SizedFamily;
use super::roles;
use super::Wiring;
use crate::error::Result;
use crate::families::Family;

/// One row of switches in the family's canonical order (a level, the leaves, the spines):
/// what a picture draws as one row, with each switch's family coordinate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SwitchRow {
    /// What the row is (`leaves (level 1)`, `spines`).
    pub title: String,
    /// Its switches, in canonical order.
    pub nodes: Vec<NodeId>,
    /// Each switch's coordinate in the family (`g0 λ1`, a projective point).
    pub coords: Vec<String>,
}

impl SwitchRow {
    /// A row whose switch `i` is at coordinate `coord(i)`.
    pub(crate) fn new(title: impl Into<String>, nodes: &[NodeId], coord: impl Fn(usize) -> String) -> SwitchRow {
        SwitchRow {
            title: title.into(),
            nodes: nodes.to_vec(),
            coords: (0..nodes.len()).map(coord).collect(),
        }
    }

    /// The title of level `lv` in a tree of levels (level 1 is the leaves).
    pub(crate) fn level_title(lv: u32) -> String {
        if lv == 1 {
            "leaves (level 1)".into()
        } else {
            format!("level {lv}")
        }
    }
}

/// A family's parameters as the C ABI reports them (zero where the family has none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parameters {
    /// LSFT order q.
    pub order: u32,
    /// LSFT sides (1 or 2).
    pub sides: u32,
    /// Arity of a k-ary tree or proximity tree.
    pub arity: u32,
    /// Switch levels.
    pub levels: u32,
    /// A proximity tree's wiring.
    pub wiring: Option<Wiring>,
}

/// What every family's layout answers; each family implements it in its folder.
pub(crate) trait FamilyLayout {
    /// The layout's family (a 2-level PGFT named so is `twolevel`).
    fn family(&self) -> Family;

    /// Host ports in rank order (the order of `shift` and of schedule files).
    fn hosts(&self) -> &[Endpoint];

    /// Non-compute hosts routed at a tree position but left out of the rank order.
    fn others(&self) -> &[Endpoint] {
        &[]
    }

    /// Give the hosts their roles ([`roles::assign`]); returns how many are non-compute.
    fn apply_roles(&mut self, fabric: &Fabric, roles: &roles::Roles) -> Result<usize>;

    /// What giving the hosts their roles found odd but accepted.
    fn role_warnings(&self) -> &[String] {
        &[]
    }

    /// True when host ports outside [`FamilyLayout::hosts`] (a management host on a
    /// spine) are routed beside the family instead of refused.
    fn hosts_beside_allowed(&self) -> bool {
        false
    }

    /// Write the switch level of every node of the family into `level` (which holds 0).
    fn mark_levels(&self, level: &mut [u8]);

    /// One-line description with the parameters.
    fn describe(&self) -> String;

    /// Its switches in rows, canonical order, with coordinates (the picture's rows).
    fn switch_rows(&self) -> Vec<SwitchRow>;

    /// The field a too-large plan of it is refused on, and what stays fixed while the
    /// largest member that fits is searched ([`super::lidspace`]).
    fn lid_budget(&self) -> (&'static str, SizedFamily);

    /// What else describes the same fabric (a 3-level k-ary tree is a standard MOLS tree).
    fn equivalent(&self) -> Option<String> {
        None
    }

    /// Its parameters for the C ABI.
    fn parameters(&self) -> Parameters {
        Parameters::default()
    }

    /// The largest LMC its intact routes use (0 or 1 for trees; 7 for a full mesh).
    fn max_lmc(&self) -> u8 {
        1
    }

    /// Which LID offsets carry routes it promises minimal (bit i = offset i).
    fn minimal_promise(&self, _lmc: u8) -> u32 {
        0
    }

    /// Each rank's position in the tree order d-mod-k routes by (k-ary, MOLS and PGFT
    /// trees), which a tree-order shift follows.
    fn tree_positions(&self) -> Option<&[u32]> {
        None
    }

    /// The name of its own all-to-all schedule (`lsft`, `kary-shift`, …; `shift` when it
    /// has none).
    fn native_pattern(&self) -> &'static str {
        "shift"
    }
}

/// The ranks of a tree-shaped layout that keeps its compute hosts in `hosts` (tree
/// positions in `host_pos`), its non-compute hosts in `others`/`other_pos`, and its leaves'
/// host ports in the table `$table`, `self.$slots` per leaf: its [`FamilyLayout::hosts`],
/// [`FamilyLayout::others`] and [`FamilyLayout::apply_roles`] (by [`roles::assign`]; `$at`
/// maps a tree position to its entry of the table).
macro_rules! ranked_hosts {
    ($slots:ident, $table:ident) => {
        $crate::topology::ranked_hosts!($slots, $table, |d| d as usize);
    };
    ($slots:ident, $table:ident, $at:expr) => {
        fn hosts(&self) -> &[$crate::topology::Endpoint] {
            &self.hosts
        }

        fn others(&self) -> &[$crate::topology::Endpoint] {
            &self.others
        }

        fn apply_roles(
            &mut self,
            fabric: &$crate::topology::Fabric,
            roles: &$crate::topology::roles::Roles,
        ) -> $crate::error::Result<usize> {
            let slots = self.$slots;
            let lists = $crate::topology::roles::HostLists::new(
                &mut self.hosts,
                &mut self.host_pos,
                &mut self.others,
                &mut self.other_pos,
            );
            $crate::topology::roles::assign(fabric, roles, lists, slots, &mut self.$table, $at)
        }
    };
}
pub(crate) use ranked_hosts;

macro_rules! make_layout {
    ($(layout $variant:ident: $folder:ident,)*) => {
        /// The family-specific structure of a fabric: one variant per family with a layout
        /// of its own (made from the registry).
        #[derive(Clone, Debug)]
        pub enum Layout {
            $(
                #[doc = concat!("The `", stringify!($folder), "` family's layout.")]
                $variant(crate::families::$folder::Layout),
            )*
        }

        impl Layout {
            /// What every family answers, for this layout's family.
            pub(crate) fn ops(&self) -> &dyn FamilyLayout {
                match self {
                    $(Layout::$variant(l) => l,)*
                }
            }

            fn ops_mut(&mut self) -> &mut dyn FamilyLayout {
                match self {
                    $(Layout::$variant(l) => l,)*
                }
            }
        }
    };
}
crate::families::for_each_layout!(make_layout);

impl Layout {
    /// Host ports in rank order (the order of `shift` and of schedule files).
    pub fn hosts(&self) -> &[Endpoint] {
        self.ops().hosts()
    }

    /// Non-compute hosts the family routes at a tree position but leaves out of the rank
    /// order ([`roles`]); empty for LSFTs, whose every host slot is in the all-to-all.
    pub fn others(&self) -> &[Endpoint] {
        self.ops().others()
    }

    /// Give the hosts their roles ([`roles::assign`]): non-compute hosts leave the rank
    /// order and every leaf's compute hosts take its first slots. Returns how many hosts
    /// are non-compute.
    pub fn apply_roles(&mut self, fabric: &Fabric, roles: &roles::Roles) -> Result<usize> {
        self.ops_mut().apply_roles(fabric, roles)
    }

    /// What giving the hosts their roles found odd but accepted (a compute host above a
    /// tree's leaves), for the front end to show.
    pub fn role_warnings(&self) -> &[String] {
        self.ops().role_warnings()
    }

    /// True when host ports outside [`Layout::hosts`] are routed beside the family.
    pub(crate) fn hosts_beside_allowed(&self) -> bool {
        self.ops().hosts_beside_allowed()
    }

    /// The layout's family; a 2-level PGFT named so is `twolevel`.
    pub fn family(&self) -> Family {
        self.ops().family()
    }

    /// The family's registry name (`lsft`, `twolevel`, `tree`, …).
    pub fn family_name(&self) -> &'static str {
        self.family().name()
    }

    /// Switch level of every node (0 for hosts and anything outside the family):
    /// LSFT leaves 1, spines 2; tree levels 1..=n; proximity tree bottom 1, middle 2, top 3.
    pub(crate) fn levels(&self, fabric: &Fabric) -> Vec<u8> {
        let mut v = vec![0u8; fabric.len()];
        self.ops().mark_levels(&mut v);
        v
    }

    /// One-line description with the parameters.
    pub fn describe(&self) -> String {
        self.ops().describe()
    }

    /// The family's parameters, as the C ABI reports them.
    pub fn parameters(&self) -> Parameters {
        self.ops().parameters()
    }
}
