//! Schedule files: the contract between ibfat and MPI launch scripts (README "Schedules").
//!
//! JSON (`--format json`, the default):
//!
//! ```text
//! {"hosts": [
//! "0x0002c90020000001",
//! ...
//! ],
//! "phases": [
//! [1,2,0,null],
//! ...
//! ]}
//! ```
//!
//! Writers put `"computed_for": {"fabric": "0x…", "lfts": "0x…" or null}` first: the
//! fingerprints of the fabric and of the forwarding tables the schedule was computed for
//! ([`crate::fingerprint`]; `lfts` is null for a schedule computed from the topology
//! alone). Readers that hold tables compare them and refuse a stale schedule.
//!
//! `hosts[r]` is the port GUID of rank r (`0x` and 16 hex digits); `phases[p][r]` is the
//! rank that rank r sends to in phase p, or `null` when r is idle. Every phase lists every
//! rank and is a partial permutation (no rank receives twice). Writers put one host and
//! one phase per line; readers accept any JSON layout and ignore other keys.
//!
//! CSV (`--format csv`): a header `rank,phase,peer`, then one row per rank and phase,
//! phase by phase, with an empty peer when the rank is idle. It carries no GUIDs (take
//! them from the JSON or the job file); it is meant for launch scripts
//! (`awk -F, -v r=$RANK '$1 == r'`). ibfat reads JSON only.
//!
//! Files are written phase by phase (never materialised), in parallel batches, through a
//! temporary file renamed into place: complete or absent. Every phase is checked while
//! it is written.

use super::job::{HostLookup, Hosts};
use super::{Counts, Job, Pattern, PermutationCheck, Schedule, IDLE};
use crate::error::{Error, Result};
use crate::fingerprint::ComputedFor;
use crate::formats::atomic;
use crate::formats::input::ReadError;
use rayon::prelude::*;
use serde::de::{self, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::Path;
use std::str::FromStr;

/// Output format of a schedule file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Format {
    /// `{"hosts": [...], "phases": [[...]]}` with GUIDs; the default and the only format
    /// ibfat reads back.
    #[default]
    Json,
    /// `rank,phase,peer` rows without GUIDs, for launch scripts; write-only.
    Csv,
}

impl Format {
    /// `csv` for a `.csv` path, JSON otherwise.
    pub fn for_path(path: &Path) -> Format {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("csv") => Format::Csv,
            _ => Format::Json,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Json => "json",
            Format::Csv => "csv",
        })
    }
}

impl FromStr for Format {
    type Err = Error;
    fn from_str(s: &str) -> Result<Format> {
        match s {
            "json" => Ok(Format::Json),
            "csv" => Ok(Format::Csv),
            other => Err(Error::input(
                "format",
                format!("unknown schedule format `{other}`"),
                Some("json or csv".into()),
            )),
        }
    }
}

