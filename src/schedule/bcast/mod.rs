//! Multi-lane broadcast trees: a message split in L parts ("halves" for L = 2), part h
//! broadcast along its own spanning tree, pipelined, so that every rank uses all of its
//! L ports (lanes) to send and to receive (seed 004 §3, generalised; docs/schedules.md §6).
//!
//! Construction, for any number of ranks N ≥ 1 and L ≥ 1 lanes:
//! 1. **Send capacity.** Every rank may send at most L flows in all (one per lane); the
//!    root sends exactly L, one part each, and receives none.
//! 2. **Trees, one part after the other.** For part h the non-root ranks are ordered by
//!    remaining capacity (most first; ties in job-rank order rotated by h·⌈M/L⌉, M = N−1,
//!    so the trees start at different ranks). The first is fed by the root; then, breadth
//!    first, every placed rank takes as many of the next unplaced ranks as its remaining
//!    capacity allows. The spare positions of the pattern (a rank with fewer than L
//!    children, the last parents of a tree, the root's part when N = 1) are simply no
//!    flow. This never gets stuck: before part h the non-root ranks hold L·M − h(M−1) ≥
//!    M−1 units of capacity, and a breadth-first pass that ran out of parents with
//!    unplaced ranks left would have used all of it on fewer than M−1 children. For L = 2
//!    the first tree's interior ranks are the second tree's leaves (the seed's two
//!    trees); the depth is ⌈log_L⌉-like for L ≥ 2 (tested ≤ 2⌈log₂ N⌉ + 2). L = 1 is
//!    the pipelined chain: one send per rank forces it.
//! 3. **Lanes.** The flows form a bipartite multigraph (senders × receivers) where every
//!    rank sends at most L and receives exactly L (one per part), so it can be coloured
//!    with L colours such that no rank sends or receives two flows of one colour (König);
//!    colour k is lane k. The colouring flips alternating paths (deterministic).
//!
//! Sites (seed 004 §3.2, `--sites`): ranks grouped by site (the hosts behind one leaf
//! switch), sites ordered from the root's. Each site runs step 2 on its own members; the
//! site after it is fed, for each part, by one rank of the site before that still has
//! capacity (every site has exactly L units left over: L·m − L(m−1)), so every site
//! boundary carries exactly one flow per part. The depth then grows with the number of
//! sites (a pipelined chain of sites), not with their size.

use crate::error::{Error, Result};

mod nested;
pub use nested::subtree_levels;

/// Most lanes a broadcast plan takes (ports per host that carry one).
pub(crate) const MAX_LANES: u32 = 8;

/// One flow: rank `from` sends part `part` to rank `to` on lane `lane`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Sending rank.
    pub from: u32,
    /// Receiving rank.
    pub to: u32,
    /// Which part of the message (0..L).
    pub part: u32,
    /// Which port of the sender and the receiver carries it (0..L).
    pub lane: u32,
}

/// A multi-lane broadcast plan over the ranks of a job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bcast {
    /// Number of ranks.
    pub ranks: u32,
    /// The rank that holds the message.
    pub root: u32,
    /// Lanes L = parts of the message.
    pub lanes: u32,
    /// Every flow, in part order, each part breadth first from the root.
    pub flows: Vec<Flow>,
}

impl Bcast {
    /// Build the plan for `ranks` ranks, `root`, `lanes` lanes; `sites`, when given, is
    /// the site of every rank (any labels; the rule of the module text).
    pub fn build(ranks: u32, root: u32, lanes: u32, sites: Option<&[u32]>) -> Result<Bcast> {
        check_request(ranks, root, lanes)?;
        if let Some(s) = sites {
            if s.len() != ranks as usize {
                return Err(Error::input("sites", "one site per rank", None));
            }
        }
        let mut cap = vec![lanes; ranks as usize];
        let mut edges: Vec<(u32, u32, u32)> = Vec::new(); // (from, to, part)
        match sites {
            None => {
                let members: Vec<u32> = (0..ranks).filter(|&r| r != root).collect();
                let feeders = vec![root; lanes as usize];
                grow(&members, &feeders, lanes, &mut cap, &mut edges);
            }
            Some(site_of) => {
                let groups = site_groups(site_of, root);
                for (i, group) in groups.iter().enumerate() {
                    let members: Vec<u32> = group.iter().copied().filter(|&r| r != root).collect();
                    let feeders = if i == 0 {
                        vec![root; lanes as usize]
                    } else {
                        spare_feeders(&groups[i - 1], lanes, &mut cap)
                    };
                    if i > 0 {
                        // the feeders' units are taken; give them back to `grow`, which
                        // charges every flow it makes
                        for &f in &feeders {
                            cap[f as usize] += 1;
                        }
                    }
                    grow(&members, &feeders, lanes, &mut cap, &mut edges);
                }
            }
        }
        Ok(Bcast::coloured(ranks, root, lanes, &edges))
    }

