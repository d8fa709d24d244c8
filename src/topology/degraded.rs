//! Degraded fabrics: what each family's recognition hands its degraded router, as one
//! type ([`Holes`]); the structures themselves live in the families' folders.

use crate::families::lsft::model_holes::LsftHoles;
use crate::families::mols::model_holes::MolsHoles;
use crate::families::pgft::model_holes::PgftHoles;
use crate::topology::NodeId;

/// No node: the switch is dead.
pub const DEAD: NodeId = u32::MAX;

/// The structure of a degraded fabric, per family: what routing needs to find its way
/// around the holes. (Made once per recognition; the size difference does not matter.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Holes {
    /// An LSFT (one- or two-sided): detours through another leaf, with virtual lanes.
    Lsft(LsftHoles),
    /// A PGFT, k-ary n-tree or two-level fat-tree: up*/down* around the holes on one VL.
    Pgft(PgftHoles),
    /// A MOLS proximity 3-level tree: up*/down* around the holes on one VL, both LMC routes.
    Mols(MolsHoles),
}