/// Decimal digits of `v` appended to `buf`.
#[inline]
fn push_u32(buf: &mut Vec<u8>, mut v: u32) {
    let mut tmp = [0u8; 10];
    let mut i = tmp.len();
    loop {
        i -= 1;
        tmp[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&tmp[i..]);
}

/// Render phase `p` (already computed into `out`) in `format`.
fn render_phase(format: Format, p: usize, out: &[u32], last: bool, buf: &mut Vec<u8>) {
    match format {
        Format::Json => {
            buf.push(b'[');
            for (r, &d) in out.iter().enumerate() {
                if r > 0 {
                    buf.push(b',');
                }
                if d == IDLE {
                    buf.extend_from_slice(b"null");
                } else {
                    push_u32(buf, d);
                }
            }
            buf.extend_from_slice(if last { b"]\n" } else { b"],\n" });
        }
        Format::Csv => {
            for (r, &d) in out.iter().enumerate() {
                push_u32(buf, r as u32);
                buf.push(b',');
                push_u32(buf, p as u32);
                buf.push(b',');
                if d != IDLE {
                    push_u32(buf, d);
                }
                buf.push(b'\n');
            }
        }
    }
}

fn io_err(e: std::io::Error) -> Error {
    Error::io("cannot write the schedule", e)
}

/// Stream `pattern` to `w` with `hosts` (one port GUID per rank) and what it was computed
/// for (JSON only; CSV has no room for it); every phase is checked to be a partial
/// permutation. Returns the flow counts.
pub(crate) fn write_to(
    w: &mut dyn Write,
    format: Format,
    pattern: &dyn Pattern,
    hosts: &[u64],
    computed_for: &ComputedFor,
) -> Result<Counts> {
    let n = pattern.ranks();
    if hosts.len() != n {
        return Err(Error::Tool(format!(
            "internal error: {} GUIDs for the {n} ranks of {}",
            hosts.len(),
            pattern.name()
        )));
    }
    let phases = pattern.phases();
    match format {
        Format::Json => {
            let mut head = Vec::with_capacity(24 * n + 128);
            let on = serde_json::to_string(computed_for)
                .map_err(|e| Error::Tool(format!("cannot encode computed_for: {e}")))?;
            head.extend_from_slice(format!("{{\"computed_for\": {on},\n\"hosts\": [\n").as_bytes());
            for (i, g) in hosts.iter().enumerate() {
                let sep = if i + 1 == n { "" } else { "," };
                head.extend_from_slice(format!("\"0x{g:016x}\"{sep}\n").as_bytes());
            }
            head.extend_from_slice(b"],\n\"phases\": [\n");
            w.write_all(&head).map_err(io_err)?;
        }
        Format::Csv => w.write_all(b"rank,phase,peer\n").map_err(io_err)?,
    }
    let mut total = Counts {
        ranks: n,
        ..Counts::default()
    };
    // batches of phases generated and rendered in parallel, written in order
    let batch = (rayon::current_num_threads() * 4).max(1);
    let mut start = 0;
    while start < phases {
        let end = (start + batch).min(phases);
        let rendered: Vec<Result<(Vec<u8>, Counts)>> = (start..end)
            .into_par_iter()
            .map_init(
                || (vec![IDLE; n], PermutationCheck::new(n)),
                |(out, check), p| {
                    pattern.phase(p, out);
                    check.check(p, out).map_err(|e| {
                        Error::Tool(format!(
                            "internal error: pattern {} is not a partial permutation: {e}",
                            pattern.name()
                        ))
                    })?;
                    let mut c = Counts::default();
                    c.add_phase(out);
                    let mut buf = Vec::with_capacity(8 * n + 4);
                    render_phase(format, p, out, p + 1 == phases, &mut buf);
                    Ok((buf, c))
                },
            )
            .collect();
        for r in rendered {
            let (buf, c) = r?;
            w.write_all(&buf).map_err(io_err)?;
            total.phases += c.phases;
            total.flows += c.flows;
            total.self_flows += c.self_flows;
            total.idle += c.idle;
        }
        start = end;
    }
    if format == Format::Json {
        w.write_all(b"]}\n").map_err(io_err)?;
    }
    Ok(total)
}

/// What a schedule file ibfat wrote says it was computed for, from its first line alone
/// (writers put `computed_for` there), so that deciding whether a multi-gigabyte schedule
/// is stale does not read it; `None` for anything else.
pub fn peek_computed_for(head: &[u8]) -> Option<ComputedFor> {
    let line = head.split(|&b| b == b'\n').next()?;
    let value = std::str::from_utf8(line)
        .ok()?
        .strip_prefix("{\"computed_for\": ")?
        .strip_suffix(',')?;
    serde_json::from_str(value).ok()
}

/// Write a schedule file atomically (complete or absent).
pub fn write(
    path: &Path,
    format: Format,
    pattern: &dyn Pattern,
    hosts: &[u64],
    computed_for: &ComputedFor,
) -> Result<Counts> {
    // the atomic writer speaks io::Error; keep ours aside and abort the file with a marker
    let mut result: Result<Counts> = Ok(Counts::default());
    let written = atomic::write_file_with(path, |w| {
        result = write_to(w, format, pattern, hosts, computed_for);
        match &result {
            Ok(_) => Ok(()),
            Err(e) => Err(std::io::Error::other(e.to_string())),
        }
    });
    let counts = result?;
    written?;
    Ok(counts)
}

/// Read and validate a JSON schedule file. With `topo`, every host must be a host port
/// of that topology and the job (hosts in rank order) is returned too. Errors name the
/// file, line and column, the rank, phase or GUID; they are input errors (exit 2).
pub fn read_json(path: &Path, topo: Option<&Hosts>) -> Result<(Schedule, Option<Job>)> {
    // read whole: positions in a byte slice are exact, a stream's are one peeked byte late
    let bytes = crate::formats::input::read(path, crate::formats::input::SCHEDULE).map_err(|e| match e {
        ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => Error::at(path, 0, "no such schedule file"),
        e => e.into_error(path),
    })?;
    parse_json(&bytes, path, topo)
}

/// [`read_json`] from the file's bytes; `path` is for messages.
pub fn parse_json(bytes: &[u8], path: &Path, topo: Option<&Hosts>) -> Result<(Schedule, Option<Job>)> {
    let lookup = topo.map(HostLookup::new);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let parsed = FileSeed {
        lookup: lookup.as_ref(),
    }
    .deserialize(&mut de)
    .and_then(|v| de.end().map(|_| v))
    .map_err(|e| json_error(path, e))?;
    let mut sched = Schedule {
        hosts: parsed.hosts,
        phases: parsed.phases,
        computed_for: parsed.computed_for,
    };
    if !parsed.phases_checked {
        // phases came before hosts: check them now (no line numbers left)
        let mut check = PermutationCheck::new(sched.hosts.len());
        for (p, ph) in sched.phases.iter().enumerate() {
            check.check(p, ph).map_err(|e| Error::at(path, 0, e.to_string()))?;
        }
    }
    let job = match (topo, parsed.fabric_ranks) {
        (Some(topo), Some(ranks)) => Some(Job::from_fabric_ranks(topo.ports, ranks).map_err(|e| e.in_file(path, 0))?),
        _ => None,
    };
    sched.hosts.shrink_to_fit();
    Ok((sched, job))
}

const FORMAT_HINT: &str =
    "a schedule file is {\"hosts\": [\"0x<port GUID, 16 hex digits>\", ...], \"phases\": [[dest rank of rank 0, ...], ...]} with null for an idle rank";

fn json_error(path: &Path, e: serde_json::Error) -> Error {
    if e.is_io() {
        return Error::io(format!("cannot read {}", path.display()), e.into());
    }
    let text = e.to_string();
    let msg = text.rfind(" at line ").map(|i| &text[..i]).unwrap_or(&text);
    let err = Error::at(path, e.line(), format!("{msg} (column {})", e.column()));
    if e.is_syntax() || e.is_eof() {
        err.with_hint(FORMAT_HINT)
    } else {
        err
    }
}

struct Parsed {
    computed_for: Option<ComputedFor>,
    hosts: Vec<u64>,
    fabric_ranks: Option<Vec<u32>>,
    phases: Vec<Vec<u32>>,
    phases_checked: bool,
}

struct FileSeed<'a, 'p> {
    lookup: Option<&'a HostLookup<'p>>,
}

impl<'de> DeserializeSeed<'de> for FileSeed<'_, '_> {
    type Value = Parsed;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Parsed, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FileSeed<'_, '_> {
    type Value = Parsed;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a schedule object {\"hosts\": [...], \"phases\": [...]}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Parsed, A::Error> {
        let mut hosts: Option<(Vec<u64>, Option<Vec<u32>>)> = None;
        let mut phases: Option<(Vec<Vec<u32>>, bool)> = None;
        let mut computed_for: Option<ComputedFor> = None;
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "computed_for" => {
                    if computed_for.is_some() {
                        return Err(de::Error::duplicate_field("computed_for"));
                    }
                    computed_for = Some(map.next_value()?);
                }
                "hosts" => {
                    if hosts.is_some() {
                        return Err(de::Error::duplicate_field("hosts"));
                    }
                    hosts = Some(map.next_value_seed(HostsSeed { lookup: self.lookup })?);
                }
                "phases" => {
                    if phases.is_some() {
                        return Err(de::Error::duplicate_field("phases"));
                    }
                    let n = hosts.as_ref().map(|h| h.0.len());
                    phases = Some((map.next_value_seed(PhasesSeed { n })?, n.is_some()));
                }
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        let (hosts, fabric_ranks) = hosts.ok_or_else(|| de::Error::missing_field("hosts"))?;
        let (phases, phases_checked) = phases.ok_or_else(|| de::Error::missing_field("phases"))?;
        Ok(Parsed {
            computed_for,
            hosts,
            fabric_ranks,
            phases,
            phases_checked,
        })
    }
}

/// The host list: GUIDs, distinct, and (with a topology) host ports of it.
struct HostsSeed<'a, 'p> {
    lookup: Option<&'a HostLookup<'p>>,
}

impl<'de> DeserializeSeed<'de> for HostsSeed<'_, '_> {
    type Value = (Vec<u64>, Option<Vec<u32>>);
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for HostsSeed<'_, '_> {
    type Value = (Vec<u64>, Option<Vec<u32>>);
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of port GUIDs \"0x<16 hex digits>\"")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut state = HostState {
            lookup: self.lookup,
            guids: Vec::new(),
            ranks: self.lookup.map(|_| Vec::new()),
            first: HashMap::new(),
        };
        while seq.next_element_seed(HostSeed(&mut state))?.is_some() {}
        if state.guids.is_empty() {
            return Err(de::Error::custom("the host list is empty"));
        }
        Ok((state.guids, state.ranks))
    }
}

struct HostState<'a, 'p> {
    lookup: Option<&'a HostLookup<'p>>,
    guids: Vec<u64>,
    ranks: Option<Vec<u32>>,
    first: HashMap<u64, usize>,
}

/// One host, checked where it stands (so the error carries its line).
struct HostSeed<'s, 'a, 'p>(&'s mut HostState<'a, 'p>);

