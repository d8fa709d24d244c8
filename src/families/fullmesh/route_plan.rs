//! Path plans for a routed full mesh: per (source host, destination host) an array of
//! [`SLOTS`] DLID offsets, used round robin for successive messages or streams, the first
//! always the direct route (offset 0), D of the ten slots direct (the direct share
//! D1…D10), the others the pair's detours ([`crate::families::fullmesh::route`]).
//!
//! Slots: slot k is direct when (k·D) mod 10 < D — slot 0 always, and the D direct slots
//! spread evenly over the ten. The detour slots take the pair's detour offsets in
//! rotation, starting at the source host's slot on its switch (so the hosts of one switch
//! start on different relays). The detour offsets of a pair (s, t) are the offsets
//! 1..=min(2^LMC − 1, N − 1) whose relay is not s itself (the relay's own hosts reach t
//! directly on that offset), one per distinct relay. A pair on one switch, or a pair
//! without a detour (N = 3 at LMC 1 for the relay's hosts), uses offset 0 in every slot.

use crate::error::{Error, Result};
use crate::families::fullmesh::route::relay;
use crate::topology::{FullmeshLayout, Layout};

/// Slots of a plan array (the seed's ten).
pub const SLOTS: usize = 10;

/// The plan of every host pair of a full mesh at one LMC and direct share.
#[derive(Clone, Debug)]
pub struct PathPlan {
    n: u32,
    h: u32,
    lmc: u8,
    direct_share: u8,
    /// position of each rank (switch · H + slot)
    pos: Vec<u32>,
}

impl PathPlan {
    /// The plan for `layout` (a full mesh) routed with `lmc`, D = `direct_share` of ten
    /// slots direct. Errors: another family, D outside 1..=10, LMC above 7, or detours
    /// asked for (D < 10) at LMC 0.
    pub fn new(layout: &Layout, lmc: u8, direct_share: u8) -> Result<PathPlan> {
        let Layout::Fullmesh(l) = layout else {
            return Err(Error::input(
                "topology",
                format!("path plans are for full meshes; this fabric is a {}", layout.describe()),
                Some("build one with `ibfat build fullmesh`".into()),
            ));
        };
        Self::for_mesh(l, lmc, direct_share)
    }

    /// [`PathPlan::new`] for a full-mesh layout.
    pub(crate) fn for_mesh(l: &FullmeshLayout, lmc: u8, direct_share: u8) -> Result<PathPlan> {
        if !(1..=SLOTS as u8).contains(&direct_share) {
            return Err(Error::input(
                "direct-share",
                format!("{direct_share} is out of range: the direct route takes 1 to 10 of the 10 slots"),
                Some("1..=10 (D1 = 10% direct ... D10 = direct only)".into()),
            ));
        }
        if lmc > crate::routing::lids::MAX_LMC {
            return Err(Error::input(
                "lmc",
                format!("{lmc} is out of range"),
                Some(format!("0..={}", crate::routing::lids::MAX_LMC)),
            ));
        }
        if lmc == 0 && direct_share < SLOTS as u8 {
            return Err(Error::input(
                "lmc",
                format!("LMC 0 gives every host one LID, so there is no detour for the {} detour slots of D{direct_share}", SLOTS as u8 - direct_share),
                Some("route and plan with --lmc 1 or more (2^LMC - 1 detours per pair, at most N-2 distinct), or --direct-share 10".into()),
            ));
        }
        Ok(PathPlan {
            n: l.n,
            h: l.h,
            lmc,
            direct_share,
            pos: l.host_pos.clone(),
        })
    }

    /// Hosts (ranks) the plan covers.
    pub fn hosts(&self) -> usize {
        self.pos.len()
    }

    /// Switch index of a rank.
    pub fn switch_of(&self, rank: u32) -> u32 {
        self.pos[rank as usize] / self.h
    }

    /// Whether slot k is direct at direct share `d`.
    pub(crate) fn direct_slot(k: usize, d: u8) -> bool {
        (k * d as usize) % SLOTS < d as usize
    }

