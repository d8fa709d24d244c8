//! Traffic of GPU collectives on rail-optimised fabrics ([`crate::families::railopt::model`]).
//! NCCL keeps inter-server traffic on the sender's rail (PXN moves data between rails
//! over NVLink first), so what crosses the fabric is one collective per rail, all rails
//! at once:
//!
//! * `rail-alltoall`: every rail runs an all-to-all among its HCAs. In phase i, member j
//!   of a rail of n members sends to member (j+i) mod n. Rails of fewer members are idle
//!   from phase n on.
//! * `rail-ring`: a ring all-reduce per rail. Member j sends to member j+1 in each of its
//!   n−1 steps (the links used do not change between steps).
//!
//! A rail's members are the job's HCAs on that rail, in the order their servers first
//! appear in the job. Job ranks outside the servers (a management host) are idle.
//! docs/railopt.md §5 says in which order `rail-alltoall` is conflict-free, and why.

use crate::error::{Error, Result};
use crate::families::railopt::model::{RailFabric, NONE};
use crate::schedule::{Job, Pattern, IDLE};
use crate::topology::Fabric;
use std::collections::HashMap;

/// Which collective runs on every rail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RailCollective {
    /// An all-to-all per rail.
    AllToAll,
    /// A ring per rail.
    Ring,
}

/// One collective per rail, over a job's ranks.
#[derive(Clone, Debug)]
pub struct RailTraffic {
    collective: RailCollective,
    ranks: usize,
    /// Job ranks of every rail, in server order.
    members: Vec<Vec<u32>>,
    /// The device of every rail (`mlx5_3`), for reports.
    labels: Vec<String>,
}

impl RailTraffic {
    /// The collective on every rail of `job` on `fabric`; an input error when the fabric
    /// is not rail-optimised or no rail has two members in the job.
    pub fn new(fabric: &Fabric, job: &Job, collective: RailCollective) -> Result<RailTraffic> {
        let rf = RailFabric::of(fabric).ok_or_else(|| {
            Error::input(
                "pattern",
                "rail patterns need a rail-optimised fabric (servers of several HCAs, one per rail); this one is not",
                Some("`ibfat recognize` shows whether servers and rails were found; use shift or random here".into()),
            )
        })?;
        // every HCA's (server, rail)
        let mut hca = HashMap::new();
        for (si, s) in rf.servers.iter().enumerate() {
            for h in &s.hcas {
                hca.insert(h.endpoint, (si, h.rail));
            }
        }
        // servers in the order the job first names them; a rail's members in that order
        let mut server_rank: HashMap<usize, usize> = HashMap::new();
        let mut on_rail: Vec<Vec<(usize, u32)>> = vec![Vec::new(); rf.rails_n()];
        for (r, e) in job.hosts().iter().enumerate() {
            let Some(&(s, rail)) = hca.get(e) else {
                continue;
            };
            if rail == NONE {
                continue;
            }
            let next = server_rank.len();
            let order = *server_rank.entry(s).or_insert(next);
            on_rail[rail as usize].push((order, r as u32));
        }
        let members: Vec<Vec<u32>> = on_rail
            .into_iter()
            .map(|mut v| {
                v.sort_unstable();
                v.into_iter().map(|(_, r)| r).collect()
            })
            .collect();
        if members.iter().all(|m| m.len() < 2) {
            return Err(Error::input(
                "job",
                "no rail has two HCAs in the job: a rail pattern needs at least two servers",
                Some("--job 'dgx[001-031]' names servers".into()),
            ));
        }
        Ok(RailTraffic {
            collective,
            ranks: job.len(),
            members,
            labels: rf.rails.clone(),
        })
    }

    /// Number of rails.
    pub fn rails(&self) -> usize {
        self.members.len()
    }

    /// The device name of rail `r`.
    pub fn label(&self, r: usize) -> &str {
        &self.labels[r]
    }

    /// The same traffic on rail `r` alone (the others idle): what a per-rail report
    /// measures.
    pub fn only(&self, r: usize) -> RailTraffic {
        let mut one = self.clone();
        for (k, m) in one.members.iter_mut().enumerate() {
            if k != r {
                m.clear();
            }
        }
        one
    }
}

impl Pattern for RailTraffic {
    fn name(&self) -> String {
        match self.collective {
            RailCollective::AllToAll => "rail-alltoall".into(),
            RailCollective::Ring => "rail-ring".into(),
        }
    }
    fn ranks(&self) -> usize {
        self.ranks
    }
    fn phases(&self) -> usize {
        self.members.iter().map(Vec::len).max().unwrap_or(0).saturating_sub(1)
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        out.fill(IDLE);
        let step = match self.collective {
            RailCollective::AllToAll => p + 1,
            RailCollective::Ring => 1,
        };
        for m in &self.members {
            let n = m.len();
            if step >= n {
                continue;
            }
            for (j, &r) in m.iter().enumerate() {
                out[r as usize] = m[(j + step) % n];
            }
        }
    }
}