impl<'de> DeserializeSeed<'de> for HostSeed<'_, '_, '_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_str(self)
    }
}

impl<'de> Visitor<'de> for HostSeed<'_, '_, '_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "hosts[{}]: a port GUID \"0x<16 hex digits>\"", self.0.guids.len())
    }
    fn visit_str<E: de::Error>(self, s: &str) -> std::result::Result<(), E> {
        let st = self.0;
        let i = st.guids.len();
        let g = s
            .starts_with("0x")
            .then(|| crate::guid::hex(s))
            .flatten()
            .ok_or_else(|| E::custom(format!("hosts[{i}]: `{s}` is not a port GUID (0x and 16 hex digits)")))?;
        if let Some(j) = st.first.insert(g, i) {
            return Err(E::custom(format!(
                "hosts[{i}]: GUID 0x{g:016x} is already rank {j}; every rank is a different host port"
            )));
        }
        if let (Some(lookup), Some(ranks)) = (st.lookup, st.ranks.as_mut()) {
            ranks.push(lookup.by_guid(g).map_err(|m| E::custom(format!("hosts[{i}]: {m}")))?);
        }
        st.guids.push(g);
        Ok(())
    }
}

/// Most phases a schedule of `n` ranks may hold: every ordered pair in a phase of its own
/// (n(n−1)) or as many as a random pattern may have, whichever is more; with the host
/// count not yet known, the latter. The cap keeps a file of millions of tiny phases from
/// costing more memory than a small multiple of its size.
fn max_phases(n: Option<usize>) -> usize {
    let pairs = n.map_or(0, |n| n.saturating_mul(n.saturating_sub(1)));
    pairs.max(super::generate::MAX_RANDOM_PHASES)
}

