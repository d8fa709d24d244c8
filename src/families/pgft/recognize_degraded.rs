//! Recognising a degraded PGFT (k-ary n-tree, two-level fat-tree): the intact family minus
//! some switch-to-switch cables and whole switches, leaves included (a dead leaf takes its
//! hosts with it).
//!
//! The intact recogniser ([`crate::families::pgft::recognize`]) demands that every switch of a level has the
//! same numbers of children, parents and parallel cables; one cut cable breaks that. This
//! one labels the survivors with the same canonical coordinates the intact recogniser would
//! give them, from what a cut cable or a dead switch cannot hide:
//! 1. **Levels**: leaves are the switches with hosts, and host-less switches whose two or
//!    more switch neighbours are all parents of one leaf with hosts (an empty rack,
//!    [`empty_leaves`]) (level 1); every other switch is one level above the nearest lower
//!    one (hop distance from the leaves). Every cable must join
//!    neighbouring levels. A middle switch that lost all its down cables, a leaf without
//!    hosts left with one uplink or a management host on an upper switch do not fit this
//!    rule and are refused.
//! 2. **Parameters**: the most children, parents and parallel cables any switch of a level
//!    has (a fault only removes some; the switches it spares keep the family's numbers), and
//!    m₁ as the intact recogniser takes it. Every level must have at most the family's count
//!    of switches and at least half of them alive. A dead leaf is seen only as a level-2
//!    subtree with fewer leaves than its siblings: m₂ is the most any level-2 switch has, so
//!    a subtree must keep all its leaves somewhere in the tree (a two-level tree whose every
//!    top lost the same leaf reads as a smaller intact tree).
//! 3. **Subtrees** (a digits): in a PGFT the level-l subtrees are disjoint sets of leaves, so
//!    the leaves joined by any level-l switch's surviving down paths belong to one subtree
//!    (union of overlapping sets, robust to any cut that leaves each subtree one copy of
//!    its switches). Numbered by their first leaf, as intact; a level-2 subtree short of
//!    leaves gets dead leaves at its highest positions (the dead leaf's GUID is gone, so
//!    the surviving leaves after it in GUID order move down by one).
//! 4. **Copies** (b digits): level-l switches of one copy class share every top-level
//!    ancestor, and classes have disjoint tops; switches sharing any surviving top ancestor
//!    are one class. A class's B is its children's B plus b·W_{l−1}, the classes above one
//!    child class numbered by their first switch (GUID order) as intact; classes that are
//!    missing altogether (a dead top switch is a class of its own) take the highest b.
//!
//! Parallel cables are numbered in the lower switch's port order, the surviving ones first;
//! a leaf that lost an uplink numbers its hosts 0, 1, … in port order (its empty port may
//! have been the uplink). Every surviving cable is then checked against the labels, and the
//! holes — canonical cables without a cable, positions without a switch — are the faults.
//! With cut cables only the labels are the intact ones, so routes that avoid the faults are
//! unchanged; a dead switch whose copy class dies with it (a top switch) may renumber the
//! surviving classes of its level (their order is GUID order, and the dead GUID is gone).

use crate::families::pgft::model::{PgftLayout, PgftParams, MAX_LEVELS};
use crate::families::pgft::model_holes::PgftHoles;
use crate::families::pgft::recognize::{Levels, Neighbours};
use crate::families::Family;
use crate::recognize::graph::SwitchGraph;
use crate::recognize::Fail;
use crate::recognize::{Degraded, Fault};
use crate::topology::degraded::{Holes, DEAD};
use crate::topology::{Endpoint, NodeKind};

const NONE: u32 = u32::MAX;

/// Union-find with path halving.
struct Dsu(Vec<u32>);

impl Dsu {
    fn new(n: usize) -> Dsu {
        Dsu((0..n as u32).collect())
    }
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            self.0[x as usize] = self.0[self.0[x as usize] as usize];
            x = self.0[x as usize];
        }
        x
    }
    fn union(&mut self, a: u32, b: u32) {
        let (a, b) = (self.find(a), self.find(b));
        if a != b {
            self.0[a.max(b) as usize] = a.min(b);
        }
    }
}

