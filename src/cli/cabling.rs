//! `ibfat cabling`: compare a discovered fabric with its plan, cable by cable.

use super::output::print_json;
use clap::Args;
use ibfat::cabling::audit::{audit, CableRef, CablingReport, DumpProblem};
use ibfat::families::railopt::model::check::{check, Finding, Severity};
use ibfat::families::railopt::model::RailFabric;
use ibfat::families::railopt::report::RailsReport;
use ibfat::formats::dump::ParseOptions;
use ibfat::load::{load, Loaded, Recognize, Source};
use ibfat::recognize::report::{slow_cable_reports, SlowCableReport};
use ibfat::{Error, Result};
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

const AFTER: &str = "\
PLAN is a plan folder (from `ibfat build --out`), its fabric.yaml or its topology.net.
DUMP is what `ibnetdiscover` (or `ibnetdiscover -p`) printed on the installed fabric.

Nodes are matched by GUID when the dump's GUIDs are the plan's, else by node description,
else by structure (cables that agree port by port, then the family's canonical layout).
Every difference comes with a fix:
  missing    planned cable not there             connect L1 port 4 to S3 port 2
  extra      cable not in the plan               remove the cable between ...
  miswired   an end on the wrong port/switch/host move the cable at L3 port 7 to port 9
  swapped    two cables exchanged                exchange the cables at L3 ports 7 and 9
  degraded   in place but narrower/slower        reseat or replace the cable between ...
A damaged dump (truncated, a link listed by one end only) is compared as far as it goes;
what it leaves in doubt is listed as uncompared, with the dump's problems and lines.

Every cable is also compared with its peers (switch-to-switch cables with each other, host
cables with each other): one trained below the rate most of them run at is listed under
SLOW (JSON `slow_cables`, as in `recognize`). With a plan this is for information (the
plan comparison lists it as degraded when the plan says so); without a plan
(`ibfat cabling DISCOVERED`) slow cables and the dump's problems are the findings.

A rail-optimised fabric (servers of several HCAs named `<host> mlx5_<r>`, HCA r of each
server of a scalable unit on that unit's rail-r leaf) is rail-checked without a plan:
  wrong-rail        an HCA on the leaf of another rail     exchange the cables at ...
  wrong-unit        an HCA on a leaf of another unit       (or: move the cable at ...)
  hca-count         a server with an HCA missing
  duplicate-device  one device twice: two servers under one name
  unknown-device    an HCA that is no rail's device
  mixed-leaf / shared-rail / missing-rail-leaf   a leaf serving several rails, a rail
                    served by two leaves of a unit, or by none
  port-convention   (warning) a server on different leaf ports on different rails
With a rail-optimised plan (`ibfat build railopt`), RAILS (against the plan) names every
HCA off its planned leaf port by server and HCA (wrong-rail, wrong-unit, wrong-port,
hca-count, unknown-device), two HCAs on each other's ports as one exchange.

Exit codes: 0 the fabric matches the plan (without a plan: no slow cable, no dump
problem, no rail error), 1 it does not (or could not be fully compared), 2 bad input,
3 I/O.

Examples:
  ibnetdiscover > found.txt && ibfat cabling plans/lsft7 found.txt
  ibfat cabling plans/lsft7/topology.net found.txt --json | jq .missing
  ibfat cabling found.txt                    no plan: slow cables and dump problems
  ibfat cabling superpod.txt --json | jq '.rail_findings[] | .fix'";

const EXAMPLES: &str = "\
Examples:
  ibnetdiscover > found.txt && ibfat cabling plans/lsft7 found.txt
  ibfat cabling plans/lsft7/topology.net found.txt --json | jq .missing
  ibfat cabling found.txt                    no plan: slow cables and dump problems";

#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct CablingArgs {
    /// The plan: plan folder, fabric.yaml or topology.net
    #[arg(value_name = "PLAN", required_unless_present = "plan_flag")]
    plan: Option<PathBuf>,
    /// What was found: ibnetdiscover output or an ibsim net file (`-`: stdin)
    ///
    /// ibnetdiscover's default format or -p. Given alone (`ibfat cabling DISCOVERED`), the
    /// cables are checked without a plan: rates against their peers, and the dump's own
    /// problems.
    #[arg(value_name = "DISCOVERED")]
    discovered: Option<PathBuf>,
    /// Deprecated spelling of PLAN (one more release)
    #[arg(
        long = "plan",
        id = "plan_flag",
        value_name = "PLAN",
        hide = true,
        conflicts_with = "plan"
    )]
    plan_flag: Option<PathBuf>,
    /// Deprecated spelling of DISCOVERED (one more release)
    #[arg(
        long = "discovered",
        id = "discovered_flag",
        value_name = "DUMP",
        hide = true,
        conflicts_with = "discovered"
    )]
    discovered_flag: Option<PathBuf>,
    /// Print the report as JSON
    ///
    /// Keys missing, extra, miswired, swapped, degraded, problems, uncompared;
    /// without a plan rail_optimised and rail_findings.
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct Output<'a> {
    /// null without a plan
    plan: Option<String>,
    discovered: String,
    matches: bool,
    faults: usize,
    slow_cables: &'a [SlowCableReport],
    /// cables trained below what both ends support (iblinkinfo's "Could be"): information
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    below_supported: &'a [ibfat::recognize::report::BelowSupportedReport],
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    report: Option<&'a CablingReport>,
    /// without a plan: the dump's problems (with a plan they are in the report)
    #[serde(skip_serializing_if = "Option::is_none")]
    problems: Option<&'a [DumpProblem]>,
    /// without a plan, a rail-optimised fabric: its servers, rails and units
    #[serde(skip_serializing_if = "Option::is_none")]
    rail_optimised: Option<RailsReport>,
    /// ... and every rail finding (errors are faults, warnings are not)
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    rail_findings: &'a [Finding],
}

