//! Wiring plans for deployment: the files an installation team works from, and the
//! audit of a discovered fabric against them ([`audit`]).

pub mod audit;

use crate::error::Result;
use crate::formats::{atomic, csv, dot, ibsim};
use crate::topology::Plan;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Files of a plan folder, in the order they are written.
pub const PLAN_FILES: &[&str] = &[
    "fabric.yaml",
    "topology.net",
    "cables.csv",
    "topology.dot",
    "topology.svg",
];

/// Files an earlier ibfat run may have put in a plan folder (safe to replace).
pub const OWNED_FILES: &[&str] = &[
    "fabric.yaml",
    "topology.net",
    "cables.csv",
    "topology.dot",
    "topology.svg",
    "opensm-lfts.dump",
    "guid2lid",
    "schedule.json",
    "schedule.csv",
];

/// What was written and what was skipped.
#[derive(Clone, Debug, Default)]
pub struct PlanOutput {
    pub written: Vec<String>,
    /// Why `topology.svg` is missing, when it is.
    pub svg_note: Option<String>,
}

/// Render every plan file in memory.
pub fn render(plan: &Plan) -> Vec<(&'static str, Vec<u8>)> {
    let title = format!("{} ({})", plan.layout.describe(), plan.spec.short_name());
    let header = vec![
        format!("ibfat {}: {}", env!("CARGO_PKG_VERSION"), plan.layout.describe()),
        format!(
            "{} switches, {} hosts, {} cables; rebuild with `ibfat build --spec fabric.yaml`",
            plan.fabric.switches().count(),
            plan.layout.hosts().len(),
            plan.fabric.link_count()
        ),
    ];
    vec![
        ("fabric.yaml", plan.spec.to_yaml(Some(plan)).into_bytes()),
        ("topology.net", ibsim::write_net(&plan.fabric, &header).into_bytes()),
        ("cables.csv", csv::write_cables(&plan.fabric).into_bytes()),
        (
            "topology.dot",
            dot::write_dot(&plan.fabric, &plan.layout, &title, None).into_bytes(),
        ),
    ]
}

/// Run Graphviz `dot -Tsvg` with a time limit; `Err(reason)` when it is missing or fails.
pub fn render_svg(dot_source: &[u8], limit: Duration) -> std::result::Result<Vec<u8>, String> {
    let mut child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|_| "Graphviz `dot` is not installed".to_string())?;
    let mut stdin = child.stdin.take().expect("piped");
    let src = dot_source.to_vec();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        let _ = stdin.write_all(&src);
    });
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        use std::io::Read;
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let start = Instant::now();
    let status = loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            break st;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "`dot` took longer than {} s; render topology.dot yourself (sfdp is faster)",
                limit.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = writer.join();
    let svg = reader.join().unwrap_or_default();
    if !status.success() || svg.is_empty() {
        return Err("`dot` failed on topology.dot".into());
    }
    Ok(svg)
}

/// Write the plan folder atomically (all files or none). `svg_limit` bounds Graphviz.
pub fn write_plan(plan: &Plan, dir: &Path, svg_limit: Option<Duration>) -> Result<PlanOutput> {
    let mut files = render(plan);
    let mut out = PlanOutput::default();
    if let Some(limit) = svg_limit {
        let dot_src = files
            .iter()
            .find(|f| f.0 == "topology.dot")
            .map(|f| f.1.clone())
            .unwrap_or_default();
        match render_svg(&dot_src, limit) {
            Ok(svg) => files.push(("topology.svg", svg)),
            Err(why) => out.svg_note = Some(why),
        }
    } else {
        out.svg_note = Some("not requested".into());
    }
    atomic::write_dir(dir, &files, OWNED_FILES)?;
    out.written = files.iter().map(|f| f.0.to_string()).collect();
    Ok(out)
}
