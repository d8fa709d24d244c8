//! Rail-optimised plans (`ibfat build railopt`): S scalable units of N servers with R
//! single-port HCAs each, HCA r of every server of a unit on the unit's rail-r leaf.
//!
//! The plan is a PGFT whose leaves are ordered rail-major (leaf `r·S + u` is unit u's
//! rail-r leaf) and whose slot s of every leaf is the unit's server s, so the PGFT
//! router, recognition and every check apply unchanged, and traffic between the same
//! rail of two servers is a slot shift (docs/railopt.md §5, §6):
//! * **two levels** (the DGX SuperPOD design up to 4 units): every leaf has radix/2
//!   server slots (the first N used) and radix/2 uplinks spread over K spines;
//! * **three levels**: the leaves of one rail of a *pod* (G units) share a rail spine
//!   group, and core switches join the groups. Cross-rail traffic alone reaches the core.

use crate::error::{Error, Result};
use crate::families::pgft::model::{Naming, PgftParams, MAX_LEVELS};
use crate::topology::fabric::MAX_PORTS;
use crate::topology::lidspace::MAX_UNICAST_LIDS;
use crate::topology::{BuildOptions, Fabric, Layout};

/// Most rails a plan has (servers with 16 HCAs exist; more is no design we know).
pub(crate) const MAX_RAILS: u32 = 16;

/// The parameters of a rail-optimised plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RailoptParams {
    /// Scalable units S.
    pub sus: u32,
    /// Servers per unit N, on the first N of a leaf's radix/2 server slots.
    pub servers_per_su: u32,
    /// HCAs per server, one per rail: R.
    pub rails: u32,
    /// Switch levels: 2 (leaves and spines) or 3 (rail spine groups and a core).
    pub levels: u32,
    /// Spines of a two-level plan (default: the fewest that fit, see [`RailoptParams::pgft`]).
    pub spines: Option<u32>,
    /// Ports of the one switch model (64: Quantum-2 NDR).
    pub radix: u32,
}

impl Default for RailoptParams {
    /// One DGX SuperPOD unit: 32 servers of 8 HCAs, 64-port switches, two levels.
    fn default() -> Self {
        RailoptParams {
            sus: 1,
            servers_per_su: 32,
            rails: 8,
            levels: 2,
            spines: None,
            radix: 64,
        }
    }
}

fn range_err(field: &str, msg: String, hint: Option<String>) -> Error {
    Error::input(field, msg, hint)
}

/// The PGFT of these lists, not yet validated: [`RailoptParams::validate`] checks the
/// LID space first, so that its error names the units rather than a PGFT list.
fn raw(down: &[u32], up: &[u32], parallel: &[u32], hosts_per_leaf: Option<u32>) -> PgftParams {
    let mut p = PgftParams {
        levels: down.len() as u32,
        down: [0; MAX_LEVELS],
        up: [0; MAX_LEVELS],
        parallel: [0; MAX_LEVELS],
        hosts_per_leaf,
        io_per_leaf: 0,
    };
    p.down[..down.len()].copy_from_slice(down);
    p.up[..up.len()].copy_from_slice(up);
    p.parallel[..parallel.len()].copy_from_slice(parallel);
    p
}

/// The HCAs of the plan's PGFT: its populated slots.
fn hcas(g: &PgftParams) -> u64 {
    g.slots() / u64::from(g.m(1)) * u64::from(g.hosts_per_leaf.unwrap_or(g.m(1)))
}

/// The largest divisor of `n` that is at most `cap` (1 when none is larger).
fn divisor_at_most(n: u32, cap: u32) -> u32 {
    (1..=cap.min(n)).rev().find(|d| n % d == 0).unwrap_or(1)
}