fn ones(v: &[u64]) -> impl Iterator<Item = u32> + '_ {
    v.iter().enumerate().flat_map(|(i, &w)| {
        (0..64u32)
            .filter(move |b| w >> b & 1 == 1)
            .map(move |b| i as u32 * 64 + b)
    })
}

/// Switches without hosts that are leaves all the same (an empty rack): their switch
/// neighbours, two or more, are all parents of one leaf with hosts. The intact recogniser
/// asks for the same parents as a sibling leaf; a cut cable of the empty leaf or of its
/// siblings makes that a subset. An upper switch never qualifies: its neighbours lie in
/// two or more subtrees (a parent set lies in one), unless cuts left it a single one — then
/// it is taken for what it looks like, which recognition reports as an upper switch.
fn empty_leaves(g: &SwitchGraph<'_>, leaves: &[u32]) -> Vec<u32> {
    let sets: Vec<Vec<u32>> = leaves.iter().map(|&s| g.neighbour_set(s)).collect();
    // the leaf parent sets every switch is in
    let mut holding: Vec<Vec<u32>> = vec![Vec::new(); g.len()];
    for (i, set) in sets.iter().enumerate() {
        for &t in set {
            holding[t as usize].push(i as u32);
        }
    }
    (0..g.len() as u32)
        .filter(|&s| g.hosts_of(s).is_empty())
        .filter(|&s| {
            let mine = g.neighbour_set(s);
            mine.len() >= 2
                && holding[mine[0] as usize]
                    .iter()
                    .any(|&i| mine.iter().all(|t| sets[i as usize].binary_search(t).is_ok()))
        })
        .collect()
}

/// Recognise a degraded PGFT (module doc). `family`: the family asked for (k-ary or
/// two-level names the fabric so; `None` names a k-ary n-tree `kary`, others `pgft`).
pub(crate) fn pgft(g: &SwitchGraph<'_>, family: Option<Family>) -> Result<Degraded, Fail> {
    let lv = levels(g)?;
    let (params, compressed) = parameters(g, &lv)?;
    let sub = subtree_digits(&lv, &params)?;
    let copy = copy_digits(g, &lv, &params)?;
    layout(g, &params, &lv.level, &sub, &copy, compressed, family)
}

/// Step 1: leaves (with hosts, or empty racks) at level 1, every other switch one above
/// its hop distance from them; refuses an unreachable switch, a tree of one level or more
/// than a PGFT has, and a cable that does not join neighbouring levels.
fn levels(g: &SwitchGraph<'_>) -> Result<Levels, Fail> {
    let n = g.len();
    let mut leaves0: Vec<u32> = (0..n as u32).filter(|&s| !g.hosts_of(s).is_empty()).collect();
    if leaves0.is_empty() {
        return Err(Fail::counts("no switch has hosts".into()));
    }
    leaves0.extend(empty_leaves(g, &leaves0));
    leaves0.sort_unstable();
    let dist = g.distances(&leaves0);
    let mut level = vec![0u32; n];
    for s in 0..n {
        if dist[s] == u32::MAX {
            return Err(Fail::structure(format!(
                "switch {} is not connected to the hosts' switches",
                g.name(s as u32)
            )));
        }
        level[s] = dist[s] + 1;
    }
    let h = *level.iter().max().expect("switches");
    if h < 2 || h as usize > MAX_LEVELS {
        return Err(Fail::counts(format!(
            "{h} switch levels; a degraded PGFT here has 2..={MAX_LEVELS}"
        )));
    }
    crate::families::pgft::recognize::check_adjacent_levels(g, &level)?;
    let (parents, children) = crate::families::pgft::recognize::parents_and_children(g, &level);
    Ok(Levels {
        level,
        h,
        parents,
        children,
    })
}

