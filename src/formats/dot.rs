//! Graphviz pictures of a wiring: one rank per switch level, hosts at the bottom
//! (folded into their leaf when there are too many to draw), port numbers on the cable
//! ends so the picture doubles as a cabling aid for small fabrics.

use super::picture::{heat_colour, HeatFn, MAX_DRAWN_HOSTS};
use crate::topology::{Fabric, Layout, NodeKind};
use std::fmt::Write;

const LEVEL_COLOURS: [&str; 5] = ["#f2f2f2", "#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc"];

/// Render a plan as a DOT graph; `heat` optionally colours switch-to-switch cables by load
/// (`heat(a, pa) -> Some(load in 0..=1, label)`, used by the checker's heat map).
pub fn write_dot(fabric: &Fabric, layout: &Layout, title: &str, heat: Option<HeatFn>) -> String {
    let levels = layout.levels(fabric);
    let top = levels.iter().copied().max().unwrap_or(1);
    let draw_hosts = layout.hosts().len() <= MAX_DRAWN_HOSTS;
    let mut out = String::new();
    let _ = writeln!(out, "graph \"{}\" {{", title.replace('"', "'"));
    let _ = writeln!(
        out,
        "  label=\"{}\"; labelloc=t; rankdir=BT; splines=line; nodesep=0.15; ranksep=1.2;",
        title.replace('"', "'")
    );
    let _ = writeln!(
        out,
        "  node [shape=box, style=\"rounded,filled\", fontname=Helvetica, fontsize=10, height=0.3];"
    );
    let _ = writeln!(out, "  edge [fontsize=7, fontname=Helvetica, color=\"#555555\"];");
    let mut host_count = vec![0u32; fabric.len()];
    if !draw_hosts {
        for ep in layout.hosts() {
            if let Some((sw, _)) = fabric.peer(ep.node, ep.port) {
                host_count[sw as usize] += 1;
            }
        }
    }
    for level in 0..=top {
        let members: Vec<u32> = (0..fabric.len() as u32)
            .filter(|&n| levels[n as usize] == level)
            .filter(|&n| draw_hosts || fabric.node(n).kind == NodeKind::Switch)
            .collect();
        if members.is_empty() {
            continue;
        }
        let _ = writeln!(out, "  {{ rank=same;");
        for n in members {
            let node = fabric.node(n);
            let colour = LEVEL_COLOURS[(level as usize).min(LEVEL_COLOURS.len() - 1)];
            let label = if host_count[n as usize] > 0 {
                format!("{}\\n{} hosts", q(&node.name), host_count[n as usize])
            } else {
                q(&node.name)
            };
            let shape = if node.kind == NodeKind::Switch {
                ""
            } else {
                ", shape=ellipse"
            };
            let _ = writeln!(
                out,
                "    \"{}\" [label=\"{label}\", fillcolor=\"{colour}\", tooltip=\"{}\"{shape}];",
                q(&node.name),
                q(&node.desc)
            );
        }
        let _ = writeln!(out, "  }}");
    }
    for l in fabric.links() {
        let (a, b) = (fabric.node(l.a), fabric.node(l.b));
        if !draw_hosts && (a.kind != NodeKind::Switch || b.kind != NodeKind::Switch) {
            continue;
        }
        let mut attrs = format!("taillabel=\"{}\", headlabel=\"{}\"", l.pa, l.pb);
        if let Some(h) = heat {
            let both = [h(l.a, l.pa), h(l.b, l.pb)];
            let worst = both.iter().flatten().max_by(|x, y| x.0.total_cmp(&y.0));
            if let Some((load, label)) = worst {
                let _ = write!(
                    attrs,
                    ", color=\"{}\", penwidth={:.1}, tooltip=\"{}\"",
                    heat_colour(*load),
                    1.0 + 3.0 * load,
                    label
                );
            }
        }
        let _ = writeln!(out, "  \"{}\" -- \"{}\" [{attrs}];", q(&a.name), q(&b.name));
    }
    out.push_str("}\n");
    out
}

/// Text inside a DOT double-quoted string: backslashes and quotes escaped (a name ending
/// in `\\` would otherwise escape the closing quote), control characters flattened.
fn q(s: &str) -> String {
    crate::formats::text::flatten_controls(s)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::families::lsft::model::{build, LsftParams};
    use crate::topology::BuildOptions;

    #[test]
    fn draws_every_cable_and_level() {
        let (f, l) = build(&LsftParams::new(2, false), &BuildOptions::default()).unwrap();
        let dot = write_dot(&f, &l, "lsft2", None);
        assert_eq!(dot.matches(" -- ").count(), f.link_count());
        assert_eq!(dot.matches("rank=same").count(), 3);
        assert!(dot.starts_with("graph \"lsft2\" {"));
    }
}
