//! The structure of a degraded LSFT: the intact family's projective plane with holes.
//!
//! Recognition completes a damaged fabric back to PG(2,q) ([`crate::families::lsft::recognize_degraded`]);
//! this is what it hands on for routing: which node serves each canonical point (leaf) and
//! line (spine), or none when the switch is dead, and which cables survive (port 0 = cut).
//! The intact [`LsftLayout`](crate::topology::LsftLayout) keeps its invariant (every cable
//! present); the damage lives here.

use crate::geometry::Plane;
use crate::topology::degraded::DEAD;
use crate::topology::{Endpoint, Fabric, NodeId, NodeKind};

/// An LSFT(q), one- or two-sided, with cut cables, dead spines or dead leaves, in
/// canonical coordinates.
///
/// Leaves are named by their **leaf index** `side·n + point` (n = q²+q+1 points; side 0
/// only in a one-sided LSFT, where the leaf index is the point), as in
/// [`crate::topology::LsftLayout`]: routing and lanes work on leaves, and a two-sided LSFT has two of
/// them at every point, sharing the point's q+1 lines.
#[derive(Clone, Debug)]
pub struct LsftHoles {
    /// PG(2,q): points are leaves, lines spines.
    pub plane: Plane,
    /// 1 or 2: the copies of leaves and hosts on the spines' two halves.
    pub sides: u32,
    /// Leaf node of each leaf index (side·n + point), or [`DEAD`].
    pub leaves: Vec<NodeId>,
    /// Spine node of each canonical line, or [`DEAD`].
    pub spines: Vec<NodeId>,
    /// Leaf port towards the k-th line through the point (`leaf_up[leaf·(q+1) + k]`, lines
    /// in [`Plane::lines_through`] order); 0 when the cable is cut or a switch is dead.
    pub leaf_up: Vec<u8>,
    /// Spine port towards the k-th point of its line on a side (`spine_down[l·sides·(q+1) +
    /// side·(q+1) + k]`, points in [`Plane::points_on`] order); 0 when cut or dead.
    pub spine_down: Vec<u8>,
    /// Host ports with the leaf index of their leaf and the leaf port, in (leaf, port) order.
    pub hosts: Vec<(u32, u8, Endpoint)>,
}

impl LsftHoles {
    /// Build from which node is which leaf (`leaves[side·n + point]`, `sides` copies) and
    /// line; cables and hosts are read off the fabric.
    pub fn new(fabric: &Fabric, plane: Plane, sides: u32, leaves: Vec<NodeId>, spines: Vec<NodeId>) -> LsftHoles {
        let d = plane.degree() as usize;
        let n = plane.size() as usize;
        let sd = sides as usize * d;
        let mut line_of = vec![u32::MAX; fabric.len()];
        for (l, &s) in spines.iter().enumerate() {
            if s != DEAD {
                line_of[s as usize] = l as u32;
            }
        }
        let (mut leaf_up, mut spine_down) = (vec![0u8; leaves.len() * d], vec![0u8; n * sd]);
        let mut hosts = Vec::new();
        for (i, &a) in leaves.iter().enumerate() {
            if a == DEAD {
                continue;
            }
            let (p, side) = ((i % n) as u32, i / n);
            for port in 1..=fabric.node(a).nports {
                let Some((peer, pp)) = fabric.peer(a, port) else {
                    continue;
                };
                if fabric.node(peer).kind != NodeKind::Switch {
                    hosts.push((i as u32, port, Endpoint { node: peer, port: pp }));
                    continue;
                }
                let l = line_of[peer as usize];
                if l == u32::MAX {
                    continue;
                }
                if let (Some(k), Some(kk)) = (plane.position_at_point(p, l), plane.position_on_line(l, p)) {
                    leaf_up[i * d + k as usize] = port;
                    spine_down[l as usize * sd + side * d + kk as usize] = pp;
                }
            }
        }
        LsftHoles {
            plane,
            sides,
            leaves,
            spines,
            leaf_up,
            spine_down,
            hosts,
        }
    }

    /// q + 1.
    pub(crate) fn degree(&self) -> usize {
        self.plane.degree() as usize
    }

    /// The point of leaf index `i` (its leaf's place in the plane, whatever the side).
    pub(crate) fn point(&self, i: u32) -> u32 {
        i % self.plane.size()
    }

    /// The side (0 or 1) of leaf index `i`.
    pub(crate) fn side(&self, i: u32) -> u32 {
        i / self.plane.size()
    }

    /// Number of leaf indices (sides · n), dead leaves included.
    pub(crate) fn leaf_count(&self) -> u32 {
        self.leaves.len() as u32
    }