    /// The plan of `edges` (from, to, part) with a lane for every flow (step 3).
    fn coloured(ranks: u32, root: u32, lanes: u32, edges: &[(u32, u32, u32)]) -> Bcast {
        let colour = colour_lanes(ranks, lanes, edges);
        let flows = edges
            .iter()
            .zip(colour)
            .map(|(&(from, to, part), lane)| Flow { from, to, part, lane })
            .collect();
        Bcast {
            ranks,
            root,
            lanes,
            flows,
        }
    }

    /// What every rank sends on lane `lane`: `(to, part)` or `None` (the output contract's
    /// `lanes[k]`).
    pub fn sends(&self, lane: u32) -> Vec<Option<(u32, u32)>> {
        let mut v = vec![None; self.ranks as usize];
        for f in self.flows.iter().filter(|f| f.lane == lane) {
            v[f.from as usize] = Some((f.to, f.part));
        }
        v
    }

    /// What every rank receives on lane `lane`: `(from, part)` or `None`.
    pub fn receives(&self, lane: u32) -> Vec<Option<(u32, u32)>> {
        let mut v = vec![None; self.ranks as usize];
        for f in self.flows.iter().filter(|f| f.lane == lane) {
            v[f.to as usize] = Some((f.from, f.part));
        }
        v
    }

    /// Depth of every part's tree: the most flows on a path from the root.
    pub fn depths(&self) -> Vec<u32> {
        (0..self.lanes)
            .map(|part| {
                let mut depth = vec![0u32; self.ranks as usize];
                // flows are breadth first per part (a sender is reached before it sends)
                let mut max = 0;
                for f in self.flows.iter().filter(|f| f.part == part) {
                    depth[f.to as usize] = depth[f.from as usize] + 1;
                    max = max.max(depth[f.to as usize]);
                }
                max
            })
            .collect()
    }
}

/// The checks every construction makes first: a rank at least, the root one of them, 1..=8
/// lanes.
fn check_request(ranks: u32, root: u32, lanes: u32) -> Result<()> {
    if ranks == 0 {
        return Err(Error::input("job", "a broadcast needs at least one rank", None));
    }
    if root >= ranks {
        return Err(Error::input(
            "--root",
            format!("root {root} is not a rank of the job (ranks 0..={})", ranks - 1),
            Some("--root is a job rank".into()),
        ));
    }
    if !(1..=MAX_LANES).contains(&lanes) {
        return Err(Error::input(
            "--lanes",
            format!("{lanes} lanes: a broadcast uses 1..={MAX_LANES}"),
            Some("dual-rail or dual-port hosts: --lanes 2".into()),
        ));
    }
    Ok(())
}

/// The ranks of every site, the root's site first, then in order of their first rank.
fn site_groups(site_of: &[u32], root: u32) -> Vec<Vec<u32>> {
    let mut order: Vec<u32> = vec![site_of[root as usize]];
    for &s in site_of {
        if !order.contains(&s) {
            order.push(s);
        }
    }
    order
        .iter()
        .map(|&s| {
            (0..site_of.len() as u32)
                .filter(|&r| site_of[r as usize] == s)
                .collect()
        })
        .collect()
}

/// One sender per part from the capacity a site has left (exactly L units: see the
/// module text), taken off that capacity.
fn spare_feeders(group: &[u32], lanes: u32, cap: &mut [u32]) -> Vec<u32> {
    let mut v = Vec::with_capacity(lanes as usize);
    for &r in group {
        while cap[r as usize] > 0 && v.len() < lanes as usize {
            cap[r as usize] -= 1;
            v.push(r);
        }
    }
    debug_assert_eq!(v.len(), lanes as usize, "a site keeps L units of capacity");
    v
}

/// Step 2 of the module text on `members`, part h fed by `feeders[h]`.
fn grow(members: &[u32], feeders: &[u32], lanes: u32, cap: &mut [u32], edges: &mut Vec<(u32, u32, u32)>) {
    grow_with(members, feeders, lanes, cap, edges, None);
}

