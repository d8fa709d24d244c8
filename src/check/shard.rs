//! The exchange format of a sharded check (`ibfat check --shard I/N --out FILE`) and the
//! exact merge of shards (`ibfat check merge`).
//!
//! A big check runs as a cluster array job: shard I of N checks phases
//! `I·P/N .. (I+1)·P/N` of a P-phase pattern. A shard is not a user report: it carries
//! the exact counters a merge needs — flows, the congestion histogram, its worst phases
//! and first unrouted flows, and the load of every link it used, named by port GUID and
//! port number so that a shard written by one process (or one machine) merges in another.
//! The merged report is computed from these counters the same way the whole check
//! computes its own, so the two are equal in every field.
//!
//! The file is JSON with `"schema": "ibfat.check-shard/3"`, written as one line; reading
//! validates the schema, every field's type and the slice the shard claims, and names the
//! file and field. Version 3 writes the links as rows of numbers over one table of names
//! ([`ShardLinks`]): LSFT(32)'s shards carry 70,000 links, whose names repeated in every
//! row were most of a 13.6 MB file every shard wrote and the merge read.

use super::conflicts::{CheckReport, LinkLoad, PhaseSummary, UnroutedFlow};
pub use super::shard_links::ShardLinks;
use crate::fingerprint::{ComputedFor, Fnv1a};
use crate::formats::atomic;
use crate::topology::{Endpoint, Fabric};
use crate::{Error, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;

/// The `schema` value of a shard file (bumped when the format changes incompatibly).
pub(crate) const SCHEMA: &str = "ibfat.check-shard/3";

/// The pattern a shard is a slice of; every shard of one check has the same.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardPattern {
    /// The pattern's name (`shift`, `random`, ...).
    pub name: String,
    /// What else makes the pattern and its routes (seed, phases, block, LID offset...),
    /// as the writer states it: two shards merge only when these agree.
    pub options: String,
    /// Phases of the whole pattern.
    pub phases: usize,
}

/// The job a shard's flows run between; every shard of one check has the same.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ShardJob {
    /// Number of ranks.
    pub ranks: usize,
    /// FNV-1a (64 bit) of the ranks' port GUIDs in rank order ([`job_fingerprint`]): the
    /// same hosts in the same order, without listing thousands of GUIDs in every shard.
    pub port_guids_fnv1a: String,
}

/// One shard of a check: slice `shard` of `shards` of the phases of `pattern` over `job`.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CheckShard {
    /// Always [`SCHEMA`]; tells a shard from a report or another file.
    pub schema: String,
    /// Index of this shard, from 0.
    pub shard: usize,
    /// Number of shards of the check.
    pub shards: usize,
    /// The pattern the shards slice.
    pub pattern: ShardPattern,
    /// The hosts the pattern runs on.
    pub job: ShardJob,
    /// The fabric and the forwarding tables the shard was checked on.
    pub computed_for: ComputedFor,
    /// The phases this shard checked (`shard·P/shards .. (shard+1)·P/shards`).
    pub phase_range: (usize, usize),
    /// Flows checked, unrouted ones included (self-flows excluded).
    pub flows: u64,
    /// Flows that do not arrive.
    pub unrouted_flows: u64,
    /// `histogram[c]` = routed flows whose congestion is c (index 0 unused).
    pub histogram: Vec<u64>,
    /// The shard's worst phases (the merge keeps the worst of all shards').
    pub worst_phases: Vec<PhaseSummary>,
    /// The shard's first unrouted flows (the merge keeps the first of all shards').
    pub unrouted_examples: Vec<UnroutedFlow>,
    /// Every link the shard's flows used: its largest load in one phase and its total
    /// (names once, rows of numbers).
    pub links: ShardLinks,
    /// The leaf-cut bound of the shard's phases (integer parts: the merge adds them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_cut: Option<super::LeafCut>,
}

/// The phases shard `i` of `n` checks out of `phases`.
pub fn slice(i: usize, n: usize, phases: usize) -> std::ops::Range<usize> {
    // in 128 bits: i·phases of a shard file's own numbers must not wrap (each bound is at
    // most `phases`, so it fits back)
    let at = |k: usize| (k as u128 * phases as u128 / n.max(1) as u128) as usize;
    at(i)..at(i.saturating_add(1))
}

