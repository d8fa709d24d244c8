//! The report of `ibfat route`, `ibfat.route/2`: one shape for every fabric, with the
//! sections that apply (lanes, detours, escape lane, unrouted pairs) present only when
//! they do (docs/json.md).

use super::output::print_json_version;
use ibfat::check::vls::VlReport;
use ibfat::check::Proof;
use ibfat::formats::lftdump::DumpStyle;
use ibfat::routing::{Lids, Method, Routed};
use ibfat::Result;
use serde::Serialize;
use std::path::Path;

/// The version of the route report's layout.
const VERSION: u32 = 2;

/// Seconds per stage (`--timings`), named as the OpenSM plugin's stage line names them.
/// Kept out of the report otherwise, so that two runs on the same input give
/// byte-identical reports (docs/json.md).
#[derive(Serialize)]
pub(super) struct Timings {
    /// Parsing the topology and reading or planning the LIDs.
    pub(super) read_s: f64,
    /// Recognising the family, its faults and coordinates, and applying host roles.
    pub(super) recognize_s: f64,
    /// Computing every LFT entry.
    pub(super) route_s: f64,
    /// Proving the tables (0 with --no-validate); done while the files are written, so
    /// part of `write_s`, not added to it.
    pub(super) validate_s: f64,
    /// Writing the files (and waiting for the proof).
    pub(super) write_s: f64,
}

/// The lanes of routes that need more than one VL.
#[derive(Serialize)]
struct LanesSection<'a> {
    /// SLs 1 ..= this are the rule's (15 with the escape lane).
    rule_sls: u8,
    /// The per-VL proof; none with `--no-validate`.
    proof: Option<&'a VlReport>,
}

/// Detour counts of degraded and spread routes.
#[derive(Serialize)]
struct DetoursSection {
    /// (Leaf, switch LID) pairs routed through a relay on SL 1-2 (degraded trees).
    switch_lids: usize,
    /// (Leaf, host LID) pairs whose detour turns twice (LSFT; the third VL).
    two_turn_host_lids: u64,
    /// (Leaf, switch LID) pairs whose detour turns twice.
    two_turn_switch_lids: u64,
}

/// The escape lane: pairs no rule path serves, on SL 15 and a VL of their own.
#[derive(Serialize)]
struct EscapeSection {
    host_pairs: u64,
    switch_lid_pairs: u64,
    /// Its VL (the last data VL).
    vl: u8,
}

/// What the tables leave unserved.
#[derive(Serialize)]
struct UnroutedSection {
    /// (Leaf, host LID) pairs no path joins (exit 1).
    host_pairs: u64,
    /// The first of them: [source leaf, destination host port].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    named: Vec<[String; 2]>,
    /// (Leaf, switch LID) pairs unrouted (management traffic goes directed-route).
    switch_lids: u64,
}

/// `ibfat.route/2`.
#[derive(Serialize)]
pub(super) struct Report<'a> {
    /// The fabric in one line (with its faults when degraded).
    family: String,
    /// `family` or `spread` (`--objective`).
    objective: &'static str,
    /// How the tables were computed: `family`, `detours`, `spread`, `updown`.
    method: &'static str,
    faults: usize,
    switches: usize,
    lids: usize,
    lmc: u8,
    entries: usize,
    /// The proof held; none with `--no-validate`.
    valid: Option<bool>,
    /// Data VLs the routes use (1: no SL-to-VL tables needed).
    data_vls: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    lanes: Option<LanesSection<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    detours: Option<DetoursSection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    escape: Option<EscapeSection>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unrouted: Option<UnroutedSection>,
    out: String,
    files: Vec<&'static str>,
    /// The style the dump was written in (`full` or `compact`, `--dump-style`).
    dump_style: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    timings: Option<Timings>,
}

