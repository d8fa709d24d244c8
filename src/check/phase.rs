//! One phase of the conflict checker on compiled routes: the per-flow hot loop, kept
//! apart from the report types ([`super::conflicts`]) so it can be read and profiled as
//! one piece.
//!
//! Consecutive ranks whose flows take the same compiled route (the hosts of one switch
//! sending to the hosts of one switch, as in most phases of `shift`) are handled as one
//! run of k flows: the route is looked up and counted once with weight k, and its k flows
//! get the same congestion. The sum of 1/c still adds one term per flow in rank order, so
//! every figure is bit for bit what a flow-by-flow pass gives.

use super::conflicts::{CompiledRoutes, PhaseSummary, FAULT_BASE, NO_LINK, TOP};
use super::rates::RateWeights;
use crate::schedule::{Pattern, IDLE};

/// Phases a thread accumulates in 32-bit link totals before folding them into the 64-bit
/// ones: a phase puts at most `u16::MAX` flows on a link, so 2^16 phases fit a `u32`.
const FLUSH_PHASES: u32 = 1 << 16;

/// Ranks whose routes are looked up ahead of their use, and the mark of a rank that sends
/// nothing (idle, or to itself).
const BLOCK: usize = 256;
const SKIP: usize = usize::MAX;

/// Repeated phases whose counts are held before they are put into the link statistics
/// (at most [`FLUSH_PHASES`], so the 32-bit totals cannot overflow).
const REPEAT_CAP: u32 = 1 << 15;

/// What one thread has accumulated over the phases it checked.
pub(super) struct Acc {
    /// flows on each channel in the current phase
    cnt: Vec<u16>,
    /// the channels of this phase's routed runs, each run's list ended by `NO_LINK`
    /// (pass 2 reads them from here, sequentially)
    flow_ch: Vec<u32>,
    /// flows in each run of `flow_ch`, in order
    run_len: Vec<u32>,
    /// the channels whose count left 0 in this phase: `touched[..ntouched]` (written
    /// without a branch, so sized for every channel and one more)
    touched: Vec<u32>,
    ntouched: usize,
    /// largest per-phase load of each channel
    pub(super) link_max: Vec<u16>,
    /// flows per channel over the phases since the last flush
    link_sum32: Vec<u32>,
    /// flows per channel over the flushed phases
    pub(super) link_sum: Vec<u64>,
    since_flush: u32,
    /// phases whose counts `cnt` holds and that are not yet in the link statistics (the
    /// last phase, and the phases after it that repeat it)
    pending: u32,
    /// the compiled route of each rank's flow in this phase (`SKIP`: none) and in the
    /// previous one
    idx: Vec<usize>,
    prev_idx: Vec<usize>,
    /// the previous phase's flows, Σ 1/c and largest congestion, when a phase with the
    /// same routes may repeat it (unweighted, every flow routed)
    last: Option<(u64, f64, u32)>,
    /// flows per congestion class in the last phase
    ph: Vec<u64>,
    pub(super) dest: Vec<u32>,
    recv: Vec<u32>,
    pub(super) hist: Vec<u64>,
    pub(super) flows: u64,
    pub(super) unrouted: u64,
    pub(super) worst: Vec<PhaseSummary>,
    /// (phase, source rank, destination rank, fault code) of the first unrouted flows
    pub(super) unrouted_examples: Vec<(usize, u32, u32, u32)>,
    pub(super) error: Option<String>,
    /// weighted checks: the scaled weight of each routed flow's host cables, in
    /// `flow_ch` order
    flow_host: Vec<u64>,
    /// weighted checks: Σ 1/c of each phase, summed in phase order at the end
    pub(super) phase_sums: Vec<(usize, f64)>,
    /// weighted checks: the largest scaled flow congestion
    pub(super) wmax: u64,
}