    /// The detour offsets from switch `s` to switch `t` (empty when s = t), one per
    /// distinct relay, ascending.
    pub(crate) fn detours(&self, s: u32, t: u32) -> Vec<u8> {
        if s == t {
            return Vec::new();
        }
        let top = ((1u32 << self.lmc) - 1).min(self.n - 1);
        (1..=top)
            .filter(|&o| relay(t, o, self.n) != s)
            .map(|o| o as u8)
            .collect()
    }

    /// The ten DLID offsets of (source rank, destination rank); `None` for a rank out of
    /// range.
    pub fn offsets(&self, src: u32, dst: u32) -> Option<[u8; SLOTS]> {
        let (&ps, &pd) = (self.pos.get(src as usize)?, self.pos.get(dst as usize)?);
        let det = self.detours(ps / self.h, pd / self.h);
        let mut out = [0u8; SLOTS];
        if det.is_empty() {
            return Some(out);
        }
        let mut j = (ps % self.h) as usize;
        for (k, slot) in out.iter_mut().enumerate() {
            if !Self::direct_slot(k, self.direct_share) {
                *slot = det[j % det.len()];
                j += 1;
            }
        }
        Some(out)
    }

    /// Ordered pairs of hosts on different switches that have no detour at all.
    pub fn pairs_without_detours(&self) -> u64 {
        let per_switch = self.pos.iter().fold(vec![0u64; self.n as usize], |mut v, &p| {
            v[(p / self.h) as usize] += 1;
            v
        });
        let mut c = 0;
        for s in 0..self.n {
            for t in (0..self.n).filter(|&t| t != s) {
                if self.detours(s, t).is_empty() {
                    c += per_switch[s as usize] * per_switch[t as usize];
                }
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::fullmesh::model::FullmeshParams;
    use crate::topology::{FamilySpec, Spec};

    fn plan(n: u32, h: u32, lmc: u8, d: u8) -> PathPlan {
        let t = Spec::new(FamilySpec::Fullmesh(FullmeshParams {
            switches: n,
            hosts_per_switch: h,
            cables_per_pair: 1,
        }))
        .build()
        .unwrap();
        PathPlan::new(&t.layout, lmc, d).unwrap()
    }

    #[test]
    fn d_of_ten_slots_are_direct_and_the_first_always() {
        for d in 1..=10u8 {
            assert!(PathPlan::direct_slot(0, d));
            assert_eq!((0..SLOTS).filter(|&k| PathPlan::direct_slot(k, d)).count(), d as usize);
        }
        let p = plan(8, 2, 3, 3);
        for s in 0..16 {
            for t in 0..16 {
                let o = p.offsets(s, t).unwrap();
                assert_eq!(o[0], 0);
                if s / 2 == t / 2 {
                    assert_eq!(o, [0; SLOTS]);
                    continue;
                }
                assert_eq!(o.iter().filter(|&&x| x == 0).count(), 3, "{o:?}");
                // detours: distinct relays, never the source switch
                for &x in o.iter().filter(|&&x| x != 0) {
                    assert_ne!(relay(t / 2, x as u32, 8), s / 2);
                }
            }
        }
        assert_eq!(p.pairs_without_detours(), 0);
        // N = 3, LMC 1: the relay's hosts have no detour
        assert_eq!(plan(3, 1, 1, 1).pairs_without_detours(), 3);
    }

    #[test]
    fn bad_shares_and_lmcs_are_refused() {
        let t = Spec::new(FamilySpec::Fullmesh(FullmeshParams {
            switches: 4,
            hosts_per_switch: 1,
            cables_per_pair: 1,
        }))
        .build()
        .unwrap();
        for (lmc, d, says) in [
            (2, 0, "direct-share: 0"),
            (2, 11, "direct-share: 11"),
            (0, 3, "lmc: LMC 0"),
        ] {
            let e = PathPlan::new(&t.layout, lmc, d).unwrap_err().to_string();
            assert!(e.starts_with(says), "{e}");
        }
        assert!(PathPlan::new(&t.layout, 0, 10).is_ok());
    }
}
