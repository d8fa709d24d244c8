//! Jobs: which host ports are the ranks of a pattern, in rank order.
//!
//! A job is the whole fabric in rank order ([`Layout::hosts`](crate::topology::Layout::hosts))
//! or a subset given with `--job HOSTS`, either inline or as a file:
//!
//! * `--job ranks:0-63,128-191` — fabric ranks (positions in the topology's rank order,
//!   inclusive ranges), in the order written;
//! * `--job 'dgx[001-031],login1'` — a Slurm host list of host or server names (when no
//!   file has that name): a server is every HCA whose description starts with its name,
//!   in device order (`mlx5_0` … `mlx5_7`), so ranks are GPU-ordered (server, rail);
//! * `--job FILE` — one host per line, in job-rank order; `#` starts a comment, blank
//!   lines are skipped. A line is one of
//!   - `0x0002c90020000001`: the port GUID of a host port;
//!   - `17` or `17-31`: a fabric rank or an inclusive range of them;
//!   - anything else: a node name (`H3_1`), a node description (`H3_1 HCA-1`) or its
//!     first word — the bare host name `scontrol show hostnames` prints — of a host
//!     with one port in the topology (a multi-port host needs its port GUIDs), or of a
//!     server of several HCAs (all of them, in device order); or a host list of such
//!     names (`dgx[001-004]`).
//!
//! Every host may appear once; errors name the file, the line and the host.

use crate::error::{Error, Result};
use crate::families::railopt::model::{host_words, natural_cmp};
use crate::formats::input::ReadError;
use crate::topology::spec::parse_guid;
use crate::topology::{Endpoint, Fabric, NodeKind, Topology};
use std::collections::HashMap;
use std::path::Path;

/// A topology's host ports in its rank order, with the fabric they belong to: what job
/// files and schedule files are resolved against. A plan gives [`Layout::hosts`]
/// ([`Hosts::of`]); a discovered fabric of unknown family can give
/// [`Fabric::endpoints`].
///
/// [`Layout::hosts`]: crate::topology::Layout::hosts
#[derive(Clone, Debug)]
pub struct Hosts<'a> {
    /// The fabric the ports belong to (for GUIDs, names and descriptions).
    pub fabric: &'a Fabric,
    /// Host ports in rank order (fabric ranks index this list).
    pub ports: &'a [Endpoint],
    /// Name of the topology for messages (`lsft7`, a file name).
    pub name: String,
}

impl<'a> Hosts<'a> {
    /// A fabric's host ports in the given rank order.
    pub fn new(fabric: &'a Fabric, ports: &'a [Endpoint], name: impl Into<String>) -> Hosts<'a> {
        Hosts {
            fabric,
            ports,
            name: name.into(),
        }
    }
    /// The hosts of a plan, in its rank order.
    pub fn of(plan: &'a Topology) -> Hosts<'a> {
        Hosts::new(&plan.fabric, plan.layout.hosts(), plan.name.clone())
    }
}

/// The hosts a pattern runs on, in rank order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    hosts: Vec<Endpoint>,
    /// Index of each job rank in the topology's host list ([`Hosts::ports`]).
    fabric_ranks: Vec<u32>,
}

impl Job {
    /// Every host of the topology (`all`: its hosts in rank order).
    pub fn whole(all: &[Endpoint]) -> Job {
        Job {
            hosts: all.to_vec(),
            fabric_ranks: (0..all.len() as u32).collect(),
        }
    }

    /// The hosts at the given fabric ranks (indices into `all`), in the given order, each
    /// at most once.
    pub fn from_fabric_ranks(all: &[Endpoint], ranks: Vec<u32>) -> Result<Job> {
        let n = all.len();
        if ranks.is_empty() {
            return Err(Error::input("job", "the job has no hosts", None));
        }
        let mut at = vec![u32::MAX; n];
        for (i, &r) in ranks.iter().enumerate() {
            if r as usize >= n {
                return Err(Error::input(
                    "job",
                    format!("fabric rank {r} does not exist; the topology has ranks 0..={}", n - 1),
                    None,
                ));
            }
            if at[r as usize] != u32::MAX {
                return Err(Error::input(
                    "job",
                    format!("fabric rank {r} is listed twice (job ranks {} and {i})", at[r as usize]),
                    None,
                ));
            }
            at[r as usize] = i as u32;
        }
        Ok(Job {
            hosts: ranks.iter().map(|&r| all[r as usize]).collect(),
            fabric_ranks: ranks,
        })
    }

