//! Validation of a set of LFTs against a fabric: every switch must deliver every LID
//! (CA and switch LIDs), without loops or black holes; hop counts are measured (and must
//! be minimal where the family promises it); deadlock freedom is decided on the channel
//! dependency graph (CDG).
//!
//! The CDG is built twice. `ca_sourced` holds the dependencies of routes that start at a
//! CA port — all data traffic, including host-to-switch GMPs — and must be acyclic.
//! `all_sources` adds routes that start at switches; switches originate only subnet
//! management (VL15, not flow-controlled) and traps to the SM, so a cycle there is
//! reported but is not a deadlock of the data VLs. ibfat's own tables are acyclic in
//! `ca_sourced` for every family and in both for the Latin-square fat-tree.

use super::walk::{Step, Walk};
use crate::routing::lids::{describe_port, Lids};
use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::label::Labels;
use crate::topology::{Fabric, Layout, NodeKind, NO_PEER};
use rayon::prelude::*;
use serde::Serialize;
use std::ops::ControlFlow;

/// How many examples of each defect a report lists.
pub(crate) const MAX_EXAMPLES: usize = 20;

/// One defect: where, which LID, and the path that shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Defect {
    /// What went wrong, in words (`no route (LFT entry 255)`, `loop`, `delivered to …`, a
    /// non-minimal hop count).
    pub kind: String,
    /// The switch whose entry starts the bad route (its name).
    pub switch: String,
    /// That switch's node GUID, `0x…`.
    pub switch_guid: String,
    /// The destination LID of the entry.
    pub lid: u16,
    /// Who owns the LID (`switch 'desc'` or `'desc' port N (GUID …)`).
    pub destination: String,
    /// The route followed from the switch, hop by hop, up to where it went wrong.
    pub path: String,
}

/// Min / mean / max of hop counts (switches traversed).
#[derive(Clone, Debug, Serialize, Default, PartialEq)]
pub struct HopStats {
    /// Routes measured.
    pub routes: u64,
    /// Fewest switches on a route.
    pub min: u32,
    /// Mean switches per route.
    pub mean: f64,
    /// Most switches on a route.
    pub max: u32,
}

/// Deadlock analysis of one CDG.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Cdg {
    /// Channels (directed switch-to-switch links) some route uses.
    pub channels: usize,
    /// Channel pairs a route uses one after the other (the CDG's edges).
    pub dependencies: usize,
    /// No cycle: these routes cannot deadlock on one virtual lane.
    pub acyclic: bool,
    /// One dependency cycle, as channels `switch:port -> switch`.
    pub cycle: Vec<String>,
}

