//! Two-level fat-trees (leaves and spines), the shape of seed 001's RICC cluster: L leaf
//! switches of H hosts each, S spine switches, P parallel cables between every leaf and
//! every spine.
//!
//! This is not a family of its own but a spelling of the 2-level parallel-ports fat-tree
//! PGFT(2; H,L; 1,S; 1,P) ([`crate::families::pgft::model`]): one builder, one recogniser, one router, so a
//! fabric built as `twolevel` and one built as `pgft --down H,L --up 1,S --parallel 1,P`
//! are the same plan byte for byte. What this module adds is the vocabulary (leaves,
//! hosts per leaf, spines, links per pair), its validation with those names, and the
//! naming of a recognised 2-level PGFT as `twolevel` when asked for (`recognize --family
//! twolevel`, [`mark`]).
//!
//! **Ranks are leaf-major**: the host in slot n (its node number, 0..H) of leaf ℓ is rank
//! and tree position d = ℓ·H + n ([`TwolevelParams::rank`]), so a job such as
//! `ranks:0-3,20-23` picks node numbers 0–3 of leaves 0 and 1 on H = 20.
//!
//! **Uplink rule.** Each leaf has S·P uplinks; canonical uplink u goes to spine u mod S on
//! its cable u div S. The seed numbers RICC's nodes globally, leaf after leaf (leaf 0:
//! 0–19, leaf 1: 20–39, …), and sends the traffic *to* node d over uplink d mod 4 (so its
//! pattern 0, four nodes per leaf with numbers ≡ 0 mod 4, shares a single uplink). ibfat
//! routes every PGFT with d-mod-k, which on two levels is uplink u(d) = d mod (S·P) of
//! the leaf-major position d = ℓ·H + n: the seed's rule exactly. Counting node numbers
//! per leaf instead (n mod (S·P)) is the same whenever S·P divides H (RICC: H = 20,
//! S·P = 4). When it does not, d-mod-k is the seed's rule with
//! each leaf's uplink numbers rotated by ℓ·H mod (S·P): hosts n and n′ share an uplink
//! under one rule exactly when they do under the other (n ≡ n′ mod S·P), so every link
//! carries the same number of flows in any pattern on the leaves' uplinks, and only which
//! spine a class uses differs (the rotation spreads the leaves' surplus classes over the
//! spines instead of loading the first ones on every leaf). ibfat therefore keeps one
//! router and states the rule as `TwolevelParams::uplink`, which its tests check.

use crate::error::{Error, Result};
use crate::families::pgft::model::{PgftLayout, PgftParams};
use crate::topology::Layout;

/// A two-level fat-tree in the seed's terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TwolevelParams {
    /// Leaf switches L.
    pub leaves: u32,
    /// Hosts (node numbers 0..H) on every leaf.
    pub hosts_per_leaf: u32,
    /// Spine switches S.
    pub spines: u32,
    /// Parallel cables P between each leaf and each spine.
    pub links_per_pair: u32,
}

impl TwolevelParams {
    /// The same fabric as a PGFT, validated; errors name the twolevel option at fault.
    pub fn pgft(&self) -> Result<PgftParams> {
        for (field, v) in [
            ("leaves", self.leaves),
            ("hosts_per_leaf", self.hosts_per_leaf),
            ("spines", self.spines),
            ("links_per_pair", self.links_per_pair),
        ] {
            if v == 0 {
                return Err(Error::input(
                    field,
                    "0 is out of range; valid: at least 1".to_string(),
                    Some("ibfat build twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2".into()),
                ));
            }
        }
        PgftParams::from_lists(
            &[self.hosts_per_leaf, self.leaves],
            &[1, self.spines],
            &[1, self.links_per_pair],
            None,
        )
        .map_err(|e| {
            Error::input(
                "leaves",
                format!(
                    "{} leaves × {} hosts, {} spines × {} links per pair: {e}",
                    self.leaves, self.hosts_per_leaf, self.spines, self.links_per_pair
                ),
                Some("a leaf needs H + S·P ports and a spine L·P".into()),
            )
        })
    }

    /// The twolevel spelling of a PGFT, when it has one: two switch levels, every host
    /// slot populated, no non-compute hosts.
    pub(crate) fn from_pgft(p: &PgftParams) -> Option<TwolevelParams> {
        let full = p.hosts_per_leaf.map_or(true, |h| h == p.m(1));
        (p.levels == 2 && full && p.io_per_leaf == 0).then(|| TwolevelParams {
            leaves: p.m(2),
            hosts_per_leaf: p.m(1),
            spines: p.w(2),
            links_per_pair: p.p(2),
        })
    }