/// Step 2: the most children, parents and parallel cables any switch of a level has (a
/// fault only removes some), m₁ from the leaves' ports; every level holds at most the
/// family's switches and at least half of them. Also whether hosts are compressed into
/// slots 0, 1, … per leaf.
fn parameters(g: &SwitchGraph<'_>, lv: &Levels) -> Result<(PgftParams, bool), Fail> {
    let f = g.fabric;
    let (h, parents, children) = (lv.h, &lv.parents, &lv.children);
    let (mut m, mut w, mut p) = ([0u32; MAX_LEVELS], [1u32; MAX_LEVELS], [1u32; MAX_LEVELS]);
    for l in 2..=h {
        let i = l as usize - 1;
        m[i] = lv
            .at(l)
            .iter()
            .map(|&s| children[s as usize].len() as u32)
            .max()
            .unwrap_or(0);
        w[i] = lv
            .at(l - 1)
            .iter()
            .map(|&s| parents[s as usize].len() as u32)
            .max()
            .unwrap_or(1);
        p[i] = lv
            .at(l - 1)
            .iter()
            .flat_map(|&s| parents[s as usize].iter().map(|x| x.1))
            .max()
            .unwrap_or(1);
    }
    let uplinks = w[1] * p[1];
    let leaves = lv.at(1);
    let nports = f.node(g.switches[leaves[0] as usize]).nports as u32;
    if let Some(&s) = leaves
        .iter()
        .find(|&&s| f.node(g.switches[s as usize]).nports as u32 != nports)
    {
        return Err(Fail::structure(format!(
            "leaves {} and {} are different switch models",
            g.name(leaves[0]),
            g.name(s)
        )));
    }
    let ports = nports.checked_sub(uplinks).filter(|&x| x > 0).ok_or_else(|| {
        Fail::counts(format!(
            "a leaf has {nports} ports and {uplinks} uplinks: no room for hosts"
        ))
    })?;
    let fullest = leaves.iter().map(|&s| g.hosts_of(s).len() as u32).max().unwrap_or(0);
    let compressed = fullest < ports;
    m[0] = if compressed {
        fullest.max(uplinks).min(ports).max(1)
    } else {
        ports
    };
    let params = PgftParams::from_lists(&m[..h as usize], &w[..h as usize], &p[..h as usize], None)
        .map_err(|e| Fail::counts(format!("not a valid PGFT: {e}")))?;
    for l in 1..=h {
        let (found, want) = (lv.at(l).len() as u64, params.switches_at(l));
        if found > want || 2 * found < want {
            return Err(Fail::counts(format!(
                "level {l} has {found} switches; {} has {want}",
                params.describe()
            )));
        }
    }
    Ok((params, compressed))
}

/// Step 3, the a digits (A of each switch): the subtree each switch's surviving down paths
/// reach, numbered as the intact recogniser numbers it.
fn subtree_digits(lv: &Levels, params: &PgftParams) -> Result<Vec<u32>, Fail> {
    let below = crate::families::pgft::recognize::leaf_descendants(&lv.level, lv.h, &lv.children);
    let comp = subtree_components(lv, &below)?;
    let a_of = number_subtrees(lv.h, params, &comp)?;
    Ok((0..lv.level.len())
        .map(|s| {
            let l = lv.level[s] as usize;
            let first = ones(&below[s]).next().unwrap_or(0);
            a_of[l][comp[l][first as usize] as usize]
        })
        .collect())
}

/// `comp[l][leaf]`: the level-l subtree of each leaf, named by its smallest leaf number —
/// leaves joined by one level-l switch's down paths are one subtree. Refuses a top level
/// that does not join them all.
fn subtree_components(lv: &Levels, below: &[Vec<u64>]) -> Result<Vec<Vec<u32>>, Fail> {
    let (h, nl) = (lv.h, lv.at(1).len());
    let mut comp = vec![vec![0u32; nl]; h as usize + 1];
    comp[1] = (0..nl as u32).collect();
    for l in 2..=h {
        let mut dsu = Dsu::new(nl);
        for s in lv.at(l) {
            let mut it = ones(&below[s as usize]);
            if let Some(first) = it.next() {
                it.for_each(|x| dsu.union(first, x));
            }
        }
        comp[l as usize] = (0..nl as u32).map(|x| dsu.find(x)).collect();
    }
    if comp[h as usize].iter().any(|&c| c != 0) {
        return Err(Fail::structure(
            "the top level does not join every leaf: not one fat-tree".into(),
        ));
    }
    Ok(comp)
}

