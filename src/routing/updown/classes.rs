//! Neighbour classes: switches with the same set of upward (or downward) neighbours — a
//! tree's leaves under one group of spines, the spines under one set of cores — decide a
//! column alike as long as those neighbours agree. A column asks once per class for the
//! shortest distance among the neighbours and whether all of them have it; a member
//! whose neighbours all have it takes its cable in O(1), so a column costs about one
//! pass over the classes instead of one over every cable.

use super::INF;
use crate::guid::FxMap as HashMap;

/// Rows (by their index in a compressed adjacency) grouped by their set of neighbours.
pub(super) struct Classes {
    /// Class of each index.
    of: Vec<u32>,
    /// Start of each class's distinct neighbours in `nbrs`.
    start: Vec<u32>,
    nbrs: Vec<u32>,
    /// Per index, its cables' ports grouped by neighbour (in the class's neighbour order),
    /// each group in port order: `runs[run_start[base[i] + k]..run_start[base[i] + k + 1]]`
    /// are index i's cables to its class's k-th neighbour.
    runs: Vec<u8>,
    run_start: Vec<u32>,
    base: Vec<u32>,
}

impl Classes {
    /// The classes of the rows of the adjacency `(start, adj)`.
    pub(super) fn new(start: &[u32], adj: &[(u32, u8)]) -> Classes {
        let n = start.len().saturating_sub(1);
        let mut index: HashMap<Vec<u32>, u32> = HashMap::default();
        let (mut of, mut cstart, mut nbrs) = (Vec::with_capacity(n), vec![0u32], Vec::new());
        for i in 0..n {
            let mut set: Vec<u32> = adj[start[i] as usize..start[i + 1] as usize]
                .iter()
                .map(|&(u, _)| u)
                .collect();
            set.sort_unstable();
            set.dedup();
            let next = cstart.len() as u32 - 1;
            let c = *index.entry(set).or_insert_with_key(|set| {
                nbrs.extend_from_slice(set);
                cstart.push(nbrs.len() as u32);
                next
            });
            of.push(c);
        }
        let (mut runs, mut run_start, mut base) = (Vec::new(), Vec::new(), Vec::with_capacity(n));
        for i in 0..n {
            let c = of[i] as usize;
            let set = &nbrs[cstart[c] as usize..cstart[c + 1] as usize];
            let mut cables: Vec<(usize, u8)> = adj[start[i] as usize..start[i + 1] as usize]
                .iter()
                .map(|&(u, p)| (set.binary_search(&u).expect("a neighbour of its class"), p))
                .collect();
            cables.sort_unstable();
            base.push(run_start.len() as u32);
            let mut k = 0;
            for &(kj, p) in &cables {
                while k <= kj {
                    run_start.push(runs.len() as u32);
                    k += 1;
                }
                runs.push(p);
            }
            while k <= set.len() {
                run_start.push(runs.len() as u32);
                k += 1;
            }
        }
        Classes {
            of,
            start: cstart,
            nbrs,
            runs,
            run_start,
            base,
        }
    }

    fn len(&self) -> usize {
        self.start.len() - 1
    }
}

/// Per thread: each class's (shortest value among its neighbours, all of them equal to
/// it), valid for one stamp (a column's legal distances, or one ring of its fallback).
#[derive(Default)]
pub(super) struct ClassCache {
    seen: Vec<u32>,
    val: Vec<(u32, bool)>,
    /// Per class, for the stamp in `least_seen`: which of its neighbours have the least.
    least_seen: Vec<u32>,
    least: Vec<Vec<u32>>,
}

impl ClassCache {
    /// (min, all equal) over `vals` of the neighbours of index `i`'s class; computed once
    /// per `stamp` (never 0). No neighbours: (INF, true).
    pub(super) fn get(&mut self, cl: &Classes, i: usize, stamp: u32, vals: &[u32]) -> (u32, bool) {
        if self.seen.len() != cl.len() {
            self.seen = vec![0; cl.len()];
            self.val = vec![(INF, true); cl.len()];
        }
        let c = cl.of[i] as usize;
        if self.seen[c] != stamp {
            let nbrs = &cl.nbrs[cl.start[c] as usize..cl.start[c + 1] as usize];
            let first = nbrs.first().map_or(INF, |&u| vals[u as usize]);
            let mut b = (first, true);
            for &u in nbrs {
                let v = vals[u as usize];
                b = (b.0.min(v), b.1 && v == first);
            }
            self.seen[c] = stamp;
            self.val[c] = b;
        }
        self.val[c]
    }

    /// The least of `vals` among index `i`'s neighbours (INF when none has a value), and
    /// into `out` its cables to the neighbours that have it, in port order: the class
    /// finds those neighbours once per stamp, the index then reads only their cables.
    pub(super) fn least_cables(&mut self, cl: &Classes, i: usize, stamp: u32, vals: &[u32], out: &mut Vec<u8>) -> u32 {
        let (best, _) = self.get(cl, i, stamp, vals);
        out.clear();
        if best == INF {
            return INF;
        }
        if self.least_seen.len() != cl.len() {
            self.least_seen = vec![0; cl.len()];
            self.least = vec![Vec::new(); cl.len()];
        }
        let c = cl.of[i] as usize;
        if self.least_seen[c] != stamp {
            let nbrs = &cl.nbrs[cl.start[c] as usize..cl.start[c + 1] as usize];
            let least = &mut self.least[c];
            least.clear();
            least.extend((0..nbrs.len() as u32).filter(|&k| vals[nbrs[k as usize] as usize] == best));
            self.least_seen[c] = stamp;
        }
        let b = cl.base[i] as usize;
        for &k in &self.least[c] {
            let (lo, hi) = (cl.run_start[b + k as usize], cl.run_start[b + k as usize + 1]);
            out.extend_from_slice(&cl.runs[lo as usize..hi as usize]);
        }
        out.sort_unstable();
        best
    }
}