fn slow_line(c: &SlowCableReport) -> String {
    let [a, b] = &c.ends;
    format!(
        "{} - {}: {} where its {} {} peers run {} ({:.0}% of their rate): reseat or replace the cable",
        a.describe(),
        b.describe(),
        c.rate,
        c.peers,
        c.kind,
        c.peer_rate,
        c.fraction * 100.0
    )
}

/// `ibfat cabling DISCOVERED`: no plan; the cables against their peers and the dump's
/// own problems.
fn without_plan(path: &std::path::Path, json: bool) -> Result<i32> {
    let found = super::topo::named(load(
        path,
        ParseOptions {
            lenient: true,
            ..super::topo::read_options()
        },
        Recognize::No,
    )?);
    let Some(discovered) = &found.discovered else {
        return Err(Error::at(
            &found.path,
            0,
            "DISCOVERED expects ibnetdiscover output or a net file, not a fabric spec",
        )
        .with_hint("to compare with a plan: ibfat cabling PLAN DISCOVERED"));
    };
    let mut slow = slow_cable_reports(&discovered.fabric);
    for c in &mut slow {
        ibfat::recognize::report::label_ports(&discovered.fabric, &mut c.ends, &discovered.port_labels);
    }
    let below = ibfat::recognize::report::below_supported_reports(&discovered.fabric, &discovered.could_be);
    let problems: Vec<DumpProblem> = discovered
        .problems
        .iter()
        .map(|p| DumpProblem {
            line: p.line,
            message: p.message.clone(),
        })
        .collect();
    let rf = RailFabric::of(&discovered.fabric);
    let rail_findings = rf.as_ref().map_or_else(Vec::new, |rf| check(&discovered.fabric, rf));
    let rails = rf.map(|rf| RailsReport::new(&discovered.fabric, &rf, &rail_findings));
    let rail_errors = rails.as_ref().map_or(0, |r| r.errors);
    let faults = slow.len() + problems.len() + rail_errors;
    let code = if faults == 0 { 0 } else { 1 };
    if json {
        print_json(
            "cabling",
            &Output {
                plan: None,
                discovered: found.path.display().to_string(),
                matches: faults == 0,
                faults,
                slow_cables: &slow,
                below_supported: &below,
                report: None,
                problems: Some(&problems),
                rail_optimised: rails,
                rail_findings: &rail_findings,
            },
        )?;
        return Ok(code);
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "discovered {} ({}), no plan: {} cables compared with their peers",
        found.path.display(),
        found.source.describe(),
        discovered.fabric.link_count()
    );
    if !slow.is_empty() {
        let _ = writeln!(out, "SLOW ({})", slow.len());
        for c in &slow {
            let _ = writeln!(out, "  {}", slow_line(c));
        }
    }
    if !below.is_empty() {
        let _ = writeln!(
            out,
            "BELOW SUPPORTED ({}, for information: the tool says both ends could run faster)",
            below.len()
        );
        for c in below.iter().take(20) {
            let _ = writeln!(out, "  {}", c.describe());
        }
        if below.len() > 20 {
            let _ = writeln!(out, "  ... and {} more (--json lists them all)", below.len() - 20);
        }
    }
    if let Some(r) = &rails {
        r.lines().iter().for_each(|l| {
            let _ = writeln!(out, "{l}");
        });
    }
    for (title, severity) in [("RAILS", Severity::Error), ("RAIL WARNINGS", Severity::Warning)] {
        let of: Vec<&Finding> = rail_findings.iter().filter(|f| f.severity == severity).collect();
        if !of.is_empty() {
            let _ = writeln!(out, "{title} ({})", of.len());
            for f in of {
                let _ = writeln!(out, "  {}: {}", f.message, f.fix);
            }
        }
    }
    if !discovered.problems.is_empty() {
        let _ = writeln!(out, "DUMP PROBLEMS ({})", discovered.problems.len());
        for p in &discovered.problems {
            let _ = writeln!(out, "  {}:{}: {}", found.path.display(), p.line, p.message);
        }
    }
    if faults == 0 {
        let _ = writeln!(
            out,
            "OK: every cable runs at its peers' rate{} and the dump is whole",
            if rails.is_some() {
                ", every HCA is on its rail's leaf"
            } else {
                ""
            }
        );
    } else {
        let _ = writeln!(out, "FOUND: {faults} finding(s)");
    }
    super::output::write_report(format_args!("{out}"));
    Ok(code)
}

