//! Multi-rail fabrics: R identical, disconnected planes of switches, every host one HCA
//! with R ports, port k+1 cabled to rail k.
//!
//! Dual-rail InfiniBand clusters give every host a second independent fabric (bandwidth,
//! failover). Each rail is its own subnet: its own SM, LIDs and forwarding tables. ibfat
//! therefore routes, recognises and dumps one rail at a time, and this module is the one
//! place that knows how the planes are put together ([`multi_rail`]) and taken apart
//! ([`rails_of`], [`plane`]).
//!
//! Rules (docs/families.md, "Multi-rail fabrics"):
//! - Rail k of a plan: the single-rail plane with every host cable moved to HCA port
//!   k+1; switches of rail 0 keep the plane's names and GUIDs, those of rail k ≥ 1 are
//!   named `<name>-r<k>` and get GUID + k·[`RAIL_GUID_STEP`]. Host GUIDs are the plane's
//!   (ports k+1 have node GUID + k+1, ibsim's rule).
//! - Rail of a fabric read from a dump: the switches joined by switch-to-switch cables
//!   form one plane; its rail is the HCA port number − 1 every host cable of that plane
//!   uses. A plane whose hosts use different port numbers, or two planes on one port
//!   number, is an error: the rail cannot be told.

use super::{Fabric, NodeId, NodeKind};
use crate::error::{Error, Result};
use std::collections::{BTreeMap, HashSet};

/// Most rails a plan may have (ConnectX-class HCAs have one or two ports; four leaves
/// room for two dual-port HCAs seen as one).
pub(crate) const MAX_RAILS: u32 = 4;

/// GUID distance between a switch of rail k and its twin on rail k+1 in a plan: below
/// the host GUIDs' offset (0x2000_0000) for [`MAX_RAILS`] rails of up to 2^26 switches.
pub(crate) const RAIL_GUID_STEP: u64 = 0x0400_0000;

/// Name of the twin on rail `rail` of a plane switch named `name`.
pub(crate) fn rail_name(name: &str, rail: u32) -> String {
    if rail == 0 {
        name.to_string()
    } else {
        format!("{name}-r{rail}")
    }
}

/// R copies of a single-rail plane, as one fabric: hosts first (one HCA of R ports), then
/// the switches of rail 0, rail 1 ... Cable width and speed are the plane's. Fails when
/// the plane's hosts have more than one port, R is out of 1..=[`MAX_RAILS`], or two nodes
/// would share a GUID.
pub fn multi_rail(plane: &Fabric, rails: u32) -> Result<Fabric> {
    if !(1..=MAX_RAILS).contains(&rails) {
        return Err(Error::input(
            "--rails",
            format!("{rails} rails: a plan has 1..={MAX_RAILS}"),
            Some("dual-rail clusters: --rails 2".into()),
        ));
    }
    let mut out = Fabric::new();
    let mut map: Vec<Vec<NodeId>> = vec![vec![NodeId::MAX; plane.len()]; rails as usize];
    for id in plane.cas() {
        let n = plane.node(id);
        if n.nports != 1 {
            return Err(Error::input(
                "--rails",
                format!(
                    "host {} has {} ports; a multi-rail plan starts from single-port hosts",
                    n.name, n.nports
                ),
                None,
            ));
        }
        let new = out.add_node(n.kind, rails, n.guid, n.name.clone(), n.desc.clone())?;
        for m in map.iter_mut() {
            m[id as usize] = new;
        }
    }
    for k in 0..rails {
        for id in plane.switches() {
            let n = plane.node(id);
            let guid = n.guid.wrapping_add(u64::from(k) * RAIL_GUID_STEP);
            let desc = if k == 0 {
                n.desc.clone()
            } else {
                let d = format!("{} rail {k}", n.desc);
                if d.len() <= super::label::MAX_DESC {
                    d
                } else {
                    n.desc.clone()
                }
            };
            map[k as usize][id as usize] = out.add_node(n.kind, n.nports.into(), guid, rail_name(&n.name, k), desc)?;
        }
    }
    for k in 0..rails {
        let m = &map[k as usize];
        for l in plane.links() {
            let port = plane.port(l.a, l.pa);
            let p = |n: NodeId, p: u8| {
                if plane.node(n).kind == NodeKind::Switch {
                    u32::from(p)
                } else {
                    k + 1
                }
            };
            out.connect_with(
                m[l.a as usize],
                p(l.a, l.pa),
                m[l.b as usize],
                p(l.b, l.pb),
                port.width,
                port.speed,
            )?;
        }
    }
    let mut seen = HashSet::new();
    if let Some(n) = out.nodes.iter().find(|n| !seen.insert(n.guid)) {
        return Err(Error::input(
            "--rails",
            format!(
                "node {} would share GUID 0x{:016x} with another rail's node",
                n.name, n.guid
            ),
            Some("choose another --guid-base or --shuffle seed".into()),
        ));
    }
    Ok(out)
}