impl<'a> Report<'a> {
    /// The report of `routed` with `lids`, proven by `proof` (none: not validated),
    /// written as `(out, files, style)`.
    pub(super) fn new(
        family: &str,
        faults: usize,
        routed: &Routed,
        lids: &Lids,
        proof: Option<&'a Proof>,
        (out, files, style): (&Path, Vec<&'static str>, DumpStyle),
        timings: Option<Timings>,
    ) -> Report<'a> {
        let lfts = &routed.lfts;
        let data_vls = routed.data_vls();
        let unrouted = routed.unrouted + routed.unrouted_switch_lids;
        Report {
            family: family.to_string(),
            objective: if routed.method == Method::Spread {
                "spread"
            } else {
                "family"
            },
            method: routed.method.name(),
            faults,
            switches: lfts.switches.len(),
            lids: lids.owner.iter().skip(1).filter(|&&o| o != u32::MAX).count(),
            lmc: lids.lmc,
            entries: lfts.routed_entries(),
            valid: proof.map(|p| p.sound),
            data_vls,
            lanes: routed.lanes.as_ref().map(|l| LanesSection {
                rule_sls: l.rule_sls(),
                proof: proof.and_then(|p| p.lanes.as_ref()),
            }),
            detours: (routed.method != Method::Family).then_some(DetoursSection {
                switch_lids: routed.switch_lid_detours,
                two_turn_host_lids: routed.two_turn.0,
                two_turn_switch_lids: routed.two_turn.1,
            }),
            escape: routed.escape.used().then_some(EscapeSection {
                host_pairs: routed.escape.host_pairs,
                switch_lid_pairs: routed.escape.switch_pairs,
                vl: data_vls - 1,
            }),
            unrouted: (unrouted > 0).then(|| UnroutedSection {
                host_pairs: routed.unrouted,
                named: routed
                    .unrouted_named
                    .iter()
                    .map(|(a, b)| [a.clone(), b.clone()])
                    .collect(),
                switch_lids: routed.unrouted_switch_lids,
            }),
            out: out.display().to_string(),
            files,
            dump_style: style.name(),
            timings,
        }
    }

    /// Print as JSON or as text.
    pub(super) fn print(&self, json: bool, route_s: f64) -> Result<()> {
        if json {
            return print_json_version("route", VERSION, self);
        }
        outln!("{}", self.family);
        outln!(
            "  {} switches x {} LIDs (LMC {}): {} LFT entries in {route_s:.3} s; {}",
            self.switches,
            self.lids,
            self.lmc,
            self.entries,
            self.how()
        );
        match (&self.valid, &self.lanes) {
            (None, _) => outln!("  not validated (--no-validate); `ibfat lfts validate` proves the tables"),
            (Some(_), Some(LanesSection { proof: Some(v), .. })) => outln!(
                "  validated: {} of {} host-sourced paths on SL 1-{}, deadlock-free on {} data VLs: {}",
                v.sl_paths,
                v.paths,
                self.lanes.as_ref().map_or(0, |l| l.rule_sls),
                v.vls,
                v.per_vl_lines().join("; ")
            ),
            (Some(_), _) => outln!("  validated: loop-free, every route delivered, CDG acyclic on one VL"),
        }
        if let Some(e) = &self.escape {
            outln!(
                "  {} (leaf, host LID) and {} (leaf, switch LID) pairs no rule path serves: on the escape lane (SL 15, \
                 VL {})",
                e.host_pairs,
                e.switch_lid_pairs,
                e.vl
            );
        }
        if let Some(u) = &self.unrouted {
            if u.host_pairs > 0 {
                let named: Vec<String> = u.named.iter().take(3).map(|[a, b]| format!("{a} -> {b}")).collect();
                outln!(
                    "  {} (leaf, host LID) pairs have no surviving path, e.g. {}",
                    u.host_pairs,
                    named.join(", ")
                );
            }
            if u.switch_lids > 0 {
                outln!(
                    "  {} (leaf, switch LID) pairs unrouted: no surviving path to that switch, or one that would \
                     close a cycle on the escape lane",
                    u.switch_lids
                );
            }
        }
        let note = match self.dump_style {
            "compact" => " (compact entries: LID, port, port GUID)",
            _ => "",
        };
        outln!("  wrote {}: {}{note}", self.out, self.files.join(", "));
        Ok(())
    }

    /// How the routes were made, in a few words.
    fn how(&self) -> String {
        match (self.method, self.data_vls) {
            ("family", 1) => "the family's routes".to_string(),
            ("family", v) => format!("the family's routes with relay detours on {v} data VLs"),
            ("updown", 1) => "up*/down* on one VL".to_string(),
            ("updown", v) => format!(
                "up*/down* on VL 0, {} (leaf, switch LID) detours through a relay on SL 1-2 ({v} data VLs)",
                self.detours.as_ref().map_or(0, |d| d.switch_lids)
            ),
            ("spread", v) => format!("spread over the spines, one-turn detours through a relay leaf ({v} data VLs)"),
            (_, v) => format!("intact pairs on their route, broken ones detoured through another leaf ({v} data VLs)"),
        }
    }
}