/// `a_of[l][root]`: the A of each level-l subtree, top-down, the subtrees inside one
/// level-(l+1) subtree numbered by their first leaf (a level-2 subtree may miss leaves,
/// none above).
fn number_subtrees(h: u32, params: &PgftParams, comp: &[Vec<u32>]) -> Result<Vec<Vec<u32>>, Fail> {
    let nl = comp[1].len();
    let mut a_of = vec![vec![NONE; nl]; h as usize + 1];
    a_of[h as usize][0] = 0;
    for l in (1..h).rev() {
        let mut roots: Vec<(u32, u32)> = (0..nl as u32)
            .filter(|&x| comp[l as usize][x as usize] == x)
            .map(|x| (a_of[l as usize + 1][comp[l as usize + 1][x as usize] as usize], x))
            .collect();
        roots.sort_unstable();
        let ml = params.m(l + 1);
        let mut k = 0;
        while k < roots.len() {
            let pa = roots[k].0;
            let group = roots[k..].iter().take_while(|x| x.0 == pa).count();
            // leaves may be dead (the last positions of their subtree), subtrees above not
            if group as u32 > ml || (group as u32 != ml && l > 1) {
                return Err(Fail::structure(format!(
                    "a level-{} subtree holds {group} level-{l} subtrees; {} has {ml}",
                    l + 1,
                    params.describe()
                )));
            }
            for (i, &(_, x)) in roots[k..k + group].iter().enumerate() {
                a_of[l as usize][x as usize] = pa * ml + i as u32;
            }
            k += group;
        }
    }
    Ok(a_of)
}

/// Step 4, the b digits (B of each switch), bottom-up: per level the copy classes, then
/// their numbers above each child class.
fn copy_digits(g: &SwitchGraph<'_>, lv: &Levels, params: &PgftParams) -> Result<Vec<u32>, Fail> {
    let h = lv.h;
    let ntops = lv.at(h).len();
    let above = crate::families::pgft::recognize::top_ancestors(&lv.level, h, &lv.parents);
    let mut copy = vec![NONE; lv.level.len()];
    for s in lv.at(1) {
        copy[s as usize] = 0;
    }
    let mut w_below = 1u32; // W_{l−1}
    for l in 2..=h {
        let sw = lv.at(l);
        let (mut dsu, classes) = copy_classes(g, &lv.children, &sw, &above, ntops, &copy)?;
        let wl = params.w(l);
        let b_of = number_classes(params, l, &classes, sw.len(), w_below)?;
        for (i, &s) in sw.iter().enumerate() {
            copy[s as usize] = b_of[dsu.find(i as u32) as usize];
        }
        w_below *= wl;
    }
    Ok(copy)
}

/// A copy class: (child B, first switch, root in the union-find over one level).
type Class = (u32, u32, u32);

/// The copy classes of one level's switches `sw`: those sharing any surviving top
/// ancestor are one (union-find over the indices into `sw`), as (child B, first switch,
/// root) sorted; refuses a switch whose children, or whose class's children, differ in B.
fn copy_classes(
    g: &SwitchGraph<'_>,
    children: &Neighbours,
    sw: &[u32],
    above: &[Vec<u64>],
    ntops: usize,
    copy: &[u32],
) -> Result<(Dsu, Vec<Class>), Fail> {
    let mut dsu = Dsu::new(sw.len());
    let mut first_with = vec![NONE; ntops];
    for (i, &s) in sw.iter().enumerate() {
        for t in ones(&above[s as usize]) {
            match first_with[t as usize] {
                NONE => first_with[t as usize] = i as u32,
                j => dsu.union(j, i as u32),
            }
        }
    }
    let mut classes: Vec<Class> = Vec::new();
    for (i, &s) in sw.iter().enumerate() {
        let cb = copy[children[s as usize][0].0 as usize];
        if children[s as usize].iter().any(|&(c, _)| copy[c as usize] != cb) {
            return Err(Fail::structure(format!(
                "the children of {} are of different copies; not a PGFT with faults",
                g.name(s)
            )));
        }
        let root = dsu.find(i as u32);
        match classes.iter_mut().find(|c| c.2 == root) {
            Some(c) if c.0 != cb => {
                return Err(Fail::structure(format!(
                    "{} shares top switches with a switch above other children; not a PGFT with faults",
                    g.name(s)
                )))
            }
            Some(_) => {}
            None => classes.push((cb, s, root)),
        }
    }
    classes.sort_unstable();
    Ok((dsu, classes))
}

