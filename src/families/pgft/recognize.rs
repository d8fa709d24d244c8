//! Recognising a PGFT(h; m; w; p) (`docs/families.md` §6) from its cabling alone.
//!
//! 1. **Levels**: switches with hosts are leaves (level 1) — when that fits no PGFT, the
//!    switches with the fewest hosts are tried as upper switches carrying a management
//!    host; every other switch is one level above the nearest lower one (breadth-first
//!    from the leaves). Every cable
//!    must join neighbouring levels. Hosts above the leaves are not in the rank order (no
//!    tree position); routing reaches them through their switch.
//! 2. **Parameters**: every level-l switch must have the same number m_l of children,
//!    every level-(l−1) node the same number w_l of parents, every child–parent pair the
//!    same number p_l of cables; m₁ is a leaf's ports minus its uplinks (every leaf alike).
//! 3. **Subtrees** (the a digits): a switch's subtree is the set of leaves below it;
//!    level-(l−1) subtrees inside a level-l subtree are numbered by their first leaf.
//! 4. **Copies** (the b digits): in a PGFT two level-l switches have the same copy index
//!    B exactly when they have a common top-level ancestor (the tops above (A, B) are
//!    those with B_top ≡ B mod W_l). Grouping by top-ancestor sets gives the W_l copy
//!    classes; a class's B is its children's B plus b_l·W_{l−1}, the w_l classes above
//!    one child class numbered by their first switch (GUID order).
//!
//! The labels are then checked against every cable (each parent of (A', B') at level
//! l−1 is (A' div m_l, B' + b·W_{l−1})) and handed to the layout with the canonical port
//! numbering: a leaf's host slots are its non-uplink ports in port order when the fullest
//! leaf has a host on every one of them (so a missing host leaves its slot empty instead of
//! moving the others); when the switches have more ports than any leaf uses, each leaf's
//! hosts take slots 0, 1, … in port order and m₁ is the most hosts on a leaf, raised to
//! the leaf's uplink count w₂·p₂ where the ports allow (so that d-mod-k's uplink choice
//! stays aligned with the leaves: slot j leaves on uplink j). Parallel
//! cables are numbered by the lower switch's port order on both ends. A rail-optimised
//! fabric's leaves number their hosts by server instead ([`crate::families::railopt::recognize_slots`]).
//!
//! A leaf without any host (an empty rack) is found by its cabling: it has the same
//! parents as the leaves of its subtree. A subtree whose leaves all lack hosts is not
//! recognisable from the cabling alone (its leaves look like top switches) and is refused
//! with the switch named.

use crate::families::pgft::model::{PgftLayout, PgftParams, MAX_LEVELS};
use crate::guid::{FxMap, FxSet};
use crate::recognize::graph::SwitchGraph;
use crate::recognize::Fail;
use crate::topology::{Endpoint, Layout, NodeId, NodeKind};

const NONE: u32 = u32::MAX;

/// A set of switch indices as a bitset.
fn bits(n: usize) -> Vec<u64> {
    vec![0; n.div_ceil(64)]
}

/// Per switch, the bitset of `level`-`from` switches (numbered by index order) that
/// `links[s]` reaches, step by step away from `from` across the levels in `steps`: each
/// `from` switch is its own set, every other switch is the union over its `links`.
fn closure(level: &[u32], from: u32, steps: impl Iterator<Item = u32>, links: &Neighbours) -> Vec<Vec<u64>> {
    let n = level.len();
    let ends: Vec<usize> = (0..n).filter(|&s| level[s] == from).collect();
    let mut sets: Vec<Vec<u64>> = vec![Vec::new(); n];
    for (i, &s) in ends.iter().enumerate() {
        let mut b = bits(ends.len());
        b[i / 64] |= 1 << (i % 64);
        sets[s] = b;
    }
    for l in steps {
        for s in (0..n).filter(|&s| level[s] == l) {
            let mut b = bits(ends.len());
            for &(t, _) in &links[s] {
                b.iter_mut().zip(&sets[t as usize]).for_each(|(x, y)| *x |= y);
            }
            sets[s] = b;
        }
    }
    sets
}

/// The leaves below every switch (a switch's subtree), as bitsets over the leaves (level
/// 1) numbered in switch-index order: bottom-up over the `children` lists of levels 2..=h.
pub(crate) fn leaf_descendants(level: &[u32], h: u32, children: &Neighbours) -> Vec<Vec<u64>> {
    closure(level, 1, 2..=h, children)
}