/// FNV-1a (64 bit) over the ranks' port GUIDs, as `0x` and 16 hex digits.
pub fn job_fingerprint(fabric: &Fabric, hosts: &[Endpoint]) -> String {
    let mut h = Fnv1a::new();
    for ep in hosts {
        h.u64(fabric.port(ep.node, ep.port).guid);
    }
    h.hex()
}

impl CheckShard {
    /// The shard of a check of phases `slice(shard, shards, phases)` whose report names
    /// its links; `options` names what else identifies the pattern (see
    /// [`ShardPattern::options`]). The report's per-link loads are taken (left empty).
    pub fn new(
        report: &mut CheckReport,
        index: (usize, usize),
        options: String,
        job_fingerprint: String,
        computed_for: ComputedFor,
    ) -> Result<CheckShard> {
        let links = ShardLinks::from_loads(&std::mem::take(&mut report.link_loads))?;
        Ok(CheckShard::with_links(
            report,
            links,
            index,
            options,
            job_fingerprint,
            computed_for,
        ))
    }

    /// [`CheckShard::new`] for a report whose links come apart, as a check's counts
    /// ([`ShardLinks::from_counts`]: 70,000 links on LSFT(32), which every shard would
    /// otherwise name one by one).
    pub fn with_links(
        report: &CheckReport,
        links: ShardLinks,
        (shard, shards): (usize, usize),
        options: String,
        job_fingerprint: String,
        computed_for: ComputedFor,
    ) -> CheckShard {
        CheckShard {
            schema: SCHEMA.into(),
            shard,
            shards,
            pattern: ShardPattern {
                name: report.pattern.clone(),
                options,
                phases: report.phases,
            },
            job: ShardJob {
                ranks: report.ranks,
                port_guids_fnv1a: job_fingerprint,
            },
            computed_for,
            phase_range: report.phase_range,
            flows: report.flows,
            unrouted_flows: report.unrouted_flows,
            histogram: report.histogram.clone(),
            worst_phases: report.worst_phases.clone(),
            unrouted_examples: report.unrouted_examples.clone(),
            links,
            leaf_cut: report.leaf_cut,
        }
    }

    /// Write the shard as JSON, atomically: compact, one line (a shard is for `check
    /// merge`, not for reading; LSFT(32)'s shards are 60 % smaller than indented, and
    /// every shard of a check pays their writing).
    pub fn write(&self, path: &Path) -> Result<()> {
        let text =
            serde_json::to_string(self).map_err(|e| Error::Tool(format!("cannot encode the shard as JSON: {e}")))?;
        atomic::write_file(path, format!("{text}\n").as_bytes())
    }

    /// Read and validate a shard file.
    pub fn read(path: &Path) -> Result<CheckShard> {
        let text = crate::formats::input::read_text(path, crate::formats::input::SHARD)?;
        CheckShard::parse(&text).map_err(|e| e.in_file(path, 0))
    }

    /// Parse and validate a shard from its JSON text.
    pub(crate) fn parse(text: &str) -> Result<CheckShard> {
        let hint = "write shards with `ibfat check --shard I/N --out FILE` (a `--json` report is not a shard)";
        let value: serde_json::Value = serde_json::from_str(text)
            .map_err(|e| Error::input("json", format!("line {}: not JSON: {e}", e.line()), None))?;
        match value.get("schema") {
            Some(serde_json::Value::String(s)) if s == SCHEMA => {}
            Some(serde_json::Value::String(s)) if s == "ibfat.check-shard/1" || s == "ibfat.check-shard/2" => {
                return Err(Error::input(
                    "schema",
                    format!("is \"{s}\", a shard of an earlier ibfat release; expected \"{SCHEMA}\""),
                    Some("check the shards again with this ibfat (`ibfat check --shard I/N --out FILE`): a merge takes shards of one release".into()),
                ))
            }
            Some(other) => {
                return Err(Error::input(
                    "schema",
                    format!("is {other}; expected \"{SCHEMA}\""),
                    Some(hint.into()),
                ))
            }
            None => {
                return Err(Error::input(
                    "schema",
                    format!("missing: not a check shard; expected \"schema\": \"{SCHEMA}\""),
                    Some(hint.into()),
                ))
            }
        }
        let s: CheckShard =
            serde_json::from_str(text).map_err(|e| Error::input("shard", e.to_string(), Some(hint.into())))?;
        s.validate()?;
        Ok(s)
    }

