//! How evenly a degraded LSFT's detours spread (issue 12: "the worst link load over all
//! detours as low as you can make it"): under uniform all-to-all traffic (every host to
//! every other host, one flow each) the flows each switch-to-switch link carries on the
//! degraded tables, for both objectives, against a lower bound no routing can beat.
//!
//! The bound: a leaf's hosts send h·(H − h) flows (h its hosts, H all hosts) over its
//! surviving up links and receive as many over its surviving down links, so some link
//! carries at least h·(H − h) / (surviving cables) — the intact LSFT meets it exactly
//! (every link carries (q+1)²·q flows). A leaf that lost c of its q+1 cables sets it to
//! (q+1)²·q·(q+1)/(q+1−c). The middle of the fabric is not bounded here, so the ratio
//! (worst link / bound) overstates what is left to gain.
//!
//! Fabric: LSFT(`IBFAT_BENCH_ORDER`, default 13) with shuffled ports, 1, 5 and 10 % of
//! its switch-to-switch cables cut, seeds 1..=`IBFAT_BENCH_SEEDS` (default 2).

use super::env_or;
use ibfat::families::lsft::model::{build, LsftParams};
use ibfat::recognize::{recognize, Recognition};
use ibfat::routing::{route_fabric, Ask, LftSet, Lids, Objective, Shape, NO_ROUTE};
use ibfat::topology::faults::inject;
use ibfat::topology::{BuildOptions, Fabric, NodeKind, NO_PEER};

/// Hosts of switch `s`.
fn hosts(f: &Fabric, s: u32) -> u64 {
    (1..=f.node(s).nports)
        .filter(|&p| f.peer(s, p).is_some_and(|(y, _)| f.node(y).kind != NodeKind::Switch))
        .count() as u64
}

/// Cabled switch-to-switch ports of switch `s`.
fn cables(f: &Fabric, s: u32) -> u64 {
    (1..=f.node(s).nports)
        .filter(|&p| f.peer(s, p).is_some_and(|(y, _)| f.node(y).kind == NodeKind::Switch))
        .count() as u64
}

/// (worst link's flows, worst link's detour flows) of uniform all-to-all on `lfts`; a
/// detour is a flow whose route is not the leaf pair's single family path (SL ≠ 0).
fn loads(f: &Fabric, lids: &Lids, lfts: &LftSet, sl: impl Fn(u32, usize) -> u8) -> (u64, u64) {
    let mut all = vec![0u64; f.ports.len()];
    let mut detour = vec![0u64; f.ports.len()];
    for src in f.switches_with_hosts() {
        let h = hosts(f, src);
        for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
            if owner == NO_PEER {
                continue;
            }
            let port = &f.ports[owner as usize];
            if f.node(port.node).kind == NodeKind::Switch || f.peer(port.node, port.num).map(|x| x.0) == Some(src) {
                continue;
            }
            let on_detour = sl(src, lid) != 0;
            let mut at = src;
            for _ in 0..=lfts.len() {
                let out = lfts.ports[lfts.row_of[at as usize] as usize * lfts.stride + lid];
                if out == NO_ROUTE || out == 0 {
                    break;
                }
                let Some((next, _)) = f.peer(at, out) else { break };
                if f.node(next).kind != NodeKind::Switch {
                    break;
                }
                let ch = f.port_index(at, out) as usize;
                all[ch] += h;
                if on_detour {
                    detour[ch] += h;
                }
                at = next;
            }
        }
    }
    (
        all.into_iter().max().unwrap_or(0),
        detour.into_iter().max().unwrap_or(0),
    )
}

pub fn main() {
    let q: u32 = env_or("IBFAT_BENCH_ORDER", 13);
    let seeds: u64 = env_or("IBFAT_BENCH_SEEDS", 2);
    let opts = BuildOptions {
        shuffle: Some(5),
        ..Default::default()
    };
    let (fabric, _) = build(&LsftParams::new(q, false), &opts).expect("the LSFT builds");
    let links = fabric.switches().map(|s| cables(&fabric, s)).sum::<u64>() / 2;
    println!(
        "LSFT({q}), uniform all-to-all: flows on the worst switch-to-switch link (the worst \
         link's detour flows), against the endpoint bound"
    );
    println!("| cut | seed | bound | family: worst (detour) | ratio | spread: worst (detour) | ratio |");
    println!("|---|---|---|---|---|---|---|");
    for percent in [1u64, 5, 10] {
        let cut = (links * percent).div_ceil(100) as usize;
        for seed in 1..=seeds {
            let inj = inject(&fabric, cut, seed, &[]).expect("faults inject");
            let f = &inj.fabric;
            let Recognition::Unrecognized { degraded: Some(d), .. } = recognize(f, None) else {
                panic!("{cut} cuts, seed {seed}: not recognised as a degraded LSFT")
            };
            assert!(d.lsft().is_some(), "{cut} cuts, seed {seed}: not an LSFT's holes");
            let shape = Shape::Degraded {
                holes: &d.holes,
                description: &d.description,
            };
            let lids = Lids::plan(f, &[], 0).expect("LIDs");
            let total: u64 = f.switches_with_hosts().map(|s| hosts(f, s)).sum();
            let bound = f
                .switches_with_hosts()
                .map(|s| {
                    let h = hosts(f, s);
                    (h * (total - h)) as f64 / cables(f, s).max(1) as f64
                })
                .fold(0f64, f64::max);
            let mut cells = Vec::new();
            for objective in [Objective::Family, Objective::Spread] {
                // the routes `ibfat route --objective` computes (route_fabric)
                let ask = Ask {
                    objective,
                    ..Ask::default()
                };
                let r = route_fabric(f, shape, &lids, &ask).expect("routes");
                let lanes = r.lanes.as_deref().expect("a degraded LSFT's lanes");
                let sl = |s: u32, lid: usize| lanes.sl(s, lid);
                let (worst, det) = loads(f, &lids, &r.lfts, sl);
                cells.push(format!("{worst} ({det}) | {:.2}", worst as f64 / bound));
            }
            println!(
                "| {percent} % ({cut}) | {seed} | {bound:.0} | {} | {} |",
                cells[0], cells[1]
            );
        }
    }
}
