//! What recognition says about a fabric that is a known family with faults: the family,
//! the faults in its canonical coordinates, and the holes its degraded router works
//! around. Each family's folder finds them (`recognize_degraded`); the types are shared.

use crate::families::lsft::model_holes::LsftHoles;
use crate::families::Family;
use crate::topology::degraded::Holes;
use crate::topology::NodeId;

/// A fabric recognised as a family with faults.
#[derive(Clone, Debug)]
pub struct Degraded {
    /// The family it would be intact.
    pub family: Family,
    /// Its order: LSFT q, k-ary n-tree k, PGFT and two-level fat-tree the number of levels.
    pub order: u32,
    /// One line: family, parameters and fault counts.
    pub description: String,
    /// What is missing, in canonical coordinates.
    pub faults: Vec<Fault>,
    /// The family's structure with its holes, for routing ([`crate::families::lsft::route_degraded`]
    /// for an LSFT, [`crate::families::pgft::route_degraded`] for the trees).
    pub holes: Holes,
}

impl Degraded {
    /// The degraded LSFT's structure, when this is one (detours, lanes, schedule repair).
    pub fn lsft(&self) -> Option<&LsftHoles> {
        match &self.holes {
            Holes::Lsft(h) => Some(h),
            _ => None,
        }
    }
}

/// One fault of a degraded fabric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A leaf–spine cable of the family that is not in the fabric (both switches are).
    MissingCable {
        /// The leaf and its point `P(x,y)`.
        leaf: NodeId,
        /// Its canonical point.
        point: String,
        /// The spine and its line `L(c,r)`.
        spine: NodeId,
        /// Its canonical line.
        line: String,
    },
    /// A spine of the family that is not in the fabric (with all its cables).
    DeadSpine {
        /// The line it would serve.
        line: String,
    },
    /// A leaf of the family that is not in the fabric (with its cables and hosts).
    DeadLeaf {
        /// The point it would serve.
        point: String,
    },
    /// A cable of a tree (PGFT, k-ary n-tree, MOLS 3-level tree) between a switch and one
    /// of its parents that is not in the fabric (both switches are); one fault per missing
    /// parallel cable. MOLS positions are `B(pod,colour)`, `M(plane,row)`, `T(plane,index)`.
    MissingTreeCable {
        /// The lower switch.
        lower: NodeId,
        /// Its canonical position `T<level>(A,B)`.
        lower_pos: String,
        /// The upper switch.
        upper: NodeId,
        /// Its canonical position.
        upper_pos: String,
    },
    /// A switch of a tree above the leaves that is not in the fabric (with its cables).
    DeadSwitch {
        /// The canonical position it would hold, `T<level>(A,B)` (MOLS: `M(plane,row)`,
        /// `T(plane,index)`).
        position: String,
    },
}

impl Fault {
    /// One line for logs and messages: `cable P(1,2) - L(0,3) missing`, `cable T1(3,0) -
    /// T2(1,1) missing`, `switch T3(0,5) missing`.
    pub fn describe(&self) -> String {
        match self {
            Fault::MissingCable { point, line, .. } => format!("cable {point} - {line} missing"),
            Fault::DeadSpine { line } => format!("spine {line} missing"),
            Fault::DeadLeaf { point } => format!("leaf {point} missing"),
            Fault::MissingTreeCable {
                lower_pos, upper_pos, ..
            } => format!("cable {lower_pos} - {upper_pos} missing"),
            Fault::DeadSwitch { position } => format!("switch {position} missing"),
        }
    }
}
