//! Reading a broadcast file (`ibfat-bcast`, docs/schedules.md §6.2) back into a plan, so
//! that a process of a job can follow the plan `ibfat schedule --pattern bcast-multilane
//! --out FILE` wrote without opening the fabric. Everything a follower relies on is
//! checked, because a plan that is not one would make its processes wait for ever: the
//! format and version, the hosts, the root, every lane a partial permutation, and every
//! part a tree from the root that reaches every other rank exactly once.

use super::bcast::{Bcast, Flow, FILE_FORMAT, MAX_LANES};
use crate::error::{Error, Result};
use crate::formats::input::{self, ReadError};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use std::fmt;
use std::path::Path;

const HINT: &str =
    "a broadcast file is {\"format\": \"ibfat-bcast\", \"version\": 1, \"hosts\": [\"0x<port GUID>\", ...], \
                    \"root\": R, \"lanes\": [[null or [to_rank, part] for each rank], ...]}, as `ibfat schedule \
                    --pattern bcast-multilane --out FILE` writes it";

/// The keys a reader needs, read as they stand (other keys are skipped: the contract may
/// grow). The file is never built as a JSON tree: a wrong format or version is refused
/// where its key stands, the lanes are capped at [`MAX_LANES`] and each lane at the host
/// count, so memory stays within a small multiple of the file (docs/schedules.md §6.2).
struct Raw {
    hosts: Vec<u64>,
    root: u32,
    lanes: Vec<Vec<Option<(u32, u32)>>>,
}

struct FileSeed;

impl<'de> DeserializeSeed<'de> for FileSeed {
    type Value = Raw;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Raw, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for FileSeed {
    type Value = Raw;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a broadcast object {\"format\": \"ibfat-bcast\", \"version\": 1, ...}")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Raw, A::Error> {
        let (mut format, mut version) = (false, false);
        let (mut hosts, mut root, mut lanes) = (None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "format" => {
                    let f: String = map.next_value()?;
                    if f != FILE_FORMAT.0 {
                        return Err(de::Error::custom(format!(
                            "format {f:?}: this reader takes format \"{}\" version {}",
                            FILE_FORMAT.0, FILE_FORMAT.1
                        )));
                    }
                    format = true;
                }
                "version" => {
                    let v: serde_json::Number = map.next_value()?;
                    if v.as_u64() != Some(u64::from(FILE_FORMAT.1)) {
                        return Err(de::Error::custom(format!(
                            "format \"{}\" version {v}: this reader takes version {}",
                            FILE_FORMAT.0, FILE_FORMAT.1
                        )));
                    }
                    version = true;
                }
                "hosts" if hosts.is_none() => hosts = Some(map.next_value_seed(HostsSeed)?),
                "root" if root.is_none() => root = Some(map.next_value::<u32>()?),
                "lanes" if lanes.is_none() => {
                    let n = hosts.as_ref().map(Vec::len);
                    lanes = Some(map.next_value_seed(LanesSeed { n })?);
                }
                "hosts" | "root" | "lanes" => return Err(de::Error::custom(format!("`{key}` is given twice"))),
                _ => {
                    map.next_value::<de::IgnoredAny>()?;
                }
            }
        }
        if !(format && version) {
            return Err(de::Error::custom(format!(
                "no `format` and `version`: this reader takes format \"{}\" version {}",
                FILE_FORMAT.0, FILE_FORMAT.1
            )));
        }
        Ok(Raw {
            hosts: hosts.ok_or_else(|| de::Error::missing_field("hosts"))?,
            root: root.ok_or_else(|| de::Error::missing_field("root"))?,
            lanes: lanes.ok_or_else(|| de::Error::missing_field("lanes"))?,
        })
    }
}

/// The hosts: port GUIDs, each parsed where it stands (no string kept).
struct HostsSeed;

impl<'de> DeserializeSeed<'de> for HostsSeed {
    type Value = Vec<u64>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Vec<u64>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for HostsSeed {
    type Value = Vec<u64>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of port GUIDs \"0x<hex digits>\"")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Vec<u64>, A::Error> {
        let mut guids = Vec::new();
        while let Some(h) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
            let g = h
                .starts_with("0x")
                .then(|| crate::guid::hex(&h))
                .flatten()
                .ok_or_else(|| {
                    de::Error::custom(format!(
                        "hosts[{}] = {h:?} is not a port GUID (0x and up to 16 hex digits)",
                        guids.len()
                    ))
                })?;
            guids.push(g);
        }
        Ok(guids)
    }
}

