//! `ibfat recognize`: which family a dump (or plan) is, with the canonical mapping.

use super::output::print_json;
use clap::Args;
use ibfat::families::Family;
use ibfat::load::{load, Recognize};
use ibfat::recognize::{recognize, report, RecognitionReport};
use ibfat::Result;
use serde::Serialize;
use std::fmt::Write as _;
use std::path::PathBuf;

const AFTER: &str = "\
DUMP is what a fabric tool printed: `ibnetdiscover` (default, `-f`, `-s`, `-g`, `-p`),
ibdiagnet's ibnetdiscover file, `iblinkinfo` (default, `-l`, `-S`), OpenSM's
opensm-subnet.lst; or an ibsim net file, a plan folder or a fabric.yaml. The format is
detected and stated (`--input-format` overrides); pasted prompts and banners are skipped with a
warning; `--partial` reads a trimmed dump. Only the cabling is used: port order, GUIDs
and names do not matter.

Families: lsft (Latin-square fat-tree: order q, one- or two-sided; every leaf is mapped to
a point and every spine to a line of PG(2,q) in the coordinates P, P(c), P(x,y) / L, L(c),
L(c,r)), kary (k-ary n-tree: arity, levels, tree order of the hosts), mols (3-level
proximity tree: arity, wiring standard|basic|mols|custom). A 3-level k-ary tree is also
a MOLS tree with standard wiring; `auto` reports it as kary and says so under `equivalent`.
pgft (parallel-ports generalised fat-tree: down, up, parallel per level). twolevel (a
2-level pgft named in leaves, hosts per leaf, spines, links per pair: JSON keys
leaf_switches, hosts_per_leaf, spine_switches, links_per_pair) only when asked for with
--family twolevel; `auto` reports it as pgft and gives the twolevel spelling under
`equivalent`.

Exit codes: 0 recognised, 1 unrecognised (the reason says what does not fit),
2 bad input (file and line), 3 I/O.

Examples:
  ibnetdiscover > fabric.txt && ibfat recognize fabric.txt
  ibfat recognize fabric.txt --json | jq '.leaves[] | [.description, .point]'
  ibfat recognize ibnetdiscover-p.txt --family mols
  ibfat recognize ricc/topology.net --family twolevel
  ibfat recognize plans/lsft7/              check that a plan is what it says
  ibfat recognize dual/topology.net         both rails of `build ... --rails 2`, one by one

A multi-rail fabric (disconnected planes, rail k on HCA port k+1) is recognised rail by
rail; a dump of one rail (ibnetdiscover through one HCA port) says which rail it is.";

const EXAMPLES: &str = "\
Examples:
  ibnetdiscover > fabric.txt && ibfat recognize fabric.txt
  ibfat recognize fabric.txt --json | jq '.leaves[] | [.description, .point]'
  ibfat recognize plans/lsft7/              check that a plan is what it says";

#[derive(Args, Debug)]
#[command(after_help = EXAMPLES, after_long_help = AFTER)]
pub struct RecognizeArgs {
    /// ibnetdiscover/iblinkinfo output, subnet.lst, ibsim net file, plan folder or fabric.yaml
    #[arg(value_name = "DUMP")]
    dump: PathBuf,
    /// Family to look for (auto: any of them)
    ///
    /// twolevel is a 2-level pgft named so; railopt is found as a pgft.
    #[arg(short = 'f', long, default_value = "auto", value_parser = super::family_choice())]
    family: String,
    /// Recognise rail K of a multi-rail fabric only
    ///
    /// The plane on HCA port K+1; without it every rail is recognised and reported.
    #[arg(long, value_name = "K")]
    rail: Option<u32>,
    /// Print the report as JSON (with the full leaf/spine/switch/host maps)
    #[arg(long)]
    pub(crate) json: bool,
}

