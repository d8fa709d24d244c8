//! The matrix view, for fabrics too large to draw cable by cable: for each pair of
//! neighbouring levels, the incidence matrix — the lower level's switches down the side,
//! the upper level's across the top, both in canonical order, one cell per cable bundle.
//! The structure shows as a pattern (an LSFT's matrix is the projective plane's incidence
//! matrix; a tree's is block-diagonal by pod). Parallel cables are a second colour with
//! their count in the tooltip. A heat map draws two matrices per level pair, upward and
//! downward loads, with the same rows and columns.

use super::{esc, heat_colour, legend, open, text_width, HeatFn, Scale, Scene, LEGEND_H, UNUSED};
use std::fmt::Write;

/// Room for the labels down the side and across the top.
const AXIS: f64 = 160.0;
/// Labels are at least this many pixels apart.
const LABEL_GAP: f64 = 11.0;
/// Cells get a tooltip each up to this many per matrix (beyond, the file grows too much).
const TOOLTIP_CELLS: usize = 20_000;
const SINGLE: &str = "#1f4e79";
const PARALLEL: &str = "#e69138";

/// Draw `scene` as incidence matrices (see the module documentation).
pub(crate) fn draw(scene: &Scene, title: &str, heat: Option<(HeatFn, &Scale)>) -> String {
    let panels_across = if heat.is_some() { 2.0 } else { 1.0 };
    let max_side = if heat.is_some() { 1000.0 } else { 1400.0 };
    let pairs: Vec<usize> = (0..scene.rows.len().saturating_sub(1)).collect();
    let cell = |r: usize| {
        let n = scene.rows[r].nodes.len().max(scene.rows[r + 1].nodes.len()).max(1) as f64;
        (max_side / n).floor().clamp(1.0, 14.0)
    };
    let panel_w = |r: usize| AXIS + scene.rows[r + 1].nodes.len() as f64 * cell(r) + 30.0;
    let panel_h = |r: usize| 24.0 + AXIS + scene.rows[r].nodes.len() as f64 * cell(r) + 30.0;
    let top = 64.0 + if heat.is_some() { LEGEND_H + 8.0 } else { 30.0 };
    let width = pairs
        .iter()
        .map(|&r| 20.0 + panels_across * panel_w(r))
        .fold(text_width(title, 18.0) + 40.0, f64::max)
        .max(700.0);
    let height = top + pairs.iter().map(|&r| panel_h(r)).sum::<f64>() + 10.0;

    let mut out = String::new();
    let subtitle = format!(
        "{} switches in {} levels, {} hosts, {} switch-to-switch cables in {} bundles — incidence matrices \
         (too many cables to draw one by one){}",
        scene.rows.iter().map(|r| r.nodes.len()).sum::<usize>(),
        scene.rows.len(),
        scene.hosts,
        scene.cables(),
        scene.bundles.len(),
        if scene.other_cables > 0 {
            format!(
                "; {} cables within a level or across levels not shown",
                scene.other_cables
            )
        } else {
            String::new()
        }
    );
    open(&mut out, width, height, title, &subtitle);
    match heat {
        Some((_, scale)) => legend(
            &mut out,
            20.0,
            62.0,
            scale,
            "left matrix: upward loads (from the row's switch), right matrix: downward loads",
        ),
        None => {
            let _ = writeln!(
                out,
                "<g font-size=\"11\"><rect x=\"20\" y=\"62\" width=\"12\" height=\"12\" fill=\"{SINGLE}\"/>\
                 <text x=\"38\" y=\"72\">one cable</text><rect x=\"120\" y=\"62\" width=\"12\" height=\"12\" \
                 fill=\"{PARALLEL}\"/><text x=\"138\" y=\"72\">parallel cables (count in the tooltip)</text></g>"
            );
        }
    }
    let mut y = top;
    for &r in &pairs {
        let c = cell(r);
        match heat {
            None => panel(&mut out, scene, r, 20.0, y, c, None),
            Some((h, _)) => {
                panel(&mut out, scene, r, 20.0, y, c, Some((h, true)));
                panel(&mut out, scene, r, 20.0 + panel_w(r), y, c, Some((h, false)));
            }
        }
        y += panel_h(r);
    }
    out.push_str("</svg>\n");
    out
}

