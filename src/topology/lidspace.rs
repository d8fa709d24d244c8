//! The LID space of one subnet: 49,151 unicast LIDs (0x0001–0xBFFF), one per switch and
//! 2^LMC per host port. A fabric beyond it cannot be one subnet, so it is refused with
//! the largest member of its family that fits — the operator's next question — for one-
//! and two-sided LSFTs and with the LMC in force.

use super::fabric::MAX_PORTS;
use super::Layout;
use crate::error::{Error, Result};
use crate::geometry::is_prime_power;

/// Unicast LIDs of one subnet.
pub(crate) const MAX_UNICAST_LIDS: u64 = 0xBFFF;

/// Which family, with the parameters that stay fixed while the size is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SizedFamily {
    /// LSFT with `hosts_per_leaf` fixed (`None`: q+1, every host port used).
    Lsft {
        /// Hosts per leaf, when not q+1.
        hosts_per_leaf: Option<u32>,
    },
    /// k-ary n-tree.
    Kary {
        /// Arity k.
        k: u32,
        /// Levels n.
        levels: u32,
    },
    /// MOLS 3-tree.
    Mols,
    /// PGFT with every parameter but the top level's m_h fixed.
    Pgft {
        /// The parameters (m_h is what the hint varies).
        params: super::pgft::PgftParams,
    },
    /// Full mesh with the hosts per switch fixed (the switch count is what the hint varies).
    Fullmesh {
        /// Hosts per switch H.
        hosts_per_switch: u32,
    },
    /// A tree as found: nothing to vary, the fabric is what it is.
    Found,
}

fn lsft_lids(q: u64, sides: u64, m: Option<u32>, per_host: u64) -> u64 {
    let n = q * q + q + 1;
    let m = m.map_or(q + 1, |m| m as u64);
    n * (sides + 1) + n * sides * m * per_host
}

/// The largest LSFT order q whose fabric fits with `per_host` LIDs per host.
pub(crate) fn largest_lsft(two_sided: bool, hosts_per_leaf: Option<u32>, per_host: u64) -> Option<u32> {
    let sides = if two_sided { 2 } else { 1 };
    (2..=(MAX_PORTS / 2 - 1))
        .filter(|&q| is_prime_power(q) && hosts_per_leaf.map_or(true, |m| m <= q + 1))
        .take_while(|&q| lsft_lids(q as u64, sides, hosts_per_leaf, per_host) <= MAX_UNICAST_LIDS)
        .last()
}

fn kary_lids(k: u64, n: u32, per_host: u64) -> Option<u64> {
    let hosts = k.checked_pow(n)?;
    Some(n as u64 * hosts / k + hosts * per_host)
}

/// The largest arity of a k-ary tree with `levels` levels that fits.
pub(crate) fn largest_kary_arity(levels: u32, per_host: u64) -> Option<u32> {
    (2..=MAX_PORTS / 2)
        .take_while(|&k| kary_lids(k as u64, levels, per_host).is_some_and(|l| l <= MAX_UNICAST_LIDS))
        .last()
}

/// The most levels a k-ary tree of arity `k` can have and fit.
pub(crate) fn largest_kary_levels(k: u32, per_host: u64) -> Option<u32> {
    (2..64)
        .take_while(|&n| kary_lids(k as u64, n, per_host).is_some_and(|l| l <= MAX_UNICAST_LIDS))
        .last()
}

/// The largest arity of a MOLS 3-tree that fits.
pub(crate) fn largest_mols(per_host: u64) -> Option<u32> {
    (2..=MAX_PORTS / 2)
        .take_while(|&n| {
            let n = n as u64;
            3 * n * n + n * n * n * per_host <= MAX_UNICAST_LIDS
        })
        .last()
}

/// The largest top-level m_h of a PGFT with its other parameters fixed that fits.
pub(crate) fn largest_pgft_top(params: &super::pgft::PgftParams, per_host: u64) -> Option<u32> {
    let h = params.levels as usize;
    (1..=MAX_PORTS)
        .take_while(|&mh| {
            let mut p = *params;
            p.down[h - 1] = mh;
            let switches: u64 = (1..=p.levels).map(|l| p.switches_at(l)).sum();
            let hosts = p.slots() / p.m(1) as u64 * p.hosts_per_leaf.unwrap_or(p.m(1)) as u64;
            switches + hosts * per_host <= MAX_UNICAST_LIDS
        })
        .last()
}