/// The lanes: at most [`MAX_LANES`], each at most `n` entries when the hosts came first.
struct LanesSeed {
    n: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for LanesSeed {
    type Value = Vec<Vec<Option<(u32, u32)>>>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for LanesSeed {
    type Value = Vec<Vec<Option<(u32, u32)>>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of lanes")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut lanes = Vec::new();
        while let Some(lane) = seq.next_element_seed(LaneSeed {
            index: lanes.len(),
            n: self.n,
        })? {
            if lanes.len() == MAX_LANES as usize {
                return Err(de::Error::custom(format!(
                    "more than {MAX_LANES} lanes: a broadcast uses 1..={MAX_LANES}"
                )));
            }
            lanes.push(lane);
        }
        Ok(lanes)
    }
}

/// One lane: `null` or `[to, part]` per rank.
struct LaneSeed {
    index: usize,
    n: Option<usize>,
}

impl<'de> DeserializeSeed<'de> for LaneSeed {
    type Value = Vec<Option<(u32, u32)>>;
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> std::result::Result<Self::Value, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for LaneSeed {
    type Value = Vec<Option<(u32, u32)>>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "lanes[{}]: null or [to_rank, part] per rank", self.index)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Self::Value, A::Error> {
        let mut lane = Vec::with_capacity(self.n.unwrap_or(0));
        while let Some(e) = seq.next_element::<Option<(u32, u32)>>()? {
            if let Some(n) = self.n.filter(|&n| lane.len() == n) {
                return Err(de::Error::custom(format!(
                    "lanes[{}] has more than {n} entries for {n} hosts",
                    self.index
                )));
            }
            lane.push(e);
        }
        Ok(lane)
    }
}

/// Read the broadcast file at `path`: the plan and the port GUID of every rank.
pub fn read(path: &Path) -> Result<(Bcast, Vec<u64>)> {
    let bytes = input::read(path, input::SCHEDULE).map_err(|e| match e {
        ReadError::Io(e) if e.kind() == std::io::ErrorKind::NotFound => Error::at(path, 0, "no such broadcast file"),
        e => e.into_error(path),
    })?;
    parse(&bytes, path)
}

/// [`read`] from the file's bytes; `path` is for messages.
pub fn parse(bytes: &[u8], path: &Path) -> Result<(Bcast, Vec<u64>)> {
    let json_err = |e: serde_json::Error| {
        let text = e.to_string();
        let msg = text.rfind(" at line ").map_or(&text[..], |i| &text[..i]).to_string();
        Error::at(path, e.line(), format!("{msg} (column {})", e.column())).with_hint(HINT)
    };
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let raw = FileSeed
        .deserialize(&mut de)
        .and_then(|v| de.end().map(|_| v))
        .map_err(json_err)?;
    let bad = |msg: String| Error::at(path, 0, msg).with_hint(HINT);
    let guids = raw.hosts;
    let mut seen = std::collections::HashMap::new();
    for (r, g) in guids.iter().enumerate() {
        if let Some(first) = seen.insert(*g, r) {
            return Err(bad(format!(
                "hosts[{r}] repeats hosts[{first}] (0x{g:016x}): one rank per host port"
            )));
        }
    }
    let n = u32::try_from(guids.len()).map_err(|_| bad("too many hosts".into()))?;
    if n == 0 {
        return Err(bad("no hosts: a broadcast needs at least one rank".into()));
    }
    if raw.root >= n {
        return Err(bad(format!("root {} is not a rank (ranks 0..={})", raw.root, n - 1)));
    }
    let lanes = raw.lanes.len() as u32;
    if !(1..=MAX_LANES as usize).contains(&raw.lanes.len()) {
        return Err(bad(format!("{lanes} lanes: a broadcast uses 1..={MAX_LANES}")));
    }
    let mut flows = Vec::new();
    for (k, lane) in raw.lanes.iter().enumerate() {
        if lane.len() != n as usize {
            return Err(bad(format!("lanes[{k}] has {} entries for {n} hosts", lane.len())));
        }
        let mut received = vec![false; n as usize];
        for (from, e) in lane.iter().enumerate() {
            let Some((to, part)) = *e else { continue };
            if to >= n || to as usize == from || part >= lanes {
                return Err(bad(format!(
                    "lanes[{k}][{from}] = [{to}, {part}]: expected [another rank 0..{n}, a part 0..{lanes}]"
                )));
            }
            if std::mem::replace(&mut received[to as usize], true) {
                return Err(bad(format!(
                    "lane {k}: rank {to} receives twice; a lane carries at most one flow into a rank"
                )));
            }
            flows.push(Flow {
                from: from as u32,
                to,
                part,
                lane: k as u32,
            });
        }
    }
    let flows = tree_order(n, raw.root, lanes, &flows).map_err(bad)?;
    let b = Bcast {
        ranks: n,
        root: raw.root,
        lanes,
        flows,
    };
    Ok((b, guids))
}

/// The flows in the plan's order (part after part, each breadth first from the root), or
/// why they are not L trees that reach every other rank exactly once.
fn tree_order(n: u32, root: u32, lanes: u32, flows: &[Flow]) -> std::result::Result<Vec<Flow>, String> {
    let mut out = Vec::with_capacity(flows.len());
    for part in 0..lanes {
        let mut children: Vec<Vec<Flow>> = vec![Vec::new(); n as usize];
        let mut into = vec![0u32; n as usize];
        for f in flows.iter().filter(|f| f.part == part) {
            children[f.from as usize].push(*f);
            into[f.to as usize] += 1;
        }
        if let Some(r) = (0..n).find(|&r| into[r as usize] != u32::from(r != root)) {
            return Err(format!(
                "part {part} reaches rank {r} {} times; every rank but the root {root} must get it exactly once",
                into[r as usize]
            ));
        }
        let mut queue = std::collections::VecDeque::from([root]);
        let mut reached = 1;
        while let Some(r) = queue.pop_front() {
            for f in &children[r as usize] {
                out.push(*f);
                queue.push_back(f.to);
                reached += 1;
            }
        }
        if reached != n {
            return Err(format!(
                "part {part}: {} ranks are fed by a cycle, not from the root {root}",
                n - reached
            ));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str) -> Result<(Bcast, Vec<u64>)> {
        parse(text.as_bytes(), Path::new("b.json"))
    }

    #[test]
    fn a_written_plan_reads_back_lane_by_lane() {
        for (n, root, lanes, sites) in [(1, 0, 1, None), (7, 0, 2, None), (15, 4, 2, Some(3)), (10, 9, 3, None)] {
            let site_of: Option<Vec<u32>> = sites.map(|s| (0..n).map(|r| r / s).collect());
            let b = Bcast::build(n, root, lanes, site_of.as_deref()).unwrap();
            let guids: Vec<u64> = (0..u64::from(n)).map(|g| 0x0002_c900_0000_0000 + 2 * g).collect();
            let (got, got_guids) = check(&b.to_json(&guids)).unwrap();
            assert_eq!((got.ranks, got.root, got.lanes, got_guids), (n, root, lanes, guids));
            for k in 0..lanes {
                assert_eq!(got.sends(k), b.sends(k));
                assert_eq!(got.receives(k), b.receives(k));
            }
            assert_eq!(got.depths(), b.depths());
        }
    }

    #[test]
    fn files_that_are_no_plan_are_refused_with_the_reason() {
        let head = r#""format": "ibfat-bcast", "version": 1, "hosts": ["0x1", "0x2", "0x3"], "root": 0"#;
        for (lanes, want) in [
            (r#"[[[1, 0], [2, 0], null]]"#, ""),
            (r#"[[[1, 0], [0, 0], null]]"#, "reaches rank 0 1 times"),
            (r#"[[[1, 0], null, null]]"#, "reaches rank 2 0 times"),
            (r#"[[[1, 0], [3, 0], null]]"#, "expected [another rank"),
            (r#"[[[1, 1], [2, 0], null]]"#, "expected [another rank"),
            (r#"[[null, [2, 0], [1, 0]]]"#, "fed by a cycle"),
            (r#"[[[1, 0], [2, 0]]]"#, "2 entries for 3 hosts"),
            (r#"[[[1, 0], [2, 0], null], [[2, 1], [2, 1], null]]"#, "receives twice"),
            (r#"[]"#, "0 lanes"),
        ] {
            let r = check(&format!("{{{head}, \"lanes\": {lanes}}}"));
            match want {
                "" => assert!(r.is_ok(), "{lanes}: {:?}", r.err()),
                w => assert!(
                    r.as_ref().is_err_and(|e| e.to_string().contains(w)),
                    "{lanes}: {:?}",
                    r.err()
                ),
            }
        }
        for (text, want) in [
            (
                r#"{"format": "ibfat-schedule", "version": 1}"#,
                "this reader takes format",
            ),
            (r#"{"format": "ibfat-bcast", "version": 2}"#, "version 2"),
            (
                r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["0x1"], "root": 1, "lanes": [[null]]}"#,
                "root 1",
            ),
            (
                r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["7"], "root": 0, "lanes": [[null]]}"#,
                "not a port GUID",
            ),
            (
                r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["0x1", "0x1"], "root": 0, "lanes": [[[1, 0], null]]}"#,
                "repeats",
            ),
            (
                r#"{"format": "ibfat-bcast", "version": 1, "hosts": ["0x1"], "root": 0}"#,
                "lanes",
            ),
            ("{\"format\": \"ibfat-bcast\",\n \"version\": 1,", "b.json:2"),
        ] {
            let e = check(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }
}