/// One matrix: rows = switches of level `r`, columns = switches of level `r + 1`, top-left
/// corner at (x, y), `c` pixels per cell; `heat` = (loads, upward?).
#[allow(clippy::too_many_arguments)]
fn panel(out: &mut String, scene: &Scene, r: usize, x: f64, y: f64, c: f64, heat: Option<(HeatFn, bool)>) {
    let (lower, upper) = (&scene.rows[r], &scene.rows[r + 1]);
    let (nl, nu) = (lower.nodes.len(), upper.nodes.len());
    let bundles: Vec<_> = scene.bundles.iter().filter(|b| b.row == r).collect();
    let cables: usize = bundles.iter().map(|b| b.ports.len()).sum();
    let what = match heat {
        None => format!("{} ({nl}) × {} ({nu}): {cables} cables", lower.title, upper.title),
        Some((_, true)) => format!("upward: {} ({nl}) → {} ({nu})", lower.title, upper.title),
        Some((_, false)) => format!("downward: {} ({nu}) → {} ({nl})", upper.title, lower.title),
    };
    let _ = writeln!(
        out,
        "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"13\" font-weight=\"bold\">{}</text>",
        y + 14.0,
        esc(&what)
    );
    let (mx, my) = (x + AXIS, y + 24.0 + AXIS);
    let step = (LABEL_GAP / c).ceil().max(1.0) as usize;
    let label = |row: &super::Row, i: usize| {
        let name = &scene.names[row.nodes[i] as usize];
        let full = if row.coords[i].is_empty() {
            name.clone()
        } else {
            format!("{name} {}", row.coords[i])
        };
        full.chars().take(28).collect::<String>()
    };
    let _ = writeln!(out, "<g font-size=\"9\" fill=\"#222\">");
    for i in (0..nl).step_by(step) {
        let ty = my + (i as f64 + 0.5) * c + 3.0;
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{ty:.1}\" text-anchor=\"end\">{}</text>",
            mx - 4.0,
            esc(&label(lower, i))
        );
    }
    for j in (0..nu).step_by(step) {
        let tx = mx + (j as f64 + 0.5) * c + 3.0;
        let _ = writeln!(
            out,
            "<text transform=\"translate({tx:.1},{:.1}) rotate(-90)\">{}</text>",
            my - 4.0,
            esc(&label(upper, j))
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        "<rect x=\"{mx:.1}\" y=\"{my:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#f7f7f7\" stroke=\"#999\" \
         stroke-width=\"0.5\"/>",
        nu as f64 * c,
        nl as f64 * c
    );
    let gap = if c >= 4.0 { 0.5 } else { 0.0 };
    let tips = bundles.len() <= TOOLTIP_CELLS;
    let _ = writeln!(out, "<g shape-rendering=\"crispEdges\">");
    for b in bundles {
        let (fill, note) = match heat {
            None if b.ports.len() == 1 => (SINGLE.to_string(), String::new()),
            None => (PARALLEL.to_string(), format!(", {} parallel cables", b.ports.len())),
            Some((h, upward)) => {
                let (up, down) = scene.heat(b, h);
                match if upward { up } else { down } {
                    Some((load, t)) => (heat_colour(load), format!(": {t}")),
                    None => (UNUSED.to_string(), ": unused".into()),
                }
            }
        };
        let _ = write!(
            out,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{fill}\"",
            mx + b.upper as f64 * c,
            my + b.lower as f64 * c,
            c - gap,
            c - gap
        );
        if tips {
            let _ = writeln!(
                out,
                "><title>{} – {}{}</title></rect>",
                esc(&scene.names[lower.nodes[b.lower] as usize]),
                esc(&scene.names[upper.nodes[b.upper] as usize]),
                esc(&note)
            );
        } else {
            let _ = writeln!(out, "/>");
        }
    }
    let _ = writeln!(out, "</g>");
}
