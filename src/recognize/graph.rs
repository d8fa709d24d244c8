//! The switch graph of a fabric in flat arrays: what every family recogniser starts from.
//!
//! Switches are numbered 0..S in GUID order (ties by node id), so that every arbitrary
//! choice a recogniser makes ("the first leaf", "side 0 of a point") depends on the
//! hardware, not on the order in which a dump happened to list the nodes: the same
//! fabric read from `ibnetdiscover`, `ibnetdiscover -p` or its ibsim net file is
//! recognised with the same labels.

use super::Fail;
use crate::topology::{Endpoint, Fabric, NodeId, NodeKind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};

/// "No such index".
pub(crate) const NONE: u32 = u32::MAX;

/// Switch adjacency (one entry per cable, so parallel cables show) and host ports.
pub(crate) struct SwitchGraph<'a> {
    pub fabric: &'a Fabric,
    /// Switch index -> node id, in GUID order.
    pub switches: Vec<NodeId>,
    /// Node id -> switch index, or [`NONE`].
    pub sw_of: Vec<u32>,
    /// Neighbours of switch s: `nbr[off[s]..off[s+1]]` (switch indices, one per cable).
    pub off: Vec<u32>,
    pub nbr: Vec<u32>,
    /// Host ports of switch s: `hosts[host_off[s]..host_off[s+1]]`, ascending local port.
    pub host_off: Vec<u32>,
    pub hosts: Vec<(u8, Endpoint)>,
    /// Node labels for messages that name many nodes ([`SwitchGraph::names`]), made on
    /// first use.
    labels: std::sync::OnceLock<crate::topology::label::Labels>,
    /// While set, messages leave switches unnamed ([`SwitchGraph::quietly`]).
    quiet: AtomicBool,
    /// Messages made while quiet that differ from their named form (unnamed switches, a
    /// refusal from counts alone): a failure made since is made again before it is shown.
    inexact: AtomicUsize,
}

/// How a node is named in messages: its label ([`crate::topology::label::Labels`]: the
/// description, with GUID and LID when several nodes share it), quoted. For error paths:
/// one pass over the nodes per call.
pub(crate) fn label(fabric: &Fabric, n: NodeId) -> String {
    format!("\"{}\"", crate::topology::label::Labels::one(fabric, n))
}

