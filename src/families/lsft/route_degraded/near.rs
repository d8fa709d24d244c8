//! Where the faults are, for the degraded router's candidate searches: which leaves and
//! spines are touched, and for every search the few candidates that can fail, so that a
//! choice far from every fault costs a handful of lookups (LSFT(32) with 100 cut cables
//! routes in under a second). Each fast search has the full scan it must agree with
//! (`*_scan`, tested pair by pair).

use super::partitions;
use crate::families::lsft::model_holes::LsftHoles;
use crate::topology::degraded::DEAD;

/// Where the faults are, so that the candidate searches check cables only near a fault
/// (far from every fault the family's cables are all there): the same choices as the
/// search over every candidate, in a fraction of the time at LSFT(32).
pub(super) struct Near {
    /// Per leaf index (side·n + point): a leaf that is dead or lost a cable.
    pub(super) point: Vec<bool>,
    /// A spine that is dead or lost a cable.
    pub(super) line: Vec<bool>,
    /// Leaves on each line (side 0's points in [`Plane::points_on`](crate::geometry::plane::Plane::points_on) order, then side
    /// 1's): the relay candidates of a spine on it.
    pub(super) by_line: Vec<Vec<u32>>,
    /// For a touched leaf: the leaves its family route to is broken with (sorted; `intact`
    /// is symmetric: both directions use the same two cables, or two-sided between the
    /// two leaves of a point the same q+1 pairs of cables).
    broken_with: Vec<Vec<u32>>,
    /// Per line: the positions in `by_line` of touched leaves — the only candidates that
    /// can fail when the destination is untouched.
    touched_pos: Vec<Vec<u32>>,
    /// Per leaf: the positions in [`Plane::lines_through`](crate::geometry::plane::Plane::lines_through) of its lines that lost the
    /// cable to it or are touched — the only first hops that can fail towards an untouched
    /// spine.
    bad_lines: Vec<Vec<u32>>,
    /// The fast paths' position lists are per point: a two-sided LSFT (two leaves per
    /// point) takes the full scans, which choose the same.
    fast: bool,
    /// The bits of the leaf index the SLs' partitions name (`lanes::partitions`): a relay
    /// must differ from the destination in one of them.
    mask: u32,
    /// More leaves than the partitions tell apart: some leaves cannot relay for some
    /// destinations ([`Near::relay_ok`]).
    restricted: bool,
}