/// The phase list; each phase checked as it is read when the host count is known.
struct PhasesSeed {
    n: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for PhasesSeed {
    type Value = Vec<Vec<u32>>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PhasesSeed {
    type Value = Vec<Vec<u32>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of phases")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut phases = Vec::new();
        let mut check = self.n.map(PermutationCheck::new);
        let most = max_phases(self.n);
        while let Some(ph) = seq.next_element_seed(PhaseSeed {
            index: phases.len(),
            n: self.n,
            check: check.as_mut(),
        })? {
            if phases.len() == most {
                return Err(de::Error::custom(match self.n {
                    Some(n) => format!(
                        "more than {most} phases: a schedule of {n} ranks has at most max(n(n-1), {}) (every ordered pair in a phase of its own)",
                        super::generate::MAX_RANDOM_PHASES
                    ),
                    None => format!(
                        "more than {most} phases before the host list: write \"hosts\" before \"phases\", as ibfat does"
                    ),
                }));
            }
            phases.push(ph);
        }
        Ok(phases)
    }
}

/// One phase: destinations or null.
struct PhaseSeed<'a> {
    index: usize,
    n: Option<usize>,
    check: Option<&'a mut PermutationCheck>,
}

impl<'de> DeserializeSeed<'de> for PhaseSeed<'_> {
    type Value = Vec<u32>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for PhaseSeed<'_> {
    type Value = Vec<u32>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "phase {}: a list of destination ranks or null", self.index)
    }
    fn visit_seq<A: SeqAccess<'de>>(mut self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let p = self.index;
        let mut v = Vec::with_capacity(self.n.unwrap_or(0));
        if let Some(c) = self.check.as_mut() {
            c.begin();
        }
        loop {
            let seed = DestSeed {
                phase: p,
                rank: v.len(),
                n: self.n,
                check: self.check.as_deref_mut(),
            };
            match seq.next_element_seed(seed)? {
                Some(d) => v.push(d),
                None => break,
            }
        }
        if let Some(n) = self.n {
            if v.len() != n {
                return Err(de::Error::custom(super::PhaseError::Length {
                    phase: p,
                    len: v.len(),
                    ranks: n,
                }));
            }
        }
        Ok(v)
    }
}