impl Acc {
    pub(super) fn new(nlinks: usize, ranks: usize) -> Acc {
        Acc {
            cnt: vec![0; nlinks],
            flow_ch: Vec::new(),
            run_len: Vec::new(),
            // one spare slot: the branch-free write lands there once every channel is in
            touched: vec![0; nlinks + 1],
            ntouched: 0,
            link_max: vec![0; nlinks],
            link_sum32: vec![0; nlinks],
            link_sum: vec![0; nlinks],
            since_flush: 0,
            pending: 0,
            idx: vec![SKIP; ranks],
            prev_idx: Vec::new(),
            last: None,
            ph: vec![0; ranks + 2],
            dest: vec![0; ranks],
            recv: vec![u32::MAX; ranks],
            hist: vec![0; ranks + 2],
            flows: 0,
            unrouted: 0,
            worst: Vec::new(),
            unrouted_examples: Vec::new(),
            error: None,
            flow_host: Vec::new(),
            phase_sums: Vec::new(),
            wmax: 0,
        }
    }

    /// Put the held counts into the link statistics and fold the 32-bit link totals into
    /// the 64-bit ones: the statistics are then complete.
    pub(super) fn flush(&mut self) {
        self.settle();
        self.fold_sums();
    }

    fn fold_sums(&mut self) {
        for (s, t) in self.link_sum.iter_mut().zip(&mut self.link_sum32) {
            *s += u64::from(std::mem::take(t));
        }
        self.since_flush = 0;
    }

    pub(super) fn merge(mut self, mut o: Acc) -> Acc {
        self.flush();
        o.flush();
        for (a, b) in self.link_max.iter_mut().zip(&o.link_max) {
            *a = (*a).max(*b);
        }
        for (a, b) in self.link_sum.iter_mut().zip(&o.link_sum) {
            *a += *b;
        }
        if self.hist.len() < o.hist.len() {
            self.hist.resize(o.hist.len(), 0);
        }
        for (a, b) in self.hist.iter_mut().zip(&o.hist) {
            *a += *b;
        }
        self.flows += o.flows;
        self.unrouted += o.unrouted;
        self.worst.extend(o.worst);
        keep_worst(&mut self.worst);
        self.unrouted_examples.extend(o.unrouted_examples);
        self.unrouted_examples.sort_unstable();
        self.unrouted_examples.truncate(TOP);
        self.error = self.error.or(o.error);
        self.phase_sums.extend(o.phase_sums);
        self.wmax = self.wmax.max(o.wmax);
        self
    }

    /// Check phase `p` of `pattern`: its flows are counted into this accumulator.
    /// `recip[c]` is 1/c.
    ///
    /// A phase whose every rank's flow takes the route it took in the previous phase (the
    /// `lsft` all-to-all shifts only the host slot for d phases in a row) loads every link
    /// as that phase did and gives its flows the same congestions in the same order: its
    /// figures are the previous phase's, counted again without routing a flow.
    pub(super) fn phase<P: Pattern + ?Sized>(
        &mut self,
        routes: &CompiledRoutes,
        pattern: &P,
        p: usize,
        weights: Option<&RateWeights>,
        recip: &[f64],
    ) {
        let mut dest = std::mem::take(&mut self.dest);
        pattern.phase(p, &mut dest);
        if self.permutation_error(p, &dest) {
            self.dest = dest;
            return;
        }
        std::mem::swap(&mut self.idx, &mut self.prev_idx);
        self.route_indices(routes, &dest);
        if let Some((flows, sum, maxc)) = self.last.filter(|_| self.idx == self.prev_idx) {
            self.dest = dest;
            for (h, &n) in self.hist.iter_mut().zip(&self.ph).take(maxc as usize + 1) {
                *h += n;
            }
            self.pending += 1;
            if self.pending == REPEAT_CAP {
                self.add_links(self.pending - 1, false);
                self.pending = 1;
            }
            self.finish(p, flows, 0, sum, maxc);
            return;
        }
        self.settle();
        if let Some((_, _, maxc)) = self.last.take() {
            self.ph[..=maxc as usize].fill(0);
        }
        let unrouted = self.count(routes, p, &dest, weights);
        self.dest = dest;
        self.pending = 1;
        // pass 2: congestion of every flow
        let (flows, sum, maxc) = match weights {
            None => {
                let r = self.congestion(recip);
                for (h, &n) in self.hist.iter_mut().zip(&self.ph).take(r.2 as usize + 1) {
                    *h += n;
                }
                if unrouted == 0 {
                    self.last = Some(r);
                } else {
                    self.ph[..=r.2 as usize].fill(0);
                }
                r
            }
            Some(wt) => {
                let r = weighted_congestion(self, wt);
                self.phase_sums.push((p, r.1));
                r
            }
        };
        self.finish(p, flows, unrouted, sum, maxc);
    }

