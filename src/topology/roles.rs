//! Host roles: which hosts are compute nodes (the ranks of patterns and schedules) and
//! which are not (storage, login, management: routed like every host, but left out of
//! the rank order).
//!
//! A site says it the way OpenSM's `ftree` engine takes it — a list of compute GUIDs
//! (`cn_guid_file`) and/or a list of I/O GUIDs (`io_guid_file`) — or by host name
//! patterns (`stor*`, `login?`), because host names are what a site's inventory knows.
//! A host is compute when the compute list (if any) names it and neither the I/O list
//! nor an I/O pattern does.
//!
//! Patterns match a host's node name, its NodeDescription or the description's first
//! word (the bare host name), with `*` (any run) and `?` (one character). Reading the
//! lists and patterns against a fabric is [`crate::formats::roles`]; here is what roles
//! do to a tree layout ([`assign`]).

use super::{Endpoint, Fabric};
use crate::error::{Error, Result};

/// Resolved roles: the non-compute host ports of one fabric.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Roles {
    /// Per global port index: true for a non-compute host port.
    pub(crate) non_compute: Vec<bool>,
    /// Messages lenient resolution did not treat as errors.
    pub warnings: Vec<String>,
}

impl Roles {
    /// Roles from a per-port flag (global port index: true = non-compute).
    pub fn new(non_compute: Vec<bool>, warnings: Vec<String>) -> Roles {
        Roles { non_compute, warnings }
    }

    /// True when `ep` is a compute host.
    pub(crate) fn is_compute(&self, fabric: &Fabric, ep: Endpoint) -> bool {
        !self.non_compute[fabric.port_index(ep.node, ep.port) as usize]
    }

    #[cfg(test)]
    /// Number of non-compute host ports.
    pub(crate) fn non_compute_count(&self) -> usize {
        self.non_compute.iter().filter(|&&b| b).count()
    }
}

/// The host lists of a tree layout: ranks and non-compute hosts with their tree positions.
pub(crate) struct HostLists<'a> {
    hosts: &'a mut Vec<Endpoint>,
    pos: &'a mut Vec<u32>,
    others: &'a mut Vec<Endpoint>,
    other_pos: &'a mut Vec<u32>,
}

impl<'a> HostLists<'a> {
    /// Borrow a layout's four lists.
    pub(crate) fn new(
        hosts: &'a mut Vec<Endpoint>,
        pos: &'a mut Vec<u32>,
        others: &'a mut Vec<Endpoint>,
        other_pos: &'a mut Vec<u32>,
    ) -> HostLists<'a> {
        HostLists {
            hosts,
            pos,
            others,
            other_pos,
        }
    }
}

/// Apply `roles` to a tree layout whose host d sits on leaf d / `slots` at slot
/// d mod `slots`, cabled to port `table[at(d)]`.
///
/// On every leaf the compute hosts take the first slots (in their slot order), then the
/// non-compute hosts, then the empty ports: d-mod-k then spreads a leaf's compute hosts
/// over its first uplinks exactly as on a leaf that holds only them, wherever the
/// storage and login servers are plugged in. (Without roles nothing moves: a host keeps
/// the slot of its port, so an empty port keeps its slot.) Non-compute hosts leave the
/// rank order; they are routed at their slots like every host, so every route is
/// d-mod-k's. Returns how many hosts are non-compute.
pub(crate) fn assign(
    fabric: &Fabric,
    roles: &Roles,
    lists: HostLists<'_>,
    slots: u32,
    table: &mut [u8],
    at: impl Fn(u32) -> usize,
) -> Result<usize> {
    let HostLists {
        hosts,
        pos,
        others,
        other_pos,
    } = lists;
    let mut all: Vec<(u32, Endpoint)> = pos.iter().copied().zip(hosts.iter().copied()).collect();
    all.extend(other_pos.iter().copied().zip(others.iter().copied()));
    all.sort_unstable();
    hosts.clear();
    pos.clear();
    others.clear();
    other_pos.clear();
    let mut i = 0;
    while i < all.len() {
        let leaf = all[i].0 / slots;
        let end = i + all[i..].iter().take_while(|x| x.0 / slots == leaf).count();
        let group = &all[i..end];
        let ports: Vec<u8> = group.iter().map(|x| table[at(x.0)]).collect();
        for &(d, _) in group {
            table[at(d)] = 0;
        }
        let mut next = leaf * slots;
        for compute in [true, false] {
            for (&(_, ep), &port) in group.iter().zip(&ports) {
                if roles.is_compute(fabric, ep) != compute {
                    continue;
                }
                table[at(next)] = port;
                let (list, p) = if compute {
                    (&mut *hosts, &mut *pos)
                } else {
                    (&mut *others, &mut *other_pos)
                };
                list.push(ep);
                p.push(next);
                next += 1;
            }
        }
        i = end;
    }
    if hosts.is_empty() {
        return Err(Error::input(
            "host roles",
            "no compute host is left: every host is non-compute",
            Some("the compute list or the patterns name the wrong hosts".into()),
        ));
    }
    Ok(others.len())
}

/// Shell-style match of `pat` (`*` any run, `?` one character) against all of `s`.
pub(crate) fn glob(pat: &str, s: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pat.chars().collect(), s.chars().collect());
    let (mut i, mut j) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = star {
            i = si + 1;
            j = sj + 1;
            star = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_matches_like_a_shell() {
        assert!(glob("stor*", "storage01"));
        assert!(glob("*", ""));
        assert!(glob("login?", "login2"));
        assert!(!glob("login?", "login12"));
        assert!(glob("*gpu*", "node-gpu-3"));
        assert!(!glob("stor*", "astor"));
        assert!(glob("a*b*c", "aXbYbZc"));
    }
}