/// The B of each class root of level `l`: its child class's B plus b·W_{l−1}, b counting
/// the classes above one child class in order (missing classes take the highest b).
fn number_classes(params: &PgftParams, l: u32, classes: &[Class], nsw: usize, w_below: u32) -> Result<Vec<u32>, Fail> {
    let wl = params.w(l);
    let mut b_of = vec![NONE; nsw];
    let mut k = 0;
    while k < classes.len() {
        let cb = classes[k].0;
        let group = classes[k..].iter().take_while(|x| x.0 == cb).count();
        if group as u32 > wl {
            return Err(Fail::structure(format!(
                "level {l}: {group} copy classes above one class of level {}; {} has {wl}",
                l - 1,
                params.describe()
            )));
        }
        for (b, c) in classes[k..k + group].iter().enumerate() {
            b_of[c.2 as usize] = cb + b as u32 * w_below;
        }
        k += group;
    }
    Ok(b_of)
}

/// Slots, ports, hosts and faults from the labels (module doc, last paragraph).
fn layout(
    g: &SwitchGraph<'_>,
    params: &PgftParams,
    level: &[u32],
    sub: &[u32],
    copy: &[u32],
    compressed: bool,
    family: Option<Family>,
) -> Result<Degraded, Fail> {
    let f = g.fabric;
    let (n, h) = (g.len(), params.levels);
    let mut offset = vec![0u32];
    for l in 1..=h {
        offset.push(offset[l as usize - 1] + params.switches_at(l) as u32);
    }
    let mut w_prod = vec![1u32; h as usize + 1];
    for l in 1..=h {
        w_prod[l as usize] = w_prod[l as usize - 1] * params.w(l);
    }
    let mut slot_of = vec![NONE; n];
    let mut switches = vec![DEAD; offset[h as usize] as usize];
    for s in 0..n {
        let l = level[s];
        let i = sub[s] as u64 * w_prod[l as usize] as u64 + copy[s] as u64;
        let gi = offset[l as usize - 1] as u64 + i;
        if i >= params.switches_at(l) || switches[gi as usize] != DEAD {
            return Err(Fail::geometry(format!(
                "{} gets a label another switch has",
                g.name(s as u32)
            )));
        }
        switches[gi as usize] = g.switches[s];
        slot_of[s] = gi as u32;
    }
    let (up_off, down_off, mut up, mut down) = params.port_tables();
    let mut hosts: Vec<(u32, Endpoint)> = Vec::new();
    for s in 0..n as u32 {
        let l = level[s as usize];
        let node = g.switches[s as usize];
        let gi = slot_of[s as usize] as usize;
        let mut seen: Vec<(u32, u32)> = Vec::new();
        let own_ups = g.neighbours(s).iter().filter(|&&t| level[t as usize] == l + 1).count() as u32;
        let per_leaf = compressed || own_ups < params.up_ports(l);
        let mut slot = 0;
        for port in 1..=f.node(node).nports {
            let peer = f.peer(node, port);
            let parent = peer.and_then(|(t, pu)| {
                let ti = g.sw_of[t as usize];
                (ti != NONE && level[ti as usize] == l + 1).then_some((ti, pu))
            });
            match parent {
                Some((ti, pu)) => {
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
                    let lu = l + 1;
                    let (pa, pb) = (sub[ti as usize], copy[ti as usize]);
                    if pa != sub[s as usize] / params.m(lu) || pb % w_prod[l as usize] != copy[s as usize] {
                        return Err(Fail::geometry(format!(
                            "{} is cabled to {}, which its labels do not allow",
                            g.name(s),
                            g.name(ti)
                        )));
                    }
                    let u = pb / w_prod[l as usize] + params.w(lu) * c;
                    up[(up_off[gi] + u) as usize] = port;
                    let k = (sub[s as usize] % params.m(lu)) * params.p(lu) + c;
                    down[(down_off[slot_of[ti as usize] as usize] + k) as usize] = pu;
                }
                None if l == 1 => {
                    if let Some((ca, cp)) = peer.filter(|(t, _)| f.node(*t).kind != NodeKind::Switch) {
                        if slot >= params.m(1) {
                            return Err(Fail::structure(format!(
                                "leaf {} has more hosts than host slots ({})",
                                g.name(s),
                                params.m(1)
                            )));
                        }
                        hosts.push((sub[s as usize] * params.m(1) + slot, Endpoint { node: ca, port: cp }));
                        down[(down_off[gi] + slot) as usize] = port;
                        slot += 1;
                    } else if !per_leaf {
                        slot += 1;
                    }
                }
                None => {}
            }
        }
    }
    hosts.sort_by_key(|x| x.0);
    let twolevel = family == Some(Family::Twolevel);
    let holes = PgftHoles {
        layout: PgftLayout {
            params: PgftParams {
                hosts_per_leaf: None,
                ..*params
            },
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
            twolevel,
            slot_balance: Vec::new(),
        },
    };
    faults(holes, family)
}