/// The top-level (level `h`) switches above every switch, as bitsets over the tops
/// numbered in switch-index order: top-down over the `parents` lists. Switches of one copy
/// class share them, which is how both recognisers find the b digits.
pub(crate) fn top_ancestors(level: &[u32], h: u32, parents: &Neighbours) -> Vec<Vec<u64>> {
    closure(level, h, (1..h).rev(), parents)
}

/// Recognise a PGFT in `g`. Leaves are the switches with hosts; when that fails, the
/// switches with the fewest hosts are taken for upper switches with a management host and
/// left out of the leaves, step by step (the first failure is the one reported).
pub(crate) fn recognize(g: &SwitchGraph<'_>) -> Result<Layout, Fail> {
    let n = g.len() as u32;
    let mut counts: Vec<usize> = (0..n).map(|s| g.hosts_of(s).len()).filter(|&c| c > 0).collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.is_empty() {
        return Err(Fail::counts("no switch has hosts".into()));
    }
    let mut first = None;
    for &t in &counts {
        let mut leaves: Vec<u32> = (0..n).filter(|&s| g.hosts_of(s).len() >= t).collect();
        if uneven_leaves(g, &leaves) {
            continue;
        }
        // a leaf without hosts (an empty rack) is cabled exactly like the leaves of its
        // subtree: the same parents. Levelled from the hosts it would sit two levels up.
        let parents: FxSet<Vec<u32>> = leaves.iter().map(|&s| g.neighbour_set(s)).collect();
        leaves.extend((0..n).filter(|&s| g.hosts_of(s).is_empty() && parents.contains(&g.neighbour_set(s))));
        leaves.sort_unstable();
        match with_leaves(g, leaves) {
            Ok(layout) => return Ok(layout),
            Err(e) => {
                first.get_or_insert(e);
            }
        }
    }
    // every attempt refused from counts (only ever without names: reason made again)
    Err(first.unwrap_or_else(|| Fail::counts(String::new())))
}

/// Without names ([`SwitchGraph::quietly`]): whether these leaves differ in their
/// number of switch cables, which no PGFT's leaves do (each has w₂·p₂ up-cables and
/// none else to switches), so the attempt is refused before its levels are built.
fn uneven_leaves(g: &SwitchGraph<'_>, leaves: &[u32]) -> bool {
    let uneven = g.is_quiet() && leaves.iter().any(|&s| g.degree(s) != g.degree(leaves[0]));
    if uneven {
        g.inexact();
    }
    uneven
}

/// Recognise the PGFT whose leaves are `leaves` (the module doc's four steps, then the
/// canonical port numbering).
fn with_leaves(g: &SwitchGraph<'_>, leaves: Vec<u32>) -> Result<Layout, Fail> {
    let lv = Levels::from_leaves(g, leaves)?;
    let (params, compressed) = parameters(g, &lv)?;
    let sub = subtree_digits(&lv, &params)?;
    let copy = copy_digits(g, &lv, &params)?;
    let labelled = Labelled::place(g, &lv, &params, sub, copy, compressed)?;
    let PortTables {
        up_off,
        down_off,
        up,
        down,
        mut hosts,
    } = labelled.port_tables()?;
    let (switches, offset) = (labelled.switches, labelled.offset);
    hosts.sort_by_key(|x| x.0);
    let params = PgftParams {
        hosts_per_leaf: None,
        ..params
    };
    let mut layout = PgftLayout {
        params,
        switches,
        offset,
        up,
        up_off,
        down,
        down_off,
        host_pos: hosts.iter().map(|x| x.0).collect(),
        hosts: hosts.into_iter().map(|x| x.1).collect(),
        others: Vec::new(),
        other_pos: Vec::new(),
        twolevel: false,
        slot_balance: Vec::new(),
    };
    crate::families::railopt::recognize_slots::server_order(g.fabric, &mut layout);
    Ok(Layout::Pgft(layout))
}

/// The switch levels of a candidate tree (step 1) with every switch's distinct parents and
/// children.
pub(crate) struct Levels {
    /// Level of each switch, 1 = leaf.
    pub(crate) level: Vec<u32>,
    /// The number of levels.
    pub(crate) h: u32,
    pub(crate) parents: Neighbours,
    pub(crate) children: Neighbours,
}

