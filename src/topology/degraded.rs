//! The structure of a degraded LSFT: the intact family's projective plane with holes.
//!
//! Recognition completes a damaged fabric back to PG(2,q) ([`crate::recognize::degraded`]);
//! this is what it hands on for routing: which node serves each canonical point (leaf) and
//! line (spine), or none when the switch is dead, and which cables survive (port 0 = cut).
//! The intact [`super::LsftLayout`] keeps its invariant (every cable present); the damage
//! lives here.

use super::{Endpoint, Fabric, NodeId, NodeKind};
use crate::geometry::Plane;

/// No node: the switch is dead.
pub const DEAD: NodeId = u32::MAX;

/// A one-sided LSFT(q) with cut cables, dead spines or dead leaves, in canonical coordinates.
#[derive(Clone, Debug)]
pub struct LsftHoles {
    /// PG(2,q): points are leaves, lines spines.
    pub plane: Plane,
    /// Leaf node of each canonical point, or [`DEAD`].
    pub leaves: Vec<NodeId>,
    /// Spine node of each canonical line, or [`DEAD`].
    pub spines: Vec<NodeId>,
    /// Leaf port towards the k-th line through the point (`leaf_up[p·(q+1) + k]`, lines in
    /// [`Plane::lines_through`] order); 0 when the cable is cut or a switch is dead.
    pub leaf_up: Vec<u8>,
    /// Spine port towards the k-th point of its line (`spine_down[l·(q+1) + k]`, points in
    /// [`Plane::points_on`] order); 0 when cut or dead.
    pub spine_down: Vec<u8>,
    /// Host ports with the point of their leaf and the leaf port, in (point, port) order.
    pub hosts: Vec<(u32, u8, Endpoint)>,
}

impl LsftHoles {
    /// Build from which node is which point/line; cables and hosts are read off the fabric.
    pub fn new(fabric: &Fabric, plane: Plane, leaves: Vec<NodeId>, spines: Vec<NodeId>) -> LsftHoles {
        let d = plane.degree() as usize;
        let n = plane.size() as usize;
        let mut line_of = vec![u32::MAX; fabric.len()];
        for (l, &s) in spines.iter().enumerate() {
            if s != DEAD {
                line_of[s as usize] = l as u32;
            }
        }
        let (mut leaf_up, mut spine_down) = (vec![0u8; n * d], vec![0u8; n * d]);
        let mut hosts = Vec::new();
        for (p, &a) in leaves.iter().enumerate() {
            if a == DEAD {
                continue;
            }
            for port in 1..=fabric.node(a).nports {
                let Some((peer, pp)) = fabric.peer(a, port) else {
                    continue;
                };
                if fabric.node(peer).kind != NodeKind::Switch {
                    hosts.push((p as u32, port, Endpoint { node: peer, port: pp }));
                    continue;
                }
                let l = line_of[peer as usize];
                if l == u32::MAX {
                    continue;
                }
                if let (Some(k), Some(kk)) = (
                    plane.position_at_point(p as u32, l),
                    plane.position_on_line(l, p as u32),
                ) {
                    leaf_up[p * d + k as usize] = port;
                    spine_down[l as usize * d + kk as usize] = pp;
                }
            }
        }
        LsftHoles {
            plane,
            leaves,
            spines,
            leaf_up,
            spine_down,
            hosts,
        }
    }

    /// q + 1.
    pub fn degree(&self) -> usize {
        self.plane.degree() as usize
    }

    /// Leaf port of point p towards line l (0: cut, dead, or not incident).
    pub fn up(&self, p: u32, l: u32) -> u8 {
        match self.plane.position_at_point(p, l) {
            Some(k) if self.leaves[p as usize] != DEAD && self.spines[l as usize] != DEAD => {
                self.leaf_up[p as usize * self.degree() + k as usize]
            }
            _ => 0,
        }
    }

    /// Spine port of line l towards point p (0: cut, dead, or not incident).
    pub fn down(&self, l: u32, p: u32) -> u8 {
        match self.plane.position_on_line(l, p) {
            Some(k) if self.leaves[p as usize] != DEAD && self.spines[l as usize] != DEAD => {
                self.spine_down[l as usize * self.degree() + k as usize]
            }
            _ => 0,
        }
    }

    /// True when the family route from leaf a to leaf b (a ≠ b) survives: their spine is
    /// alive and both its cables are there.
    pub fn intact(&self, a: u32, b: u32) -> bool {
        let l = self.plane.join(a, b);
        self.up(a, l) != 0 && self.down(l, b) != 0
    }

    /// The intact family's layout as far as a schedule needs it — the plane and every host
    /// in its slot (slots in leaf-port order, ranks in (point, slot) order) — so the
    /// family's all-to-all can be generated for the hosts that are there and then repaired
    /// on the degraded tables. Its cable fields are the surviving ones (0 where cut): it is
    /// not a routing layout.
    pub fn schedule_layout(&self) -> super::LsftLayout {
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
        super::LsftLayout {
            plane: self.plane.clone(),
            q: self.plane.order(),
            sides: 1,
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

/// A PGFT (k-ary n-tree, two-level fat-tree) with cut cables or dead switches, in the
/// intact family's canonical coordinates ([`crate::recognize::degraded_pgft`]).
#[derive(Clone, Debug)]
pub struct PgftHoles {
    /// The intact family's layout with its holes: `switches[i]` is [`DEAD`] for a dead
    /// switch, and a canonical port of `up` / `down` is 0 where its cable is missing (a
    /// down port of a leaf is 0 at an empty host slot, as in the intact layout). Every
    /// other field is that of the intact family; it is not a layout to route intact.
    pub layout: super::PgftLayout,
}

impl PgftHoles {
    /// The port of canonical up port `u` of switch slot `s` (0: cut, dead, or none).
    pub fn up(&self, s: u32, u: u32) -> u8 {
        let l = &self.layout;
        if l.switches[s as usize] == DEAD {
            return 0;
        }
        l.up[(l.up_off[s as usize] + u) as usize]
    }

    /// The port of canonical down port `k` (child a, cable c: a·p_l + c) of switch slot `s`.
    pub fn down(&self, s: u32, k: u32) -> u8 {
        let l = &self.layout;
        if l.switches[s as usize] == DEAD {
            return 0;
        }
        l.down[(l.down_off[s as usize] + k) as usize]
    }

    /// Position of switch slot `s` for messages: `T2(3,1)` = level 2, subtree A 3, copy B 1.
    pub fn position(&self, s: u32) -> String {
        let (l, a, b) = self.layout.coords(s);
        format!("T{l}({a},{b})")
    }

    /// Global slot of the switch at level `l` (1..=h) with subtree `a` and copy `b`.
    pub fn slot(&self, l: u32, a: u32, b: u32) -> u32 {
        let w: u32 = (1..=l).map(|j| self.layout.params.w(j)).product();
        self.layout.offset[l as usize - 1] + a * w + b
    }
}

/// The structure of a degraded fabric, per family: what routing needs to find its way
/// around the holes. (Made once per recognition; the size difference does not matter.)
#[derive(Clone, Debug)]
#[allow(clippy::large_enum_variant)]
pub enum Holes {
    /// A one-sided LSFT: detours through another leaf, with virtual lanes.
    Lsft(LsftHoles),
    /// A PGFT, k-ary n-tree or two-level fat-tree: up*/down* around the holes on one VL.
    Pgft(PgftHoles),
    /// A MOLS proximity 3-level tree: up*/down* around the holes on one VL, both LMC routes.
    Mols(super::degraded_mols::MolsHoles),
}
