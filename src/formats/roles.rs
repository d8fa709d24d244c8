//! Host-role sources: the GUID lists (OpenSM ftree's `cn_guid_file` / `io_guid_file`) and
//! host name patterns a site names its compute and non-compute hosts with, resolved
//! against a fabric into [`Roles`] (semantics in [`crate::topology::roles`]).
//!
//! GUID lists: one GUID per line (`0x0002c9030012abcd`, hex with `0x`, or decimal), `#`
//! starts a comment, anything after the GUID on a line is ignored (so `GUID name` lists
//! work). A GUID is a CA port GUID (that port) or a CA node GUID (every cabled port of
//! the host).
//!
//! Strict resolution (the CLI) refuses a GUID listed twice, a GUID that is not in the
//! fabric or that names a switch, a host named by both lists, and a pattern that matches
//! no host: each is a typo a site wants to hear about. Lenient resolution (the OpenSM
//! plugin, on a live fabric where a storage server may be powered off) reports the
//! absent GUIDs and idle patterns as warnings and goes on; duplicates and contradictions
//! stay errors there too.

use super::input::{self, Limits};
use crate::error::{Error, Result};
use crate::topology::roles::{glob, Roles};
use crate::topology::{Endpoint, Fabric};
use std::path::{Path, PathBuf};

/// Where the roles come from (all optional; nothing given = every host is compute).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoleSources {
    /// Compute hosts (`cn_guid_file`): when given, every host not listed is non-compute.
    pub compute_guids: Option<PathBuf>,
    /// Non-compute hosts (`io_guid_file`).
    pub io_guids: Option<PathBuf>,
    /// Host name patterns of non-compute hosts.
    pub io_names: Vec<String>,
}

impl RoleSources {
    /// True when no role source is given.
    pub fn is_empty(&self) -> bool {
        self.compute_guids.is_none() && self.io_guids.is_none() && self.io_names.is_empty()
    }
}

/// GUID lists: small text files, and only regular files (the OpenSM plugin reads them
/// inside the routing pass, which must never wait on a FIFO's writer; the CLI refuses
/// FIFOs here as well).
const GUID_LIST: Limits = Limits {
    regular_only: true,
    ..input::JOB
};

/// Resolve `src` against `fabric`; `strict` as described in the module documentation.
pub fn resolve(fabric: &Fabric, src: &RoleSources, strict: bool) -> Result<Roles> {
    let mut warnings = Vec::new();
    let ports = fabric.endpoints();
    let read = |path: &Path, warnings: &mut Vec<String>| -> Result<Vec<(usize, usize)>> {
        let text = input::read_text(path, GUID_LIST)?;
        guid_list(fabric, &ports, &text, path, strict, warnings)
    };
    // per endpoint (index into `ports`): listed as compute / as I/O (line numbers)
    let mut compute = vec![0usize; ports.len()];
    let mut io = vec![0usize; ports.len()];
    if let Some(p) = &src.compute_guids {
        for (line, i) in read(p, &mut warnings)? {
            compute[i] = line;
        }
    }
    if let Some(p) = &src.io_guids {
        for (line, i) in read(p, &mut warnings)? {
            if compute[i] != 0 {
                return Err(Error::at(
                    p,
                    line,
                    format!(
                        "{} is listed as a compute host too (line {} of the compute list)",
                        describe(fabric, ports[i]),
                        compute[i]
                    ),
                )
                .with_hint("a host has one role: remove it from one of the two lists"));
            }
            io[i] = line;
        }
    }
    for pat in &src.io_names {
        let mut hit = 0;
        for (i, ep) in ports.iter().enumerate() {
            let n = fabric.node(ep.node);
            let first = n.desc.split_whitespace().next().unwrap_or("");
            if [n.name.as_str(), n.desc.as_str(), first].iter().any(|s| glob(pat, s)) {
                if compute[i] != 0 {
                    return Err(Error::input(
                        format!("host pattern `{pat}`"),
                        format!("matches {}, which the compute list names", describe(fabric, *ep)),
                        Some("a host has one role: narrow the pattern or edit the list".into()),
                    ));
                }
                io[i] = 1;
                hit += 1;
            }
        }
        if hit == 0 {
            let msg = format!("host pattern `{pat}` matches no host");
            if strict {
                let some: Vec<String> = ports
                    .iter()
                    .take(3)
                    .map(|ep| fabric.node(ep.node).desc.clone())
                    .collect();
                return Err(Error::input(
                    "io-hosts",
                    msg,
                    Some(format!(
                        "patterns match node names or descriptions with * and ?, e.g. {}",
                        some.join(", ")
                    )),
                ));
            }
            warnings.push(msg);
        }
    }
    let mut non_compute = vec![false; fabric.ports.len()];
    for (i, ep) in ports.iter().enumerate() {
        let listed_compute = src.compute_guids.is_none() || compute[i] != 0;
        non_compute[fabric.port_index(ep.node, ep.port) as usize] = io[i] != 0 || !listed_compute;
    }
    Ok(Roles::new(non_compute, warnings))
}