impl Levels {
    /// Level every switch breadth-first from `leaves`; refuses a switch out of reach, more
    /// levels than a PGFT has, or a cable that skips or stays within a level.
    fn from_leaves(g: &SwitchGraph<'_>, leaves: Vec<u32>) -> Result<Levels, Fail> {
        let n = g.len();
        let mut level = vec![0u32; n];
        let mut frontier = leaves;
        frontier.iter().for_each(|&s| level[s as usize] = 1);
        let mut h = 1;
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &s in &frontier {
                for &t in g.neighbours(s) {
                    if level[t as usize] == 0 {
                        level[t as usize] = level[s as usize] + 1;
                        next.push(t);
                    }
                }
            }
            if !next.is_empty() {
                h += 1;
            }
            frontier = next;
        }
        if let Some(s) = (0..n as u32).find(|&s| level[s as usize] == 0) {
            return Err(Fail::structure(format!(
                "switch {} is not connected to the hosts' switches",
                g.name(s)
            )));
        }
        if h as usize > MAX_LEVELS {
            return Err(Fail::counts(format!(
                "{h} switch levels; a PGFT here has at most {MAX_LEVELS}"
            )));
        }
        check_adjacent_levels(g, &level)?;
        let (parents, children) = parents_and_children(g, &level);
        Ok(Levels {
            level,
            h,
            parents,
            children,
        })
    }

    /// The switches of level `l`, in index (GUID) order.
    pub(crate) fn at(&self, l: u32) -> Vec<u32> {
        (0..self.level.len() as u32)
            .filter(|&s| self.level[s as usize] == l)
            .collect()
    }
}

/// The one value every `(switch, value)` of `vals` shares (0 when empty); else the first
/// two switches that differ, named.
fn uniform(g: &SwitchGraph<'_>, what: &str, l: u32, vals: impl Iterator<Item = (u32, u32)>) -> Result<u32, Fail> {
    let mut first: Option<(u32, u32)> = None;
    for (s, v) in vals {
        match first {
            None => first = Some((s, v)),
            Some((s0, v0)) if v0 != v => {
                return Err(Fail::structure(format!(
                    "level {l}: {} has {v0} {what} but {} has {v}; a PGFT has the same number everywhere",
                    g.name(s0),
                    g.name(s)
                )))
            }
            _ => {}
        }
    }
    Ok(first.map_or(0, |x| x.1))
}

/// Step 2: m, w and p of every level, each the same on every switch, and m₁ from the host
/// slots; checked against the switch count of every level. Also whether the leaves'
/// hosts are compressed into slots 0, 1, … (switches with more ports than any leaf uses).
fn parameters(g: &SwitchGraph<'_>, lv: &Levels) -> Result<(PgftParams, bool), Fail> {
    let (h, parents, children) = (lv.h, &lv.parents, &lv.children);
    let (mut m, mut w, mut p) = ([0u32; MAX_LEVELS], [1u32; MAX_LEVELS], [1u32; MAX_LEVELS]);
    for l in 2..=h {
        m[l as usize - 1] = uniform(
            g,
            "children",
            l,
            lv.at(l).into_iter().map(|s| (s, children[s as usize].len() as u32)),
        )?;
        w[l as usize - 1] = uniform(
            g,
            "parents",
            l - 1,
            lv.at(l - 1).into_iter().map(|s| (s, parents[s as usize].len() as u32)),
        )?;
        let pairs = lv
            .at(l - 1)
            .into_iter()
            .flat_map(|s| parents[s as usize].iter().map(move |&(_, c)| (s, c)));
        p[l as usize - 1] = uniform(g, "cables to each parent", l - 1, pairs)?;
    }
    let uplinks = if h >= 2 { w[1] * p[1] } else { 0 };
    let ports = uniform(
        g,
        "ports without uplinks",
        1,
        lv.at(1)
            .into_iter()
            .map(|s| (s, g.fabric.node(g.switches[s as usize]).nports as u32 - uplinks)),
    )?;
    // host slots: every non-uplink port when the fullest leaf fills them (a missing host
    // keeps its slot); on switches with more ports than any leaf uses, the hosts of each
    // leaf in port order
    let fullest = lv
        .at(1)
        .into_iter()
        .map(|s| g.hosts_of(s).len() as u32)
        .max()
        .unwrap_or(0);
    let compressed = fullest < ports;
    // a compressed leaf still spans at least as many slots as it has uplinks (within its
    // ports): d-mod-k sends slot j up uplink j mod (w2·p2) only when leaves are aligned to
    // the uplink count; m1 = 5 hosts under 6 uplinks would make shift wrap unaligned
    m[0] = if compressed {
        fullest.max(uplinks).min(ports).max(1)
    } else {
        ports
    };
    let params = PgftParams::from_lists(&m[..h as usize], &w[..h as usize], &p[..h as usize], None)
        .map_err(|e| Fail::counts(format!("not a valid PGFT: {e}")))?;
    for l in 1..=h {
        let found = lv.at(l).len() as u64;
        if found != params.switches_at(l) {
            return Err(Fail::counts(format!(
                "level {l} has {found} switches; {} has {}",
                params.describe(),
                params.switches_at(l)
            )));
        }
    }
    Ok((params, compressed))
}