    /// The claims a shard makes about itself hold together.
    fn validate(&self) -> Result<()> {
        if self.shards == 0 || self.shard >= self.shards {
            return Err(Error::input(
                "shard",
                format!("{} of {}: expected 0 <= shard < shards", self.shard, self.shards),
                None,
            ));
        }
        let want = slice(self.shard, self.shards, self.pattern.phases);
        if self.phase_range != (want.start, want.end) {
            return Err(Error::input(
                "phase_range",
                format!(
                    "{:?}; expected {:?} for shard {} of {} over {} phases",
                    self.phase_range,
                    (want.start, want.end),
                    self.shard,
                    self.shards,
                    self.pattern.phases
                ),
                None,
            ));
        }
        let routed = self
            .histogram
            .iter()
            .try_fold(0u64, |a, &b| a.checked_add(b))
            .ok_or_else(|| {
                Error::input(
                    "histogram",
                    format!("the counts add up to more than {} flows", u64::MAX),
                    None,
                )
            })?;
        if routed.checked_add(self.unrouted_flows) != Some(self.flows) {
            return Err(Error::input(
                "flows",
                format!(
                    "{}; expected the histogram's {routed} routed flows plus {} unrouted",
                    self.flows, self.unrouted_flows
                ),
                None,
            ));
        }
        if let Some(c) = self.leaf_cut {
            if c.flows != self.flows || c.sum > c.flows {
                return Err(Error::input(
                    "leaf_cut",
                    format!(
                        "sum {} over {} flows; expected the shard's {} flows and a sum at most that",
                        c.sum, c.flows, self.flows
                    ),
                    None,
                ));
            }
        }
        let mut seen = std::collections::HashSet::new();
        for (guid, port) in self.links.ports() {
            if !seen.insert((guid, port)) {
                return Err(Error::input(
                    "links",
                    format!("port {port} of {guid} is listed twice; expected one row per link"),
                    None,
                ));
            }
        }
        Ok(())
    }
}

/// Merge shards of one check into its report, exactly. `shards` pairs each shard with
/// the file (or other name) it came from, for errors. Shards of different patterns,
/// jobs, shard counts, fabrics or tables, or a shard index given twice, are refused
/// (input errors). A missing shard is refused too unless `allow_partial`: then the report
/// is marked [`CheckReport::partial`] and covers `phases_checked < phases`.
pub fn merge<P: AsRef<Path>>(shards: &[(P, CheckShard)], allow_partial: bool) -> Result<CheckReport> {
    let Some((first_path, first)) = shards.first() else {
        return Err(Error::input("shards", "nothing to merge", None));
    };
    let by_index = same_check(shards, first_path.as_ref(), first)?;
    let mut sums = Sums::new();
    for (path, s) in shards {
        sums.add(path.as_ref(), s)?;
    }
    let partial = missing_shards(shards, first, &by_index, allow_partial)?;
    let ranges: Vec<(usize, usize)> = by_index
        .keys()
        .map(|&i| slice(i, first.shards, first.pattern.phases))
        .map(|r| (r.start, r.end))
        .collect();
    let mut report = CheckReport::from_counts(
        first.pattern.name.clone(),
        first.job.ranks,
        first.pattern.phases,
        (ranges.first().map_or(0, |r| r.0), ranges.last().map_or(0, |r| r.1)),
        sums.checked,
        (sums.flows, sums.unrouted_flows),
        sums.hist,
        sums.worst,
        sums.unrouted,
        sums.links.into_values().collect(),
    );
    report.partial = partial;
    report.leaf_cut = shards
        .iter()
        .try_fold(super::LeafCut::default(), |acc, (_, s)| acc.join(s.leaf_cut?));
    Ok(report)
}

