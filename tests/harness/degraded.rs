//! Checks the degraded-fabric tests share: the tables the switches hold against the
//! library's, a repair bringing back the intact tables, the faults recognition must list,
//! and a repaired schedule's soundness.

use super::{OpenSm, Sim};
use ibfat::topology::Fabric;
use std::fs;
use std::path::Path;

/// An LSFT cable between switches `a` and `b` as (leaf name, spine name): leaves are
/// named `L…` by the plans.
pub fn leaf_spine(f: &Fabric, a: u32, b: u32) -> (String, String) {
    let (a, b) = (f.node(a).name.clone(), f.node(b).name.clone());
    if a.starts_with('L') {
        (a, b)
    } else {
        (b, a)
    }
}

/// The switches hold exactly `want`: every entry of every switch of `want` equal in `got`
/// (unrouted entries included). Panics naming `what`, the switch and the LID.
pub fn assert_same_tables(fabric: &Fabric, want: &ibfat::routing::LftSet, got: &ibfat::routing::LftSet, what: &str) {
    use ibfat::routing::NO_ROUTE;
    let mut compared = 0;
    for &sw in &want.switches {
        for lid in 1..want.stride as u16 {
            let (a, b) = (
                want.get(sw, lid).unwrap_or(NO_ROUTE),
                got.get(sw, lid).unwrap_or(NO_ROUTE),
            );
            assert_eq!(a, b, "{what}: switch {} LID {lid}", fabric.node(sw).desc);
            compared += (a != NO_ROUTE) as usize;
        }
    }
    assert_eq!(compared, want.routed_entries(), "{what}");
}

/// Play a faults folder's `restore.ibsim` into `sim`, let OpenSM (routing with the ibfat
/// plugin) sweep again, and check the switches then hold exactly the intact family's
/// tables, which pass the validator.
pub fn restore_and_expect_intact(sim: &Sim, osm: &mut OpenSm, faults: &Path) {
    use ibfat::recognize::{recognize, Recognition};
    for cmd in fs::read_to_string(faults.join("restore.ibsim")).unwrap().lines() {
        sim.console(cmd);
    }
    let before = osm.log().matches("tables configured on all switches").count();
    osm.sighup();
    osm.routed_by_ibfat(before + 1, "restored");
    let (fabric, lids, programmed) = sim.programmed();
    let Recognition::Recognized { layout, .. } = recognize(&fabric, None) else {
        panic!("the repaired fabric is not recognised")
    };
    let intact = ibfat::routing::route(&fabric, &layout, &lids).unwrap();
    assert_same_tables(&fabric, &intact, &programmed, "restored");
    assert!(ibfat::check::validate(&fabric, &lids, &programmed, Some(&layout)).ok);
}

/// What a degraded tree's recognition listed against what was injected, for tests that
/// it lists exactly the injected faults.
pub struct TreeFaults {
    /// The injected cuts as sorted (name, name) pairs, sorted.
    pub want: Vec<(String, String)>,
    /// The recognised missing cables as sorted (name, name) pairs, sorted.
    pub got: Vec<(String, String)>,
    /// The canonical positions of both ends of every recognised missing cable.
    pub cable_positions: Vec<String>,
    /// The positions of the recognised dead switches.
    pub dead: Vec<String>,
}