/// Whether a breadth-first pass over `order` (the first fed from outside, then every
/// placed rank taking as many of the next as its capacity) places all of them.
fn places_all(order: &[u32], cap: &[u32]) -> bool {
    let mut placed = 1usize;
    for (head, &p) in order.iter().enumerate() {
        if placed >= order.len() {
            return true;
        }
        if head >= placed {
            return false;
        }
        placed += cap[p as usize] as usize;
    }
    placed >= order.len()
}

/// [`grow`], with `early` (a member without capacity: a group's exit, see `nested`) moved
/// to the second place of every part's order, so the first fed rank's first child is
/// `early`, whenever the pass still places every member that way (else it stays last).
pub(super) fn grow_with(
    members: &[u32],
    feeders: &[u32],
    lanes: u32,
    cap: &mut [u32],
    edges: &mut Vec<(u32, u32, u32)>,
    early: Option<u32>,
) {
    let m = members.len();
    if m == 0 {
        return;
    }
    let stride = m.div_ceil(lanes as usize);
    for part in 0..lanes {
        let rot = (part as usize * stride) % m;
        let mut order: Vec<usize> = (0..m).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(cap[members[i] as usize]), (i + m - rot) % m));
        let mut order: Vec<u32> = order.into_iter().map(|i| members[i]).collect();
        if let Some(x) = early {
            if let Some(at) = order.iter().position(|&r| r == x).filter(|&at| at > 1) {
                let mut tried = order.clone();
                let x = tried.remove(at);
                tried.insert(1, x);
                if places_all(&tried, cap) {
                    order = tried;
                }
            }
        }
        let feeder = feeders[part as usize];
        cap[feeder as usize] -= 1;
        edges.push((feeder, order[0], part));
        let mut next = 1;
        let mut head = 0;
        while next < m {
            assert!(head < next, "capacity argument of the module text");
            let p = order[head];
            head += 1;
            while cap[p as usize] > 0 && next < m {
                cap[p as usize] -= 1;
                edges.push((p, order[next], part));
                next += 1;
            }
        }
    }
}

/// Step 3: a lane per flow such that no rank sends or receives two flows on one lane.
fn colour_lanes(ranks: u32, lanes: u32, edges: &[(u32, u32, u32)]) -> Vec<u32> {
    const NONE: usize = usize::MAX;
    let (n, l) = (ranks as usize, lanes as usize);
    let mut send = vec![NONE; n * l]; // send[u*l + c] = edge
    let mut recv = vec![NONE; n * l];
    let mut colour = vec![0u32; edges.len()];
    for (e, &(u, v, _)) in edges.iter().enumerate() {
        let (u, v) = (u as usize, v as usize);
        let a = (0..l)
            .find(|&c| send[u * l + c] == NONE)
            .expect("a sender has at most L flows");
        let b = (0..l)
            .find(|&c| recv[v * l + c] == NONE)
            .expect("a receiver has at most L flows");
        if recv[v * l + a] != NONE {
            // flip the a/b path from v: v -a- u1 -b- v2 -a- ... (it cannot reach u)
            let mut path = Vec::new();
            let (mut at_recv, mut node, mut c) = (true, v, a);
            loop {
                let e2 = if at_recv {
                    recv[node * l + c]
                } else {
                    send[node * l + c]
                };
                if e2 == NONE {
                    break;
                }
                path.push(e2);
                let (s, r, _) = edges[e2];
                node = if at_recv { s as usize } else { r as usize };
                at_recv = !at_recv;
                c = if c == a { b } else { a };
            }
            for &e2 in &path {
                let (s, r, _) = edges[e2];
                let (s, r) = (s as usize, r as usize);
                let old = colour[e2] as usize;
                if send[s * l + old] == e2 {
                    send[s * l + old] = NONE;
                }
                if recv[r * l + old] == e2 {
                    recv[r * l + old] = NONE;
                }
            }
            for &e2 in &path {
                let (s, r, _) = edges[e2];
                let (s, r) = (s as usize, r as usize);
                let new = if colour[e2] as usize == a { b } else { a };
                colour[e2] = new as u32;
                send[s * l + new] = e2;
                recv[r * l + new] = e2;
            }
        }
        colour[e] = a as u32;
        send[u * l + a] = e;
        recv[v * l + a] = e;
    }
    colour
}