/// The validation report.
#[derive(Clone, Debug, Serialize)]
#[non_exhaustive]
pub struct LftReport {
    /// Switches whose tables were followed.
    pub switches: usize,
    /// Destination LIDs in use.
    pub lids: usize,
    /// LFT entries followed (switches × LIDs).
    pub entries_checked: u64,
    /// Switch/LID pairs without a working route (no entry, uncabled port, port out of range).
    pub black_holes: u64,
    /// Routes that come back to a switch they already passed.
    pub loops: u64,
    /// Routes that end at the wrong node.
    pub misdelivered: u64,
    /// Host routes longer than the shortest path where the family promises minimal routes.
    pub non_minimal: u64,
    /// Black holes, loops and misdeliveries split by what the LID belongs to.
    pub defective_host_lid_entries: u64,
    /// The same for switch LIDs (management traffic on VL15).
    pub defective_switch_lid_entries: u64,
    /// Up to [`MAX_EXAMPLES`] defects, each with the route that shows it.
    pub defects: Vec<Defect>,
    /// Host-to-host routes from the switches hosts attach to.
    pub host_hops: HopStats,
    /// Routes from every switch to every switch LID.
    pub switch_hops: HopStats,
    /// CDG of the routes that start at hosts (all data traffic): deadlock freedom is
    /// decided here.
    pub ca_sourced: Cdg,
    /// CDG including the routes that start at switches (VL15 management traffic).
    pub all_sources: Cdg,
    /// Host LID routes, from every switch a host hangs off, that do not arrive: data
    /// traffic that is lost. Defective host-LID entries elsewhere (at switches no host
    /// route passes) are counted in `defective_host_lid_entries` but lose nothing.
    pub broken_host_routes: u64,
    /// The data path works: every host reaches every host LID (`broken_host_routes` 0)
    /// and routes the family promises minimal are minimal.
    pub data_path_ok: bool,
    /// Every switch reaches every switch LID (management traffic on VL15) and no entry
    /// for a host LID is defective anywhere: tables with nothing left unrouted.
    pub complete: bool,
    /// The CDG of the routes that start at hosts is acyclic (`ca_sourced`).
    pub deadlock_free: bool,
    /// Everything holds: data path, deadlock freedom and completeness (`--strict`).
    pub ok: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum St {
    Unknown,
    Visiting,
    Ok(u32),
    Bad,
}

/// Which LID offsets carry routes the family promises to be minimal (bit i = offset i).
pub(crate) fn minimal_promise(layout: Option<&Layout>, lmc: u8) -> u32 {
    layout.map_or(0, |l| l.ops().minimal_promise(lmc))
}

struct Ctx<'a> {
    /// Routes declared detours (not held to the minimal promise).
    detour: Option<Detour<'a>>,
    fabric: &'a Fabric,
    lids: &'a Lids,
    lfts: &'a LftSet,
    /// all-pairs switch distances (edges), u8::MAX = unreachable
    dist: Vec<u8>,
    nsw: usize,
    /// row of the switch each CA port is cabled to (by global port index)
    attach_row: Vec<u32>,
    /// rows with CAs attached
    ca_rows: Vec<u32>,
    /// whether a row has CAs attached, by row
    is_ca_row: Vec<bool>,
    /// the tables LID-major and the wiring flat
    walk: Walk,
    /// channel id of (row, port): global port index of the sending port
    promise: u32,
}

impl<'a> Ctx<'a> {
    fn row_desc(&self, r: usize) -> &str {
        &self.fabric.node(self.lfts.switches[r]).desc
    }
}

fn all_pairs(fabric: &Fabric, lfts: &LftSet) -> Vec<u8> {
    let n = lfts.switches.len();
    let adj: Vec<Vec<u32>> = lfts
        .switches
        .iter()
        .map(|&s| {
            (1..=fabric.node(s).nports)
                .filter_map(|p| fabric.peer(s, p))
                .filter(|(q, _)| fabric.node(*q).kind == NodeKind::Switch)
                .map(|(q, _)| lfts.row_of[q as usize])
                .collect()
        })
        .collect();
    let rows: Vec<Vec<u8>> = (0..n)
        .into_par_iter()
        .map(|src| {
            let mut d = vec![u8::MAX; n];
            d[src] = 0;
            let mut q = vec![src as u32];
            let mut h = 0;
            while h < q.len() {
                let v = q[h] as usize;
                h += 1;
                for &u in &adj[v] {
                    if d[u as usize] == u8::MAX {
                        d[u as usize] = d[v].saturating_add(1).min(254);
                        q.push(u);
                    }
                }
            }
            d
        })
        .collect();
    rows.concat()
}

/// Per-LID result, merged across threads.
struct LidResult {
    entries: u64,
    host_routes_broken: u64,
    host_bad: u64,
    switch_bad: u64,
    black_holes: u64,
    loops: u64,
    misdelivered: u64,
    non_minimal: u64,
    defects: Vec<Defect>,
    host_hops: (u64, u64, u32, u32),
    switch_hops: (u64, u64, u32, u32),
}