impl RailoptParams {
    /// Check the options one by one; errors name the option and its range.
    pub(crate) fn validate(&self) -> Result<()> {
        if !(4..=MAX_PORTS).contains(&self.radix) {
            return Err(range_err(
                "radix",
                format!("{} is out of range; valid: 4..={MAX_PORTS} ports", self.radix),
                None,
            ));
        }
        let half = self.radix / 2;
        if !(1..=half).contains(&self.servers_per_su) {
            return Err(range_err(
                "servers_per_su",
                format!(
                    "{} is out of range; valid: 1..={half} (a leaf of {} ports: half to servers, half up)",
                    self.servers_per_su, self.radix
                ),
                Some("--radix sets the switch's ports".into()),
            ));
        }
        if !(2..=MAX_RAILS).contains(&self.rails) {
            return Err(range_err(
                "rails",
                format!("{} is out of range; valid: 2..={MAX_RAILS} HCAs per server", self.rails),
                Some("servers of one HCA are an ordinary fat-tree: ibfat build twolevel".into()),
            ));
        }
        if !(2..=3).contains(&self.levels) {
            return Err(range_err(
                "levels",
                format!("{} is out of range; valid: 2 or 3", self.levels),
                None,
            ));
        }
        if self.sus == 0 {
            return Err(range_err("sus", "0 is out of range; valid: at least 1".into(), None));
        }
        if self.levels == 3 && self.spines.is_some() {
            return Err(range_err(
                "spines",
                "given with 3 levels; valid: only with 2 levels (3 levels size their spine groups themselves)".into(),
                None,
            ));
        }
        let p = self.pgft()?;
        let switches: u64 = (1..=p.levels).map(|l| p.switches_at(l)).sum();
        let lids = switches + hcas(&p);
        if lids > MAX_UNICAST_LIDS {
            let largest = largest_sus(self);
            return Err(range_err(
                "sus",
                format!(
                    "{} units need {} HCAs and {switches} switches, {lids} LIDs, more than the {MAX_UNICAST_LIDS} unicast LIDs of one subnet; valid: 1..={largest} units of this design",
                    self.sus,
                    hcas(&p)
                ),
                None,
            ));
        }
        p.validate()
    }

    /// The PGFT this plan is (see the module text); errors name the option that does not fit.
    pub(crate) fn pgft(&self) -> Result<PgftParams> {
        // a leaf has k/2 server slots and as many uplinks; N servers take the first N
        // slots (the DGX SuperPOD: 31 DGX and a management host on 32 slots)
        let (s, r, k) = (self.sus, self.rails, self.radix);
        let n = k / 2;
        let hosts = (self.servers_per_su < n).then_some(self.servers_per_su);
        let leaves = s * r;
        if self.levels == 2 {
            let spines = match self.spines {
                Some(x) => {
                    if x == 0 || n % x != 0 || leaves * (n / x) > k {
                        return Err(range_err(
                            "spines",
                            format!(
                                "{x} does not fit; valid: a divisor of the {n} uplinks of a leaf with {leaves} leaves × {n}/spines cables ≤ {k} spine ports"
                            ),
                            None,
                        ));
                    }
                    x
                }
                None => (1..=n).find(|x| n % x == 0 && leaves * (n / x) <= k).ok_or_else(|| {
                    range_err(
                        "sus",
                        format!(
                            "{s} units have {leaves} leaves, more than a {k}-port spine can reach; valid: 1..={} units with 2 levels",
                            k / r
                        ),
                        Some("--levels 3 adds rail spine groups and a core".into()),
                    )
                })?,
            };
            return Ok(raw(&[n, leaves], &[1, spines], &[1, n / spines], hosts));
        }
        let g = divisor_at_most(s, k / 2);
        let groups = r * (s / g);
        if groups > k {
            return Err(range_err(
                "sus",
                format!(
                    "{s} units make {groups} rail groups of {g} units, more than a {k}-port core switch reaches; valid: a unit count with a divisor G ≤ {} and {r}·S/G ≤ {k}",
                    k / 2
                ),
                None,
            ));
        }
        let p2 = divisor_at_most(n, k / 2 / g);
        let spine_up = g * p2;
        let p3 = divisor_at_most(spine_up, k / groups);
        Ok(raw(&[n, g, groups], &[1, n / p2, spine_up / p3], &[1, p2, p3], hosts))
    }

    /// `railopt 4 SU x 32 servers x 8 rails`.
    pub fn describe(&self) -> String {
        format!(
            "rail-optimised, {} SU x {} servers x {} rails, {} levels",
            self.sus, self.servers_per_su, self.rails, self.levels
        )
    }