/// Which of `count` relays spine l hands host slot j of leaf d to: consecutive slots of
/// one destination to consecutive relays, from an offset drawn from (l, d).
///
/// Why not (l + d + j), the form of a leaf's choice of its first spine (s + d + j over its
/// spines): the slots one source sends up one spine all have (d + j) equal modulo its
/// spine count, so when the spine has as many relays the same sum hands every one of
/// them, whatever the destination, to one relay. On LSFT(13) with 1 % of the cables cut
/// that piled 51 slots (714 flows of uniform all-to-all) on one spine → relay link, 1.19×
/// what the fabric's endpoints force; an offset per (l, d) spreads them like the
/// destinations.
pub(super) fn relay_index(l: u32, d: u32, j: u32, count: u32) -> u32 {
    let x = (l as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (d as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (((x >> 33) as u32 % count) + j % count) % count
}

/// Positions ruled out among a candidate list, ascending (few: only near faults).
struct Skips {
    at: [u32; 128],
    len: usize,
}

impl Skips {
    pub(super) fn new() -> Skips {
        Skips { at: [0; 128], len: 0 }
    }
    /// Record position i (ascending); false when full (the caller searches the slow way).
    fn push(&mut self, i: u32) -> bool {
        if self.len == self.at.len() {
            return false;
        }
        self.at[self.len] = i;
        self.len += 1;
        true
    }
    fn as_slice(&self) -> &[u32] {
        &self.at[..self.len]
    }
    fn sort_dedup(&mut self) {
        let v = &mut self.at[..self.len];
        v.sort_unstable();
        let mut w = 0;
        for r in 0..v.len() {
            if w == 0 || v[r] != v[w - 1] {
                v[w] = v[r];
                w += 1;
            }
        }
        self.len = w;
    }
    /// The position of the idx-th candidate that is not ruled out.
    fn nth(&self, idx: u32) -> u32 {
        let mut r = idx;
        for &i in &self.at[..self.len] {
            if i > r {
                break;
            }
            r += 1;
        }
        r
    }
}

impl Near {
    pub(super) fn new(h: &LsftHoles) -> Near {
        let (n, dd) = (h.plane.size() as usize, h.plane.degree() as usize);
        let nl = h.leaves.len();
        let on_line = |l: u32| {
            let pts = h.plane.points_on(l);
            (0..h.sides).flat_map(move |side| pts.iter().map(move |&p| side * n as u32 + p))
        };
        let point: Vec<bool> = (0..nl)
            .map(|p| h.leaves[p] == DEAD || h.leaf_up[p * dd..(p + 1) * dd].contains(&0))
            .collect();
        let sd = h.sides as usize * dd;
        let line: Vec<bool> = (0..n)
            .map(|l| h.spines[l] == DEAD || h.spine_down[l * sd..(l + 1) * sd].contains(&0))
            .collect();
        let by_line: Vec<Vec<u32>> = (0..n as u32).map(|l| on_line(l).collect()).collect();
        let broken_with = (0..nl as u32)
            .map(|p| match point[p as usize] {
                true => (0..nl as u32).filter(|&m| m != p && !h.intact(p, m)).collect(),
                false => Vec::new(),
            })
            .collect();
        let touched_pos = by_line
            .iter()
            .map(|v| (0..v.len() as u32).filter(|&i| point[v[i as usize] as usize]).collect())
            .collect();
        let bad_lines = (0..nl)
            .map(|p| {
                let lines = h.plane.lines_through(h.point(p as u32));
                (0..lines.len() as u32)
                    .filter(|&k| h.leaf_up[p * dd + k as usize] == 0 || line[lines[k as usize] as usize])
                    .collect()
            })
            .collect();
        let parts = partitions(nl as u32);
        Near {
            point,
            line,
            by_line,
            broken_with,
            touched_pos,
            bad_lines,
            fast: h.sides == 1,
            mask: (1u32 << parts) - 1,
            restricted: nl as u64 > 1u64 << parts,
        }
    }

    /// Leaf m can relay a one-turn detour to leaf d ≠ m: some partition puts them on
    /// different sides (always, up to 2^7 leaves).
    pub(super) fn relay_ok(&self, m: u32, d: u32) -> bool {
        (m ^ d) & self.mask != 0
    }

    /// `h.intact(a, b)` for a ≠ b, from the lists.
    pub(super) fn intact(&self, a: u32, b: u32) -> bool {
        match (self.point[a as usize], self.point[b as usize]) {
            (false, false) => true,
            (true, _) => self.broken_with[a as usize].binary_search(&b).is_err(),
            (false, true) => self.broken_with[b as usize].binary_search(&a).is_err(),
        }
    }

    /// Spine l's next hop towards host slot j of point d (0 for the leaf itself): (down
    /// port, d) when it reaches d, else (down port, m) for an intermediate leaf m on l with
    /// its cable, m's family route to d intact and m a relay for d ([`Near::relay_ok`]), spread by
    /// slot from an offset per (l, d) ([`relay_index`]) — cables are checked only where a fault is near (an untouched line has
    /// all its cables; untouched points keep their routes).
    pub(super) fn spine_to_point(&self, h: &LsftHoles, l: u32, d: u32, j: u32) -> Option<(u8, u32)> {
        let down = h.down(l, d);
        if down != 0 {
            return Some((down, d));
        }
        if h.plane.incident(h.point(d), l) {
            // l lost its cable to d: every leaf on l reaches d through l only
            return None;
        }
        if !self.fast {
            return self.spine_to_point_scan(h, l, d, j);
        }
        // only touched candidates, and where d's bad lines cross l, can fail (an untouched
        // leaf has every cable and reaches d unless d lost the cable of their line)
        let cands = &self.by_line[l as usize];
        let mut suspects = Skips::new();
        let mut fast = self.touched_pos[l as usize].iter().all(|&i| suspects.push(i));
        if fast && self.point[d as usize] {
            let through = h.plane.lines_through(d);
            for &k in &self.bad_lines[d as usize] {
                let x = h.plane.meet(through[k as usize], l);
                // one-sided: the leaf index is the point, and a line's points are ascending
                if let Ok(i) = cands.binary_search(&x) {
                    fast &= suspects.push(i as u32);
                }
            }
        }
        if fast && self.restricted {
            for (i, &m) in cands.iter().enumerate() {
                if !self.relay_ok(m, d) {
                    fast &= suspects.push(i as u32);
                }
            }
        }
        if fast {
            suspects.sort_dedup();
            let mut skips = Skips::new();
            for &i in suspects.as_slice() {
                let m = cands[i as usize];
                if !((!self.line[l as usize] || h.down(l, m) != 0) && self.intact(m, d) && self.relay_ok(m, d)) {
                    skips.push(i);
                }
            }
            let count = (cands.len() - skips.len) as u32;
            if count == 0 {
                return None;
            }
            let m = cands[skips.nth(relay_index(l, d, j, count)) as usize];
            return Some((h.down(l, m), m));
        }
        self.spine_to_point_scan(h, l, d, j)
    }

    /// [`Near::spine_to_point`] past the direct cable, checking every candidate.
    pub(super) fn spine_to_point_scan(&self, h: &LsftHoles, l: u32, d: u32, j: u32) -> Option<(u8, u32)> {
        if h.plane.incident(h.point(d), l) {
            return None; // l lost its cable to d (both leaves of a point are on the same lines)
        }
        let cands = &self.by_line[l as usize];
        let valid =
            |m: &&u32| (!self.line[l as usize] || h.down(l, **m) != 0) && self.intact(**m, d) && self.relay_ok(**m, d);
        let count = cands.iter().filter(valid).count() as u32;
        if count == 0 {
            return None;
        }
        let m = *cands.iter().filter(valid).nth(relay_index(l, d, j, count) as usize)?;
        Some((h.down(l, m), m))
    }

    /// What [`Near::spine_to_point`] chooses from, the same for every host slot j.
    pub(super) fn spine_options(&self, h: &LsftHoles, l: u32, d: u32) -> SpineOptions {
        if h.down(l, d) != 0 {
            return SpineOptions::Down;
        }
        if h.plane.incident(h.point(d), l) {
            return SpineOptions::Via(Vec::new());
        }
        SpineOptions::Via(
            self.by_line[l as usize]
                .iter()
                .copied()
                .filter(|&m| (!self.line[l as usize] || h.down(l, m) != 0) && self.intact(m, d) && self.relay_ok(m, d))
                .collect(),
        )
    }
}

/// Spine l towards point d: straight down, or through one of these leaves (in order),
/// picked per host slot by [`SpineOptions::pick_point`].
pub(super) enum SpineOptions {
    Down,
    Via(Vec<u32>),
}

impl SpineOptions {
    /// The point spine l goes down to for host slot j: d, or the leaf of the detour.
    pub(super) fn pick_point(&self, l: u32, d: u32, j: u32) -> Option<u32> {
        match self {
            SpineOptions::Down => Some(d),
            SpineOptions::Via(v) if v.is_empty() => None,
            SpineOptions::Via(v) => Some(v[relay_index(l, d, j, v.len() as u32) as usize]),
        }
    }
}