impl LidResult {
    fn new() -> LidResult {
        LidResult {
            entries: 0,
            host_routes_broken: 0,
            host_bad: 0,
            switch_bad: 0,
            black_holes: 0,
            loops: 0,
            misdelivered: 0,
            non_minimal: 0,
            defects: Vec::new(),
            host_hops: (0, 0, u32::MAX, 0),
            switch_hops: (0, 0, u32::MAX, 0),
        }
    }
    fn merge(mut self, o: LidResult) -> LidResult {
        self.entries += o.entries;
        self.host_routes_broken += o.host_routes_broken;
        self.host_bad += o.host_bad;
        self.switch_bad += o.switch_bad;
        self.black_holes += o.black_holes;
        self.loops += o.loops;
        self.misdelivered += o.misdelivered;
        self.non_minimal += o.non_minimal;
        self.defects.extend(o.defects);
        self.defects.truncate(MAX_EXAMPLES * 4);
        for (a, b) in [
            (&mut self.host_hops, o.host_hops),
            (&mut self.switch_hops, o.switch_hops),
        ] {
            a.0 += b.0;
            a.1 += b.1;
            a.2 = a.2.min(b.2);
            a.3 = a.3.max(b.3);
        }
        self
    }
}

fn hop(acc: &mut (u64, u64, u32, u32), h: u32) {
    acc.0 += 1;
    acc.1 += h as u64;
    acc.2 = acc.2.min(h);
    acc.3 = acc.3.max(h);
}

fn stats(a: (u64, u64, u32, u32)) -> HopStats {
    if a.0 == 0 {
        return HopStats::default();
    }
    HopStats {
        routes: a.0,
        min: a.2,
        mean: a.1 as f64 / a.0 as f64,
        max: a.3,
    }
}

/// Follow the LFTs from every switch to one LID.
fn check_lid(cx: &Ctx, lid: u16, st: &mut [St], stack: &mut Vec<u32>) -> LidResult {
    let mut res = LidResult::new();
    let Some(t) = Target::new(cx, lid) else {
        return res;
    };
    st.iter_mut().for_each(|s| *s = St::Unknown);
    for start in 0..cx.nsw {
        if st[start] != St::Unknown {
            continue;
        }
        stack.clear();
        let terminal = walk_from(cx, &t, start, st, stack, &mut res);
        unwind(terminal, st, stack);
    }
    count_broken(cx, &t, st, &mut res);
    hop_stats(cx, &t, st, &mut res);
    res
}

/// The destination of one LID as the walks see it: worked out once, read at every hop.
struct Target {
    lid: u16,
    owner: u32,
    dest_is_switch: bool,
    /// The switch row of the destination itself, or of the switch a CA hangs off.
    dest_row: u32,
    /// The family promises this LID's routes minimal.
    promised: bool,
    dest_desc: String,
}

impl Target {
    /// `None` for a LID nobody owns: there is nothing to walk to.
    fn new(cx: &Ctx, lid: u16) -> Option<Target> {
        let owner = cx.lids.owner[lid as usize];
        if owner == NO_PEER {
            return None;
        }
        let fabric = cx.fabric;
        let op = &fabric.ports[owner as usize];
        let dest_is_switch = fabric.node(op.node).kind == NodeKind::Switch;
        let dest_row = if dest_is_switch {
            cx.lfts.row_of[op.node as usize]
        } else {
            cx.attach_row[owner as usize]
        };
        let offset = lid - cx.lids.base[owner as usize];
        let promised = !dest_is_switch && (cx.promise >> offset.min(31)) & 1 == 1;
        let dest_desc = describe_port(fabric, owner);
        Some(Target {
            lid,
            owner,
            dest_is_switch,
            dest_row,
            promised,
            dest_desc,
        })
    }
}

/// Follow the tables from `start` until a switch whose fate is already known, the
/// destination, or a defect; the switches passed stay on `stack` for [`unwind`].
fn walk_from(cx: &Ctx, t: &Target, start: usize, st: &mut [St], stack: &mut Vec<u32>, res: &mut LidResult) -> St {
    let mut r = start;
    // walk until something known or terminal
    loop {
        match st[r] {
            St::Ok(h) => return St::Ok(h),
            St::Bad => return St::Bad,
            St::Visiting => {
                // a loop through r: everything on the stack from r on loops
                res.loops += 1;
                push_defect(cx, res, "loop", r, t.lid, &t.dest_desc, stack, r);
                return St::Bad;
            }
            St::Unknown => {}
        }
        st[r] = St::Visiting;
        stack.push(r as u32);
        res.entries += 1;
        match follow(cx, t, r, stack, res) {
            ControlFlow::Continue(next) => r = next,
            ControlFlow::Break(end) => return end,
        }
    }
}