impl<'a> SwitchGraph<'a> {
    /// Build the graph; `Err(reason)` when the fabric has cables no fat-tree family has
    /// (host to host, routers) or no switches at all.
    pub(crate) fn new(fabric: &'a Fabric) -> Result<SwitchGraph<'a>, String> {
        let mut switches: Vec<NodeId> = fabric.switches().collect();
        if switches.is_empty() {
            return Err("the fabric has no switches".into());
        }
        switches.sort_by_key(|&n| (fabric.node(n).guid, n));
        let mut sw_of = vec![NONE; fabric.len()];
        for (i, &n) in switches.iter().enumerate() {
            sw_of[n as usize] = i as u32;
        }
        for (id, node) in fabric.nodes.iter().enumerate() {
            let id = id as NodeId;
            if node.kind == NodeKind::Switch {
                continue;
            }
            for p in 1..=node.nports {
                let Some((peer, _)) = fabric.peer(id, p) else { continue };
                match (node.kind, fabric.node(peer).kind) {
                    (NodeKind::Router, _) => {
                        return Err(format!(
                            "router {} is cabled to {}: the fat-tree families have no routers",
                            label(fabric, id),
                            label(fabric, peer)
                        ))
                    }
                    (_, NodeKind::Switch) => {}
                    _ => {
                        return Err(format!(
                            "host {} port {p} is cabled directly to {}: hosts attach to leaf switches only",
                            label(fabric, id),
                            label(fabric, peer)
                        ))
                    }
                }
            }
        }
        let s = switches.len();
        let mut off = Vec::with_capacity(s + 1);
        let mut host_off = Vec::with_capacity(s + 1);
        // every switch port at most once: sized up front instead of grown push by push
        let ports: usize = switches.iter().map(|&n| usize::from(fabric.node(n).nports)).sum();
        let mut nbr = Vec::with_capacity(ports);
        let mut hosts = Vec::with_capacity(ports);
        off.push(0);
        host_off.push(0);
        for &n in &switches {
            for p in 1..=fabric.node(n).nports {
                let Some((peer, pp)) = fabric.peer(n, p) else { continue };
                let k = sw_of[peer as usize];
                if k != NONE {
                    nbr.push(k);
                } else {
                    hosts.push((p, Endpoint { node: peer, port: pp }));
                }
            }
            off.push(nbr.len() as u32);
            host_off.push(hosts.len() as u32);
        }
        Ok(SwitchGraph {
            fabric,
            switches,
            sw_of,
            off,
            nbr,
            host_off,
            hosts,
            labels: std::sync::OnceLock::new(),
            quiet: AtomicBool::new(false),
            inexact: AtomicUsize::new(0),
        })
    }

    /// Run `f` with messages that name no switch, and say whether a message it made (a
    /// failure's reason) differs from its named form. Why: a fabric that some family
    /// recognises discards every other family's reason, and labelling the switches in them
    /// was a sixth of recognising a small fabric; the caller makes a reason again, named,
    /// only when it shows it (docs/tree.md §2.5).
    pub(crate) fn quietly<R>(&self, f: impl FnOnce() -> R) -> (R, bool) {
        let before = self.inexact.load(Relaxed);
        let was = self.quiet.swap(true, Relaxed);
        let r = f();
        self.quiet.store(was, Relaxed);
        (r, self.inexact.load(Relaxed) != before)
    }

    /// Whether messages are being made without names ([`SwitchGraph::quietly`]): a
    /// recogniser may then refuse from counts alone, before it builds anything.
    pub(crate) fn is_quiet(&self) -> bool {
        self.quiet.load(Relaxed)
    }

    /// Note a message made quietly that differs from its named form.
    pub(crate) fn inexact(&self) {
        self.inexact.fetch_add(1, Relaxed);
    }

    /// Number of switches.
    pub(crate) fn len(&self) -> usize {
        self.switches.len()
    }

    /// Neighbour switches of s (one entry per cable).
    #[inline]
    pub(crate) fn neighbours(&self, s: u32) -> &[u32] {
        &self.nbr[self.off[s as usize] as usize..self.off[s as usize + 1] as usize]
    }

    /// Host ports of s as (local port, host endpoint), ascending local port.
    #[inline]
    pub(crate) fn hosts_of(&self, s: u32) -> &[(u8, Endpoint)] {
        &self.hosts[self.host_off[s as usize] as usize..self.host_off[s as usize + 1] as usize]
    }

    /// Number of cables from s to other switches.
    #[inline]
    pub(crate) fn degree(&self, s: u32) -> usize {
        (self.off[s as usize + 1] - self.off[s as usize]) as usize
    }

    /// Node label of switch s for messages.
    pub(crate) fn name(&self, s: u32) -> String {
        if self.is_quiet() {
            self.inexact();
            return String::new();
        }
        // one node alone: every recogniser that gives up names a node or two, and
        // labelling the whole fabric for them was most of its time on a small fabric
        label(self.fabric, self.switches[s as usize])
    }

    /// Node labels of switches `list` for one message, each quoted.
    pub(crate) fn names(&self, list: &[u32]) -> Vec<String> {
        if self.is_quiet() {
            self.inexact();
            return vec![String::new(); list.len()];
        }
        if list.len() <= 4 {
            return list.iter().map(|&s| self.name(s)).collect();
        }
        let labels = self
            .labels
            .get_or_init(|| crate::topology::label::Labels::new(self.fabric));
        list.iter()
            .map(|&s| format!("\"{}\"", labels.get(self.switches[s as usize])))
            .collect()
    }

    /// Every family cables two switches at most once: the first pair joined by more than
    /// one cable is a structural failure.
    pub(crate) fn require_single_cables(&self) -> Result<(), Fail> {
        let mut seen = vec![NONE; self.len()];
        for s in 0..self.len() as u32 {
            for &t in self.neighbours(s) {
                if seen[t as usize] == s {
                    return Err(Fail::structure(format!(
                        "switches {} and {} are joined by more than one cable",
                        self.name(s),
                        self.name(t)
                    )));
                }
                seen[t as usize] = s;
            }
        }
        Ok(())
    }

    /// Breadth-first distances (in switch hops) from a set of sources; `NONE` = unreachable.
    pub(crate) fn distances(&self, sources: &[u32]) -> Vec<u32> {
        let mut dist = vec![NONE; self.len()];
        let mut queue = Vec::with_capacity(self.len());
        for &s in sources {
            if dist[s as usize] == NONE {
                dist[s as usize] = 0;
                queue.push(s);
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            for &t in self.neighbours(s) {
                if dist[t as usize] == NONE {
                    dist[t as usize] = dist[s as usize] + 1;
                    queue.push(t);
                }
            }
        }
        dist
    }

    /// Sorted distinct neighbour list of s (for grouping switches with equal neighbourhoods).
    pub(crate) fn neighbour_set(&self, s: u32) -> Vec<u32> {
        let mut v = self.neighbours(s).to_vec();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Host slots of a leaf: (slot j, host endpoint), slot = rank of the leaf port among
    /// the leaf's host ports. Why rank: a partly populated leaf then fills slots from 0,
    /// and the slot order follows the port order the installers see on the switch.
    pub(crate) fn host_slots(&self, s: u32) -> impl Iterator<Item = (u32, Endpoint)> + '_ {
        self.hosts_of(s).iter().enumerate().map(|(j, &(_, ep))| (j as u32, ep))
    }
}

/// Group items by a key vector: returns groups (item lists, in item order) ordered by
/// their first item. Used to find "twins", switches with identical neighbourhoods.
pub(crate) fn group_by_key(keys: &[(u32, Vec<u32>)]) -> Vec<Vec<u32>> {
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by(|&a, &b| keys[a].1.cmp(&keys[b].1).then(keys[a].0.cmp(&keys[b].0)));
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut i = 0;
    while i < order.len() {
        let mut j = i;
        let mut g = Vec::new();
        while j < order.len() && keys[order[j]].1 == keys[order[i]].1 {
            g.push(keys[order[j]].0);
            j += 1;
        }
        groups.push(g);
        i = j;
    }
    groups.sort_by_key(|g| g[0]);
    groups
}