#[derive(Serialize)]
struct Output<'a> {
    file: String,
    source: &'static str,
    /// The rail (HCA port − 1) of a plane of a multi-rail fabric; absent on single-rail ones.
    #[serde(skip_serializing_if = "Option::is_none")]
    rail: Option<u32>,
    #[serde(flatten)]
    report: &'a RecognitionReport,
}

/// `recognize` of a fabric holding several rails: one report per rail.
#[derive(Serialize)]
struct RailsOutput<'a> {
    file: String,
    source: &'static str,
    rails: Vec<Output<'a>>,
}

pub fn run(a: RecognizeArgs) -> Result<i32> {
    let hint = Family::parse_opt(&a.family)?;
    let mut lf = load(&a.dump, super::topo::read_options(), Recognize::No)?;
    if let Some(k) = a.rail {
        lf.select_rail(k)?;
    }
    let lf = super::topo::named(lf);
    let Some(rails) = lf.multi_rail() else {
        let rail = a.rail.or_else(|| rail_of_plane(lf.fabric()));
        let (code, r, text) = recognize_one(&lf, hint, rail, true)?;
        if a.json {
            print_json("recognize", &output(&lf, rail, &r))?;
        } else {
            emit(&text);
        }
        return Ok(code);
    };
    let mut done = Vec::new();
    for &k in &rails {
        let mut plane = lf.clone();
        plane.select_rail(k)?;
        done.push((k, recognize_one(&plane, hint, Some(k), false)?));
    }
    let code = done.iter().map(|d| d.1 .0).max().unwrap_or(0);
    if a.json {
        let rails = done.iter().map(|(k, (_, r, _))| output(&lf, Some(*k), r)).collect();
        print_json(
            "recognize",
            &RailsOutput {
                file: lf.path.display().to_string(),
                source: lf.source.describe(),
                rails,
            },
        )?;
    } else {
        let mut text = format!(
            "{}: {} rails (disconnected planes, rail k on HCA port k+1), recognised one by one\n",
            lf.path.display(),
            rails.len()
        );
        for (_, (_, _, t)) in &done {
            text.push_str(t);
        }
        emit(&text);
    }
    Ok(code)
}

fn output<'a>(lf: &ibfat::load::Loaded, rail: Option<u32>, report: &'a RecognitionReport) -> Output<'a> {
    Output {
        file: lf.path.display().to_string(),
        source: lf.source.describe(),
        rail,
        report,
    }
}

/// The rail of a one-plane fabric when it shows: hosts on HCA port 2 or more, or HCAs of
/// several ports (a dump of rail 0 of a dual-rail fabric). `None` for a single-rail one.
fn rail_of_plane(f: &ibfat::topology::Fabric) -> Option<u32> {
    let rails = ibfat::topology::rails::rails_of(f).ok()?;
    let (&k, _) = rails.iter().next()?;
    let multi_port = f.cas().any(|h| f.node(h).nports > 1);
    (rails.len() == 1 && (k > 0 || multi_port)).then_some(k)
}

/// The cables that trained below what both ends support: the first ten, then a count.
fn below_supported_lines(out: &mut String, cables: &[ibfat::recognize::report::BelowSupportedReport]) {
    for c in cables.iter().take(10) {
        let _ = writeln!(out, "  below supported: {}", c.describe());
    }
    if cables.len() > 10 {
        let _ = writeln!(
            out,
            "  ... and {} more cables below what their ends support (--json lists them all)",
            cables.len() - 10
        );
    }
}

/// Recognise one plane: exit code, report, and the text report.
fn recognize_one(
    lf: &ibfat::load::Loaded,
    family: Option<Family>,
    rail: Option<u32>,
    whole: bool,
) -> Result<(i32, RecognitionReport, String)> {
    let r = plane_report(lf, family, whole)?;
    // 1: no family, or a family with faults (a check that found defects)
    let code = if r.family == "unrecognised" || !r.faults.is_empty() {
        1
    } else {
        0
    };
    let mut out = String::new();
    summary_lines(&mut out, lf, rail, &r);
    if !r.faults.is_empty() {
        fault_lines(&mut out, &r);
    } else if let Some(reason) = &r.reason {
        unrecognised_lines(&mut out, &r, reason);
    } else {
        mapping_lines(&mut out, &r);
    }
    Ok((code, r, out))
}