/// Step 3, the a digits (A of each switch), top-down: the level-l subtrees (leaf sets)
/// inside each level-(l+1) subtree, numbered by their first leaf.
fn subtree_digits(lv: &Levels, params: &PgftParams) -> Result<Vec<u32>, Fail> {
    let (h, parents) = (lv.h, &lv.parents);
    let below = leaf_descendants(&lv.level, h, &lv.children);
    let mut sub = vec![NONE; lv.level.len()];
    for s in lv.at(h) {
        sub[s as usize] = 0;
    }
    for l in (1..h).rev() {
        let mut keyed: Vec<(u32, u32, Vec<u64>)> = Vec::new(); // (parent A, first leaf, set)
        for s in lv.at(l) {
            let parent_a = sub[parents[s as usize][0].0 as usize];
            let first = first_bit(&below[s as usize]);
            keyed.push((parent_a, first, below[s as usize].clone()));
        }
        keyed.sort();
        keyed.dedup();
        let ml = params.m(l + 1);
        let mut a_of = FxMap::default();
        let mut k = 0;
        while k < keyed.len() {
            let pa = keyed[k].0;
            let group: Vec<_> = keyed[k..].iter().take_while(|x| x.0 == pa).collect();
            if group.len() as u32 != ml {
                return Err(Fail::structure(format!(
                    "a level-{} subtree holds {} level-{l} subtrees; {} has {ml}",
                    l + 1,
                    group.len(),
                    params.describe()
                )));
            }
            for (a, x) in group.iter().enumerate() {
                a_of.insert(x.2.clone(), pa * ml + a as u32);
            }
            k += group.len();
        }
        for s in lv.at(l) {
            sub[s as usize] = a_of[&below[s as usize]];
        }
    }
    Ok(sub)
}

/// Step 4, the b digits (B of each switch), bottom-up: switches with the same top-level
/// ancestors are one copy class; the classes above one child class numbered by their first
/// switch.
fn copy_digits(g: &SwitchGraph<'_>, lv: &Levels, params: &PgftParams) -> Result<Vec<u32>, Fail> {
    let (h, children) = (lv.h, &lv.children);
    let above = top_ancestors(&lv.level, h, &lv.parents);
    let mut copy = vec![NONE; lv.level.len()];
    for s in lv.at(1) {
        copy[s as usize] = 0;
    }
    let mut wl_below = 1u32; // W_{l−1}
    for l in 2..=h {
        // class key: top-ancestor set; class's child B: the B of its children
        let mut classes: Vec<(u32, u32, Vec<u64>)> = Vec::new(); // (child B, first switch, key)
        for s in lv.at(l) {
            let cb = copy[children[s as usize][0].0 as usize];
            if children[s as usize].iter().any(|&(c, _)| copy[c as usize] != cb) {
                return Err(Fail::structure(format!(
                    "the children of {} are of different copies; not a PGFT",
                    g.name(s)
                )));
            }
            classes.push((cb, s, above[s as usize].clone()));
        }
        classes.sort_by(|x, y| (x.0, &x.2).cmp(&(y.0, &y.2)));
        // first switch per key decides the order among the classes of one child B
        let mut reps: Vec<(u32, u32, Vec<u64>)> = Vec::new();
        for c in classes {
            match reps.iter_mut().find(|r| r.2 == c.2) {
                Some(r) => r.1 = r.1.min(c.1),
                None => reps.push(c),
            }
        }
        reps.sort_by_key(|r| (r.0, r.1));
        let wl = params.w(l);
        let mut b_of = FxMap::default();
        let mut k = 0;
        while k < reps.len() {
            let cb = reps[k].0;
            let group: Vec<_> = reps[k..].iter().take_while(|x| x.0 == cb).collect();
            if group.len() as u32 != wl {
                return Err(Fail::structure(format!(
                    "level {l}: {} copy classes above one class of level {}; {} has {wl}",
                    group.len(),
                    l - 1,
                    params.describe()
                )));
            }
            for (b, x) in group.iter().enumerate() {
                b_of.insert(x.2.clone(), cb + b as u32 * wl_below);
            }
            k += group.len();
        }
        for s in lv.at(l) {
            copy[s as usize] = b_of[&above[s as usize]];
        }
        wl_below *= wl;
    }
    Ok(copy)
}