/// Compare the cuts injected into `f` (giving `g`) with the faults recognised on `g`;
/// panics on a fault that is not a tree's.
pub fn tree_faults(
    f: &Fabric,
    g: &Fabric,
    cut: &[ibfat::topology::Link],
    faults: &[ibfat::recognize::Fault],
    what: &str,
) -> TreeFaults {
    use ibfat::recognize::Fault;
    let pair = |a: String, b: String| (a.clone().min(b.clone()), a.max(b));
    let mut want: Vec<(String, String)> = cut
        .iter()
        .map(|l| pair(f.node(l.a).name.clone(), f.node(l.b).name.clone()))
        .collect();
    let (mut got, mut cable_positions, mut dead) = (Vec::new(), Vec::new(), Vec::new());
    for fault in faults {
        match fault {
            Fault::MissingTreeCable {
                lower,
                upper,
                lower_pos,
                upper_pos,
            } => {
                got.push(pair(g.node(*lower).name.clone(), g.node(*upper).name.clone()));
                cable_positions.extend([lower_pos.clone(), upper_pos.clone()]);
            }
            Fault::DeadSwitch { position } => dead.push(position.clone()),
            other => panic!("{what}: not a tree's fault: {other:?}"),
        }
    }
    want.sort();
    got.sort();
    TreeFaults {
        want,
        got,
        cable_positions,
        dead,
    }
}

/// The degraded recognition of `f`, asked as `hint`; panics (naming `what`) when it is
/// intact or not a known family with faults.
pub fn degraded(f: &Fabric, hint: Option<ibfat::families::Family>, what: &str) -> ibfat::recognize::Degraded {
    use ibfat::recognize::{recognize, Recognition};
    match recognize(f, hint) {
        Recognition::Unrecognized { degraded: Some(d), .. } => d,
        Recognition::Unrecognized { reason, attempts, .. } => {
            panic!("{what}: not recognised as degraded: {reason} {attempts:?}")
        }
        Recognition::Recognized { .. } => panic!("{what}: recognised as intact"),
    }
}

/// The family all-to-all of a degraded LSFT repaired for `lfts` (`select::repair`), checked
/// as any schedule must be: every ordered pair of distinct ranks exactly once, over the
/// `hosts` hosts that are there, nothing dropped, and one flow per link in every phase on
/// those very tables (the checker). The report, for the caller's own bounds.
pub fn repaired_lsft_checked(
    fabric: &Fabric,
    holes: &ibfat::families::lsft::model_holes::LsftHoles,
    lids: &ibfat::routing::Lids,
    lfts: &ibfat::routing::LftSet,
    hosts: usize,
    what: &str,
) -> ibfat::select::repair::RepairReport {
    use ibfat::check::{check, CompiledRoutes};
    let (sched, rep) = ibfat::select::repair::repair_lsft(fabric, holes, lids, lfts).expect("repair");
    let what = format!("{what}: {rep:?}");
    let n = sched.hosts.len();
    assert_eq!(n, hosts, "{what}");
    let mut seen = vec![false; n * n];
    for ph in &sched.phases {
        for (s, &dst) in ph.iter().enumerate() {
            if dst == ibfat::schedule::IDLE || dst as usize == s {
                continue;
            }
            assert!(!seen[s * n + dst as usize], "{what}: {s} -> {dst} twice");
            seen[s * n + dst as usize] = true;
        }
    }
    assert_eq!(seen.iter().filter(|&&x| x).count(), n * (n - 1), "{what}");
    assert_eq!(rep.unrouted_flows, 0, "{what}");
    let layout = holes.schedule_layout();
    let routes = CompiledRoutes::compile(fabric, lids, lfts, &layout.hosts, 0).expect("routes");
    let c = check(fabric, &layout.hosts, &routes, &sched, 0..sched.phases.len(), &|| {}).expect("check");
    assert_eq!((c.max_congestion, c.throughput_ratio), (1, 1.0), "{what}");
    // the phases that stayed conflict-free are kept: at least that many original phases
    // hold every flow they had, and no original phase moved (phases are only appended)
    use ibfat::schedule::Pattern;
    let job = ibfat::schedule::Job::whole(&layout.hosts);
    let pattern = ibfat::families::lsft::schedule::LsftAllToAll::new(&layout, &job);
    let mut dest = vec![ibfat::schedule::IDLE; n];
    let whole = (0..pattern.phases())
        .filter(|&p| {
            pattern.phase(p, &mut dest);
            (0..n).all(|r| dest[r] == ibfat::schedule::IDLE || sched.phases[p][r] == dest[r])
        })
        .count();
    assert!(whole >= rep.kept_phases, "{what}: {whole} original phases whole");
    rep
}