/// Predicted broadcast times (seconds) of an M-byte message over P ranks with per-port
/// latency `l` (s) and bandwidth `b` (bytes/s), pipelined in small segments (the
/// seed's model): the multi-lane plan D·l + M/(L·b) (every port carries at most one flow
/// of M/L bytes), a binary tree log₂P·l + 2M/b (an interior rank sends the message twice
/// through its one port), a pipelined chain (P−1)·l + M/b.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct Predicted {
    /// This plan: deepest part's tree depth D, L lanes.
    pub multilane_s: f64,
    /// A pipelined binary tree on one port.
    pub binary_tree_s: f64,
    /// A pipelined chain on one port.
    pub chain_s: f64,
}

impl Bcast {
    /// [`Predicted`] times for a message of `bytes`.
    pub fn predict(&self, bytes: f64, latency_s: f64, bandwidth: f64) -> Predicted {
        let p = f64::from(self.ranks);
        let depth = f64::from(self.depths().into_iter().max().unwrap_or(0));
        Predicted {
            multilane_s: depth * latency_s + bytes / (f64::from(self.lanes) * bandwidth),
            binary_tree_s: p.log2().ceil() * latency_s + 2.0 * bytes / bandwidth,
            chain_s: (p - 1.0) * latency_s + bytes / bandwidth,
        }
    }
}

/// Name and version of the broadcast file (docs/schedules.md §6.2): a reader checks both.
pub(crate) const FILE_FORMAT: (&str, u32) = ("ibfat-bcast", 1);

impl Bcast {
    /// The broadcast file: `{"format", "version", "hosts": [port GUID per rank], "root",
    /// "lanes": [[null or [to, part] per rank] per lane], "depth": [per part]}`.
    pub(crate) fn to_json(&self, port_guids: &[u64]) -> String {
        let lanes: Vec<serde_json::Value> = (0..self.lanes)
            .map(|k| {
                serde_json::Value::Array(
                    self.sends(k)
                        .into_iter()
                        .map(|s| s.map_or(serde_json::Value::Null, |(to, part)| serde_json::json!([to, part])))
                        .collect(),
                )
            })
            .collect();
        // format and version first: a reader refuses another format before reading on
        #[derive(serde::Serialize)]
        struct File<'a> {
            format: &'a str,
            version: u32,
            hosts: Vec<String>,
            root: u32,
            lanes: Vec<serde_json::Value>,
            depth: Vec<u32>,
        }
        let v = File {
            format: FILE_FORMAT.0,
            version: FILE_FORMAT.1,
            hosts: port_guids.iter().map(|g| format!("0x{g:016x}")).collect(),
            root: self.root,
            lanes,
            depth: self.depths(),
        };
        let mut s = serde_json::to_string(&v).expect("a plan always serialises");
        s.push('\n');
        s
    }

    /// Write [`Bcast::to_json`] to `path` atomically (all or nothing).
    pub fn write(&self, path: &std::path::Path, port_guids: &[u64]) -> Result<()> {
        crate::formats::atomic::write_file(path, self.to_json(port_guids).as_bytes())
    }
}

/// The steady state of the pipeline as a pattern for the checker: phase k is everything
/// lane k carries at once (a partial permutation). On a multi-rail fabric lane k runs on
/// rail k, and the rails are identical planes, so checking phase k on one plane's tables
/// is checking rail k; on a single-rail fabric the lanes share the host ports (a port then
/// carries up to L flows), and each lane is checked on its own.
pub struct SteadyState<'a>(pub &'a Bcast);

