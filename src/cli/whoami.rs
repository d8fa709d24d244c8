//! `ibfat whoami`: this host's InfiniBand ports, and their ranks in a schedule.

use super::output::print_json;
use clap::Args;
use ibfat::hca::{local_ports, LocalPort};
use ibfat::schedule::{file, Pattern};
use ibfat::Result;
use serde::Serialize;
use std::path::PathBuf;

const WHOAMI_EXAMPLES: &str = "\
Examples:
  ibfat whoami
  ibfat whoami --schedule a2a.json --json";

const WHOAMI_AFTER: &str = "\
Lists the local HCA ports (port GUID, LID, state) from sysfs, or from libibverbs when ibfat
is built with `--features verbs`. With --schedule, also the rank of each local port in that
schedule file and how many phases it sends in: what an MPI launcher needs to map processes
to ranks. Exit 0 when at least one local port was found (and, with --schedule, is a rank),
1 when a port is not in the schedule, 3 when the host has no InfiniBand port.

Examples:
  ibfat whoami
  ibfat whoami --schedule a2a.json --json";

#[derive(Args, Debug)]
#[command(after_help = WHOAMI_EXAMPLES, after_long_help = WHOAMI_AFTER)]
pub struct WhoamiArgs {
    /// A schedule file (ibfat's JSON format) to find this host's ranks in
    #[arg(long, value_name = "FILE")]
    schedule: Option<PathBuf>,
    /// Print JSON
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct Row {
    #[serde(flatten)]
    port: LocalPort,
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    sending_phases: Option<usize>,
}

/// The JSON report: the local ports, in sysfs order.
#[derive(Serialize)]
struct Ports<'a> {
    ports: &'a [Row],
}

pub fn run(a: WhoamiArgs) -> Result<i32> {
    let ports = local_ports()?;
    let sched = a
        .schedule
        .as_deref()
        .map(|p| file::read_json(p, None))
        .transpose()?
        .map(|x| x.0);
    let mut missing = false;
    let rows: Vec<Row> = ports
        .into_iter()
        .map(|port| {
            let (rank, sending) = match &sched {
                Some(s) => {
                    let g = u64::from_str_radix(port.port_guid.trim_start_matches("0x"), 16).unwrap_or(0);
                    match s.hosts.iter().position(|&h| h == g) {
                        Some(r) => (
                            Some(r),
                            Some(
                                (0..s.phases())
                                    .filter(|&p| s.peer(p, r) != ibfat::schedule::IDLE)
                                    .count(),
                            ),
                        ),
                        None => {
                            missing = true;
                            (None, None)
                        }
                    }
                }
                None => (None, None),
            };
            Row {
                port,
                rank,
                sending_phases: sending,
            }
        })
        .collect();
    if a.json {
        print_json("whoami", &Ports { ports: &rows })?;
    } else if rows.is_empty() {
        outln!("no InfiniBand ports on this host");
    }
    if !a.json {
        for r in &rows {
            let rank = r
                .rank
                .map(|x| format!(", rank {x} ({} sending phases)", r.sending_phases.unwrap_or(0)))
                .unwrap_or_default();
            outln!(
                "{} port {}: GUID {} LID {} LMC {} {}{rank}",
                r.port.device,
                r.port.port,
                r.port.port_guid,
                r.port.lid,
                r.port.lmc,
                r.port.state
            );
        }
    }
    Ok(if rows.is_empty() {
        3
    } else if missing {
        1
    } else {
        0
    })
}
