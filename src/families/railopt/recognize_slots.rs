//! Host slots of a rail-optimised fabric in server order. d-mod-k picks a leaf's uplink
//! by the destination's slot, so traffic that is a shift in *slot* order is
//! conflict-free. A leaf numbered in port order therefore favours whatever order the
//! ports were cabled in, and that order can differ from leaf to leaf. GPU collectives
//! number ranks by server: rail r of server s talks to rail r of server s+i. Giving every
//! server the same slot on each of its unit's leaves (its position in the unit) makes
//! those shifts slot shifts on every rail, however the cables were plugged
//! (docs/railopt.md §5). A leaf whose HCAs do not fit (a server of another unit, a
//! position beyond the slots) keeps its port order.

use crate::families::pgft::model::{PgftLayout, COUNTED};
use crate::families::railopt::model::RailFabric;
use crate::guid::FxMap as HashMap;
use crate::topology::{Endpoint, Fabric, NodeId};

/// A leaf of no rail.
const NO_RAIL: u32 = u32::MAX;

/// Renumber the host slots of every leaf of `l` by server position, where the fabric is
/// rail-optimised and the leaf's hosts allow it; other hosts (management) take the free
/// slots in their old order.
pub(crate) fn server_order(fabric: &Fabric, l: &mut PgftLayout) {
    let Some(rf) = RailFabric::of(fabric) else { return };
    let mut position: HashMap<Endpoint, (u32, u32)> = HashMap::default();
    for (u, unit) in rf.units.iter().enumerate() {
        for (k, &s) in unit.servers.iter().enumerate() {
            for h in &rf.servers[s as usize].hcas {
                position.insert(h.endpoint, (u as u32, k as u32));
            }
        }
    }
    let m1 = l.params.m(1);
    // a unit as large as a leaf leaves no index to idle
    let rail = if rf.units.iter().all(|u| (u.servers.len() as u32) < m1) {
        rail_of_leaf(&rf, l)
    } else {
        Vec::new()
    };
    // no rail leaf gives no index of its own: the slots keep their counted ones
    if rail.iter().any(|&r| r != NO_RAIL) {
        l.slot_balance = vec![COUNTED; rail.len() * m1 as usize];
    }
    let mut by_leaf: Vec<Vec<usize>> = vec![Vec::new(); l.params.switches_at(1) as usize];
    for (i, &d) in l.host_pos.iter().enumerate() {
        by_leaf[(d / m1) as usize].push(i);
    }
    for (leaf, hosts) in by_leaf.iter().enumerate() {
        let Some((slots, servers)) = leaf_slots(hosts, &l.hosts, &position, m1) else {
            continue;
        };
        let base = l.down_off[leaf] as usize;
        let ports: Vec<u8> = hosts
            .iter()
            .map(|&i| l.down[base + (l.host_pos[i] % m1) as usize])
            .collect();
        l.down[base..base + m1 as usize].fill(0);
        for ((&i, &slot), port) in hosts.iter().zip(&slots).zip(ports) {
            l.host_pos[i] = leaf as u32 * m1 + slot;
            l.down[base + slot as usize] = port;
        }
        let leaf_rail = rail.get(leaf).copied().unwrap_or(NO_RAIL);
        if let Some(own) = rail_balance(&servers, &slots, m1, leaf_rail) {
            let first = leaf * m1 as usize;
            for (&slot, b) in slots.iter().zip(own) {
                l.slot_balance[first + slot as usize] = b;
            }
        }
    }
    let mut order: Vec<usize> = (0..l.hosts.len()).collect();
    order.sort_by_key(|&i| l.host_pos[i]);
    l.hosts = order.iter().map(|&i| l.hosts[i]).collect();
    l.host_pos = order.iter().map(|&i| l.host_pos[i]).collect();
}

/// The rail of each leaf of `l` in its unit ([`NO_RAIL`] for a leaf no unit has as a
/// rail's).
fn rail_of_leaf(rf: &RailFabric, l: &PgftLayout) -> Vec<u32> {
    let leaves = l.level(1);
    let index: HashMap<NodeId, usize> = leaves.iter().enumerate().rev().map(|(i, &n)| (n, i)).collect();
    let mut rail = vec![NO_RAIL; leaves.len()];
    for unit in &rf.units {
        for (r, node) in unit.rail_leaf.iter().enumerate() {
            if let Some(&i) = index.get(node) {
                rail[i] = r as u32;
            }
        }
    }
    rail
}

/// The index within its leaf that each host of a rail leaf takes for balance (`servers`:
/// which hosts are servers' HCAs, `slots`: their slots, a server's being its position):
/// a server's position with the leaf's rail index left out, the other hosts (management)
/// the indices left, the rail's first. Leaves of one rail idle the same up index, so a
/// GPU-order shift (a slot shift on every rail) stays conflict-free; leaves of different
/// rails idle different ones, so a source leaf's up ports carry nearly equal shares
/// (docs/tree.md §1.4). `None` for a leaf of no rail, or one whose servers do not fit.
fn rail_balance(servers: &[bool], slots: &[u32], m1: u32, rail: u32) -> Option<Vec<u32>> {
    if rail == NO_RAIL {
        return None;
    }
    let mut taken = vec![false; m1 as usize];
    let mut own = vec![COUNTED; slots.len()];
    for (k, _) in servers.iter().enumerate().filter(|x| *x.1) {
        let b = slots[k] + u32::from(slots[k] >= rail);
        *taken.get_mut(b as usize)? = true;
        own[k] = b;
    }
    let mut free = (0..m1).filter(|&b| !taken[b as usize]);
    for (k, _) in servers.iter().enumerate().filter(|x| !*x.1) {
        own[k] = free.next()?;
    }
    Some(own)
}

/// The new slot of each of a leaf's hosts (`hosts`: indices into `all`, in slot order)
/// and which of them are servers' HCAs, or `None` when server positions do not fit.
fn leaf_slots(
    hosts: &[usize],
    all: &[Endpoint],
    position: &HashMap<Endpoint, (u32, u32)>,
    m1: u32,
) -> Option<(Vec<u32>, Vec<bool>)> {
    let mut taken = vec![false; m1 as usize];
    let mut unit = None;
    let mut slots = vec![u32::MAX; hosts.len()];
    let mut servers = vec![false; hosts.len()];
    for (k, &i) in hosts.iter().enumerate() {
        let Some(&(u, pos)) = position.get(&all[i]) else {
            continue;
        };
        servers[k] = true;
        if *unit.get_or_insert(u) != u || pos >= m1 || std::mem::replace(&mut taken[pos as usize], true) {
            return None;
        }
        slots[k] = pos;
    }
    unit?;
    let mut free = (0..m1).filter(|&s| !taken[s as usize]);
    for s in slots.iter_mut().filter(|s| **s == u32::MAX) {
        *s = free.next()?;
    }
    Some((slots, servers))
}
