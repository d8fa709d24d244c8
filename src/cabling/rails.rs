//! Plan folders of multi-rail fabrics ([`crate::topology::rails`]).
//!
//! The folder has the files of a single-rail plan with these differences: `topology.net`
//! holds every rail (hosts are HCAs with one port per rail, ibsim loads it as one
//! simulator with disconnected planes); `cables.csv` lists every rail's cables with a
//! last column `rail`; `fabric.yaml` says `rails: R` (its `expect` counts one rail); the
//! pictures draw rail 0, every rail being identical but for the HCA port (k+1 on rail k)
//! and the switch names (`-r<k>`).

use super::{render, Pictures, PlanOutput, KEPT_FILES, PLAN_FILES};
use crate::error::Result;
use crate::formats::{atomic, csv, ibsim, svg};
use crate::topology::{rails, Fabric, Topology};
use std::fmt::Write;
use std::path::Path;

/// `cables.csv` of a multi-rail fabric: rail 0's cables, then rail 1's ..., numbered
/// through, each row ending with its rail.
pub(crate) fn write_cables_rails(fabric: &Fabric) -> Result<String> {
    let mut out = format!("{},rail\n", csv::HEADER);
    let mut n = 0usize;
    for &rail in rails::rails_of(fabric)?.keys() {
        let plane = rails::plane(fabric, rail)?;
        for row in csv::write_cables(&plane).lines().skip(1) {
            n += 1;
            let rest = row.split_once(',').map_or("", |(_, r)| r);
            let _ = writeln!(out, "{n},{rest},{rail}");
        }
    }
    Ok(out)
}

/// Every file of a plan of `rails` copies of `plan` (see the module text), in memory.
pub(crate) fn render_rails(plan: &Topology, rails_n: u32, svg: bool) -> Result<Vec<(&'static str, Vec<u8>)>> {
    if rails_n == 1 {
        return Ok(render(plan, svg));
    }
    let all = rails::multi_rail(&plan.fabric, rails_n)?;
    let mut shown = plan.clone();
    shown.name = format!(
        "{}, rail 0 of {rails_n}: every rail alike, rail k on HCA port k+1",
        plan.name
    );
    let mut files = render(&shown, svg);
    let header = vec![
        format!(
            "ibfat {}: {} x {rails_n} rails (rail k on HCA port k+1; rail k's switches named <name>-r<k>)",
            env!("CARGO_PKG_VERSION"),
            plan.layout.describe()
        ),
        format!(
            "{} switches, {} hosts, {} cables in all; rebuild with `ibfat build --spec fabric.yaml`",
            all.switches().count(),
            plan.layout.hosts().len(),
            all.link_count()
        ),
    ];
    let cables = write_cables_rails(&all)?;
    for (name, body) in files.iter_mut() {
        match *name {
            "topology.net" => *body = ibsim::write_net(&all, &header).into_bytes(),
            "cables.csv" => *body = cables.clone().into_bytes(),
            "fabric.yaml" => {
                if let Some(spec) = &plan.spec {
                    *body = spec.to_yaml_rails(Some(plan), rails_n).into_bytes();
                }
            }
            _ => {}
        }
    }
    Ok(files)
}

/// [`super::write_plan`] for a plan of `rails` rails (atomically, keeping other
/// commands' files the same way).
pub fn write_plan_rails(plan: &Topology, rails_n: u32, dir: &Path, pictures: Pictures) -> Result<PlanOutput> {
    let mut files = render_rails(plan, rails_n, pictures.svg)?;
    let mut out = PlanOutput::default();
    if let Some(limit) = pictures.graphviz {
        let dot_src = files
            .iter()
            .find(|f| f.0 == "topology.dot")
            .map(|f| f.1.clone())
            .unwrap_or_default();
        match svg::render_svg(&dot_src, limit) {
            Ok(svg) => files.push(("topology-graphviz.svg", svg)),
            Err(why) => out.svg_note = Some(why),
        }
    }
    out.kept = atomic::write_dir_keeping(dir, &files, PLAN_FILES, KEPT_FILES)?;
    out.written = files.iter().map(|f| f.0.to_string()).collect();
    Ok(out)
}
