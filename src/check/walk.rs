//! Flat tables for following LFTs LID by LID. Validation walks every switch's route to
//! one LID before the next; read from [`LftSet`] (row-major) that touches one byte per
//! 37 KB on LSFT(32), a cache miss per hop. [`Walk`] holds the tables transposed
//! (LID-major, one LID's column contiguous) and the fabric's wiring as one flat
//! `(row, port) -> where it leads` table, so a hop is two array reads.

use crate::routing::{LftSet, NO_ROUTE};
use crate::topology::{Fabric, NodeKind, PortIdx, NO_PEER};
use rayon::prelude::*;

/// Where an output port of a switch leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Into the switch of this row.
    Row(usize),
    /// Out of the switches, to this (CA or router) port, by global port index.
    Leaf(PortIdx),
    /// The port number is beyond the switch's ports.
    Beyond,
    /// The port has no cable.
    Uncabled,
}

const BEYOND: u32 = u32::MAX;
const UNCABLED: u32 = u32::MAX - 1;
const LEAF: u32 = 1 << 31;

/// LID-major LFTs and the switch wiring as flat arrays (see the module documentation).
pub(crate) struct Walk {
    nsw: usize,
    /// `cols[lid * nsw + row]`: the output port of `row` for `lid`.
    cols: Vec<u8>,
    /// ports per row in `hop` (largest switch port number + 1)
    width: usize,
    /// `hop[row * width + port]`, encoded: a row, `LEAF | port index`, `BEYOND`, `UNCABLED`
    hop: Vec<u32>,
    /// global port index of port 0 of each row's switch
    first_port: Vec<PortIdx>,
}

impl Walk {
    /// Transpose `lfts` and flatten the wiring of its switches.
    pub(crate) fn new(fabric: &Fabric, lfts: &LftSet) -> Walk {
        let nsw = lfts.switches.len();
        let stride = lfts.stride;
        let mut cols = vec![NO_ROUTE; stride * nsw];
        const BLOCK: usize = 64;
        if nsw > 0 {
            cols.par_chunks_mut(nsw * BLOCK).enumerate().for_each(|(b, chunk)| {
                let lid0 = b * BLOCK;
                let n = chunk.len() / nsw;
                for r in 0..nsw {
                    let row = &lfts.ports[r * stride + lid0..r * stride + lid0 + n];
                    for (k, &p) in row.iter().enumerate() {
                        chunk[k * nsw + r] = p;
                    }
                }
            });
        }
        let width = lfts
            .switches
            .iter()
            .map(|&s| fabric.node(s).nports as usize + 1)
            .max()
            .unwrap_or(1);
        let mut hop = vec![BEYOND; nsw * width];
        let mut first_port = Vec::with_capacity(nsw);
        for (r, &sw) in lfts.switches.iter().enumerate() {
            first_port.push(fabric.port_index(sw, 0));
            for port in 1..=fabric.node(sw).nports {
                let peer = fabric.ports[fabric.port_index(sw, port) as usize].peer;
                hop[r * width + port as usize] = if peer == NO_PEER {
                    UNCABLED
                } else {
                    let pn = fabric.ports[peer as usize].node;
                    if fabric.node(pn).kind == NodeKind::Switch {
                        lfts.row_of[pn as usize]
                    } else {
                        debug_assert!(peer < LEAF);
                        LEAF | peer
                    }
                };
            }
        }
        Walk {
            nsw,
            cols,
            width,
            hop,
            first_port,
        }
    }

    /// The output port of `row` for `lid`.
    #[inline]
    pub(crate) fn port(&self, row: usize, lid: u16) -> u8 {
        self.cols[lid as usize * self.nsw + row]
    }

    /// Where output port `port` (not 0, not [`NO_ROUTE`]) of `row` leads.
    #[inline]
    pub(crate) fn step(&self, row: usize, port: u8) -> Step {
        let h = if (port as usize) < self.width {
            self.hop[row * self.width + port as usize]
        } else {
            BEYOND
        };
        match h {
            BEYOND => Step::Beyond,
            UNCABLED => Step::Uncabled,
            h if h & LEAF != 0 => Step::Leaf(h & !LEAF),
            h => Step::Row(h as usize),
        }
    }

    /// Global port index of output port `port` of `row` (the channel it sends on).
    #[inline]
    pub(crate) fn channel(&self, row: usize, port: u8) -> PortIdx {
        self.first_port[row] + port as PortIdx
    }
}
