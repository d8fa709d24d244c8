//! d-mod-k on parallel-ports generalised fat-trees (Zahavi's D-Mod-K for real-life fat
//! trees): the route to host d depends on d only, digit by digit.
//!
//! Let u_l(d) = ⌊d / W_{l−1}⌋ mod (w_l·p_l) with W_{l−1} = Π_{j<l} w_j — divided by the
//! parents only, not the parallel cables: a level-(l−1) switch is reached by p_l cables
//! from below, and the flows on them must leave it on different up ports (dividing by
//! w_j·p_j instead measured throughput ratio 0.77 for shift on the full-bisection
//! PGFT(3; 4,4,2; 1,2,4; 1,2,2), against 1.0 with this rule). d is the host's balance
//! index: its leaf's first slot plus its count among that leaf's hosts, empty ports left
//! out (docs/tree.md §rank order: on SuperPOD-shaped fabrics with an empty port per leaf,
//! the slot itself gave shift 0.9943 against OpenSM ftree's 0.9970). Going
//! up from level l−1 to level l a flow to d takes canonical up port u_l(d): parent
//! b = u_l mod w_l, cable c = u_l div w_l. A switch whose subtree holds d goes down to
//! child a_l(d) on cable u_l(d) div w_l — the cable d's own up path uses, so all flows to d
//! descend along the reverse of d's up path and every downward link carries one
//! destination. For the k-ary n-tree (w = p·k … , p = 1) this is ⌊d / k^(l−1)⌋ mod k, the
//! same tables as [`crate::routing::hosts`]'s k-ary router (tested). Switch LIDs are routed
//! up*/down* by level, as for the other families.

use crate::families::pgft::model::COUNTED;
use crate::routing::hosts::{Entries, HostRoutes, RoutedLayout};
use crate::routing::lft::NO_ROUTE;
use crate::topology::{Fabric, NodeId, PgftLayout};

const NONE: u32 = u32::MAX;

/// Precomputed PGFT tables.
pub(crate) struct PgftRouter<'a> {
    l: &'a PgftLayout,
    /// node -> global switch index in the layout
    idx: Vec<u32>,
    /// per switch: (level, subtree A)
    at: Vec<(u32, u32)>,
    /// `sub[(l−1)·hosts + r]`: the level-l subtree (A) holding rank r's host
    sub: Vec<u32>,
    /// `child[(l−1)·hosts + r]`: a_l of rank r's position
    child: Vec<u32>,
    /// `u[(l−1)·hosts + r]`: u_l(d) for l ≥ 2 (the up port from level l−1), 0 for l = 1
    u: Vec<u32>,
}