/// The report of one plane, in the roles a plan states; the dump's port labels and
/// below-supported cables belong to the whole fabric as read, so only a one-plane report takes them.
fn plane_report(lf: &ibfat::load::Loaded, family: Option<Family>, whole: bool) -> Result<RecognitionReport> {
    let mut rec = recognize(lf.fabric(), family);
    if let ibfat::recognize::Recognition::Recognized { layout, .. } = &mut rec {
        super::topo::apply_roles(lf.fabric(), layout)?;
    }
    let mut r = report(lf.fabric(), &rec);
    if let Some(d) = lf.discovered.as_ref().filter(|_| whole) {
        for c in &mut r.slow_cables {
            ibfat::recognize::report::label_ports(lf.fabric(), &mut c.ends, &d.port_labels);
        }
        r.below_supported = ibfat::recognize::report::below_supported_reports(&d.fabric, &d.could_be);
    }
    Ok(r)
}

/// What was read and what is wrong with its cables, whatever the family: a slow cable
/// matters even when the fabric is recognised.
fn summary_lines(out: &mut String, lf: &ibfat::load::Loaded, rail: Option<u32>, r: &RecognitionReport) {
    if let Some(k) = rail {
        let _ = writeln!(out, "rail {k} (HCA port {}):", k + 1);
    }
    let _ = writeln!(out, "{}: {}", lf.path.display(), lf.source.describe());
    let _ = writeln!(
        out,
        "  {} switches, {} hosts, {} cables",
        r.switches,
        lf.fabric().endpoints().len(),
        r.cables
    );
    for c in &r.slow_cables {
        let [a, b] = &c.ends;
        let _ = writeln!(
            out,
            "  slow cable: {} where its {} {} peers run {} ({:.0}% of their rate): {} <-> {}",
            c.rate,
            c.peers,
            c.kind,
            c.peer_rate,
            c.fraction * 100.0,
            a.describe(),
            b.describe()
        );
    }
    below_supported_lines(out, &r.below_supported);
    for line in r.rail_optimised.iter().flat_map(|x| x.lines()) {
        let _ = writeln!(out, "  {line}");
    }
}

/// A family with faults: each fault where it sits, then how to route around them, which
/// depends on whether the faults break the tree (positions) or only cables.
fn fault_lines(out: &mut String, r: &RecognitionReport) {
    let _ = writeln!(out, "{}", r.description.as_deref().unwrap_or_default());
    let _ = writeln!(out, "  {} faults:", r.faults.len());
    for f in &r.faults {
        let _ = writeln!(
            out,
            "    {} {}{}{}{}",
            f.kind,
            f.point.as_deref().unwrap_or(""),
            if f.point.is_some() && f.line.is_some() {
                " - "
            } else {
                ""
            },
            f.line.as_deref().unwrap_or(""),
            fault_place(f)
        );
    }
    let tree = r.faults.iter().any(|f| !f.positions.is_empty());
    let _ = writeln!(
        out,
        "{}",
        if tree {
            "  routing: `ibfat route` (up*/down* on one VL); the OpenSM plugin"
        } else {
            "  routing: `ibfat route` (detours on 2 data VLs, 3 where a route turns twice, with SL files); the OpenSM plugin with QoS on"
        }
    );
}