/// Every shard against the first, before anything is added up: counts of different
/// checks would add up to a plausible report of neither. The shards by index.
fn same_check<'a, P: AsRef<Path>>(
    shards: &'a [(P, CheckShard)],
    first_path: &Path,
    first: &CheckShard,
) -> Result<BTreeMap<usize, &'a Path>> {
    let mut by_index: BTreeMap<usize, &Path> = BTreeMap::new();
    for (path, s) in shards {
        let path = path.as_ref();
        let mismatch = |field: &str, this: String, that: String| {
            Error::at(
                path,
                0,
                format!(
                    "`{field}` is {this}, but {} has {that}: not a shard of the same check",
                    first_path.display()
                ),
            )
        };
        if s.shards != first.shards {
            return Err(mismatch("shards", s.shards.to_string(), first.shards.to_string()));
        }
        if s.pattern != first.pattern {
            return Err(mismatch(
                "pattern",
                format!("{:?}", s.pattern),
                format!("{:?}", first.pattern),
            ));
        }
        if s.job != first.job {
            return Err(mismatch("job", format!("{:?}", s.job), format!("{:?}", first.job)));
        }
        if let Some(why) = s.computed_for.mismatch(&first.computed_for) {
            return Err(Error::at(
                path,
                0,
                format!("not a shard of the same check as {}: {why}", first_path.display()),
            )
            .with_hint("check every shard against the same fabric and tables"));
        }
        if let Some(other) = by_index.insert(s.shard, path) {
            return Err(Error::at(
                path,
                0,
                format!("shard {} of {} is also given as {}", s.shard, s.shards, other.display()),
            ));
        }
    }
    Ok(by_index)
}

/// The counters of the shards added up, checked for overflow: a merge must be exact or
/// refused, never wrapped into a small count.
struct Sums {
    hist: Vec<u64>,
    links: BTreeMap<(String, u8), LinkLoad>,
    worst: Vec<PhaseSummary>,
    unrouted: Vec<UnroutedFlow>,
    flows: u64,
    unrouted_flows: u64,
    checked: usize,
}

impl Sums {
    /// Nothing added yet; the merged histogram has at least buckets 0 and 1, however
    /// short the shards' are.
    fn new() -> Sums {
        Sums {
            hist: vec![0u64; 2],
            links: BTreeMap::new(),
            worst: Vec::new(),
            unrouted: Vec::new(),
            flows: 0,
            unrouted_flows: 0,
            checked: 0,
        }
    }

    /// Add one shard (from `path`, named in errors).
    fn add(&mut self, path: &Path, s: &CheckShard) -> Result<()> {
        if self.hist.len() < s.histogram.len() {
            self.hist.resize(s.histogram.len(), 0);
        }
        for (a, b) in self.hist.iter_mut().zip(&s.histogram) {
            *a = a.checked_add(*b).ok_or_else(|| too_many(path, "histogram"))?;
        }
        self.add_links(path, s)?;
        self.worst.extend(s.worst_phases.iter().cloned());
        self.unrouted.extend(s.unrouted_examples.iter().cloned());
        self.flows = self.flows.checked_add(s.flows).ok_or_else(|| too_many(path, "flows"))?;
        self.unrouted_flows = self
            .unrouted_flows
            .checked_add(s.unrouted_flows)
            .ok_or_else(|| too_many(path, "unrouted_flows"))?;
        self.checked += s.phase_range.1.saturating_sub(s.phase_range.0);
        Ok(())
    }

    /// A link's loads add up by its port GUID and number; the same port named as another
    /// link means the shards were checked on different fabrics.
    fn add_links(&mut self, path: &Path, s: &CheckShard) -> Result<()> {
        for l in s.links.loads() {
            let e = self
                .links
                .entry((l.from_guid.clone(), l.from_port))
                .or_insert_with(|| LinkLoad {
                    max_flows: 0,
                    total_flows: 0,
                    ..l.clone()
                });
            if e.link != l.link {
                return Err(Error::at(
                    path,
                    0,
                    format!(
                        "port {} of {} is `{}` here but `{}` in another shard: shards of different fabrics",
                        l.from_port, l.from_guid, l.link, e.link
                    ),
                ));
            }
            e.max_flows = e.max_flows.max(l.max_flows);
            e.total_flows = e
                .total_flows
                .checked_add(l.total_flows)
                .ok_or_else(|| too_many(path, "total_flows"))?;
        }
        Ok(())
    }
}

/// A sum past u64 in shard `path`'s field.
fn too_many(path: &Path, field: &str) -> Error {
    Error::at(
        path,
        0,
        format!(
            "{field}: the shards' counts add up to more than {} (valid 0..={})",
            u64::MAX,
            u64::MAX
        ),
    )
}