    /// `railopt4x32x8` (`-l3` for three levels).
    pub(crate) fn short_name(&self) -> String {
        let l3 = if self.levels == 3 { "-l3" } else { "" };
        format!("railopt{}x{}x{}{l3}", self.sus, self.servers_per_su, self.rails)
    }
}

/// The most units of `p`'s design (servers, rails, radix, levels) that one subnet's LIDs
/// hold: the largest S for which the plan builds and HCAs + switches ≤ 49,151.
pub(crate) fn largest_sus(p: &RailoptParams) -> u32 {
    let fits = |s: u32| {
        let q = RailoptParams { sus: s, ..*p };
        q.pgft().is_ok_and(|g| {
            let switches: u64 = (1..=g.levels).map(|l| g.switches_at(l)).sum();
            switches + hcas(&g) <= MAX_UNICAST_LIDS
        })
    };
    let cap = (MAX_UNICAST_LIDS / (p.servers_per_su as u64 * p.rails as u64).max(1)) as u32;
    (1..=cap).rev().find(|&s| fits(s)).unwrap_or(0)
}

/// Names in the site's terms: servers `dgx001` with HCAs `mlx5_0` …, leaves `su1_r0`,
/// spines `spine01` (two levels) or `p1_r0_s01` (rail group of pod 1), cores `core001`.
struct RailNames {
    p: RailoptParams,
    g: PgftParams,
    digits: usize,
}

impl Naming for RailNames {
    fn host(&self, d: u32, _io: bool) -> (String, String) {
        let (m, n, s) = (self.g.m(1), self.p.servers_per_su, self.p.sus);
        let (leaf, slot) = (d / m, d % m);
        let (rail, unit) = (leaf / s, leaf % s);
        let server = format!("dgx{:0w$}", unit * n + slot + 1, w = self.digits);
        (format!("{server}/mlx5_{rail}"), format!("{server} mlx5_{rail}"))
    }
    fn switch(&self, l: u32, i: u32) -> (String, String) {
        let s = self.p.sus;
        let name = match (l, self.g.levels) {
            (1, _) => format!("su{}_r{}", i % s + 1, i / s),
            (2, 2) => format!("spine{:02}", i + 1),
            (2, _) => {
                let w2 = self.g.w(2);
                let group = i / w2;
                let pods = s / self.g.m(2);
                format!("p{}_r{}_s{:02}", group % pods + 1, group / pods, i % w2 + 1)
            }
            _ => format!("core{:03}", i + 1),
        };
        let role = match (l, self.g.levels) {
            (1, _) => "leaf",
            (2, 2) => "spine",
            (2, _) => "rail spine",
            _ => "core",
        };
        let desc = format!("{name} railopt {role}");
        (name, desc)
    }
}