/// One hop from switch row `r`: the next row, or how the walk ends there (delivered,
/// or the defect it records) — every defect kind is decided here and only here.
fn follow(cx: &Ctx, t: &Target, r: usize, stack: &[u32], res: &mut LidResult) -> ControlFlow<St, usize> {
    let lid = t.lid;
    let port = cx.walk.port(r, lid);
    if t.dest_is_switch && r as u32 == t.dest_row {
        if port == 0 {
            return ControlFlow::Break(St::Ok(0));
        }
        res.misdelivered += 1;
        let kind = format!("switch forwards its own LID to port {port}");
        push_defect(cx, res, &kind, r, lid, &t.dest_desc, stack, usize::MAX);
        return ControlFlow::Break(St::Bad);
    }
    let bad = |res: &mut LidResult, what: String| {
        res.black_holes += 1;
        push_defect(cx, res, &what, r, lid, &t.dest_desc, stack, usize::MAX);
    };
    if port == NO_ROUTE {
        bad(res, "no route (LFT entry 255)".into());
        return ControlFlow::Break(St::Bad);
    }
    if port == 0 {
        res.misdelivered += 1;
        let kind = "delivered to this switch, which does not own the LID";
        push_defect(cx, res, kind, r, lid, &t.dest_desc, stack, usize::MAX);
        return ControlFlow::Break(St::Bad);
    }
    match cx.walk.step(r, port) {
        Step::Row(next) => ControlFlow::Continue(next),
        Step::Beyond => {
            bad(res, format!("port {port} is beyond the switch"));
            ControlFlow::Break(St::Bad)
        }
        Step::Uncabled => {
            bad(res, format!("port {port} is not cabled"));
            ControlFlow::Break(St::Bad)
        }
        Step::Leaf(peer) if peer == t.owner => ControlFlow::Break(St::Ok(0)),
        Step::Leaf(peer) => {
            res.misdelivered += 1;
            let kind = format!("delivered to {}", describe_port(cx.fabric, peer));
            push_defect(cx, res, &kind, r, lid, &t.dest_desc, stack, usize::MAX);
            ControlFlow::Break(St::Bad)
        }
    }
}

/// Settle every switch a walk passed, so later walks stop as soon as they meet one:
/// hops to the destination counted back from the end, or bad all the way.
fn unwind(terminal: St, st: &mut [St], stack: &mut Vec<u32>) {
    // unwind: hops count switches from each stacked switch to the destination
    let mut h = match terminal {
        St::Ok(h) => h,
        _ => u32::MAX,
    };
    while let Some(x) = stack.pop() {
        let x = x as usize;
        if h == u32::MAX {
            st[x] = St::Bad;
            continue;
        }
        h += 1;
        st[x] = St::Ok(h);
    }
}

/// Count the switches with no route to the LID; for a CA destination, separately those
/// its data traffic actually leaves from.
fn count_broken(cx: &Ctx, t: &Target, st: &[St], res: &mut LidResult) {
    let bad = st.iter().filter(|s| **s == St::Bad).count() as u64;
    if t.dest_is_switch {
        res.switch_bad += bad;
    } else {
        res.host_bad += bad;
        // data traffic enters at the switches hosts hang off: only their routes carry it
        res.host_routes_broken += cx.ca_rows.iter().filter(|&&r| st[r as usize] == St::Bad).count() as u64;
    }
}

