//! The links of a shard file: `{"names": [...], "rows": [[guid, port, from, to,
//! max_flows, total_flows], ...]}`, where `guid`, `from` and `to` index `names`: the
//! sending port's GUID, and the sending and receiving switch as the checker names links
//! (`from:port -> to`), so each switch's name and GUID is written once instead of once
//! per link. A name that is not of that form is kept whole in a 5-number row `[guid,
//! port, name, max_flows, total_flows]`. Exact both ways.
//!
//! The rows are also the shard's form in memory: a check writes them straight from its
//! counts ([`ShardLinks::from_counts`], 70,000 links on LSFT(32) never named one by one),
//! and a merge names them as it adds them up ([`ShardLinks::loads`]).

use super::conflicts::{LinkCount, LinkLoad};
use crate::topology::label::Labels;
use crate::topology::Fabric;
use crate::{Error, Result};
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use std::collections::HashMap;

/// One link: by name indices, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
enum Row {
    /// `[guid, port, from, to, max_flows, total_flows]`
    Split([u64; 6]),
    /// `[guid, port, name, max_flows, total_flows]`
    Whole([u64; 5]),
}

/// Every link a shard's flows used, with its largest load in one phase and its total.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct ShardLinks {
    names: Vec<String>,
    rows: Vec<Row>,
}

/// Rate-weighted counts are not what a merge adds up.
fn weighted() -> Error {
    Error::input(
        "links",
        "a shard carries unweighted counts: a rate-weighted check cannot be sharded",
        Some("drop --rates, or check the whole pattern in one run".into()),
    )
}

impl ShardLinks {
    /// The links of a check's counts (in its order), named from `fabric`.
    pub fn from_counts(fabric: &Fabric, links: &[LinkCount]) -> Result<ShardLinks> {
        if links.iter().any(|l| l.rate.is_some()) {
            return Err(weighted());
        }
        let labels = Labels::new(fabric);
        let mut names = Vec::new();
        // a name's index per node (switch names) and per GUID: counts come sorted by
        // GUID, so a GUID's index is the last one's or a new one
        let mut label_id = vec![u32::MAX; fabric.nodes.len()];
        let mut last_guid: Option<(u64, u64)> = None;
        let mut rows = Vec::with_capacity(links.len());
        for l in links {
            let p = &fabric.ports[l.port as usize];
            let to = fabric.ports[p.peer as usize].node;
            let guid = match last_guid {
                Some((g, id)) if g == p.guid => id,
                _ => {
                    names.push(format!("0x{:016x}", p.guid));
                    let id = names.len() as u64 - 1;
                    last_guid = Some((p.guid, id));
                    id
                }
            };
            let mut label = |node: u32| {
                let slot = &mut label_id[node as usize];
                if *slot == u32::MAX {
                    names.push(labels.get(node).to_string());
                    *slot = names.len() as u32 - 1;
                }
                u64::from(*slot)
            };
            let (from, to) = (label(p.node), label(to));
            rows.push(Row::Split([
                guid,
                u64::from(p.num),
                from,
                to,
                u64::from(l.max_flows),
                l.total_flows,
            ]));
        }
        Ok(ShardLinks { names, rows })
    }

    /// The links of named loads (a report's), each name cut around `:<port> -> `.
    pub(crate) fn from_loads(links: &[LinkLoad]) -> Result<ShardLinks> {
        use std::fmt::Write as _;
        let mut names: Vec<String> = Vec::new();
        let mut index: HashMap<&str, u64> = HashMap::with_capacity(links.len() / 8);
        let mut rows = Vec::with_capacity(links.len());
        let mut sep = String::new();
        for l in links {
            if l.rate.is_some() {
                return Err(weighted());
            }
            let mut id = |text| intern(&mut names, &mut index, text);
            let guid = id(&l.from_guid);
            sep.clear();
            let _ = write!(sep, ":{} -> ", l.from_port);
            let (port, max) = (u64::from(l.from_port), u64::from(l.max_flows));
            rows.push(match l.link.find(sep.as_str()) {
                Some(k) => Row::Split([
                    guid,
                    port,
                    id(&l.link[..k]),
                    id(&l.link[k + sep.len()..]),
                    max,
                    l.total_flows,
                ]),
                None => Row::Whole([guid, port, id(&l.link), max, l.total_flows]),
            });
        }
        Ok(ShardLinks { names, rows })
    }

    /// Number of links.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No links (a shard whose flows all stayed on one switch, or none).
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The links, named (indices were checked when read).
    pub fn loads(&self) -> impl Iterator<Item = LinkLoad> + '_ {
        let name = |k: u64| self.names[k as usize].as_str();
        self.rows.iter().map(move |r| {
            let (guid, port, link, max, total) = match *r {
                Row::Split([g, p, a, b, m, t]) => (g, p, format!("{}:{p} -> {}", name(a), name(b)), m, t),
                Row::Whole([g, p, a, m, t]) => (g, p, name(a).to_string(), m, t),
            };
            LinkLoad {
                link,
                from_guid: name(guid).to_string(),
                from_port: port as u8,
                max_flows: max as u32,
                total_flows: total,
                rate: None,
            }
        })
    }

    /// The sending port (GUID text, number) of every link, in order.
    pub(crate) fn ports(&self) -> impl Iterator<Item = (&str, u8)> + '_ {
        self.rows.iter().map(|r| match *r {
            Row::Split([g, p, ..]) | Row::Whole([g, p, ..]) => (self.names[g as usize].as_str(), p as u8),
        })
    }
}

impl<'de> Deserialize<'de> for ShardLinks {
    /// Names and rows, every index and number checked (the error names the row).
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<ShardLinks, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Links {
            names: Vec<String>,
            rows: Vec<Vec<u64>>,
        }
        let Links { names, rows } = Links::deserialize(d)?;
        let n = names.len() as u64;
        let rows = rows
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let row = match r[..] {
                    [g, p, a, b, m, t] => Row::Split([g, p, a, b, m, t]),
                    [g, p, a, m, t] => Row::Whole([g, p, a, m, t]),
                    _ => {
                        return Err(D::Error::custom(format!(
                            "links.rows[{i}]: {} numbers; expected 6 [guid, port, from, to, max_flows, total_flows] or 5 [guid, port, name, max_flows, total_flows]",
                            r.len()
                        )))
                    }
                };
                let (indices, port, max) = match row {
                    Row::Split([g, p, a, b, m, _]) => ([g, a, b], p, m),
                    Row::Whole([g, p, a, m, _]) => ([g, a, a], p, m),
                };
                if let Some(&k) = indices.iter().find(|&&k| k >= n) {
                    return Err(D::Error::custom(format!(
                        "links.rows[{i}]: name index {k}; expected 0..{n} (the names listed)"
                    )));
                }
                if port > 255 {
                    return Err(D::Error::custom(format!("links.rows[{i}]: port {port}; expected 0..=255")));
                }
                if max > u64::from(u32::MAX) {
                    return Err(D::Error::custom(format!(
                        "links.rows[{i}]: max_flows {max}; expected 0..={}",
                        u32::MAX
                    )));
                }
                Ok(row)
            })
            .collect::<std::result::Result<Vec<_>, _>>()?;
        Ok(ShardLinks { names, rows })
    }
}

/// The index of `text` in `names`, added when new.
fn intern<'a>(names: &mut Vec<String>, index: &mut HashMap<&'a str, u64>, text: &'a str) -> u64 {
    *index.entry(text).or_insert_with(|| {
        names.push(text.to_string());
        names.len() as u64 - 1
    })
}