fn cable(c: &CableRef) -> String {
    format!("{} port {} - {} port {}", c.a.node, c.a.port, c.b.node, c.b.port)
}

pub fn run(a: CablingArgs) -> Result<i32> {
    // the plan's family: its spec's layout, else the recognised one (or none: the audit
    // then matches by GUID, description and cables alone)
    if a.discovered.is_none() && a.discovered_flag.is_none() && a.plan_flag.is_none() {
        if let Some(dump) = &a.plan {
            return without_plan(dump, a.json);
        }
    }
    let (plan, found) = load_plan_and_found(&a)?;
    let Some(discovered) = &found.discovered else {
        return Err(Error::at(
            &found.path,
            0,
            "--discovered expects ibnetdiscover output or a net file, not a fabric spec",
        )
        .with_hint("run `ibnetdiscover > found.txt` on the fabric and pass found.txt"));
    };
    let r = audit(plan.fabric(), plan.model.layout(), discovered);
    let mut slow = slow_cable_reports(&discovered.fabric);
    for c in &mut slow {
        ibfat::recognize::report::label_ports(&discovered.fabric, &mut c.ends, &discovered.port_labels);
    }
    let code = if r.is_match() { 0 } else { 1 };
    if a.json {
        print_json(
            "cabling",
            &Output {
                plan: Some(plan.path.display().to_string()),
                discovered: found.path.display().to_string(),
                matches: r.is_match(),
                faults: r.faults(),
                slow_cables: &slow,
                below_supported: &[],
                report: Some(&r),
                problems: None,
                rail_optimised: None,
                rail_findings: &r.rail_findings,
            },
        )?;
        return Ok(code);
    }
    let out = plan_text(&plan, &found, &r, &slow);
    super::output::write_report(format_args!("{out}"));
    Ok(code)
}

/// The plan (recognised, so the audit can match by the family's layout) and the dump,
/// read leniently so a damaged one is still compared as far as it goes.
fn load_plan_and_found(a: &CablingArgs) -> Result<(Loaded, Loaded)> {
    let plan_path = super::topo::positional(a.plan.clone(), a.plan_flag.clone(), "--plan", "PLAN")?;
    let found_path = super::topo::positional(
        a.discovered.clone(),
        a.discovered_flag.clone(),
        "--discovered",
        "DISCOVERED",
    )?;
    let plan = load(&plan_path, ParseOptions::default(), Recognize::Yes(None))?;
    let found = load(
        &found_path,
        ParseOptions {
            lenient: true,
            ..super::topo::read_options()
        },
        Recognize::No,
    )?;
    Ok((super::topo::named(plan), super::topo::named(found)))
}