    /// Record a checked phase's totals and summary.
    fn finish(&mut self, p: usize, flows: u64, unrouted: u64, sum: f64, maxc: u32) {
        let total = flows + unrouted;
        self.flows += total;
        self.unrouted += unrouted;
        if total > 0 {
            self.worst.push(PhaseSummary {
                phase: p,
                flows: total,
                throughput_ratio: sum / total as f64,
                max_congestion: maxc,
            });
            if self.worst.len() > 4 * TOP {
                keep_worst(&mut self.worst);
            }
        }
    }

    /// The compiled route of every rank's flow in this phase, into `idx`.
    fn route_indices(&mut self, routes: &CompiledRoutes, dest: &[u32]) {
        let w = routes.width;
        self.idx.resize(dest.len(), SKIP);
        for (r, (&d, x)) in dest.iter().zip(self.idx.iter_mut()).enumerate() {
            *x = if d == IDLE || d as usize == r {
                SKIP
            } else {
                (routes.entry_of[r] as usize * routes.cols + routes.col_of[d as usize] as usize) * w
            };
        }
    }

    /// A phase must be a partial permutation of the ranks: every rank receives at most
    /// once. Records the error and says whether there is one.
    fn permutation_error(&mut self, p: usize, dest: &[u32]) -> bool {
        let ranks = self.recv.len();
        for (r, &d) in dest.iter().enumerate() {
            if d == IDLE {
                continue;
            }
            if d as usize >= ranks {
                self.error = Some(format!(
                    "phase {p}: rank {r} sends to rank {d}, beyond the {ranks} ranks"
                ));
                return true;
            }
            if self.recv[d as usize] == p as u32 {
                self.error = Some(format!(
                    "phase {p} is not a partial permutation: rank {d} receives twice (second sender rank {r})"
                ));
                return true;
            }
            self.recv[d as usize] = p as u32;
        }
        false
    }