/// The most switches of a full mesh with `h` hosts per switch that fit (ports aside).
pub(crate) fn largest_fullmesh(h: u32, per_host: u64) -> Option<u32> {
    (3..=MAX_PORTS + 1)
        .take_while(|&n| n as u64 + n as u64 * h as u64 * per_host <= MAX_UNICAST_LIDS)
        .last()
}

/// The sentence naming the largest members of `family` that fit at LMC `lmc`.
pub(crate) fn largest_hint(family: SizedFamily, lmc: u8) -> String {
    let per_host = 1u64 << lmc;
    let show = |x: Option<u32>| x.map_or("none".to_string(), |x| x.to_string());
    match family {
        SizedFamily::Lsft { hosts_per_leaf } => {
            let m = hosts_per_leaf.map_or(String::new(), |m| format!(" with {m} hosts per leaf"));
            format!(
                "the largest LSFT one subnet holds at LMC {lmc}{m}: order {} one-sided, order {} two-sided",
                show(largest_lsft(false, hosts_per_leaf, per_host)),
                show(largest_lsft(true, hosts_per_leaf, per_host))
            )
        }
        SizedFamily::Kary { k, levels } => format!(
            "the largest k-ary n-tree one subnet holds at LMC {lmc}: arity {} with {levels} levels, {} levels with arity {k}",
            show(largest_kary_arity(levels, per_host)),
            show(largest_kary_levels(k, per_host))
        ),
        SizedFamily::Mols => format!(
            "the largest MOLS 3-tree one subnet holds at LMC {lmc}: arity {}",
            show(largest_mols(per_host))
        ),
        SizedFamily::Pgft { params } => format!(
            "with the lower levels as given, one subnet holds at LMC {lmc} a top level of at most m{} = {}",
            params.levels,
            show(largest_pgft_top(&params, per_host))
        ),
        SizedFamily::Fullmesh { hosts_per_switch } => format!(
            "the largest full mesh one subnet holds at LMC {lmc} with {hosts_per_switch} hosts per switch: {} switches",
            show(largest_fullmesh(hosts_per_switch, per_host))
        ),
        SizedFamily::Found => format!(
            "a discovered fabric is what it is: one subnet holds {MAX_UNICAST_LIDS} unicast LIDs (switches plus hosts × {per_host} at LMC {lmc}); split the fabric into subnets"
        ),
    }
}

/// Refuse a fabric of `switches` and `hosts` beyond the LID space at LMC `lmc`; `field`
/// names the parameter to lower.
pub(crate) fn check(field: &str, family: SizedFamily, switches: u64, hosts: u64, lmc: u8) -> Result<()> {
    let lids = switches + (hosts << lmc);
    if lids <= MAX_UNICAST_LIDS {
        return Ok(());
    }
    Err(Error::input(
        field,
        format!(
            "the fabric would have {switches} switches and {hosts} hosts, {lids} LIDs at LMC {lmc}, more than the \
             {MAX_UNICAST_LIDS} unicast LIDs of one subnet"
        ),
        Some(largest_hint(family, lmc)),
    ))
}

/// [`check`] for a built fabric of a known family, at the LMC routing will use.
pub fn check_layout(layout: &Layout, switches: u64, hosts: u64, lmc: u8) -> Result<()> {
    let (field, family) = layout.ops().lid_budget();
    check(field, family, switches, hosts, lmc)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_members() {
        // LSFT(32) one-sided: 2,114 switches + 34,881 hosts = 36,995 LIDs; q = 37 does not fit
        assert_eq!(largest_lsft(false, None, 1), Some(32));
        assert_eq!(lsft_lids(32, 1, None, 1), 36_995);
        assert!(lsft_lids(37, 1, None, 1) > MAX_UNICAST_LIDS);
        assert_eq!(largest_lsft(true, None, 1), Some(27));
        assert_eq!(largest_lsft(false, None, 2), Some(27));
        assert_eq!(largest_mols(1), Some(35));
        assert_eq!(largest_kary_arity(3, 1), Some(35));
        assert_eq!(largest_kary_levels(2, 1), Some(12));
        assert_eq!(largest_mols(2), Some(28));
        assert_eq!(largest_lsft(true, None, 2), Some(19));
        let h = largest_hint(SizedFamily::Lsft { hosts_per_leaf: None }, 1);
        assert!(h.contains("LMC 1") && h.contains("order 27 one-sided"), "{h}");
    }
}