/// Hop statistics of the working routes, and where the family promised minimal routes,
/// each longer one counted and the first few shown.
fn hop_stats(cx: &Ctx, t: &Target, st: &[St], res: &mut LidResult) {
    // hop statistics and the minimal-route promise
    for (r, s) in st.iter().enumerate() {
        let St::Ok(h) = *s else { continue };
        if t.dest_is_switch {
            hop(&mut res.switch_hops, h);
        } else if cx.is_ca_row[r] {
            hop(&mut res.host_hops, h);
            if t.promised {
                // distances are symmetric (cables are): read the destination's row
                let min = cx.dist[t.dest_row as usize * cx.nsw + r] as u32 + 1;
                if h > min && !cx.detour.is_some_and(|d| d(cx.lfts.switches[r], t.lid)) {
                    res.non_minimal += 1;
                    if res.defects.len() < MAX_EXAMPLES {
                        res.defects.push(Defect {
                            kind: format!("route of {h} switches where the shortest has {min}"),
                            switch: cx.row_desc(r).to_string(),
                            switch_guid: format!("0x{:016x}", cx.fabric.node(cx.lfts.switches[r]).guid),
                            lid: t.lid,
                            destination: t.dest_desc.clone(),
                            path: path_from(cx, r, t.lid),
                        });
                    }
                }
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn push_defect(
    cx: &Ctx,
    res: &mut LidResult,
    kind: &str,
    r: usize,
    lid: u16,
    dest: &str,
    stack: &[u32],
    loop_at: usize,
) {
    if res.defects.len() >= MAX_EXAMPLES {
        return;
    }
    let path = if loop_at != usize::MAX {
        let from = stack.iter().position(|&x| x as usize == loop_at).unwrap_or(0);
        let mut names: Vec<&str> = stack[from..].iter().map(|&x| cx.row_desc(x as usize)).collect();
        names.push(cx.row_desc(loop_at));
        names.join(" -> ")
    } else {
        stack
            .iter()
            .map(|&x| cx.row_desc(x as usize))
            .collect::<Vec<_>>()
            .join(" -> ")
    };
    let first = stack.first().map(|&x| x as usize).unwrap_or(r);
    res.defects.push(Defect {
        kind: kind.to_string(),
        switch: cx.row_desc(r).to_string(),
        switch_guid: format!("0x{:016x}", cx.fabric.node(cx.lfts.switches[first]).guid),
        lid,
        destination: dest.to_string(),
        path,
    });
}

/// The switches a route from row `r` to `lid` visits (at most one lap).
fn path_from(cx: &Ctx, mut r: usize, lid: u16) -> String {
    let mut names = Vec::new();
    for _ in 0..=cx.nsw {
        names.push(cx.row_desc(r).to_string());
        let sw = cx.lfts.switches[r];
        let port = cx.lfts.ports[r * cx.lfts.stride + lid as usize];
        if port == 0 || port == NO_ROUTE || port > cx.fabric.node(sw).nports {
            break;
        }
        let Some((pn, _)) = cx.fabric.peer(sw, port) else { break };
        if cx.fabric.node(pn).kind != NodeKind::Switch {
            names.push(cx.fabric.node(pn).desc.clone());
            break;
        }
        r = cx.lfts.row_of[pn as usize] as usize;
    }
    names.join(" -> ")
}

/// Channel dependency graph: channels are switch-to-switch output ports (global port
/// index); `succ[c]` is a bitmap over the output ports of the switch c enters.
struct CdgBuilder {
    succ: Vec<[u64; 4]>,
}

fn build_cdg(cx: &Ctx, sources: &[u32]) -> Cdg {
    let fabric = cx.fabric;
    let nports = fabric.ports.len();
    let lids: Vec<u16> = (1..cx.lids.owner.len() as u32)
        .filter(|&l| cx.lids.owner[l as usize] != NO_PEER)
        .map(|l| l as u16)
        .collect();
    // one dependency set per worker thread (folded), not per chunk: a set is 32 bytes per
    // port (5.6 MB on LSFT(32)), and clearing and merging one per 64 LIDs cost more than
    // the walks
    let merged = lids
        .par_chunks(64)
        .fold(
            || {
                (
                    CdgBuilder {
                        succ: vec![[0u64; 4]; nports],
                    },
                    vec![u32::MAX; cx.nsw],
                )
            },
            |(mut b, mut seen), chunk| {
                for &lid in chunk {
                    for &src in sources {
                        // follow from src; stop at a switch already walked for this LID
                        let mut r = src as usize;
                        let mut incoming: u32 = NO_PEER;
                        for _ in 0..=cx.nsw {
                            let port = cx.walk.port(r, lid);
                            if port == 0 || port == NO_ROUTE {
                                break;
                            }
                            let next = match cx.walk.step(r, port) {
                                Step::Beyond | Step::Uncabled => break,
                                Step::Leaf(_) => None,
                                Step::Row(next) => Some(next),
                            };
                            if incoming != NO_PEER && next.is_some() {
                                b.succ[incoming as usize][(port / 64) as usize] |= 1 << (port % 64);
                            }
                            let Some(next) = next else { break };
                            if seen[r] == lid as u32 {
                                break;
                            }
                            seen[r] = lid as u32;
                            incoming = cx.walk.channel(r, port);
                            r = next;
                        }
                    }
                }
                (b, seen)
            },
        )
        .map(|(b, _)| b)
        .reduce(
            || CdgBuilder {
                succ: vec![[0u64; 4]; nports],
            },
            |mut a, b| {
                for (x, y) in a.succ.iter_mut().zip(&b.succ) {
                    for k in 0..4 {
                        x[k] |= y[k];
                    }
                }
                a
            },
        );
    // cycle detection over channels (iterative DFS, colours)
    let next_of = |c: usize, port: u8| -> usize {
        let peer = fabric.ports[c].peer as usize;
        let node = fabric.ports[peer].node;
        fabric.port_index(node, port) as usize
    };
    let channels: Vec<usize> = (0..nports)
        .filter(|&c| {
            let p = &fabric.ports[c];
            p.peer != NO_PEER
                && fabric.node(p.node).kind == NodeKind::Switch
                && fabric.node(fabric.ports[p.peer as usize].node).kind == NodeKind::Switch
        })
        .collect();
    let dependencies: usize = merged
        .succ
        .iter()
        .map(|b| b.iter().map(|w| w.count_ones() as usize).sum::<usize>())
        .sum();
    let mut colour = vec![0u8; nports];
    let mut cycle = Vec::new();
    'outer: for &c0 in &channels {
        if colour[c0] != 0 {
            continue;
        }
        // stack of (channel, next port to try)
        let mut stack: Vec<(usize, u16)> = vec![(c0, 0)];
        colour[c0] = 1;
        while let Some(&mut (c, ref mut p)) = stack.last_mut() {
            let bits = &merged.succ[c];
            let mut advanced = false;
            while *p < 256 {
                let port = *p as u8;
                *p += 1;
                if bits[(port / 64) as usize] & (1 << (port % 64)) == 0 {
                    continue;
                }
                let n = next_of(c, port);
                match colour[n] {
                    0 => {
                        colour[n] = 1;
                        stack.push((n, 0));
                        advanced = true;
                        break;
                    }
                    1 => {
                        let from = stack.iter().position(|&(x, _)| x == n).unwrap_or(0);
                        let labels = Labels::new(fabric);
                        cycle = stack[from..]
                            .iter()
                            .map(|&(x, _)| channel_name(fabric, &labels, x))
                            .collect();
                        break 'outer;
                    }
                    _ => {}
                }
            }
            if !advanced {
                colour[c] = 2;
                stack.pop();
            }
        }
    }
    Cdg {
        channels: channels.len(),
        dependencies,
        acyclic: cycle.is_empty(),
        cycle,
    }
}

fn channel_name(fabric: &Fabric, labels: &Labels, c: usize) -> String {
    let p = &fabric.ports[c];
    let q = &fabric.ports[p.peer as usize];
    format!("{}:{} -> {}", labels.get(p.node), p.num, labels.get(q.node))
}

/// Validate `lfts` for `fabric` and `lids`. `layout`, when known, states which routes the
/// family promises to be minimal.
pub fn validate(fabric: &Fabric, lids: &Lids, lfts: &LftSet, layout: Option<&Layout>) -> LftReport {
    validate_declared(fabric, lids, lfts, layout, None)
}

/// A route the tables' maker declares a detour: (switch the hosts hang off, DLID).
pub type Detour<'a> = &'a (dyn Fn(crate::topology::NodeId, u16) -> bool + Sync);

/// [`validate`], where routes for which `detour` holds (routes with lanes on an SL other
/// than 0: `route --objective spread`, degraded fabrics) are not held to the family's
/// minimal promise — they are longer by design and proven deadlock-free per VL instead.
pub fn validate_declared(
    fabric: &Fabric,
    lids: &Lids,
    lfts: &LftSet,
    layout: Option<&Layout>,
    detour: Option<Detour<'_>>,
) -> LftReport {
    let nsw = lfts.switches.len();
    let mut attach_row = vec![u32::MAX; fabric.ports.len()];
    let mut ca_rows = Vec::new();
    for ep in fabric.endpoints() {
        if let Some((sw, _)) = fabric.peer(ep.node, ep.port) {
            if fabric.node(sw).kind == NodeKind::Switch {
                let r = lfts.row_of[sw as usize];
                attach_row[fabric.port_index(ep.node, ep.port) as usize] = r;
                ca_rows.push(r);
            }
        }
    }
    ca_rows.sort_unstable();
    ca_rows.dedup();
    let mut is_ca_row = vec![false; nsw];
    for &r in &ca_rows {
        is_ca_row[r as usize] = true;
    }
    let cx = Ctx {
        fabric,
        lids,
        lfts,
        dist: all_pairs(fabric, lfts),
        nsw,
        attach_row,
        ca_rows,
        is_ca_row,
        walk: Walk::new(fabric, lfts),
        promise: minimal_promise(layout, lids.lmc),
        detour,
    };
    let lid_list: Vec<u16> = (1..lids.owner.len())
        .filter(|&l| lids.owner[l] != NO_PEER)
        .map(|l| l as u16)
        .collect();
    let res = lid_list
        .par_chunks(32)
        .map(|chunk| {
            let mut st = vec![St::Unknown; nsw];
            let mut stack = Vec::new();
            chunk.iter().fold(LidResult::new(), |acc, &lid| {
                acc.merge(check_lid(&cx, lid, &mut st, &mut stack))
            })
        })
        .reduce(LidResult::new, LidResult::merge);
    let all_rows: Vec<u32> = (0..nsw as u32).collect();
    let ca_sourced = build_cdg(&cx, &cx.ca_rows);
    let all_sources = build_cdg(&cx, &all_rows);
    let mut defects = res.defects;
    defects.sort_by(|a, b| (a.lid, &a.switch).cmp(&(b.lid, &b.switch)));
    defects.truncate(MAX_EXAMPLES);
    let ok =
        res.black_holes == 0 && res.loops == 0 && res.misdelivered == 0 && res.non_minimal == 0 && ca_sourced.acyclic;
    let data_path_ok = res.host_routes_broken == 0 && res.non_minimal == 0;
    let complete = res.host_bad == 0 && res.switch_bad == 0;
    LftReport {
        switches: nsw,
        lids: lid_list.len(),
        entries_checked: res.entries,
        black_holes: res.black_holes,
        loops: res.loops,
        misdelivered: res.misdelivered,
        non_minimal: res.non_minimal,
        defective_host_lid_entries: res.host_bad,
        defective_switch_lid_entries: res.switch_bad,
        defects,
        broken_host_routes: res.host_routes_broken,
        data_path_ok,
        complete,
        deadlock_free: ca_sourced.acyclic,
        host_hops: stats(res.host_hops),
        switch_hops: stats(res.switch_hops),
        ca_sourced,
        all_sources,
        ok,
    }
}