    /// Number of ranks.
    pub fn len(&self) -> usize {
        self.hosts.len()
    }
    /// Never true for a constructed job; here for API completeness.
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty()
    }
    /// Host ports in job-rank order.
    pub fn hosts(&self) -> &[Endpoint] {
        &self.hosts
    }
    /// Fabric rank (index in the topology's host list) of every job rank.
    pub fn fabric_ranks(&self) -> &[u32] {
        &self.fabric_ranks
    }
    /// True when the job is every host of `all` in that order.
    pub fn is_whole(&self, all: &[Endpoint]) -> bool {
        self.fabric_ranks.len() == all.len() && self.fabric_ranks.iter().enumerate().all(|(i, &r)| r as usize == i)
    }
    /// Port GUID of every job rank (the `hosts` list of a schedule file).
    pub fn port_guids(&self, fabric: &Fabric) -> Vec<u64> {
        self.hosts.iter().map(|e| fabric.port(e.node, e.port).guid).collect()
    }
    /// Job rank of every fabric rank ([`super::IDLE`] when the host is not in the job).
    pub(crate) fn rank_of_fabric(&self, fabric_hosts: usize) -> Vec<u32> {
        let mut v = vec![super::IDLE; fabric_hosts];
        for (i, &r) in self.fabric_ranks.iter().enumerate() {
            v[r as usize] = i as u32;
        }
        v
    }
    /// The sub-job of the given job ranks, in that order.
    pub(crate) fn select(&self, job_ranks: &[u32]) -> Job {
        Job {
            hosts: job_ranks.iter().map(|&r| self.hosts[r as usize]).collect(),
            fabric_ranks: job_ranks.iter().map(|&r| self.fabric_ranks[r as usize]).collect(),
        }
    }

    /// `--job` argument: `ranks:LIST` inline, otherwise a job file.
    pub fn from_arg(arg: &str, topo: &Hosts) -> Result<Job> {
        if let Some(list) = arg.strip_prefix("ranks:") {
            let mut ranks = Vec::new();
            for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let (a, b) = parse_range(item).ok_or_else(|| {
                    Error::input(
                        "job",
                        format!("`{item}` is not a rank or a range of ranks"),
                        Some("write ranks:0-63,128-191 (inclusive ranges)".into()),
                    )
                })?;
                check_range(a, b, topo.ports.len()).map_err(|m| Error::input("job", m, None))?;
                ranks.extend(a..=b);
            }
            return Job::from_fabric_ranks(topo.ports, ranks);
        }
        let path = Path::new(arg);
        let text =
            match crate::formats::input::read(path, crate::formats::input::JOB) {
                Ok(bytes) => {
                    String::from_utf8(bytes).map_err(|_| Error::at(path, 0, "not UTF-8 text: a job file is text"))?
                }
                Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound && !arg.contains('/') => {
                    return Job::from_hostlist(arg, topo).map_err(|m| {
                        Error::input("job", format!("`{arg}` is no job file, and as a host list: {m}"), None).with_hint(
                        "give a file of hosts (port GUIDs, node names, ranks), ranks:0-63, or host names dgx[001-031]",
                    )
                    })
                }
                Err(ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => return Err(Error::input(
                    "job",
                    format!("{arg}: no such job file"),
                    Some(
                        "give a file of hosts (port GUIDs, node names, ranks), ranks:0-63, or host names dgx[001-031]"
                            .into(),
                    ),
                )),
                Err(ReadError::Io(e)) => return Err(Error::io(format!("cannot read {arg}"), e)),
                Err(e) => return Err(e.into_error(path)),
            };
        Job::parse(&text, path, topo)
    }

    /// The hosts and servers of a Slurm host list (`dgx[001-031],login1`), each server's
    /// HCAs in device order; the message names the first name that is no host.
    pub fn from_hostlist(list: &str, topo: &Hosts) -> std::result::Result<Job, String> {
        let lookup = HostLookup::new(topo);
        let mut ranks = Vec::new();
        let mut seen = vec![false; topo.ports.len()];
        for name in crate::formats::slurm::expand_hostlist(list)? {
            for r in lookup.find(&name)? {
                if std::mem::replace(&mut seen[r as usize], true) {
                    return Err(format!("{} is listed twice (`{name}`)", lookup.describe(r)));
                }
                ranks.push(r);
            }
        }
        Job::from_fabric_ranks(topo.ports, ranks).map_err(|e| e.to_string())
    }

    /// Parse a job file's text (see the module documentation); `path` is for messages.
    pub(crate) fn parse(text: &str, path: &Path, topo: &Hosts) -> Result<Job> {
        let lookup = HostLookup::new(topo);
        let n = topo.ports.len();
        let mut ranks: Vec<u32> = Vec::new();
        let mut line_of = vec![0usize; n];
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let item = raw.split('#').next().unwrap_or("").trim();
            if item.is_empty() {
                continue;
            }
            let found: Vec<u32> = if let Some((a, b)) = parse_range(item) {
                check_range(a, b, n).map_err(|m| Error::at(path, line, m))?;
                (a..=b).collect()
            } else if item.contains('[') {
                let mut v = Vec::new();
                for name in crate::formats::slurm::expand_hostlist(item).map_err(|m| Error::at(path, line, m))? {
                    v.extend(lookup.find(&name).map_err(|m| Error::at(path, line, m))?);
                }
                v
            } else {
                lookup.find(item).map_err(|m| Error::at(path, line, m))?
            };
            for r in found {
                if line_of[r as usize] != 0 {
                    return Err(Error::at(
                        path,
                        line,
                        format!(
                            "{} is already in the job (line {})",
                            lookup.describe(r),
                            line_of[r as usize]
                        ),
                    ));
                }
                line_of[r as usize] = line;
                ranks.push(r);
            }
        }
        if ranks.is_empty() {
            return Err(Error::at(path, 0, "the job file lists no hosts")
                .with_hint("one host per line: a port GUID (0x...), a node name or description, or ranks 0-63"));
        }
        Job::from_fabric_ranks(topo.ports, ranks)
    }

    #[cfg(test)]
    /// The job whose port GUIDs are `guids`, in that order (a schedule file's host list).
    /// The error names the position and GUID that do not match the topology.
    pub(crate) fn from_port_guids(guids: &[u64], topo: &Hosts) -> Result<Job> {
        let lookup = HostLookup::new(topo);
        let ranks = guids
            .iter()
            .enumerate()
            .map(|(i, &g)| {
                lookup
                    .by_guid(g)
                    .map_err(|m| Error::input("hosts", format!("hosts[{i}]: {m}"), None))
            })
            .collect::<Result<Vec<u32>>>()?;
        Job::from_fabric_ranks(topo.ports, ranks)
    }
}