/// `ibfat check` of the schedule file `sched` on what the subnet holds now, read with the
/// real tools (`ibnetdiscover`, `dump_lfts`, written into `dir`): its JSON report, after
/// asserting the command succeeded.
pub fn check_on_read_back(
    sim: &super::Sim,
    dir: &std::path::Path,
    sched: &std::path::Path,
    what: &str,
) -> serde_json::Value {
    let disc = dir.join("ibnetdiscover.txt");
    let dumped = dir.join("dump_lfts.txt");
    std::fs::write(&disc, sim.ibnetdiscover(&[])).unwrap();
    std::fs::write(&dumped, sim.dump_lfts()).unwrap();
    let (c, o, e) = super::ibfat(&[
        "check",
        disc.to_str().unwrap(),
        "--lfts",
        dumped.to_str().unwrap(),
        "--pattern",
        sched.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{what}: {o}{e}");
    serde_json::from_str(&o).unwrap()
}

/// Entries of the intact tables `whole` that the degraded tables `got` (same LIDs, same
/// nodes) differ in, over every LID with an owner and every switch both have: (changed,
/// compared) for all LIDs, then for switch LIDs alone. A switch of `whole` missing from
/// `got` (dead) is not compared.
pub fn changed_entries(
    fabric: &Fabric,
    lids: &ibfat::routing::Lids,
    whole: &ibfat::routing::LftSet,
    got: &ibfat::routing::LftSet,
) -> [(usize, usize); 2] {
    use ibfat::topology::{NodeKind, NO_PEER};
    let mut out = [(0, 0); 2];
    for &sw in &whole.switches {
        if !matches!(got.row_of.get(sw as usize), Some(&r) if r != u32::MAX) {
            continue;
        }
        for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
            if owner == NO_PEER {
                continue;
            }
            let switch = fabric.node(fabric.ports[owner as usize].node).kind == NodeKind::Switch;
            let differs = whole.get(sw, lid as u16) != got.get(sw, lid as u16);
            for (i, c) in out.iter_mut().enumerate() {
                if i == 0 || switch {
                    c.0 += differs as usize;
                    c.1 += 1;
                }
            }
        }
    }
    out
}

/// One fault changes little (issue 21 item 4): the entries of the degraded tables `got`
/// that differ from the intact `whole` ([`changed_entries`]), printed for the record as
/// `what` with the (leaf, switch LID) pairs left `unrouted`, must be some and at most
/// `pct` percent of all.
pub fn assert_change_share(
    what: &str,
    fabric: &Fabric,
    lids: &ibfat::routing::Lids,
    (whole, got): (&ibfat::routing::LftSet, &ibfat::routing::LftSet),
    unrouted: u64,
    pct: usize,
) {
    let [(changed, compared), (sw_changed, sw_compared)] = changed_entries(fabric, lids, whole, got);
    eprintln!(
        "{what}: {changed} of {compared} entries changed ({:.2} %), switch LIDs {sw_changed} of \
         {sw_compared} ({:.2} %), {unrouted} (leaf, switch LID) unrouted",
        100.0 * changed as f64 / compared as f64,
        100.0 * sw_changed as f64 / sw_compared as f64,
    );
    assert!(
        changed > 0 && changed * 100 <= compared * pct,
        "{what}: {changed} of {compared} entries changed"
    );
}

/// Uniform all-to-all (one flow from every host to every host on another switch) walked
/// along `lfts`: (the flows on the busiest switch-to-switch link, the endpoint bound — a
/// switch's hosts send h·(H − h) flows over its cabled switch ports, so some link carries
/// at least that over their number; no routing does better).
pub fn uniform_link_load(f: &Fabric, lids: &ibfat::routing::Lids, lfts: &ibfat::routing::LftSet) -> (u64, f64) {
    use ibfat::routing::NO_ROUTE;
    use ibfat::topology::{NodeKind, NO_PEER};
    let count = |s: u32, switch: bool| {
        (1..=f.node(s).nports)
            .filter(|&p| {
                f.peer(s, p)
                    .is_some_and(|(y, _)| (f.node(y).kind == NodeKind::Switch) == switch)
            })
            .count() as u64
    };
    let mut load = vec![0u64; f.ports.len()];
    let total: u64 = f.switches_with_hosts().map(|s| count(s, false)).sum();
    let mut bound = 0f64;
    for src in f.switches_with_hosts() {
        let h = count(src, false);
        bound = bound.max((h * (total - h)) as f64 / count(src, true).max(1) as f64);
        for (lid, &owner) in lids.owner.iter().enumerate().skip(1) {
            if owner == NO_PEER {
                continue;
            }
            let port = &f.ports[owner as usize];
            if f.node(port.node).kind == NodeKind::Switch || f.peer(port.node, port.num).map(|x| x.0) == Some(src) {
                continue;
            }
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
                load[f.port_index(at, out) as usize] += h;
                at = next;
            }
        }
    }
    (load.into_iter().max().unwrap_or(0), bound)
}