/// The holes as faults, and the family's name; `Err("intact")` when there are none.
fn faults(holes: PgftHoles, family: Option<Family>) -> Result<Degraded, Fail> {
    let l = &holes.layout;
    let params = &l.params;
    let h = params.levels;
    let mut faults = Vec::new();
    let mut cut = 0usize;
    for s in 0..l.switches.len() as u32 {
        let (lv, a, b) = l.coords(s);
        if l.switches[s as usize] == DEAD {
            faults.push(Fault::DeadSwitch {
                position: holes.position(s),
            });
            continue;
        }
        if lv == h {
            continue;
        }
        let wl: u32 = (1..=lv).map(|j| params.w(j)).product();
        for u in 0..params.up_ports(lv) {
            let (pb, _c) = (u % params.w(lv + 1), u / params.w(lv + 1));
            let t = holes.slot(lv + 1, a / params.m(lv + 1), b + pb * wl);
            if l.switches[t as usize] != DEAD && holes.up(s, u) == 0 {
                cut += 1;
                faults.push(Fault::MissingTreeCable {
                    lower: l.switches[s as usize],
                    lower_pos: holes.position(s),
                    upper: l.switches[t as usize],
                    upper_pos: holes.position(t),
                });
            }
        }
    }
    if faults.is_empty() {
        return Err(Fail::structure("intact".into()));
    }
    let dead = faults.len() - cut;
    let dead_leaves = l.level(1).iter().filter(|&&n| n == DEAD).count() as u32;
    let k = params.m(h);
    let is_kary = (1..=h).all(|j| params.m(j) == k && params.p(j) == 1 && (j == 1 || params.w(j) == k));
    if family == Some(Family::Twolevel) && h != 2 {
        return Err(Fail::counts(format!(
            "with its faults this is {}: {h} levels, not a two-level fat-tree",
            params.describe()
        )));
    }
    let (fam, name, order) = match family {
        Some(Family::Twolevel) => (
            Family::Twolevel,
            crate::families::twolevel::model::TwolevelParams::from_pgft(params)
                .map(|t| t.describe())
                .unwrap_or_else(|| params.describe()),
            h,
        ),
        Some(Family::Kary) | None if is_kary => (Family::Kary, format!("{k}-ary {h}-tree"), k),
        Some(Family::Kary) => {
            return Err(Fail::structure(format!(
                "with its faults this is {}, not a k-ary n-tree",
                params.describe()
            )))
        }
        _ => (Family::Pgft, params.describe(), h),
    };
    Ok(Degraded {
        family: fam,
        order,
        description: format!(
            "{} {name}, degraded: {cut} missing cables, {dead} dead switches{}",
            fam.long_name(),
            match dead_leaves {
                0 => String::new(),
                n => format!(
                    " ({n} of them leaves: their {} host positions are unreachable)",
                    n * params.m(1)
                ),
            }
        ),
        faults,
        holes: Holes::Pgft(holes),
    })
}