/// The switches labelled (A, B) and placed in the layout's order (level, A·W_l + B).
struct Labelled<'a, 'g> {
    g: &'a SwitchGraph<'g>,
    level: &'a [u32],
    params: &'a PgftParams,
    /// A and B of each switch.
    sub: Vec<u32>,
    copy: Vec<u32>,
    /// W_l for l in 0..=h.
    w_prod: Vec<u32>,
    /// Global layout index of each switch.
    slot_of: Vec<u32>,
    /// Hosts in slots 0, 1, … per leaf instead of by port ([`parameters`]).
    compressed: bool,
    /// The layout's switches and level offsets ([`PgftLayout`]).
    switches: Vec<NodeId>,
    offset: Vec<u32>,
}

impl<'a, 'g> Labelled<'a, 'g> {
    /// Place every switch at its label's slot; refuses two switches with one label.
    fn place(
        g: &'a SwitchGraph<'g>,
        lv: &'a Levels,
        params: &'a PgftParams,
        sub: Vec<u32>,
        copy: Vec<u32>,
        compressed: bool,
    ) -> Result<Self, Fail> {
        let (h, level) = (lv.h, &lv.level);
        let mut offset = vec![0u32];
        for l in 1..=h {
            offset.push(offset[l as usize - 1] + params.switches_at(l) as u32);
        }
        let mut w_prod = vec![1u32; h as usize + 1]; // W_l
        for l in 1..=h {
            w_prod[l as usize] = w_prod[l as usize - 1] * params.w(l);
        }
        let n = g.len();
        let mut slot_of = vec![NONE; n]; // global layout index of each switch
        let mut switches = vec![0; offset[h as usize] as usize];
        for s in 0..n as u32 {
            let l = level[s as usize];
            let i = sub[s as usize] * w_prod[l as usize] + copy[s as usize];
            let gi = offset[l as usize - 1] + i;
            if i >= params.switches_at(l) as u32 || switches[gi as usize] != 0 {
                return Err(Fail::geometry(format!("{} gets a label another switch has", g.name(s))));
            }
            switches[gi as usize] = g.switches[s as usize];
            slot_of[s as usize] = gi;
        }
        Ok(Labelled {
            g,
            level,
            params,
            sub,
            copy,
            w_prod,
            slot_of,
            compressed,
            switches,
            offset,
        })
    }

    /// The canonical port tables and the hosts, every cable checked against the labels.
    fn port_tables(&self) -> Result<PortTables, Fail> {
        let (up_off, down_off, up, down) = self.params.port_tables();
        let mut t = PortTables {
            up_off,
            down_off,
            up,
            down,
            hosts: Vec::new(),
        };
        for s in 0..self.g.len() as u32 {
            self.switch_ports(s, &mut t)?;
        }
        Ok(t)
    }

    /// Number the ports of switch `s` in port order: each cable to a parent (parallel
    /// cables by their order here) and, on a leaf, each host slot.
    fn switch_ports(&self, s: u32, t: &mut PortTables) -> Result<(), Fail> {
        let (g, f) = (self.g, self.g.fabric);
        let l = self.level[s as usize];
        let node = g.switches[s as usize];
        let gi = self.slot_of[s as usize] as usize;
        // cable index per parent, in this switch's port order
        let mut seen: Vec<(u32, u32)> = Vec::new();
        let mut slot = 0;
        for port in 1..=f.node(node).nports {
            let peer = f.peer(node, port);
            let parent = peer.and_then(|(t, _)| {
                let ti = g.sw_of[t as usize];
                (ti != NONE && self.level[ti as usize] == l + 1).then_some((t, ti))
            });
            match parent {
                Some((_, ti)) => {
                    let c = match seen.iter_mut().find(|x| x.0 == ti) {
                        Some(x) => {
                            x.1 += 1;
                            x.1 - 1
                        }
                        None => {
                            seen.push((ti, 1));
                            0
                        }
                    };
                    self.uplink(s, port, (ti, peer.expect("parent").1), c, t)?;
                }
                None if l == 1 => {
                    if let Some((ca, cp)) = peer.filter(|(t, _)| f.node(*t).kind != NodeKind::Switch) {
                        let d = self.sub[s as usize] * self.params.m(1) + slot;
                        t.hosts.push((d, Endpoint { node: ca, port: cp }));
                        t.down[(t.down_off[gi] + slot) as usize] = port;
                        slot += 1;
                    } else if !self.compressed {
                        slot += 1;
                    }
                }
                None => {}
            }
        }
        Ok(())
    }