impl super::Pattern for SteadyState<'_> {
    fn name(&self) -> String {
        "bcast-multilane steady state".into()
    }
    fn ranks(&self) -> usize {
        self.0.ranks as usize
    }
    fn phases(&self) -> usize {
        self.0.lanes as usize
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        out.fill(super::IDLE);
        for f in self.0.flows.iter().filter(|f| f.lane as usize == p) {
            out[f.from as usize] = f.to;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The contract: partial permutation per lane, every rank every part exactly once
    /// (root none), each part a tree from the root.
    pub(super) fn prove(b: &Bcast) {
        let n = b.ranks as usize;
        for k in 0..b.lanes {
            let mut sent = vec![0; n];
            let mut got = vec![0; n];
            for f in b.flows.iter().filter(|f| f.lane == k) {
                sent[f.from as usize] += 1;
                got[f.to as usize] += 1;
            }
            assert!(sent.iter().chain(&got).all(|&c| c <= 1), "lane {k}: {b:?}");
        }
        for h in 0..b.lanes {
            let mut reached = vec![false; n];
            reached[b.root as usize] = true;
            let mut count = vec![0; n];
            for f in b.flows.iter().filter(|f| f.part == h) {
                assert!(reached[f.from as usize], "part {h}: {} sends before it has it", f.from);
                reached[f.to as usize] = true;
                count[f.to as usize] += 1;
            }
            for (r, &c) in count.iter().enumerate() {
                let want = usize::from(r != b.root as usize);
                assert_eq!(c, want, "part {h} reaches rank {r} {c} times");
            }
        }
    }

    #[test]
    fn every_size_lane_count_and_root_meets_the_contract() {
        for lanes in 1..=4 {
            for n in 1..=130u32 {
                for root in [0, n / 2, n - 1] {
                    let b = Bcast::build(n, root, lanes, None).unwrap();
                    prove(&b);
                    assert_eq!(b.flows.len(), (lanes * (n - 1)) as usize);
                    if lanes >= 2 && n > 1 {
                        let bound = 2 * (32 - (n - 1).leading_zeros()) + 2;
                        let d = b.depths().into_iter().max().unwrap();
                        assert!(d <= bound, "n {n} lanes {lanes}: depth {d} > {bound}");
                    }
                }
            }
        }
    }

    #[test]
    fn large_jobs_stay_logarithmic() {
        for (n, lanes) in [(1000u32, 2u32), (4095, 2), (4096, 3), (2047, 4)] {
            let b = Bcast::build(n, 7, lanes, None).unwrap();
            prove(&b);
            let d = b.depths().into_iter().max().unwrap();
            assert!(d <= 2 * 12 + 2, "n {n}: depth {d}");
        }
    }

    #[test]
    fn the_seeds_two_trees_on_4n_minus_1_ranks() {
        // 4n−1 ranks, two lanes: the root feeds both trees, every other rank sends on at
        // most its two ports; both trees have logarithmic depth
        for n in 1..=16u32 {
            let b = Bcast::build(4 * n - 1, 0, 2, None).unwrap();
            prove(&b);
            assert_eq!(b.sends(0)[0].is_some() as u32 + b.sends(1)[0].is_some() as u32, 2);
        }
    }

    #[test]
    fn sites_carry_one_flow_per_part_across_every_boundary() {
        for lanes in 1..=3u32 {
            for (n, per) in [(12u32, 4u32), (13, 4), (9, 1), (20, 3), (7, 7)] {
                let sites: Vec<u32> = (0..n).map(|r| r / per).collect();
                for root in [0, n - 1] {
                    let b = Bcast::build(n, root, lanes, Some(&sites)).unwrap();
                    prove(&b);
                    let nsites = n.div_ceil(per);
                    for s in 0..nsites {
                        for h in 0..lanes {
                            let into = b
                                .flows
                                .iter()
                                .filter(|f| f.part == h && sites[f.to as usize] == s && sites[f.from as usize] != s)
                                .count();
                            let want = usize::from(s != sites[root as usize]);
                            assert_eq!(into, want, "n {n} per {per} site {s} part {h}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn the_file_lists_lanes_per_rank() {
        let b = Bcast::build(3, 1, 2, None).unwrap();
        let v: serde_json::Value = serde_json::from_str(&b.to_json(&[0x10, 0x11, 0x12])).unwrap();
        assert_eq!(v["format"], "ibfat-bcast");
        assert_eq!(v["root"], 1);
        assert_eq!(v["hosts"][2], "0x0000000000000012");
        assert_eq!(v["lanes"].as_array().unwrap().len(), 2);
        assert_eq!(v["lanes"][0].as_array().unwrap().len(), 3);
        for k in 0..2 {
            let s = &v["lanes"][k][1];
            assert!(s.is_array(), "the root sends on every lane: {v}");
        }
    }

    #[test]
    fn bad_requests_are_errors() {
        assert!(Bcast::build(0, 0, 2, None).is_err());
        assert!(Bcast::build(5, 5, 2, None).unwrap_err().to_string().contains("root 5"));
        assert!(Bcast::build(5, 0, 0, None).is_err());
        assert!(Bcast::build(5, 0, MAX_LANES + 1, None).is_err());
    }

    #[test]
    fn two_lanes_halve_the_bandwidth_term() {
        let b = Bcast::build(63, 0, 2, None).unwrap();
        let p = b.predict(1e9, 1e-6, 1e10);
        assert!(p.multilane_s < p.binary_tree_s / 3.0 && p.multilane_s < p.chain_s / 1.9);
    }
}