    /// Pass 1: count flows per channel, packing each run's channels (ended by `NO_LINK`)
    /// so pass 2 reads them sequentially. Returns the phase's unrouted flows.
    fn count(&mut self, routes: &CompiledRoutes, p: usize, dest: &[u32], weights: Option<&RateWeights>) -> u64 {
        let w = routes.width;
        let host_weights = weights.map(|wt| &wt.host[..]).filter(|h| !h.is_empty());
        // a weighted flow carries its own host cables: one run per flow
        let runs = weights.is_none();
        let mut unrouted = 0u64;
        self.flow_ch.clear();
        self.run_len.clear();
        self.flow_host.clear();
        // the open run: its route's first slot and its flows
        let mut open = usize::MAX;
        let mut k = 0u32;
        // routes are looked up a block of ranks ahead of their use: a tight loop of
        // independent loads keeps many cache misses in flight (a pattern whose flows all
        // take different routes misses the cache on nearly every lookup)
        let idx = std::mem::take(&mut self.idx);
        let mut first = [0u32; BLOCK];
        for start in (0..dest.len()).step_by(BLOCK) {
            let block = &idx[start..dest.len().min(start + BLOCK)];
            for (f, &x) in first.iter_mut().zip(block) {
                if x != SKIP {
                    *f = routes.slots[x];
                }
            }
            for (i, &x) in block.iter().enumerate() {
                if x == SKIP {
                    continue;
                }
                if runs && x == open {
                    k += 1;
                    continue;
                }
                if k > 0 {
                    self.add_run(&routes.slots[open..open + w], k);
                    k = 0;
                }
                let (r, d) = (start + i, dest[start + i]);
                if first[i] >= FAULT_BASE && first[i] != NO_LINK {
                    unrouted += 1;
                    if self.unrouted_examples.len() < TOP {
                        self.unrouted_examples.push((p, r as u32, d, first[i]));
                    }
                    open = usize::MAX;
                    continue;
                }
                open = x;
                k = 1;
                if let Some(h) = host_weights {
                    self.flow_host.push(h[r].max(h[d as usize]));
                }
            }
        }
        self.idx = idx;
        if k > 0 {
            self.add_run(&routes.slots[open..open + w], k);
        }
        unrouted
    }

    /// Count `k` flows on `route` and pack it.
    #[inline(always)]
    fn add_run(&mut self, route: &[u32], k: u32) {
        for &l in route {
            if l == NO_LINK {
                break;
            }
            self.flow_ch.push(l);
            let c = &mut self.cnt[l as usize];
            self.touched[self.ntouched] = l;
            self.ntouched += usize::from(*c == 0);
            // a phase is a partial permutation of at most u16::MAX ranks
            *c += k as u16;
        }
        self.flow_ch.push(NO_LINK);
        self.run_len.push(k);
    }

    /// Pass 2, unweighted: every flow's congestion; the phase's flows, Σ 1/c (one term
    /// per flow, in rank order) and largest congestion.
    fn congestion(&mut self, recip: &[f64]) -> (u64, f64, u32) {
        let (mut flows, mut sum, mut maxc) = (0u64, 0.0f64, 0u32);
        let mut c = 1u32;
        let mut runs = self.run_len.iter();
        for &l in &self.flow_ch {
            if l == NO_LINK {
                let k = *runs.next().expect("one length per run");
                flows += u64::from(k);
                let rc = recip[c as usize];
                for _ in 0..k {
                    sum += rc;
                }
                maxc = maxc.max(c);
                self.ph[c as usize] += u64::from(k);
                c = 1;
            } else {
                c = c.max(u32::from(self.cnt[l as usize]));
            }
        }
        (flows, sum, maxc)
    }

    /// Put the counts of the pending phases into the link statistics and clear them.
    fn settle(&mut self) {
        if self.pending > 0 {
            self.add_links(self.pending, true);
            self.pending = 0;
        }
    }

    /// Pass 3: channel statistics of `m` phases with the counts `cnt` holds, which are
    /// cleared with `reset`. When most channels carried flows (a conflict-free pattern
    /// uses them all) a sequential sweep beats the scattered touched list.
    fn add_links(&mut self, m: u32, reset: bool) {
        if self.since_flush + m > FLUSH_PHASES {
            self.fold_sums();
        }
        let stats = |c: &mut u16, mx: &mut u16, s: &mut u32| {
            let v = if reset { std::mem::take(c) } else { *c };
            *mx = (*mx).max(v);
            // at most u16::MAX flows a phase over at most FLUSH_PHASES phases
            *s += m * u32::from(v);
        };
        if self.ntouched * 4 > self.cnt.len() {
            for ((c, mx), s) in self.cnt.iter_mut().zip(&mut self.link_max).zip(&mut self.link_sum32) {
                stats(c, mx, s);
            }
        } else {
            for &l in &self.touched[..self.ntouched] {
                let l = l as usize;
                stats(&mut self.cnt[l], &mut self.link_max[l], &mut self.link_sum32[l]);
            }
        }
        if reset {
            self.ntouched = 0;
        }
        self.since_flush += m;
    }
}