/// One destination (a rank or null), checked where it stands.
struct DestSeed<'a> {
    phase: usize,
    rank: usize,
    n: Option<usize>,
    check: Option<&'a mut PermutationCheck>,
}

impl<'de> DeserializeSeed<'de> for DestSeed<'_> {
    type Value = u32;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<u32, D::Error> {
        d.deserialize_any(self)
    }
}

impl DestSeed<'_> {
    fn accept<E: de::Error>(self, d: i128) -> std::result::Result<u32, E> {
        let (p, r) = (self.phase, self.rank);
        if let Some(n) = self.n {
            if r >= n {
                return Err(E::custom(format!(
                    "phase {p} lists more than {n} ranks; the schedule has {n} hosts"
                )));
            }
        }
        if d < 0 || d >= IDLE as i128 {
            return Err(E::custom(format!(
                "phase {p}: rank {r} sends to {d}, which is not a rank (write null for an idle rank)"
            )));
        }
        if let Some(c) = self.check {
            c.send(p, r as u32, d as u64).map_err(E::custom)?;
        }
        Ok(d as u32)
    }
}

impl<'de> Visitor<'de> for DestSeed<'_> {
    type Value = u32;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "phase {}, rank {}: a destination rank or null",
            self.phase, self.rank
        )
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> std::result::Result<u32, E> {
        self.accept(v as i128)
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> std::result::Result<u32, E> {
        self.accept(v as i128)
    }
    fn visit_unit<E: de::Error>(self) -> std::result::Result<u32, E> {
        if let Some(n) = self.n {
            if self.rank >= n {
                return Err(E::custom(format!(
                    "phase {} lists more than {n} ranks; the schedule has {n} hosts",
                    self.phase
                )));
            }
        }
        Ok(IDLE)
    }
}

#[cfg(test)]
mod tests;