    /// Cable `c` from `port` of switch `s` to port `pu` of its parent `ti`: checked against
    /// both labels, then entered as an up port of `s` and a down port of `ti`.
    fn uplink(&self, s: u32, port: u8, (ti, pu): (u32, u8), c: u32, t: &mut PortTables) -> Result<(), Fail> {
        let (params, sub, copy) = (self.params, &self.sub, &self.copy);
        let l = self.level[s as usize];
        let lu = l + 1;
        let gi = self.slot_of[s as usize] as usize;
        let tgi = self.slot_of[ti as usize];
        let (pa, pb) = (sub[ti as usize], copy[ti as usize]);
        if pa != sub[s as usize] / params.m(lu) || pb % self.w_prod[l as usize] != copy[s as usize] {
            return Err(Fail::geometry(format!(
                "{} is cabled to {}, which its labels do not allow",
                self.g.name(s),
                self.g.name(ti)
            )));
        }
        let b = pb / self.w_prod[l as usize];
        let u = b + params.w(lu) * c;
        t.up[(t.up_off[gi] + u) as usize] = port;
        let k = (sub[s as usize] % params.m(lu)) * params.p(lu) + c;
        t.down[(t.down_off[tgi as usize] + k) as usize] = pu;
        Ok(())
    }
}

/// A PGFT layout's canonical port tables ([`PgftLayout`]) and its hosts with their tree
/// positions, in the order the cabling shows them.
struct PortTables {
    up_off: Vec<u32>,
    down_off: Vec<u32>,
    up: Vec<u8>,
    down: Vec<u8>,
    hosts: Vec<(u32, Endpoint)>,
}

fn first_bit(v: &[u64]) -> u32 {
    v.iter()
        .enumerate()
        .find(|(_, &x)| x != 0)
        .map(|(i, &x)| i as u32 * 64 + x.trailing_zeros())
        .unwrap_or(NONE)
}

/// Every cable joins adjacent levels (`level[s]` ≥ 1 for every switch); else the pair
/// cabled within (or across) a level.
pub(crate) fn check_adjacent_levels(g: &SwitchGraph<'_>, level: &[u32]) -> Result<(), Fail> {
    for s in 0..g.len() as u32 {
        if let Some(&t) = g
            .neighbours(s)
            .iter()
            .find(|&&t| level[s as usize].abs_diff(level[t as usize]) != 1)
        {
            return Err(Fail::structure(format!(
                "switches {} and {} are cabled within level {}",
                g.name(s),
                g.name(t),
                level[s as usize]
            )));
        }
    }
    Ok(())
}

/// Distinct parents and children of every switch with their cable counts, sorted by
/// switch index: `(parents[s], children[s])` as `(switch, cables)`.
pub(crate) type Neighbours = Vec<Vec<(u32, u32)>>;

/// [`Neighbours`] one level up and one level down of every switch.
pub(crate) fn parents_and_children(g: &SwitchGraph<'_>, level: &[u32]) -> (Neighbours, Neighbours) {
    // one scratch list, results sized up front: grown push by push they reallocated
    // several times per switch and attempt
    let mut v: Vec<u32> = Vec::new();
    let mut grouped = |s: u32, dl: u32| -> Vec<(u32, u32)> {
        v.clear();
        v.extend(g.neighbours(s).iter().copied().filter(|&t| level[t as usize] == dl));
        v.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::with_capacity(v.len());
        for &t in &v {
            match out.last_mut() {
                Some((u, c)) if *u == t => *c += 1,
                _ => out.push((t, 1)),
            }
        }
        out
    };
    let n = g.len() as u32;
    let parents = (0..n).map(|s| grouped(s, level[s as usize] + 1)).collect();
    let children = (0..n).map(|s| grouped(s, level[s as usize].wrapping_sub(1))).collect();
    (parents, children)
}
