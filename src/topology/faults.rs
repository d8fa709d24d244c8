//! Fault injection for tests and drills: a fabric with some switch-to-switch cables cut
//! and some switches dead, chosen reproducibly from a seed, plus the ibsim console
//! commands that cut (and restore) the same cables in a running simulation.
//!
//! A dead switch disappears from the fabric with all its cables (as it disappears from
//! `ibnetdiscover`); its hosts, if any, go with it. Cut cables are drawn among the
//! switch-to-switch cables that do not touch a dead switch, in cable order, without
//! repetition: the same fabric, count, seed and dead switches always give the same cuts.

use super::{Fabric, Link, NodeId, NodeKind};
use crate::error::{Error, Result};
use crate::rng::SplitMix64;

/// What was injected and the fabric that results.
#[derive(Clone, Debug)]
pub struct Injected {
    /// The degraded fabric (same names, GUIDs and ports; dead nodes left out).
    pub fabric: Fabric,
    /// The cut cables, in the original fabric's node ids, sorted.
    pub cut: Vec<Link>,
    /// The dead switches (original node ids), and the hosts that went with them.
    pub dead: Vec<NodeId>,
}

/// Cut `cut` random switch-to-switch cables (seeded) and kill the switches `dead`.
pub fn inject(fabric: &Fabric, cut: usize, seed: u64, dead: &[NodeId]) -> Result<Injected> {
    let mut gone = vec![false; fabric.len()];
    for &s in dead {
        if fabric.node(s).kind != NodeKind::Switch {
            return Err(Error::input(
                "dead",
                format!("{} is not a switch", fabric.node(s).name),
                None,
            ));
        }
        gone[s as usize] = true;
        // its hosts go with it
        for p in 1..=fabric.node(s).nports {
            if let Some((h, _)) = fabric.peer(s, p) {
                if fabric.node(h).kind != NodeKind::Switch {
                    gone[h as usize] = true;
                }
            }
        }
    }
    let candidates: Vec<Link> = fabric
        .links()
        .filter(|l| {
            fabric.node(l.a).kind == NodeKind::Switch
                && fabric.node(l.b).kind == NodeKind::Switch
                && !gone[l.a as usize]
                && !gone[l.b as usize]
        })
        .collect();
    if cut > candidates.len() {
        return Err(Error::input(
            "cut",
            format!(
                "{cut} cables; valid: 0..={} (the switch-to-switch cables left)",
                candidates.len()
            ),
            None,
        ));
    }
    let mut idx: Vec<usize> = (0..candidates.len()).collect();
    SplitMix64::new(seed).shuffle(&mut idx);
    let mut chosen: Vec<usize> = idx[..cut].to_vec();
    chosen.sort_unstable();
    let cut: Vec<Link> = chosen.iter().map(|&i| candidates[i]).collect();
    remove(fabric, cut, &gone)
}

/// The fabric without the cables `cut` and the nodes marked `gone` (with their cables):
/// the state a running fabric is in part-way through a repair, cable by cable.
pub fn without(fabric: &Fabric, cut: Vec<Link>, dead: &[NodeId]) -> Result<Injected> {
    let mut gone = vec![false; fabric.len()];
    for &s in dead {
        gone[s as usize] = true;
    }
    remove(fabric, cut, &gone)
}

fn remove(fabric: &Fabric, cut: Vec<Link>, gone: &[bool]) -> Result<Injected> {
    let is_cut = |a: NodeId, pa: u8| cut.iter().any(|l| (l.a == a && l.pa == pa) || (l.b == a && l.pb == pa));
    // rebuild without the dead nodes and the cut cables
    let mut out = Fabric::new();
    let mut new_id = vec![u32::MAX; fabric.len()];
    for (i, n) in fabric.nodes.iter().enumerate() {
        if !gone[i] {
            new_id[i] = out.add_node(n.kind, n.nports as u32, n.guid, n.name.clone(), n.desc.clone())?;
        }
    }
    for l in fabric.links() {
        if gone[l.a as usize] || gone[l.b as usize] || is_cut(l.a, l.pa) {
            continue;
        }
        let p = fabric.port(l.a, l.pa);
        out.connect_with(
            new_id[l.a as usize],
            l.pa as u32,
            new_id[l.b as usize],
            l.pb as u32,
            p.width,
            p.speed,
        )?;
    }
    let mut dead_all: Vec<NodeId> = (0..fabric.len() as u32).filter(|&i| gone[i as usize]).collect();
    dead_all.sort_unstable();
    Ok(Injected {
        fabric: out,
        cut,
        dead: dead_all,
    })
}

/// ibsim console commands that turn the intact simulation into the degraded one
/// (`restore` false) or back (`restore` true): `Unlink "S3"[7]` / `ReLink "S3"[7]` per cut
/// cable, and every cabled port of a dead switch.
pub fn ibsim_commands(fabric: &Fabric, inj: &Injected, restore: bool) -> String {
    let verb = if restore { "ReLink" } else { "Unlink" };
    let mut out = String::new();
    for l in &inj.cut {
        out += &format!("{verb} \"{}\"[{}]\n", fabric.node(l.a).name, l.pa);
    }
    for &s in &inj.dead {
        if fabric.node(s).kind == NodeKind::Switch {
            for p in 1..=fabric.node(s).nports {
                if fabric.peer(s, p).is_some() {
                    out += &format!("{verb} \"{}\"[{p}]\n", fabric.node(s).name);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::{FamilySpec, Spec};

    #[test]
    fn cuts_are_reproducible_and_only_between_switches() {
        let t = Spec::new(FamilySpec::Lsft(LsftParams::new(3, false))).build().unwrap();
        let a = inject(&t.fabric, 5, 7, &[]).unwrap();
        let b = inject(&t.fabric, 5, 7, &[]).unwrap();
        assert_eq!(a.cut, b.cut);
        assert_eq!(a.fabric.link_count(), t.fabric.link_count() - 5);
        assert!(a
            .cut
            .iter()
            .all(|l| t.fabric.node(l.a).kind == NodeKind::Switch && t.fabric.node(l.b).kind == NodeKind::Switch));
        assert_ne!(inject(&t.fabric, 5, 8, &[]).unwrap().cut, a.cut);
        // a dead spine leaves with its cables
        let spine = t
            .fabric
            .switches()
            .find(|&s| t.fabric.node(s).name.starts_with('S'))
            .unwrap();
        let c = inject(&t.fabric, 0, 1, &[spine]).unwrap();
        assert_eq!(c.fabric.switches().count(), t.fabric.switches().count() - 1);
        assert_eq!(c.fabric.link_count(), t.fabric.link_count() - 4);
        assert_eq!(ibsim_commands(&t.fabric, &c, false).lines().count(), 4);
        assert!(inject(&t.fabric, 10_000, 1, &[]).is_err());
    }
}