    /// The leaf indices at a point (one per side), side 0 first.
    pub(crate) fn leaves_at(&self, p: u32) -> impl Iterator<Item = u32> {
        let n = self.plane.size();
        (0..self.sides).map(move |s| s * n + p)
    }

    /// Leaf port of leaf index i towards line l (0: cut, dead, or not incident).
    pub(crate) fn up(&self, i: u32, l: u32) -> u8 {
        match self.plane.position_at_point(self.point(i), l) {
            Some(k) if self.leaves[i as usize] != DEAD && self.spines[l as usize] != DEAD => {
                self.leaf_up[i as usize * self.degree() + k as usize]
            }
            _ => 0,
        }
    }

    /// Spine port of line l towards leaf index i (0: cut, dead, or not incident).
    pub(crate) fn down(&self, l: u32, i: u32) -> u8 {
        match self.plane.position_on_line(l, self.point(i)) {
            Some(k) if self.leaves[i as usize] != DEAD && self.spines[l as usize] != DEAD => {
                let d = self.degree();
                self.spine_down[(l as usize * self.sides as usize + self.side(i) as usize) * d + k as usize]
            }
            _ => 0,
        }
    }

    /// The spine of the family route from leaf a to a host in slot j of leaf b (a ≠ b):
    /// the line joining their points, or for the two leaves of one point (two-sided) the
    /// (j mod (q+1))-th line through it — the intact router's spread
    /// (`routing::hosts`).
    pub(crate) fn family_line(&self, a: u32, b: u32, j: u32) -> u32 {
        let (pa, pb) = (self.point(a), self.point(b));
        if pa == pb {
            self.plane.lines_through(pa)[j as usize % self.degree()]
        } else {
            self.plane.join(pa, pb)
        }
    }

    /// True when the family route from leaf a to slot j of leaf b (a ≠ b) survives: its
    /// spine is alive and both its cables are there.
    pub fn intact_slot(&self, a: u32, b: u32, j: u32) -> bool {
        let l = self.family_line(a, b, j);
        self.up(a, l) != 0 && self.down(l, b) != 0
    }

    /// True when the family route from leaf a to leaf b (a ≠ b) survives for every host
    /// slot of b: between two points their one spine; between the two leaves of a point
    /// every spine through it.
    pub fn intact(&self, a: u32, b: u32) -> bool {
        if self.point(a) == self.point(b) {
            return (0..self.degree() as u32).all(|j| self.intact_slot(a, b, j));
        }
        self.intact_slot(a, b, 0)
    }

    /// The intact family's layout as far as a schedule needs it — the plane and every host
    /// in its slot (slots in leaf-port order, ranks in (leaf, slot) order) — so the
    /// family's all-to-all can be generated for the hosts that are there and then repaired
    /// on the degraded tables. Its cable fields are the surviving ones (0 where cut): it is
    /// not a routing layout.
    pub fn schedule_layout(&self) -> crate::topology::LsftLayout {
        let d = self.degree();
        let mut leaf_host = vec![0u8; self.leaves.len() * d];
        let mut slot_rank = vec![u32::MAX; self.leaves.len() * d];
        let mut hosts = Vec::with_capacity(self.hosts.len());
        let mut hosts_per_leaf = 0u32;
        let mut next = vec![0usize; self.leaves.len()];
        for &(p, port, ep) in &self.hosts {
            let j = next[p as usize];
            if j >= d {
                continue; // more hosts than slots: not an LSFT slot (recognition allows none)
            }
            next[p as usize] += 1;
            leaf_host[p as usize * d + j] = port;
            slot_rank[p as usize * d + j] = hosts.len() as u32;
            hosts.push(ep);
            hosts_per_leaf = hosts_per_leaf.max(j as u32 + 1);
        }
        crate::topology::LsftLayout {
            plane: self.plane.clone(),
            q: self.plane.order(),
            sides: self.sides,
            hosts_per_leaf,
            leaves: self.leaves.clone(),
            spines: self.spines.clone(),
            leaf_up: self.leaf_up.clone(),
            spine_down: self.spine_down.clone(),
            leaf_host,
            slot_rank,
            hosts,
        }
    }
}

impl crate::topology::degraded::FamilyHoles for LsftHoles {
    fn native_pattern(&self) -> &'static str {
        "lsft"
    }

    fn hosts(&self) -> Vec<Endpoint> {
        self.hosts.iter().map(|&(_, _, ep)| ep).collect()
    }

    fn parameters(&self) -> crate::topology::Parameters {
        crate::topology::Parameters {
            order: self.plane.order(),
            sides: self.sides,
            ..Default::default()
        }
    }
}