/// The text report against a plan: what was compared, the faults with their fixes, what
/// is only information, and a verdict that tells a damaged dump from a mismatch.
fn plan_text(plan: &Loaded, found: &Loaded, r: &CablingReport, slow: &[SlowCableReport]) -> String {
    let mut out = String::new();
    let src = |s: Source| s.describe();
    let _ = writeln!(
        out,
        "plan {} ({}), discovered {} ({})",
        plan.path.display(),
        src(plan.source),
        found.path.display(),
        src(found.source)
    );
    let _ = writeln!(
        out,
        "  nodes matched by {}; {} planned cables, {} found, {} in place",
        r.matched_by, r.planned_cables, r.found_cables, r.matching_cables
    );
    fault_sections(&mut out, r);
    info_sections(&mut out, found, r, slow);
    if r.is_match() {
        let _ = writeln!(out, "OK: the fabric matches the plan");
    } else if r.faults() == 0 {
        let _ = writeln!(
            out,
            "INCOMPLETE: no fault found in what could be compared, but the dump is damaged"
        );
    } else {
        let _ = writeln!(out, "MISMATCH: {} fault(s)", r.faults());
    }
    out
}

/// A titled, counted list; an empty one is left out so that a clean fabric reads short.
fn section(out: &mut String, title: &str, items: Vec<String>) {
    if !items.is_empty() {
        let _ = writeln!(out, "{title} ({})", items.len());
        for i in items {
            let _ = writeln!(out, "  {i}");
        }
    }
}

/// The cable-by-cable differences from the plan, each with the fix to apply at the rack.
fn fault_sections(out: &mut String, r: &CablingReport) {
    section(
        out,
        "MISSING",
        r.missing
            .iter()
            .map(|m| format!("{}: {}", cable(&m.cable), m.fix))
            .collect(),
    );
    section(
        out,
        "EXTRA",
        r.extra
            .iter()
            .map(|m| format!("{}: {}", cable(&m.cable), m.fix))
            .collect(),
    );
    section(
        out,
        "MISWIRED",
        r.miswired
            .iter()
            .map(|m| {
                format!(
                    "{} ({}): planned {}: {}",
                    cable(&m.found),
                    m.kind,
                    cable(&m.planned),
                    m.fix
                )
            })
            .collect(),
    );
    section(
        out,
        "SWAPPED",
        r.swapped
            .iter()
            .map(|m| {
                format!(
                    "{}: found {} and {}, planned {} and {}: {}",
                    m.at,
                    cable(&m.found[0]),
                    cable(&m.found[1]),
                    cable(&m.planned[0]),
                    cable(&m.planned[1]),
                    m.fix
                )
            })
            .collect(),
    );
    section(
        out,
        "DEGRADED",
        r.degraded
            .iter()
            .map(|m| format!("{}: {} (planned {}): {}", cable(&m.cable), m.found, m.planned, m.fix))
            .collect(),
    );
}

/// The rest of the comparison: the dump's own problems, cables slow against their peers,
/// HCAs off their planned rail ports, and what a damaged dump left uncompared.
fn info_sections(out: &mut String, found: &Loaded, r: &CablingReport, slow: &[SlowCableReport]) {
    section(
        out,
        "DUMP PROBLEMS",
        r.problems
            .iter()
            .map(|p| format!("{}:{}: {}", found.path.display(), p.line, p.message))
            .collect(),
    );
    section(
        out,
        "SLOW (vs. their peers, for information)",
        slow.iter().map(slow_line).collect(),
    );
    section(
        out,
        "RAILS (against the plan)",
        r.rail_findings
            .iter()
            .map(|f| format!("{}: {}", f.message, f.fix))
            .collect(),
    );
    section(out, "NOT COMPARED", r.uncompared.clone());
    section(out, "NOTES", r.notes.clone());
}