/// Build the plan: the PGFT with the site's names.
pub(crate) fn build(p: &RailoptParams, opts: &BuildOptions) -> Result<(Fabric, Layout)> {
    p.validate()?;
    let g = p.pgft()?;
    let servers = p.sus * p.servers_per_su;
    let names = RailNames {
        p: *p,
        g,
        digits: servers.to_string().len().max(3),
    };
    crate::families::pgft::model::build_named(&g, opts, &names)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::railopt::model::RailFabric;

    fn params(sus: u32, levels: u32) -> RailoptParams {
        RailoptParams {
            sus,
            levels,
            ..RailoptParams::default()
        }
    }

    #[test]
    fn the_superpod_designs() {
        // 1 SU: 8 leaves, 4 spines, 8 cables per pair; 4 SUs: 32 leaves, 16 spines, 2 per pair
        let g = params(1, 2).pgft().unwrap();
        assert_eq!(g.describe(), "PGFT(2; 32,8; 1,4; 1,8)");
        let g = params(4, 2).pgft().unwrap();
        assert_eq!(g.describe(), "PGFT(2; 32,32; 1,16; 1,2)");
        // 3 units: 24 leaves; 12 spines do not divide 32 uplinks, so 16 spines with 48 ports used
        assert_eq!(params(3, 2).pgft().unwrap().describe(), "PGFT(2; 32,24; 1,16; 1,2)");
        let e = params(9, 2).validate().unwrap_err().to_string();
        assert!(
            e.starts_with("sus: 9 units have 72 leaves") && e.contains("1..=8"),
            "{e}"
        );
        // 3 levels, 8 units in one pod: rail groups of 8 spines, 4 cables down per leaf
        let g = params(8, 3).pgft().unwrap();
        assert_eq!(g.describe(), "PGFT(3; 32,8,8; 1,8,4; 1,4,8)");
        assert!(g.validate().is_ok());
    }

    #[test]
    fn fewer_servers_leave_slots_free_and_keep_the_uplinks() {
        // the SuperPOD's 31 DGX per unit: still 32 uplinks per leaf, slot 32 free
        let p = RailoptParams {
            servers_per_su: 31,
            ..params(2, 2)
        };
        let g = p.pgft().unwrap();
        assert_eq!(
            (g.describe(), g.hosts_per_leaf),
            ("PGFT(2; 32,16; 1,8; 1,4)".into(), Some(31))
        );
        let (f, _) = build(&p, &BuildOptions::default()).unwrap();
        let rf = RailFabric::of(&f).unwrap();
        assert_eq!((rf.servers.len(), rf.units.len()), (62, 2));
        assert_eq!(rf.servers[31].name, "dgx032");
        assert_eq!(f.node(rf.servers[31].hcas[0].leaf).name, "su2_r0");
        assert!(crate::families::railopt::model::check::check(&f, &rf).is_empty());
    }

    #[test]
    fn names_say_unit_rail_and_server() {
        let (f, _) = build(&params(2, 2), &BuildOptions::default()).unwrap();
        let rf = RailFabric::of(&f).expect("a rail-optimised plan");
        assert_eq!((rf.servers.len(), rf.rails.len(), rf.units.len()), (64, 8, 2));
        assert_eq!(rf.servers[33].name, "dgx034");
        for s in &rf.servers {
            for (r, h) in s.hcas.iter().enumerate() {
                assert_eq!(h.device, format!("mlx5_{r}"));
                let leaf = &f.node(h.leaf).name;
                let unit = if s.name.as_str() <= "dgx032" { 1 } else { 2 };
                assert_eq!(leaf, &format!("su{unit}_r{r}"), "{}", s.name);
            }
        }
        assert!(crate::families::railopt::model::check::check(&f, &rf).is_empty());
        let (f, _) = build(&params(8, 3), &BuildOptions::default()).unwrap();
        let names: Vec<&str> = f.switches().map(|n| f.node(n).name.as_str()).collect();
        assert!(names.contains(&"p1_r7_s08") && names.contains(&"core032"), "{names:?}");
    }

    #[test]
    fn options_out_of_range_name_the_option() {
        let e = |p: RailoptParams| p.validate().unwrap_err().to_string();
        assert!(e(RailoptParams {
            rails: 0,
            ..params(1, 2)
        })
        .starts_with("rails: 0 is out of range"));
        assert!(e(RailoptParams {
            servers_per_su: 33,
            ..params(1, 2)
        })
        .starts_with("servers_per_su: 33 is out of range; valid: 1..=32"));
        assert!(e(params(0, 2)).starts_with("sus: 0"));
        assert!(e(params(1, 4)).starts_with("levels: 4"));
        assert!(e(RailoptParams {
            spines: Some(5),
            ..params(1, 2)
        })
        .starts_with("spines: 5 does not fit"));
        let big = e(params(176, 3));
        assert!(
            big.contains("more than the 49151 unicast LIDs") && big.contains("1..=175"),
            "{big}"
        );
    }

    #[test]
    fn the_largest_subnet() {
        // 32 servers x 8 rails per unit, 64-port switches: 175 units (pods of 25 units),
        // 44,800 HCAs and 3,992 switches
        let p = params(175, 3);
        assert_eq!(largest_sus(&p), 175);
        let g = p.pgft().unwrap();
        let switches: u64 = (1..=3).map(|l| g.switches_at(l)).sum();
        assert_eq!((g.slots(), switches), (44_800, 3_992));
        assert_eq!(largest_sus(&params(1, 2)), 8);
    }
}