fn first_token(line: &str) -> Option<&str> {
    line.split('#').next().and_then(|l| l.split_whitespace().next())
}

fn describe(fabric: &Fabric, ep: Endpoint) -> String {
    let n = fabric.node(ep.node);
    format!("host {} port {} (GUID 0x{:016x})", n.desc, ep.port, n.guid)
}

/// Read a GUID list; returns (line, endpoint index) per host port it names, duplicates
/// refused. Lenient mode turns "not in the fabric" into warnings.
fn guid_list(
    fabric: &Fabric,
    ports: &[Endpoint],
    text: &str,
    path: &Path,
    strict: bool,
    warnings: &mut Vec<String>,
) -> Result<Vec<(usize, usize)>> {
    use std::collections::HashMap;
    let mut by_node: HashMap<u64, Vec<usize>> = HashMap::new();
    let mut by_port: HashMap<u64, usize> = HashMap::new();
    for (i, ep) in ports.iter().enumerate() {
        by_node.entry(fabric.node(ep.node).guid).or_default().push(i);
        by_port.insert(fabric.ports[fabric.port_index(ep.node, ep.port) as usize].guid, i);
    }
    let switch_guids: std::collections::HashSet<u64> = fabric.switches().map(|s| fabric.node(s).guid).collect();
    let mut seen: HashMap<u64, usize> = HashMap::new();
    let mut taken: HashMap<usize, usize> = HashMap::new();
    let mut out = Vec::new();
    for (ln, line) in text.lines().enumerate() {
        let ln = ln + 1;
        let Some(tok) = first_token(line) else { continue };
        let guid = crate::topology::spec::parse_guid(tok).ok_or_else(|| {
            Error::at(path, ln, format!("`{tok}` is not a GUID"))
                .with_hint("one GUID per line, e.g. 0x0002c9030012abcd; # starts a comment")
        })?;
        if let Some(first) = seen.insert(guid, ln) {
            return Err(Error::at(
                path,
                ln,
                format!("GUID 0x{guid:016x} is listed twice (first on line {first})"),
            )
            .with_hint("list every host once"));
        }
        let hit: Vec<usize> = match (by_port.get(&guid), by_node.get(&guid)) {
            (Some(&i), _) => vec![i],
            (None, Some(v)) => v.clone(),
            (None, None) => {
                if switch_guids.contains(&guid) {
                    return Err(
                        Error::at(path, ln, format!("GUID 0x{guid:016x} is a switch, not a host"))
                            .with_hint("list the GUIDs of host ports (or host nodes)"),
                    );
                }
                let msg = format!("{}:{ln}: GUID 0x{guid:016x} is not in the fabric", path.display());
                if strict {
                    return Err(Error::at(path, ln, format!("GUID 0x{guid:016x} is not in the fabric"))
                        .with_hint("the GUIDs ibnetdiscover prints for a host's node or port (caguid / port GUID)"));
                }
                warnings.push(msg);
                continue;
            }
        };
        for i in hit {
            if let Some(first) = taken.insert(i, ln) {
                return Err(Error::at(
                    path,
                    ln,
                    format!("{} is already listed on line {first}", describe(fabric, ports[i])),
                )
                .with_hint("list a host by its node GUID or by its port GUIDs, not both"));
            }
            out.push((ln, i));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::pgft::model::PgftParams;
    use crate::topology::{FamilySpec, Spec};

    fn plan() -> crate::topology::Topology {
        Spec::new(FamilySpec::Pgft(
            PgftParams::from_lists(&[4, 2], &[1, 2], &[1, 1], None).unwrap(),
        ))
        .build()
        .unwrap()
    }

    fn file(name: &str, text: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ibfat-roles-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    }

    #[test]
    fn lists_and_patterns_pick_the_non_compute_hosts() {
        let t = plan();
        let f = &t.fabric;
        let hosts = t.layout.hosts();
        let g = |i: usize| f.node(hosts[i].node).guid;
        let io = file("io.txt", &format!("# storage\n0x{:x} storage-a\n\n{}\n", g(1), g(5)));
        let src = RoleSources {
            io_guids: Some(io),
            io_names: vec!["H7".into()],
            ..Default::default()
        };
        let r = resolve(f, &src, true).unwrap();
        let non: Vec<usize> = (0..hosts.len()).filter(|&i| !r.is_compute(f, hosts[i])).collect();
        assert_eq!(non, vec![1, 5, 7]);
        assert_eq!(r.non_compute_count(), 3);
        // a compute list makes everything else non-compute
        let cn = file("cn.txt", &format!("0x{:x}\n0x{:x}\n", g(0), g(2)));
        let src = RoleSources {
            compute_guids: Some(cn),
            ..Default::default()
        };
        let r = resolve(f, &src, true).unwrap();
        assert_eq!(r.non_compute_count(), hosts.len() - 2);
    }

    #[test]
    fn bad_lists_name_file_line_and_host() {
        let t = plan();
        let f = &t.fabric;
        let g = f.node(t.layout.hosts()[0].node).guid;
        let run = |text: &str, strict: bool| {
            let p = file("bad.txt", text);
            resolve(
                f,
                &RoleSources {
                    io_guids: Some(p),
                    ..Default::default()
                },
                strict,
            )
        };
        let e = run(&format!("0x{g:x}\n# x\n0x{g:x}\n"), true).unwrap_err().to_string();
        assert!(e.contains(":3") && e.contains("listed twice (first on line 1)"), "{e}");
        let e = run("0xdeadbeef\n", true).unwrap_err().to_string();
        assert!(e.contains(":1") && e.contains("not in the fabric"), "{e}");
        let e = run("banana\n", true).unwrap_err().to_string();
        assert!(e.contains("`banana` is not a GUID"), "{e}");
        let sw = f.node(f.switches().next().unwrap()).guid;
        let e = run(&format!("0x{sw:x}\n"), true).unwrap_err().to_string();
        assert!(e.contains("is a switch"), "{e}");
        // lenient: an absent host is a warning, a duplicate still an error
        let r = run("0xdeadbeef\n", false).unwrap();
        assert_eq!(r.warnings.len(), 1);
        assert!(run(&format!("0x{g:x}\n0x{g:x}\n"), false).is_err());
        // a pattern that matches nothing
        let e = resolve(
            f,
            &RoleSources {
                io_names: vec!["stor*".into()],
                ..Default::default()
            },
            true,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("`stor*` matches no host"), "{e}");
        // both lists name one host
        let both = file("both.txt", &format!("0x{g:x}\n"));
        let e = resolve(
            f,
            &RoleSources {
                compute_guids: Some(both.clone()),
                io_guids: Some(both),
                ..Default::default()
            },
            true,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("compute host too"), "{e}");
    }
}