/// `17` or `17-31` (inclusive).
fn parse_range(s: &str) -> Option<(u32, u32)> {
    let s = s.strip_prefix("ranks").map(str::trim).unwrap_or(s);
    let (a, b) = match s.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None => (s, s),
    };
    if a.is_empty() || b.is_empty() || !a.bytes().chain(b.bytes()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some((a.parse().ok()?, b.parse().ok()?))
}

fn check_range(a: u32, b: u32, n: usize) -> std::result::Result<(), String> {
    if a > b {
        return Err(format!("rank range {a}-{b} is empty; write the lower rank first"));
    }
    if b as usize >= n {
        return Err(format!(
            "fabric rank {b} does not exist; the topology has ranks 0..={}",
            n.saturating_sub(1)
        ));
    }
    Ok(())
}

/// Finds host ports by GUID, node name or description (built once per file).
pub(crate) struct HostLookup<'a> {
    fabric: &'a Fabric,
    ports: &'a [Endpoint],
    name: &'a str,
    rank_of_port_guid: HashMap<u64, u32>,
    /// Fabric ranks of each node's host ports.
    node_ranks: HashMap<u32, Vec<u32>>,
}

impl<'a> HostLookup<'a> {
    pub(crate) fn new(topo: &'a Hosts<'_>) -> HostLookup<'a> {
        let mut rank_of_port_guid = HashMap::new();
        let mut node_ranks: HashMap<u32, Vec<u32>> = HashMap::new();
        for (r, e) in topo.ports.iter().enumerate() {
            rank_of_port_guid.insert(topo.fabric.port(e.node, e.port).guid, r as u32);
            node_ranks.entry(e.node).or_default().push(r as u32);
        }
        HostLookup {
            fabric: topo.fabric,
            ports: topo.ports,
            name: &topo.name,
            rank_of_port_guid,
            node_ranks,
        }
    }

    fn describe(&self, rank: u32) -> String {
        let e = self.ports[rank as usize];
        let guid = self.fabric.port(e.node, e.port).guid;
        format!(
            "host {} port {} (GUID 0x{guid:016x}, fabric rank {rank})",
            self.fabric.node(e.node).name,
            e.port
        )
    }

    /// Fabric rank of a host port GUID, or what the GUID is instead.
    pub(crate) fn by_guid(&self, g: u64) -> std::result::Result<u32, String> {
        if let Some(&r) = self.rank_of_port_guid.get(&g) {
            return Ok(r);
        }
        let f = &self.fabric;
        if let Some(id) = f.nodes.iter().position(|n| n.guid == g) {
            let node = &f.nodes[id];
            return Err(match (node.kind, self.node_ranks.get(&(id as u32))) {
                (NodeKind::Ca, Some(rs)) => {
                    let e = self.ports[rs[0] as usize];
                    format!(
                        "0x{g:016x} is the node GUID of {}; its port {} GUID is 0x{:016x}",
                        node.name,
                        e.port,
                        f.port(e.node, e.port).guid
                    )
                }
                _ => format!(
                    "0x{g:016x} is the GUID of {} ({:?}), not of a host port",
                    node.name, node.kind
                ),
            });
        }
        Err(format!(
            "0x{g:016x} is not a host port GUID of {} (wrong topology?)",
            self.name
        ))
    }

    /// The fabric ranks `item` names: one host port, or every HCA of a server in device
    /// order.
    fn find(&self, item: &str) -> std::result::Result<Vec<u32>, String> {
        if item.starts_with("0x") || item.starts_with("0X") {
            let g = parse_guid(item).ok_or_else(|| format!("`{item}` is not a GUID (0x and up to 16 hex digits)"))?;
            return self.by_guid(g).map(|r| vec![r]);
        }
        let f = &self.fabric;
        let by_name: Vec<usize> = f
            .nodes
            .iter()
            .enumerate()
            .filter(|(_, n)| n.name == item)
            .map(|(i, _)| i)
            .collect();
        let matching = |pred: &dyn Fn(&crate::topology::Node) -> bool| -> Vec<usize> {
            f.nodes
                .iter()
                .enumerate()
                .filter(|(_, n)| pred(n))
                .map(|(i, _)| i)
                .collect()
        };
        let mut ids = by_name;
        if ids.is_empty() {
            ids = matching(&|n| n.desc.trim() == item);
        }
        if ids.is_empty() {
            // a bare host name as Slurm prints it (`scontrol show hostnames`): the first
            // word of the node description (`H3_1` of "H3_1 HCA-1"), among hosts only
            ids = matching(&|n| n.kind != NodeKind::Switch && n.desc.split_whitespace().next() == Some(item));
        }
        let server = ids.len() > 1 && ids.iter().all(|&i| host_words(f, i as u32).0 == item);
        if server {
            return self.server_ranks(item, &ids);
        }
        match ids.as_slice() {
            [] => Err(format!("no host is named or described `{item}` in {}", self.name)),
            [id] => match self.node_ranks.get(&(*id as u32)).map(Vec::as_slice) {
                Some([r]) => Ok(vec![*r]),
                Some(rs) => Err(format!(
                    "`{item}` has {} host ports; list them by port GUID ({})",
                    rs.len(),
                    rs.iter()
                        .map(|&r| {
                            let e = self.ports[r as usize];
                            format!("0x{:016x}", f.port(e.node, e.port).guid)
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
                None => Err(format!(
                    "`{item}` names {}, a {}, not a host",
                    f.nodes[*id].name,
                    format!("{:?}", f.nodes[*id].kind).to_lowercase()
                )),
            },
            many => Err(format!(
                "{} nodes are described `{item}`; list the host by port GUID or node name",
                many.len()
            )),
        }
    }

    /// A server's ranks: its HCAs' host ports in device order (`mlx5_0` … `mlx5_7`: the
    /// rails), then port.
    fn server_ranks(&self, item: &str, ids: &[usize]) -> std::result::Result<Vec<u32>, String> {
        let f = self.fabric;
        let mut hcas: Vec<(&str, u8, u32)> = Vec::new();
        for &id in ids {
            for &r in self.node_ranks.get(&(id as u32)).map_or(&[][..], Vec::as_slice) {
                hcas.push((host_words(f, id as u32).1, self.ports[r as usize].port, r));
            }
        }
        if hcas.is_empty() {
            return Err(format!("server `{item}` has no ranked host port in {}", self.name));
        }
        hcas.sort_by(|a, b| natural_cmp(a.0, b.0).then(a.1.cmp(&b.1)));
        Ok(hcas.into_iter().map(|h| h.2).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::LsftParams;
    use crate::topology::Topology;
    use crate::topology::{FamilySpec, Spec};

    fn plan() -> Topology {
        Spec::new(FamilySpec::Lsft(LsftParams::new(2, false))).build().unwrap()
    }

    #[test]
    fn whole_job_is_the_rank_order() {
        let p = plan();
        let j = Job::whole(p.layout.hosts());
        assert_eq!(j.len(), 21);
        assert!(j.is_whole(p.layout.hosts()));
        assert_eq!(j.hosts(), p.layout.hosts());
        let sub = Job::from_fabric_ranks(p.layout.hosts(), vec![3, 1]).unwrap();
        assert!(!sub.is_whole(p.layout.hosts()));
        assert_eq!(sub.rank_of_fabric(21)[3], 0);
        assert_eq!(sub.select(&[1]).fabric_ranks(), &[1]);
    }

    #[test]
    fn job_file_accepts_guids_names_descriptions_and_ranks() {
        let p = plan();
        let g = |r: usize| {
            let e = p.layout.hosts()[r];
            p.fabric.port(e.node, e.port).guid
        };
        let name = |r: usize| p.fabric.node(p.layout.hosts()[r].node).name.clone();
        let desc = |r: usize| p.fabric.node(p.layout.hosts()[r].node).desc.clone();
        let text = format!(
            "# my job\n0x{:016x}\n{}   # by name\n\n{}\n10-12\n",
            g(5),
            name(7),
            desc(2)
        );
        let topo = Hosts::of(&p);
        let j = Job::parse(&text, Path::new("job.txt"), &topo).unwrap();
        assert_eq!(j.fabric_ranks(), &[5, 7, 2, 10, 11, 12]);
        assert_eq!(j.port_guids(&p.fabric)[0], g(5));
        let inline = Job::from_arg("ranks:0-2, 9", &topo).unwrap();
        assert_eq!(inline.fabric_ranks(), &[0, 1, 2, 9]);
        assert_eq!(
            Job::from_port_guids(&[g(4), g(0)], &topo).unwrap().fabric_ranks(),
            &[4, 0]
        );
        // a dump names nodes otherwise; Slurm's bare host name is the description's
        // first word (`scontrol show hostnames` prints one per line)
        let mut dumped = p.clone();
        for n in dumped.fabric.nodes.iter_mut() {
            n.name = format!("node-0x{:016x}", n.guid);
        }
        let slurm = |r: usize| desc(r).split_whitespace().next().unwrap().to_string();
        assert_ne!(slurm(3), desc(3));
        let text = format!("{}\n{}\n", slurm(3), slurm(8));
        let j = Job::parse(&text, Path::new("hosts"), &Hosts::of(&dumped)).unwrap();
        assert_eq!(j.fabric_ranks(), &[3, 8]);
    }

    #[test]
    fn job_file_errors_name_file_line_and_host() {
        let p = plan();
        let topo = Hosts::of(&p);
        let err = |text: &str| Job::parse(text, Path::new("job.txt"), &topo).unwrap_err();
        let host0 = p.layout.hosts()[0];
        let node_guid = p.fabric.node(host0.node).guid;
        let e = err(&format!("3\n0x{node_guid:x}\n"));
        assert!(matches!(e, crate::Error::Input(_)), "{e}");
        let s = e.to_string();
        assert!(
            s.starts_with("job.txt:2: ") && s.contains("node GUID of H0_0") && s.contains("port 1 GUID"),
            "{s}"
        );
        let s = err("1\n2\n1-3\n").to_string();
        assert!(
            s.starts_with("job.txt:3: ") && s.contains("fabric rank 1") && s.contains("line 1"),
            "{s}"
        );
        let s = err("L3\n").to_string();
        assert!(s.contains("`L3` names L3, a switch, not a host"), "{s}");
        let s = err("nosuch\n").to_string();
        assert!(
            s.starts_with("job.txt:1: no host is named or described `nosuch`"),
            "{s}"
        );
        let s = err("0-21\n").to_string();
        assert!(s.contains("rank 21 does not exist") && s.contains("0..=20"), "{s}");
        let s = err("0xdeadbeef\n").to_string();
        assert!(s.contains("not a host port GUID of lsft2"), "{s}");
        let s = err("# nothing\n").to_string();
        assert!(s.contains("lists no hosts"), "{s}");
        let s = Job::from_arg("ranks:5-2", &topo).unwrap_err().to_string();
        assert!(s.contains("range 5-2 is empty"), "{s}");
        let s = Job::from_arg("/nonexistent/job", &topo).unwrap_err().to_string();
        assert!(s.contains("no such job file"), "{s}");
        let s = Job::from_port_guids(&[0x42], &topo).unwrap_err().to_string();
        assert!(s.starts_with("hosts: hosts[0]: 0x0000000000000042"), "{s}");
    }
}