/// Whether the set is partial: a missing shard is refused (naming the missing indices
/// and some given files) unless `allow_partial`, so that a lost array task is noticed.
fn missing_shards<P: AsRef<Path>>(
    shards: &[(P, CheckShard)],
    first: &CheckShard,
    by_index: &BTreeMap<usize, &Path>,
    allow_partial: bool,
) -> Result<bool> {
    let missing: Vec<String> = (0..first.shards)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| i.to_string())
        .collect();
    if !missing.is_empty() && !allow_partial {
        let shown = missing.iter().take(20).cloned().collect::<Vec<_>>().join(", ");
        return Err(Error::input(
            "shards",
            format!(
                "{} of {} shards given; missing shard{} {shown}{} (given: {})",
                by_index.len(),
                first.shards,
                if missing.len() > 1 { "s" } else { "" },
                if missing.len() > 20 { ", ..." } else { "" },
                shards
                    .iter()
                    .take(5)
                    .map(|(p, _)| p.as_ref().display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            Some("give every shard, or --allow-partial for a report marked partial (exit 1)".into()),
        ));
    }
    Ok(!missing.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::{check, CompiledRoutes};
    use crate::families::kary::model::KaryParams;
    use crate::routing::{route, Lids};
    use crate::schedule::compare::RandomPermutations;
    use crate::schedule::Pattern;
    use crate::topology::{FamilySpec, Spec};

    #[test]
    fn shards_write_read_and_merge_to_the_whole_check() {
        let plan = Spec::new(FamilySpec::Kary(KaryParams { arity: 4, levels: 3 }))
            .build()
            .unwrap();
        let hosts = plan.layout.hosts();
        let lids = Lids::plan(&plan.fabric, hosts, 0).unwrap();
        let lfts = route(&plan.fabric, &plan.layout, &lids).unwrap();
        let routes = CompiledRoutes::compile(&plan.fabric, &lids, &lfts, hosts, 0).unwrap();
        let pat = RandomPermutations::new(hosts.len(), hosts.len(), 5);
        let n = pat.phases();
        let whole = check(&plan.fabric, hosts, &routes, &pat, 0..n, &|| {}).unwrap();
        assert!(whole.max_congestion > 1, "random permutations conflict on a tree");
        let job = job_fingerprint(&plan.fabric, hosts);
        let on = lfts.computed_for(&plan.fabric, &lids);
        let dir = tempfile::tempdir().unwrap();
        let mut read = Vec::new();
        for i in 0..3 {
            let mut r = check(&plan.fabric, hosts, &routes, &pat, slice(i, 3, n), &|| {}).unwrap();
            let s = CheckShard::new(&mut r, (i, 3), "seed=5".into(), job.clone(), on.clone()).unwrap();
            let path = dir.path().join(format!("s{i}.json"));
            s.write(&path).unwrap();
            let back = CheckShard::read(&path).unwrap();
            assert_eq!(back, s);
            read.push((path, back));
        }
        // any order merges to the same report, equal to the whole check in every field
        read.reverse();
        let merged = merge(&read, false).unwrap();
        assert_eq!(merged, whole);
        assert!(!merged.partial);
        assert_eq!(merged.worst_links.len(), 10);

        // a shard given twice, or of another pattern, is refused with the file named
        let dup = vec![read[0].clone(), read[0].clone()];
        let e = merge(&dup, false).unwrap_err().to_string();
        assert!(e.contains("s2.json") && e.contains("also given"), "{e}");
        let mut other = read.clone();
        other[1].1.pattern.options = "seed=6".into();
        let e = merge(&other, false).unwrap_err().to_string();
        assert!(e.contains("s1.json") && e.contains("`pattern`"), "{e}");

        // a missing shard is refused, naming what is missing; allowed, the report says so
        let e = merge(&read[..2], false).unwrap_err().to_string();
        assert!(e.contains("2 of 3 shards") && e.contains("missing shard 0"), "{e}");
        let part = merge(&read[..2], true).unwrap();
        assert!(part.partial && part.phases_checked < n, "{part:?}");

        // shards checked on other tables (one entry changed: a reroute) are refused
        let mut rerouted = lfts.clone();
        let (sw, lid) = (
            rerouted.switches[0],
            lids.lid(&plan.fabric, hosts[0].node, hosts[0].port),
        );
        let port = rerouted.get(sw, lid).unwrap();
        rerouted.set(sw, lid, if port == 1 { 2 } else { 1 });
        let mut other = read.clone();
        other[2].1.computed_for.lfts = Some(rerouted.fingerprint(&plan.fabric, &lids));
        let e = merge(&other, false).unwrap_err().to_string();
        assert!(e.contains("rerouted") && e.contains("s0.json"), "{e}");
        // ... and so is one of another fabric
        let mut other = read.clone();
        other[1].1.computed_for.fabric = "0x0000000000000001".into();
        let e = merge(&other, false).unwrap_err().to_string();
        assert!(e.contains("other node GUIDs"), "{e}");
    }

    #[test]
    fn reading_names_the_field_that_is_wrong() {
        let e = CheckShard::parse(r#"{"pattern": "shift", "flows": 3}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("schema") && e.contains(SCHEMA) && e.contains("--out"), "{e}");
        let e = CheckShard::parse(r#"{"schema": "ibfat.check-shard/0"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("ibfat.check-shard/0") && e.contains("expected"), "{e}");
        // a shard of an earlier release: said so, with what to do
        let e = CheckShard::parse(r#"{"schema": "ibfat.check-shard/2", "links": []}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("earlier ibfat release") && e.contains(SCHEMA) && e.contains("--shard"),
            "{e}"
        );
        let e = CheckShard::parse(&format!(r#"{{"schema": "{SCHEMA}", "shard": 0}}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `shards`"), "{e}");
        let mut s = CheckShard {
            schema: SCHEMA.into(),
            shard: 1,
            shards: 2,
            pattern: ShardPattern {
                name: "shift".into(),
                options: String::new(),
                phases: 10,
            },
            job: ShardJob {
                ranks: 4,
                port_guids_fnv1a: "0x0".into(),
            },
            computed_for: ComputedFor {
                fabric: "0x1".into(),
                lfts: None,
            },
            phase_range: (5, 10),
            flows: 3,
            unrouted_flows: 1,
            histogram: vec![0, 2],
            worst_phases: vec![],
            unrouted_examples: vec![],
            links: ShardLinks::default(),
            leaf_cut: None,
        };
        assert!(CheckShard::parse(&serde_json::to_string(&s).unwrap()).is_ok());
        // a leaf-cut bound of other flows, or above 1, is refused
        for (sum, flows) in [(2, 4), (4, 3)] {
            s.leaf_cut = Some(crate::check::LeafCut { sum, flows, bound: 0.5 });
            let e = CheckShard::parse(&serde_json::to_string(&s).unwrap())
                .unwrap_err()
                .to_string();
            assert!(
                e.contains("leaf_cut") && e.contains("expected the shard's 3 flows"),
                "{e}"
            );
        }
        s.leaf_cut = Some(crate::check::LeafCut {
            sum: 2,
            flows: 3,
            bound: 0.5,
        });
        assert!(CheckShard::parse(&serde_json::to_string(&s).unwrap()).is_ok());
        s.leaf_cut = None;
        s.phase_range = (4, 10);
        let e = CheckShard::parse(&serde_json::to_string(&s).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("phase_range") && e.contains("expected (5, 10)"), "{e}");
        // links: names once, rows of numbers, exact both ways (a name without the
        // `:<port> -> ` separator kept whole); bad rows are named
        s.phase_range = (5, 10);
        s.links = ShardLinks::from_loads(&[
            LinkLoad {
                link: "leaf a:3 -> spine b".into(),
                from_guid: "0x0000000000000001".into(),
                from_port: 3,
                max_flows: 2,
                total_flows: 7,
                rate: None,
            },
            LinkLoad {
                link: "odd:name".into(),
                from_guid: "0x0000000000000001".into(),
                from_port: 4,
                max_flows: 1,
                total_flows: u64::MAX,
                rate: None,
            },
        ])
        .unwrap();
        let text = serde_json::to_string(&s).unwrap();
        assert!(
            text.contains(r#""names":["0x0000000000000001","leaf a","spine b","odd:name"]"#),
            "{text}"
        );
        assert_eq!(CheckShard::parse(&text).unwrap(), s);
        for (bad, want) in [
            ("[0,3,1,9,2,7]", "name index 9"),
            ("[0,3,1]", "3 numbers"),
            ("[0,300,1,2,2,7]", "port 300"),
        ] {
            let t = text.replacen("[0,3,1,2,2,7]", bad, 1);
            let e = CheckShard::parse(&t).unwrap_err().to_string();
            assert!(e.contains("links.rows[0]") && e.contains(want), "{e}");
        }
        s.links = ShardLinks::default();
        s.phase_range = (5, 10);
        s.flows = 4;
        let e = CheckShard::parse(&serde_json::to_string(&s).unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("flows") && e.contains("2 routed"), "{e}");
    }
}