/// The planes of a fabric: for each rail (sorted), the switches that form it. A fabric
/// without switches has no rails. Errors name the plane and the ports that make its rail
/// ambiguous.
pub fn rails_of(fabric: &Fabric) -> Result<BTreeMap<u32, Vec<NodeId>>> {
    let n = fabric.len();
    let mut comp = vec![usize::MAX; n];
    let mut planes: Vec<Vec<NodeId>> = Vec::new();
    for s in fabric.switches() {
        if comp[s as usize] != usize::MAX {
            continue;
        }
        let c = planes.len();
        let mut members = vec![s];
        comp[s as usize] = c;
        let mut i = 0;
        while i < members.len() {
            let x = members[i];
            i += 1;
            for p in 1..=fabric.node(x).nports {
                if let Some((y, _)) = fabric.peer(x, p) {
                    if fabric.node(y).kind == NodeKind::Switch && comp[y as usize] == usize::MAX {
                        comp[y as usize] = c;
                        members.push(y);
                    }
                }
            }
        }
        planes.push(members);
    }
    let mut ports: Vec<Option<u8>> = vec![None; planes.len()];
    for h in fabric.cas() {
        for p in 1..=fabric.node(h).nports {
            let Some((sw, _)) = fabric.peer(h, p) else { continue };
            if fabric.node(sw).kind != NodeKind::Switch {
                continue;
            }
            let c = comp[sw as usize];
            match ports[c] {
                None => ports[c] = Some(p),
                Some(q) if q == p => {}
                Some(q) => {
                    return Err(Error::input(
                        "rails",
                        format!(
                            "the plane of switch {} has hosts on HCA port {q} and on port {p} ({}): its rail cannot be told",
                            fabric.node(sw).name,
                            fabric.node(h).name
                        ),
                        Some("rail k is cabled to HCA port k+1 on every host".into()),
                    ))
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for (c, members) in planes.into_iter().enumerate() {
        let Some(p) = ports[c] else {
            return Err(Error::input(
                "rails",
                format!("the plane of switch {} has no hosts", fabric.node(members[0]).name),
                Some("every rail reaches every host".into()),
            ));
        };
        let rail = u32::from(p) - 1;
        if out.insert(rail, members).is_some() {
            return Err(Error::input(
                "rails",
                format!("two disconnected planes both use HCA port {p} (rail {rail})"),
                Some("a rail is one connected fabric of switches".into()),
            ));
        }
    }
    Ok(out)
}

/// Rail `rail` of a fabric as a fabric of its own: the rail's switches and every host
/// cabled to them, in the input's node order, with their GUIDs, names, LIDs and cables
/// (the other rails' cables left out). Hosts keep their port count, so port GUIDs stay
/// the real ones: LIDs, dumps and tables of the plane are the rail's subnet's. In a
/// fabric of several rails, a host cabled to some rails but not all is an error.
pub fn plane(fabric: &Fabric, rail: u32) -> Result<Fabric> {
    let rails = rails_of(fabric)?;
    let Some(switches) = rails.get(&rail) else {
        let have: Vec<String> = rails.keys().map(u32::to_string).collect();
        return Err(Error::input(
            "--rail",
            format!("no rail {rail} in this fabric (rails: {})", have.join(", ")),
            Some("rail k is the plane cabled to HCA port k+1".into()),
        ));
    };
    let hca_port = (rail + 1) as u8;
    if rails.len() > 1 {
        // a host on some rails but not all is a cable missing, not a smaller plane
        for h in fabric.cas() {
            let node = fabric.node(h);
            let cabled: Vec<u32> = rails
                .keys()
                .copied()
                .filter(|&k| k < u32::from(node.nports) && fabric.peer(h, (k + 1) as u8).is_some())
                .collect();
            if !cabled.is_empty() && cabled.len() < rails.len() {
                let missing: Vec<String> = rails
                    .keys()
                    .filter(|k| !cabled.contains(k))
                    .map(|k| format!("rail {k} (HCA port {})", k + 1))
                    .collect();
                return Err(Error::input(
                    "rails",
                    format!("host {} has no cable on {}", node.name, missing.join(", ")),
                    Some("every host of a multi-rail fabric is cabled to every rail; re-seat the cable or route a dump of one rail".into()),
                ));
            }
        }
    }
    let in_plane: HashSet<NodeId> = switches.iter().copied().collect();
    let mut keep = vec![false; fabric.len()];
    for &s in switches {
        keep[s as usize] = true;
    }
    for h in fabric.cas() {
        if hca_port <= fabric.node(h).nports {
            if let Some((sw, _)) = fabric.peer(h, hca_port) {
                keep[h as usize] = in_plane.contains(&sw);
            }
        }
    }
    let mut out = Fabric::new();
    let mut map = vec![NodeId::MAX; fabric.len()];
    for (id, node) in fabric.nodes.iter().enumerate() {
        if keep[id] {
            map[id] = out.add_node(
                node.kind,
                node.nports.into(),
                node.guid,
                node.name.clone(),
                node.desc.clone(),
            )?;
            for p in 0..=node.nports {
                let src = *fabric.port(id as NodeId, p);
                let idx = out.port_index(map[id], p);
                out.ports[idx as usize].lid = src.lid;
                out.ports[idx as usize].lmc = src.lmc;
            }
        }
    }
    for l in fabric.links() {
        if keep[l.a as usize] && keep[l.b as usize] && (in_plane.contains(&l.a) || in_plane.contains(&l.b)) {
            let port = fabric.port(l.a, l.pa);
            out.connect_with(
                map[l.a as usize],
                u32::from(l.pa),
                map[l.b as usize],
                u32::from(l.pb),
                port.width,
                port.speed,
            )?;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{kary::KaryParams, lsft::LsftParams, FamilySpec, Spec};

    fn lsft2() -> Fabric {
        Spec {
            family: FamilySpec::Lsft(LsftParams {
                order: 2,
                two_sided: false,
                hosts_per_leaf: None,
            }),
            options: Default::default(),
        }
        .build()
        .unwrap()
        .fabric
    }

    #[test]
    fn two_rails_are_two_planes_on_ports_one_and_two() {
        let p = lsft2();
        let f = multi_rail(&p, 2).unwrap();
        assert_eq!(f.cas().count(), p.cas().count());
        assert_eq!(f.switches().count(), 2 * p.switches().count());
        assert_eq!(f.link_count(), 2 * p.link_count());
        let r = rails_of(&f).unwrap();
        assert_eq!(r.keys().copied().collect::<Vec<_>>(), vec![0, 1]);
        for k in 0..2 {
            let pl = plane(&f, k).unwrap();
            assert_eq!(pl.link_count(), p.link_count());
            assert_eq!(pl.switches().count(), p.switches().count());
            assert!(pl.endpoints().iter().all(|e| e.port == k as u8 + 1));
            assert_eq!(rails_of(&pl).unwrap().keys().copied().collect::<Vec<_>>(), vec![k]);
        }
        // rail 0 keeps the plane's switch GUIDs; rail 1's are shifted
        let g0: HashSet<u64> = p.switches().map(|s| p.node(s).guid).collect();
        let pl1 = plane(&f, 1).unwrap();
        assert!(pl1
            .switches()
            .all(|s| g0.contains(&(pl1.node(s).guid - RAIL_GUID_STEP))));
    }

    #[test]
    fn bad_rails_are_clear_errors() {
        let p = lsft2();
        assert!(multi_rail(&p, 0).is_err());
        assert!(multi_rail(&p, MAX_RAILS + 1).is_err());
        let f = multi_rail(&p, 2).unwrap();
        let e = plane(&f, 2).unwrap_err().to_string();
        assert!(e.contains("no rail 2"), "{e}");
        // a host of rail 1 moved to port 1 makes rail 1 ambiguous
        let mut g = f.clone();
        let h = g.cas().next().unwrap();
        let (sw, sp) = g.peer(h, 2).unwrap();
        g.disconnect(h, 2);
        g.disconnect(h, 1);
        g.connect(h, 1, sw, u32::from(sp)).unwrap();
        assert!(rails_of(&g).is_err());
    }

    #[test]
    fn kary_planes_keep_every_host() {
        let p = Spec {
            family: FamilySpec::Kary(KaryParams { arity: 2, levels: 3 }),
            options: Default::default(),
        }
        .build()
        .unwrap()
        .fabric;
        let f = multi_rail(&p, 3).unwrap();
        for k in 0..3 {
            assert_eq!(plane(&f, k).unwrap().endpoints().len(), p.cas().count());
        }
    }
}
