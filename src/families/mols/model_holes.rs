//! The structure of a degraded MOLS proximity 3-level tree: the intact family's layout
//! with holes (`recognize::degraded_mols` finds it, [`crate::families::mols::route_degraded`]
//! routes it).

use crate::topology::MolsLayout;

/// A MOLS 3-level tree with cut cables or dead middle and top switches, in the intact
/// family's canonical coordinates.
#[derive(Clone, Debug)]
pub struct MolsHoles {
    /// The intact family's layout with its holes: a dead switch's node is [`DEAD`](crate::topology::degraded::DEAD), and a
    /// canonical port (`b_up`, `m_down`, `m_up`, `t_down`) is 0 where its cable is missing
    /// or its far switch is dead. The wiring table `g` and the rows `b_row` are those of
    /// the intact fabric, cut cables included (so the intact route of every pair is known);
    /// it is not a layout to route intact.
    pub layout: MolsLayout,
}

impl MolsHoles {
    /// The arity n.
    pub(crate) fn n(&self) -> u32 {
        self.layout.n
    }

    /// Position of bottom b for messages: `B(pod,colour)`.
    pub(crate) fn bottom_pos(&self, b: u32) -> String {
        format!("B({},{})", b / self.n(), b % self.n())
    }

    /// Position of middle m: `M(plane,row)`.
    pub(crate) fn middle_pos(&self, m: u32) -> String {
        format!("M({},{})", m / self.n(), m % self.n())
    }

    /// Position of top t: `T(plane,index)`.
    pub(crate) fn top_pos(&self, t: u32) -> String {
        format!("T({},{})", t / self.n(), t % self.n())
    }

    /// Middle of bottom b in plane u (canonical, alive or not).
    pub(crate) fn middle_of(&self, b: u32, u: u32) -> u32 {
        u * self.n() + self.layout.b_row[(b * self.n() + u) as usize]
    }

    /// Bottom of colour c under middle m (canonical).
    pub(crate) fn bottom_under(&self, m: u32, c: u32) -> u32 {
        self.layout.g[(m * self.n() + c) as usize] * self.n() + c
    }
}

impl crate::topology::degraded::FamilyHoles for MolsHoles {
    /// Both LMC routes survive around the holes.
    fn max_lmc(&self) -> u8 {
        1
    }

    fn native_pattern(&self) -> &'static str {
        "mols-shift"
    }

    fn hosts(&self) -> Vec<crate::topology::Endpoint> {
        self.layout.hosts.clone()
    }

    fn parameters(&self) -> crate::topology::Parameters {
        crate::topology::Parameters {
            arity: self.layout.n,
            wiring: Some(self.layout.wiring),
            ..Default::default()
        }
    }
}