/// The routes the library's one pipeline (`route_fabric`) gives the degraded fabric `f`
/// recognised as `d`, as `ask` asks: what `ibfat route`, the C ABI and the plugin get, so
/// a test checks those and not a family router's intermediate result. Panics (naming
/// `what`) on a refusal — for an LSFT, a (leaf, LID) pair the lanes cannot serve.
pub fn route_degraded(
    f: &Fabric,
    d: &ibfat::recognize::Degraded,
    lids: &ibfat::routing::Lids,
    ask: &ibfat::routing::Ask,
    what: &str,
) -> ibfat::routing::Routed {
    let shape = ibfat::routing::Shape::Degraded {
        holes: &d.holes,
        description: &d.description,
    };
    ibfat::routing::route_fabric(f, shape, lids, ask).unwrap_or_else(|e| panic!("{what}: refused: {e}"))
}

/// The SL every switch of `r`'s tables (row by row) and the hosts on it use towards every
/// LID, by the routes' lanes (all 0 without lanes): the SL table a test compares between
/// two runs, or scans for the pairs on a detour (SL > 0).
pub fn sls_of(r: &ibfat::routing::Routed) -> Vec<u8> {
    let Some(lanes) = r.lanes.as_deref() else {
        return vec![0; r.lfts.switches.len() * r.lfts.stride];
    };
    r.lfts
        .switches
        .iter()
        .flat_map(|&s| (0..r.lfts.stride).map(move |lid| lanes.sl(s, lid)))
        .collect()
}

/// The routes the library's pipeline gives `f` as recognition finds it, intact or
/// degraded, as `ask` asks: what `ibfat route` writes and the plugin programs (it refuses
/// an LSFT's routes on too few VLs rather than change them, so every VL is asked here).
/// Panics (naming `what`) when `f` is not recognised or the routes are refused.
pub fn route_found(
    f: &Fabric,
    lids: &ibfat::routing::Lids,
    ask: &ibfat::routing::Ask,
    what: &str,
) -> ibfat::routing::Routed {
    use ibfat::recognize::{recognize, Recognition};
    use ibfat::routing::{route_fabric, Shape};
    match recognize(f, None) {
        Recognition::Recognized { layout, .. } => {
            route_fabric(f, Shape::Intact(&layout), lids, ask).unwrap_or_else(|e| panic!("{what}: refused: {e}"))
        }
        Recognition::Unrecognized { degraded: Some(d), .. } => route_degraded(f, &d, lids, ask, what),
        Recognition::Unrecognized { reason, .. } => panic!("{what}: not recognised: {reason}"),
    }
}