    #[cfg(test)]
    /// Uplinks per leaf, S·P.
    pub(crate) fn uplinks(&self) -> u32 {
        self.spines * self.links_per_pair
    }

    /// Rank (= tree position) of node number `n` on leaf `leaf`: leaf-major.
    pub fn rank(&self, leaf: u32, n: u32) -> u32 {
        leaf * self.hosts_per_leaf + n
    }

    #[cfg(test)]
    /// The canonical uplink every leaf uses towards host `rank` (d-mod-k, d mod S·P; the
    /// seed's n mod S·P up to a per-leaf rotation, see the module docs), with its spine
    /// u mod S and cable u div S.
    pub(crate) fn uplink(&self, rank: u32) -> (u32, u32, u32) {
        let u = rank % self.uplinks();
        (u, u % self.spines, u / self.spines)
    }

    /// `twolevel --leaves 52 --hosts-per-leaf 20 --spines 2 --links-per-pair 2`.
    pub(crate) fn describe(&self) -> String {
        format!(
            "twolevel --leaves {} --hosts-per-leaf {} --spines {} --links-per-pair {}",
            self.leaves, self.hosts_per_leaf, self.spines, self.links_per_pair
        )
    }
}

/// Name a 2-level PGFT layout as `twolevel` (family name, description, recognition
/// report); routing is unchanged. Refused, with the reason, for a PGFT that has no
/// twolevel spelling.
pub(crate) fn mark(layout: &mut Layout) -> std::result::Result<TwolevelParams, String> {
    let Layout::Pgft(l) = layout else {
        return Err("not a parallel-ports fat-tree".into());
    };
    let p = twolevel_of(l)?;
    l.twolevel = true;
    Ok(p)
}

fn twolevel_of(l: &PgftLayout) -> std::result::Result<TwolevelParams, String> {
    TwolevelParams::from_pgft(&l.params).ok_or_else(|| {
        format!(
            "{} is not a two-level fat-tree with every host slot populated",
            l.params.describe()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{BuildOptions, FamilySpec, Spec};

    const RICC: TwolevelParams = TwolevelParams {
        leaves: 52,
        hosts_per_leaf: 20,
        spines: 2,
        links_per_pair: 2,
    };

    #[test]
    fn ricc_is_the_h2_pgft_with_leaf_major_ranks_and_the_seed_uplink_classes() {
        let p = RICC.pgft().unwrap();
        assert_eq!(p.describe(), "PGFT(2; 20,52; 1,2; 1,2)");
        assert_eq!(TwolevelParams::from_pgft(&p), Some(RICC));
        let t = Spec::new(FamilySpec::Pgft(p)).build().unwrap();
        let Layout::Pgft(l) = &t.layout else { panic!() };
        assert_eq!(t.layout.hosts().len(), 1040);
        for leaf in [0u32, 7, 51] {
            for n in 0..20 {
                let r = RICC.rank(leaf, n);
                assert_eq!(l.host_pos[r as usize], r, "leaf-major");
                // S·P divides H: d-mod-k is the seed's n mod S·P
                assert_eq!(RICC.uplink(r).0, n % 4);
            }
        }
        // S·P not dividing H: same uplink classes, rotated per leaf
        let odd = TwolevelParams {
            leaves: 3,
            hosts_per_leaf: 6,
            spines: 2,
            links_per_pair: 2,
        };
        for leaf in 0..3 {
            for (a, b) in (0..6).flat_map(|a| (0..6).map(move |b| (a, b))) {
                let same = odd.uplink(odd.rank(leaf, a)).0 == odd.uplink(odd.rank(leaf, b)).0;
                assert_eq!(same, a % 4 == b % 4);
            }
        }
    }

    #[test]
    fn bad_sizes_name_the_option_and_3_levels_have_no_twolevel_spelling() {
        let e = TwolevelParams { spines: 0, ..RICC }.pgft().unwrap_err().to_string();
        assert!(e.starts_with("spines: 0 is out of range"), "{e}");
        let e = TwolevelParams { leaves: 300, ..RICC }.pgft().unwrap_err().to_string();
        assert!(e.starts_with("leaves: 300 leaves"), "{e}");
        let three = PgftParams::from_lists(&[4, 4, 2], &[1, 2, 4], &[1, 2, 2], None).unwrap();
        assert_eq!(TwolevelParams::from_pgft(&three), None);
        let (_, mut layout) = crate::families::pgft::model::build(&three, &BuildOptions::default()).unwrap();
        assert!(mark(&mut layout).unwrap_err().contains("not a two-level"));
    }
}