impl<'a> PgftRouter<'a> {
    /// Tables for every rank of the layout.
    pub(crate) fn new(fabric: &Fabric, l: &'a PgftLayout) -> PgftRouter<'a> {
        let p = &l.params;
        let h = p.levels as usize;
        let mut idx = vec![NONE; fabric.len()];
        let mut at = Vec::with_capacity(l.switches.len());
        for (i, &n) in l.switches.iter().enumerate() {
            idx[n as usize] = i as u32;
            let (lv, a, _) = l.coords(i as u32);
            at.push((lv, a));
        }
        let hosts = l.hosts.len() + l.others.len();
        let (mut sub, mut child, mut u) = (vec![0; h * hosts], vec![0; h * hosts], vec![0; h * hosts]);
        let bal = balance_index(l);
        for (r, &d) in l.host_pos.iter().chain(&l.other_pos).enumerate() {
            // mixed radix m for the subtree digits; the up choices divide by Π w
            let (mut below, mut pw) = (1u64, 1u64);
            for lv in 1..=p.levels {
                let m = p.m(lv) as u64;
                let i = (lv as usize - 1) * hosts + r;
                child[i] = ((d as u64 / below) % m) as u32;
                below *= m;
                sub[i] = (d as u64 / below) as u32;
                if lv >= 2 {
                    let deg = (p.w(lv) * p.p(lv)) as u64;
                    u[i] = ((bal[r] / pw) % deg) as u32;
                    pw *= p.w(lv) as u64;
                }
            }
        }
        PgftRouter {
            l,
            idx,
            at,
            sub,
            child,
            u,
        }
    }

    /// Out port at switch `node` towards rank `rank`.
    #[inline]
    pub(crate) fn port(&self, node: NodeId, rank: u32) -> u8 {
        let s = self.idx[node as usize];
        if s == NONE {
            return NO_ROUTE;
        }
        let p = &self.l.params;
        let (lv, a) = self.at[s as usize];
        let hosts = self.l.hosts.len() + self.l.others.len();
        let i = (lv as usize - 1) * hosts + rank as usize;
        if self.sub[i] == a {
            // down to child a_l(d), on the cable d's own up path uses (hosts: cable 0)
            let c = if lv == 1 { 0 } else { self.u[i] / p.w(lv) };
            let k = self.child[i] * p.p(lv) + c;
            self.l.down[(self.l.down_off[s as usize] + k) as usize]
        } else {
            // up: canonical port u_{l+1}(d)
            let up = self.u[i + hosts];
            self.l.up[(self.l.up_off[s as usize] + up) as usize]
        }
    }

    /// [`PgftRouter::port`] for every (LID, rank, offset) of `targets`, into switch
    /// `node`'s row: the switch's level, subtree and port tables are looked up once, so
    /// an entry costs a comparison and a table read (the largest rail-optimised subnet
    /// has 195 million of them).
    pub(crate) fn fill_row(&self, node: NodeId, targets: &[(u32, u32, u16)], row: &mut [u8]) {
        let s = self.idx[node as usize];
        if s == NONE {
            targets.iter().for_each(|&(lid, _, _)| row[lid as usize] = NO_ROUTE);
            return;
        }
        let p = &self.l.params;
        let (lv, a) = self.at[s as usize];
        let hosts = self.l.hosts.len() + self.l.others.len();
        let base = (lv as usize - 1) * hosts;
        let (sub, child, u_here) = (
            &self.sub[base..base + hosts],
            &self.child[base..base + hosts],
            &self.u[base..base + hosts],
        );
        let u_up = self.u.get(base + hosts..base + 2 * hosts).unwrap_or(&[]);
        let down = &self.l.down[self.l.down_off[s as usize] as usize..];
        let up = &self.l.up[self.l.up_off[s as usize] as usize..];
        let (w, pl) = (p.w(lv), p.p(lv));
        for &(lid, r, _) in targets {
            let r = r as usize;
            row[lid as usize] = if sub[r] == a {
                let c = if lv == 1 { 0 } else { u_here[r] / w };
                down[(child[r] * pl + c) as usize]
            } else {
                up[u_up[r] as usize]
            };
        }
    }

    /// The up*/down* rank of a switch (0 = top level).
    pub(crate) fn rank(&self, node: NodeId) -> u32 {
        match self.idx[node as usize] {
            NONE => u32::MAX,
            s => self.l.params.levels - self.at[s as usize].0,
        }
    }
}

/// The balance index of every host (compute hosts, then the others): its leaf's first
/// slot plus how many hosts of that leaf sit on lower slots. A leaf's hosts are numbered
/// without its empty ports, so that a run of consecutive ranks (a shift phase) never takes
/// one up port twice; a host leaving renumbers only the hosts after it on its leaf. A host
/// given an index of its own ([`PgftLayout::slot_balance`]) takes it instead.
fn balance_index(l: &PgftLayout) -> Vec<u64> {
    let pos: Vec<u32> = l.host_pos.iter().chain(&l.other_pos).copied().collect();
    let m1 = l.params.m(1);
    let mut order: Vec<usize> = (0..pos.len()).collect();
    order.sort_unstable_by_key(|&i| pos[i]);
    let mut bal = vec![0u64; pos.len()];
    let (mut leaf, mut k) = (u32::MAX, 0u64);
    for i in order {
        if pos[i] / m1 != leaf {
            (leaf, k) = (pos[i] / m1, 0);
        }
        let own = l.slot_balance.get(pos[i] as usize).copied().unwrap_or(COUNTED);
        bal[i] = u64::from(leaf) * u64::from(m1) + if own == COUNTED { k } else { u64::from(own) };
        k += 1;
    }
    bal
}

impl HostRoutes for PgftRouter<'_> {
    fn port(&self, node: NodeId, rank: u32, _offset: u16) -> u8 {
        PgftRouter::port(self, node, rank)
    }

    fn fill_row(&self, node: NodeId, targets: &[(u32, u32, u16)], row: &mut [u8]) {
        PgftRouter::fill_row(self, node, targets, row)
    }

    fn rank(&self, node: NodeId) -> u32 {
        PgftRouter::rank(self, node)
    }
}

impl RoutedLayout for PgftLayout {
    fn host_router<'a>(&'a self, fabric: &Fabric, _lids: &crate::routing::Lids) -> crate::error::Result<Entries<'a>> {
        Ok(Entries::Rows(Box::new(PgftRouter::new(fabric, self))))
    }
}

#[cfg(test)]
mod tests {
    use crate::families::pgft::model::PgftParams;
    use crate::routing::{route, Lids};
    use crate::topology::{FamilySpec, Spec};

    /// Same cabling, same tables: the k-ary n-tree built as PGFT(n; k…k; 1,k…k; 1…1)
    /// routes exactly as the k-ary router does (shift conflict-freeness on full-bisection
    /// PGFTs, on the tables, is measured by the checker in tests/cli/pgft.rs).
    #[test]
    fn the_kary_tree_as_a_pgft_gets_the_kary_routers_tables() {
        use crate::families::kary::model::KaryParams;
        for (k, n) in [(2u32, 3u32), (3, 3), (4, 2)] {
            let kary = Spec::new(FamilySpec::Kary(KaryParams { arity: k, levels: n }))
                .build()
                .unwrap();
            let m = vec![k; n as usize];
            let mut w = vec![k; n as usize];
            w[0] = 1;
            let p = vec![1; n as usize];
            let pg = Spec::new(FamilySpec::Pgft(PgftParams::from_lists(&m, &w, &p, None).unwrap()))
                .build()
                .unwrap();
            assert_eq!(pg.fabric.link_count(), kary.fabric.link_count());
            let lids_k = Lids::plan(&kary.fabric, kary.layout.hosts(), 0).unwrap();
            let lids_p = Lids::plan(&pg.fabric, pg.layout.hosts(), 0).unwrap();
            let a = route(&kary.fabric, &kary.layout, &lids_k).unwrap();
            let b = route(&pg.fabric, &pg.layout, &lids_p).unwrap();
            assert_eq!(a.ports, b.ports, "k={k} n={n}: same cabling, same tables");
        }
    }
}
