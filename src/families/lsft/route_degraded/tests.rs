//! The fast candidate searches against the full scans, and the all-slot choices against
//! the per-slot ones.

use super::*;
use crate::families::lsft::model::LsftParams;
use crate::topology::degraded::DEAD;
use crate::topology::faults::inject;
use crate::topology::{BuildOptions, FamilySpec, Layout, NodeId, Spec};

/// The all-slots search gives the per-slot search's choice for every broken pair and
/// host slot (it only hoists the spine candidates out of the slot loop).
#[test]
fn choices_for_all_slots_equal_the_per_slot_choice() {
    let mut spec = Spec::new(FamilySpec::Lsft(LsftParams::new(7, false)));
    spec.options = BuildOptions {
        shuffle: Some(3),
        ..Default::default()
    };
    let t = spec.build().unwrap();
    let spine = t
        .fabric
        .switches()
        .find(|&x| t.fabric.node(x).name.starts_with('S'))
        .unwrap();
    let leaf = t
        .fabric
        .switches()
        .find(|&x| t.fabric.node(x).name.starts_with('L'))
        .unwrap();
    for (cut, dead) in [
        (3, vec![]),
        (30, vec![]),
        (10, vec![spine]),
        (6, vec![leaf]),
        (60, vec![]),
    ] {
        let inj = inject(&t.fabric, cut, 11, &dead).unwrap();
        // the holes as recognition finds them: the intact layout's switches, by name, in
        // the degraded fabric (recognition is a higher layer; tests/library/degraded_routing.rs covers it)
        let Layout::Lsft(l) = &t.layout else {
            panic!("not an LSFT")
        };
        let find = |n: NodeId| {
            let name = &t.fabric.node(n).name;
            inj.fabric
                .switches()
                .find(|&x| inj.fabric.node(x).name == *name)
                .unwrap_or(DEAD)
        };
        let holes = LsftHoles::new(
            &inj.fabric,
            l.plane.clone(),
            1,
            l.leaves.iter().map(|&a| find(a)).collect(),
            l.spines.iter().map(|&b| find(b)).collect(),
        );
        let h = &holes;
        let r = Router {
            h,
            near: Near::new(h),
            parts: partitions(h.leaf_count()),
        };
        let n = h.plane.size();
        let mut broken = 0;
        for s in 0..n {
            for dst in (0..n).filter(|&x| x != s) {
                broken += !h.intact(s, dst) as usize;
                let all = r.leaf_choices(s, dst, 9);
                for (j, c) in all.iter().enumerate() {
                    assert_eq!(*c, leaf_choice(&r, s, dst, j as u32), "{s} -> {dst} slot {j}");
                }
            }
        }
        assert!(broken > 0);
        // the fast paths near untouched ends choose what the full scans choose
        for a in 0..n {
            for b in (0..n).filter(|&x| x != a) {
                if h.spines[a as usize] != DEAD && h.down(a, b) == 0 {
                    for j in 0..3 {
                        assert_eq!(
                            r.near.spine_to_point(h, a, b, j),
                            r.near.spine_to_point_scan(h, a, b, j),
                            "spine {a} -> point {b}"
                        );
                    }
                }
            }
        }
    }
}

/// The per-slot scan the all-slot search must agree with: every line through s asked
/// [`Router::spine_to_point`] for slot j alone.
fn leaf_choice(r: &Router<'_>, s: u32, d: u32, j: u32) -> Option<Choice> {
    let h = r.h;
    if h.intact(s, d) {
        let l = h.plane.join(s, d);
        return Some((h.up(s, l), 0, l, d));
    }
    let base = s as usize * h.plane.degree() as usize;
    let cands: Vec<(u8, u32, u32)> = h
        .plane
        .lines_through(s)
        .iter()
        .enumerate()
        .filter(|&(k, _)| h.leaf_up[base + k] != 0)
        .filter_map(|(k, &l)| r.spine_to_point(l, d, j).map(|(_, m)| (h.leaf_up[base + k], m, l)))
        .filter(|&(_, m, _)| m != s)
        .collect();
    (!cands.is_empty()).then(|| {
        let (port, m, l) = cands[((s + d + j) % cands.len() as u32) as usize];
        // m == d: the spine reached d after all (no turn)
        (port, if m == d { 0 } else { relay_sl(m, d, r.parts).unwrap() }, l, m)
    })
}
