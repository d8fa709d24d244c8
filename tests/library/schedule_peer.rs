//! `Pattern::peer` (one rank, one phase: what the C ABI answers) agrees with whole phases
//! for every pattern on every family.

use ibfat::families::kary::model::KaryParams;
use ibfat::families::lsft::model::LsftParams;
use ibfat::families::mols::model::{MolsParams, WiringChoice};
use ibfat::schedule::{Pattern, PatternKind, Request};
use ibfat::select::generate;
use ibfat::topology::{BuildOptions, FamilySpec, Spec};

fn agree(p: &dyn Pattern, what: &str) {
    let mut v = vec![0u32; p.ranks()];
    for ph in 0..p.phases() {
        p.phase(ph, &mut v);
        for (r, &d) in v.iter().enumerate() {
            assert_eq!(p.peer(ph, r), d, "{what}: phase {ph} rank {r}");
        }
    }
}

#[test]
fn peer_matches_phase_for_every_pattern() {
    let fams = [
        FamilySpec::Lsft(LsftParams {
            order: 3,
            two_sided: true,
            hosts_per_leaf: Some(3),
        }),
        FamilySpec::Kary(KaryParams { arity: 3, levels: 3 }),
        FamilySpec::Mols(MolsParams {
            arity: 3,
            wiring: WiringChoice::Auto,
        }),
    ];
    let mut checked = Vec::new();
    for f in fams {
        let plan = Spec {
            family: f,
            options: BuildOptions {
                shuffle: Some(3),
                ..Default::default()
            },
        }
        .build()
        .unwrap();
        for kind in PatternKind::ALL {
            let mut req = Request::new(kind);
            if kind == PatternKind::LsftPartial {
                req.block = Some((2, 2));
            }
            if kind == PatternKind::Random {
                req.seed = 5;
                req.phases = Some(7);
            }
            let Ok((g, _)) = generate(&plan, &req) else {
                continue;
            }; // kind not for this family
            agree(g.pattern.as_ref(), &format!("{} on {}", kind, plan.name));
            checked.push(format!("{kind}@{}", plan.name));
        }
    }
    // every pattern on the LSFT, the tree shifts on their trees, the generic ones everywhere
    assert!(checked.len() >= 8 + 7 + 7, "{checked:?}");
    for must in [
        "lsft@lsft3x2",
        "lsft-partial@lsft3x2",
        "kary-shift@kary3x3",
        "mols-shift@mols3-mols",
        "random@kary3x3",
    ] {
        assert!(checked.iter().any(|c| c == must), "{must} not checked: {checked:?}");
    }
}