/// Where a fault is, in the terms its family has: tree positions, a leaf-spine pair, or
/// a full mesh's pair of switches short of cables.
fn fault_place(f: &ibfat::recognize::report::FaultReport) -> String {
    let name = |n: &Option<ibfat::recognize::report::NodeRef>| {
        n.as_ref().map(|n| format!(" {}", n.description)).unwrap_or_default()
    };
    if !f.positions.is_empty() {
        let ends: Vec<String> = f
            .switches
            .iter()
            .map(|n| format!("{} ({})", n.description, n.guid))
            .collect();
        match ends.is_empty() {
            true => f.positions.join(" - "),
            false => format!("{} ({})", f.positions.join(" - "), ends.join(", ")),
        }
    } else if f.leaf.is_some() {
        format!(" (leaf{}, spine{})", name(&f.leaf), name(&f.spine))
    } else if !f.switches.is_empty() {
        let ends: Vec<String> = f
            .switches
            .iter()
            .map(|n| format!("{} ({})", n.description, n.guid))
            .collect();
        format!(
            "{} of the cables between {}",
            f.missing.unwrap_or(0),
            ends.join(" and ")
        )
    } else {
        String::new()
    }
}

/// No family fits: the reason, and why each other family was ruled out (the closest one
/// is explained by the reason already).
fn unrecognised_lines(out: &mut String, r: &RecognitionReport, reason: &str) {
    let _ = writeln!(out, "unrecognised: {reason}");
    if let Some(f) = &r.closest_family {
        let _ = writeln!(out, "  closest family: {f}");
    }
    for at in r
        .attempts
        .iter()
        .filter(|at| Some(&at.family) != r.closest_family.as_ref())
    {
        let _ = writeln!(out, "  not {}: {}", at.family, at.reason);
    }
}

/// A recognised fabric: its family and the canonical mapping of its switches; the hosts
/// only as a count, as a rank order is too long for a terminal (--json has it).
fn mapping_lines(out: &mut String, r: &RecognitionReport) {
    let _ = writeln!(out, "{}", r.description.as_deref().unwrap_or_default());
    if let Some(e) = &r.equivalent {
        let _ = writeln!(out, "  the same fabric is also: {e}");
    }
    if let Some(w) = &r.wiring {
        let _ = writeln!(
            out,
            "  wiring {w}, {:.2} proximity switches per bottom switch",
            r.proximity_switches.unwrap_or_default()
        );
    }
    if !r.leaves.is_empty() {
        let _ = writeln!(out, "  leaf -> point");
        for l in &r.leaves {
            let side = if r.sides == Some(2) {
                ["a ", "b "][l.side as usize & 1]
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "    {side}{:<9} {} ({}, {} hosts)",
                l.point, l.node.description, l.node.guid, l.hosts
            );
        }
        let _ = writeln!(out, "  spine -> line");
        for s in &r.spines {
            let _ = writeln!(out, "    {:<9} {} ({})", s.line, s.node.description, s.node.guid);
        }
    }
    if !r.switch_map.is_empty() {
        let _ = writeln!(out, "  switch -> position");
        for s in &r.switch_map {
            let _ = writeln!(
                out,
                "    {:<7} {:<26} {} ({})",
                s.role, s.position, s.node.description, s.node.guid
            );
        }
    }
    let _ = writeln!(out, "  {} hosts in rank order: see --json (host_map)", r.host_map.len());
    non_compute_line(out, r);
}

/// Hosts that take no rank (service nodes, a plan's spares): named, the first eight.
fn non_compute_line(out: &mut String, r: &RecognitionReport) {
    if !r.non_compute.is_empty() {
        let names: Vec<&str> = r
            .non_compute
            .iter()
            .take(8)
            .map(|h| h.node.description.as_str())
            .collect();
        let _ = writeln!(
            out,
            "  {} non-compute hosts (routed at their slots, not ranked): {}{}",
            r.non_compute.len(),
            names.join(", "),
            if r.non_compute.len() > names.len() { ", ..." } else { "" }
        );
    }
}

/// Print a report; a closed pipe (`| head`) is not an error worth a panic.
fn emit(text: &str) {
    super::output::write_report(format_args!("{text}"));
}