pub(super) fn keep_worst(v: &mut Vec<PhaseSummary>) {
    v.sort_by(|a, b| {
        a.throughput_ratio
            .total_cmp(&b.throughput_ratio)
            .then(b.max_congestion.cmp(&a.max_congestion))
            .then(a.phase.cmp(&b.phase))
    });
    v.truncate(TOP);
}

/// Pass 2 of a weighted phase: each flow's congestion is the largest scaled weighted load
/// on its route and host cables, at least `unit` (weight 1); the histogram counts it in
/// the class it rounds up to. Returns the phase's flows, Σ 1/c and largest class.
fn weighted_congestion(a: &mut Acc, wt: &RateWeights) -> (u64, f64, u32) {
    let unit = wt.unit;
    let (mut flows, mut sum, mut maxc) = (0u64, 0.0f64, 0u32);
    let mut c = unit.max(a.flow_host.first().copied().unwrap_or(unit));
    for &l in &a.flow_ch {
        if l == NO_LINK {
            let (r, class) = match wt.table.get(c as usize) {
                Some(&(r, class)) => (r, class as usize),
                None => (unit as f64 / c as f64, c.div_ceil(unit) as usize),
            };
            sum += r;
            if class >= a.hist.len() {
                a.hist.resize(class + 1, 0);
            }
            a.hist[class] += 1;
            maxc = maxc.max(class as u32);
            a.wmax = a.wmax.max(c);
            flows += 1;
            c = unit.max(a.flow_host.get(flows as usize).copied().unwrap_or(unit));
        } else {
            c = c.max(u64::from(a.cnt[l as usize]) * u64::from(wt.channel[l as usize]));
        }
    }
    (flows, sum, maxc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::schedule::LsftAllToAll;
    use crate::routing::{route, Lids, NO_ROUTE};
    use crate::schedule::shift::Shift;
    use crate::schedule::testutil::lsft_plan;
    use crate::schedule::Job;
    use crate::topology::Layout;

    /// A pattern given by its phases (idle ranks, self-flows and repeated phases included).
    struct Listed(Vec<Vec<u32>>);

    impl Pattern for Listed {
        fn name(&self) -> String {
            "listed".into()
        }
        fn ranks(&self) -> usize {
            self.0[0].len()
        }
        fn phases(&self) -> usize {
            self.0.len()
        }
        fn phase(&self, p: usize, out: &mut [u32]) {
            out.copy_from_slice(&self.0[p]);
        }
        fn peer(&self, p: usize, r: usize) -> u32 {
            self.0[p][r]
        }
    }

    /// Flow by flow, phase by phase, as the checker is specified: (flows, unrouted,
    /// histogram, link max, link sum, every phase's summary).
    #[allow(clippy::type_complexity)]
    fn reference(
        routes: &CompiledRoutes,
        pattern: &dyn Pattern,
    ) -> (u64, u64, Vec<u64>, Vec<u16>, Vec<u64>, Vec<PhaseSummary>) {
        let (n, nch) = (pattern.ranks(), routes.channels());
        let (mut flows, mut unrouted) = (0, 0);
        let mut hist = vec![0u64; n + 2];
        let (mut lmax, mut lsum) = (vec![0u16; nch], vec![0u64; nch]);
        let mut phases = Vec::new();
        let mut dest = vec![0; n];
        for p in 0..pattern.phases() {
            pattern.phase(p, &mut dest);
            let mut cnt = vec![0u16; nch];
            let mut routed = Vec::new();
            let mut lost = 0;
            for (r, &d) in dest.iter().enumerate() {
                if d == IDLE || d as usize == r {
                    continue;
                }
                match routes.route(r, d as usize) {
                    Some(ch) => {
                        ch.iter().for_each(|&l| cnt[l as usize] += 1);
                        routed.push(ch);
                    }
                    None => lost += 1,
                }
            }
            let (mut sum, mut maxc) = (0.0f64, 0u32);
            for ch in &routed {
                let c = ch.iter().map(|&l| u32::from(cnt[l as usize])).max().unwrap_or(1);
                sum += 1.0 / c as f64;
                maxc = maxc.max(c);
                hist[c as usize] += 1;
            }
            for l in 0..nch {
                lmax[l] = lmax[l].max(cnt[l]);
                lsum[l] += u64::from(cnt[l]);
            }
            let total = routed.len() as u64 + lost;
            flows += total;
            unrouted += lost;
            if total > 0 {
                phases.push(PhaseSummary {
                    phase: p,
                    flows: total,
                    throughput_ratio: sum / total as f64,
                    max_congestion: maxc,
                });
            }
        }
        (flows, unrouted, hist, lmax, lsum, phases)
    }

    fn agree(routes: &CompiledRoutes, pattern: &dyn Pattern) {
        let n = pattern.ranks();
        let recip: Vec<f64> = (0..n + 2).map(|c| if c == 0 { 0.0 } else { 1.0 / c as f64 }).collect();
        let mut a = Acc::new(routes.channels(), n);
        for p in 0..pattern.phases() {
            a.phase(routes, pattern, p, None, &recip);
        }
        a.flush();
        assert!(a.error.is_none(), "{:?}", a.error);
        let (flows, unrouted, hist, lmax, lsum, mut phases) = reference(routes, pattern);
        assert_eq!((a.flows, a.unrouted), (flows, unrouted), "{}", pattern.name());
        assert_eq!(a.hist, hist, "{}", pattern.name());
        assert_eq!(a.link_max, lmax, "{}", pattern.name());
        assert_eq!(a.link_sum, lsum, "{}", pattern.name());
        keep_worst(&mut phases);
        keep_worst(&mut a.worst);
        // the same bits: every flow's 1/c is added in the same order
        assert_eq!(a.worst, phases, "{}", pattern.name());
    }

    /// Runs of flows sharing a route, phases repeating the previous one's routes, idle
    /// ranks, self-flows and unrouted flows give exactly the flow-by-flow figures.
    #[test]
    fn runs_and_repeated_phases_give_the_flow_by_flow_figures() {
        let plan = lsft_plan(4, false, None);
        let Layout::Lsft(l) = &plan.layout else { unreachable!() };
        let hosts = plan.layout.hosts();
        let lids = Lids::plan(&plan.fabric, hosts, 0).unwrap();
        let mut lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
        let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
        let n = hosts.len();
        agree(&routes, &Shift::new(n));
        agree(&routes, &LsftAllToAll::new(l, &Job::whole(hosts)));
        // a pattern with conflicts, repeated phases, idle ranks and self-flows
        let mut phases = Vec::new();
        for p in [1usize, 1, 1, 7, 7, 2, 0, 9, 9] {
            phases.push(
                (0..n)
                    .map(|r| if r % 11 == 3 { IDLE } else { ((r * 2 + p) % n) as u32 })
                    .collect::<Vec<u32>>(),
            );
        }
        let listed = Listed(phases);
        assert!(n % 2 == 1, "r -> 2r + p is a permutation");
        agree(&routes, &listed);
        // black holes: some flows are unrouted, and a phase repeating one with unrouted
        // flows is routed again
        let sw = lfts.switches[0];
        for lid in 1..lfts.stride.min(40) as u16 {
            if lfts.get(sw, lid).is_some() {
                lfts.set(sw, lid, NO_ROUTE);
            }
        }
        let broken = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
        assert!((0..n).any(|r| broken.route(r, (r + 1) % n).is_none()));
        agree(&broken, &listed);
        agree(&broken, &Shift::new(n));
    }
}
