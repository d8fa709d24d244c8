//! The layered view: levels as rows (top level at the top), every cable a straight line
//! between its two switches, hosts under their leaf (as dots for small fabrics, counted
//! beyond). Parallel cables are one thicker line marked `×n`. In a heat map every cable
//! is two strokes side by side: the left one upward (leaving the lower switch), the
//! right one downward, each coloured by its own load.

use super::{
    esc, heat_colour, legend, open, text_width, Bundle, HeatFn, Scale, Scene, LEGEND_H, MAX_DRAWN_HOSTS, UNUSED,
};
use crate::topology::Fabric;
use std::fmt::Write;

const LEVEL_COLOURS: [&str; 4] = ["#cfe2f3", "#d9ead3", "#fff2cc", "#f4cccc"];
const GUTTER: f64 = 150.0;
const BOX_H: f64 = 30.0;
const HOST_AREA: f64 = 40.0;
const NAME_PX: f64 = 9.0;

/// Draw `scene` cable by cable (see the module documentation).
pub(crate) fn draw(fabric: &Fabric, scene: &Scene, title: &str, heat: Option<(HeatFn, &Scale)>) -> String {
    let g = Geometry::new(scene, title, heat.is_some());
    let mut out = String::new();
    let subtitle = format!(
        "{} switches in {} levels, {} hosts, {} switch-to-switch cables{}",
        scene.rows.iter().map(|r| r.nodes.len()).sum::<usize>(),
        scene.rows.len(),
        scene.hosts,
        scene.cables(),
        if scene.other_cables > 0 {
            format!(" (+{} within a level or across levels, not drawn)", scene.other_cables)
        } else {
            String::new()
        }
    );
    open(&mut out, g.width, g.height, title, &subtitle);
    if let Some((_, scale)) = heat {
        legend(
            &mut out,
            20.0,
            62.0,
            scale,
            "each cable: left stroke upward (from the lower switch), right stroke downward",
        );
    }

    // cables under the boxes
    let _ = writeln!(out, "<g stroke-linecap=\"round\">");
    for b in &scene.bundles {
        bundle(&mut out, &g, b, heat.map(|(h, _)| h));
    }
    for &(r, a, b, count) in &scene.arcs {
        arc(&mut out, &g, r, (a, b), count);
    }
    let _ = writeln!(out, "</g>");

    // switches, row titles, hosts
    for r in 0..scene.rows.len() {
        switch_row(&mut out, fabric, &g, r);
    }
    out.push_str("</svg>\n");
    out
}

/// Where everything goes, worked out once from the widest row and the longest name so
/// that cables, arcs and boxes agree on every coordinate.
struct Geometry<'a> {
    scene: &'a Scene,
    box_w: f64,
    pitch: f64,
    widest: f64,
    row_gap: f64,
    arc_room: f64,
    top: f64,
    width: f64,
    height: f64,
}

impl<'a> Geometry<'a> {
    fn new(scene: &'a Scene, title: &str, heat: bool) -> Geometry<'a> {
        let box_w = scene
            .rows
            .iter()
            .flat_map(|r| {
                r.nodes
                    .iter()
                    .map(|&n| scene.names[n as usize].as_str())
                    .chain(r.coords.iter().map(String::as_str))
            })
            .map(|s| text_width(s, NAME_PX) + 8.0)
            .fold(34.0, f64::max)
            .min(110.0);
        // small fabrics spread over at least 640 px, so cables and their labels separate
        let longest = scene.rows.iter().map(|r| r.nodes.len()).max().unwrap_or(1).max(1) as f64;
        let pitch = (box_w + 6.0).max((640.0 / longest).min(160.0));
        let widest = scene.rows.iter().map(|r| r.nodes.len()).max().unwrap_or(0) as f64 * pitch;
        // wide rows get taller gaps, so the cable fan between them stays legible
        let row_gap = (widest * 0.22).clamp(200.0, 640.0);
        let width = (GUTTER + widest + 20.0).max(text_width(title, 18.0) + 40.0).max(680.0);
        // arcs (cables within a row, a full mesh) rise above their row by up to half a row's width
        let arc_room = if scene.arcs.is_empty() {
            0.0
        } else {
            (widest * 0.3).clamp(40.0, 400.0)
        };
        let top = 64.0 + arc_room + if heat { LEGEND_H + 8.0 } else { 0.0 };
        let nrows = scene.rows.len().max(1) as f64;
        let height = top + nrows * BOX_H + (nrows - 1.0) * row_gap + HOST_AREA + 16.0;
        Geometry {
            scene,
            box_w,
            pitch,
            widest,
            row_gap,
            arc_room,
            top,
            width,
            height,
        }
    }

    /// y of the top edge of row r (row 0 at the bottom)
    fn row_y(&self, r: usize) -> f64 {
        self.top + (self.scene.rows.len() - 1 - r) as f64 * (BOX_H + self.row_gap)
    }

    /// x of the centre of switch i of row r: every row centred on the widest
    fn x_of(&self, r: usize, i: usize) -> f64 {
        let n = self.scene.rows[r].nodes.len() as f64;
        GUTTER + (self.widest - n * self.pitch) / 2.0 + i as f64 * self.pitch + self.pitch / 2.0
    }
}

/// One bundle from the lower switch's top edge to the upper one's bottom: one grey line,
/// or in a heat map one stroke per direction, so each direction shows its own load.
fn bundle(out: &mut String, g: &Geometry, b: &Bundle, heat: Option<HeatFn>) {
    let scene = g.scene;
    let (x1, y1) = (g.x_of(b.row, b.lower), g.row_y(b.row));
    let (x2, y2) = (g.x_of(b.row + 1, b.upper), g.row_y(b.row + 1) + BOX_H);
    let lower = scene.rows[b.row].nodes[b.lower];
    let upper = scene.rows[b.row + 1].nodes[b.upper];
    let count = b.ports.len();
    let ports = b
        .ports
        .iter()
        .map(|(pl, pu)| format!("{pl}→{pu}"))
        .collect::<Vec<_>>()
        .join(", ");
    let what = format!(
        "{} – {}: {count} cable{} (ports {ports})",
        scene.names[lower as usize],
        scene.names[upper as usize],
        if count == 1 { "" } else { "s" }
    );
    let w = (1.0 + 0.5 * (count as f64 - 1.0)).min(4.0);
    match heat {
        None => {
            let _ = writeln!(
                out,
                "<line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{x2:.1}\" y2=\"{y2:.1}\" stroke=\"#555\" \
                 stroke-opacity=\"0.45\" stroke-width=\"{:.1}\"><title>{}</title></line>",
                0.7 * w,
                esc(&what)
            );
        }
        Some(h) => {
            let (up, down) = scene.heat(b, h);
            for (dx, load, dir) in [(-1.2, up, "upward"), (1.2, down, "downward")] {
                let (colour, note) = match &load {
                    Some((x, t)) => (heat_colour(*x), t.clone()),
                    None => (UNUSED.to_string(), "unused".to_string()),
                };
                let _ = writeln!(
                    out,
                    "<line x1=\"{:.1}\" y1=\"{y1:.1}\" x2=\"{:.1}\" y2=\"{y2:.1}\" stroke=\"{colour}\" \
                     stroke-width=\"{:.1}\"><title>{} {dir}: {}</title></line>",
                    x1 + dx,
                    x2 + dx,
                    1.3 * w,
                    esc(&what),
                    esc(&note)
                );
            }
        }
    }
    if count > 1 {
        // along the line, at a height that depends on the upper switch, so the labels
        // of the bundles leaving one switch do not sit on each other
        let uppers = scene.rows[b.row + 1].nodes.len().max(1) as f64;
        let t = 0.15 + 0.7 * (b.upper as f64 + 0.5) / uppers;
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"9\" fill=\"#222\" stroke=\"white\" \
             stroke-width=\"2.5\" paint-order=\"stroke\">×{count}</text>",
            x1 + (x2 - x1) * t + 3.0,
            y1 + (y2 - y1) * t
        );
    }
}

/// The cables between switches `a` and `b` of row `r` (a full mesh): an arc above the
/// row, rising with the distance it spans so that arcs do not lie on one another.
fn arc(out: &mut String, g: &Geometry, r: usize, (a, b): (usize, usize), count: usize) {
    let scene = g.scene;
    let (xa, xb, y) = (g.x_of(r, a), g.x_of(r, b), g.row_y(r));
    let rise = g.arc_room * (xb - xa).abs() / g.widest.max(1.0) * 2.0;
    let (na, nb) = (scene.rows[r].nodes[a], scene.rows[r].nodes[b]);
    let _ = writeln!(
        out,
        "<path d=\"M{xa:.1},{y:.1} Q{:.1},{:.1} {xb:.1},{y:.1}\" fill=\"none\" stroke=\"#555\" \
         stroke-opacity=\"0.45\" stroke-width=\"{:.1}\"><title>{} – {}: {count} cable{}</title></path>",
        (xa + xb) / 2.0,
        y - rise.min(g.arc_room * 2.0),
        0.7 * (1.0 + 0.5 * (count as f64 - 1.0)).min(4.0),
        esc(&scene.names[na as usize]),
        esc(&scene.names[nb as usize]),
        if count == 1 { "" } else { "s" }
    );
}

/// Row `r`'s title, its switches (drawn after the cables, so boxes cover line ends) and
/// their hosts; the tooltip names each switch in full, as the box has room for little.
fn switch_row(out: &mut String, fabric: &Fabric, g: &Geometry, r: usize) {
    let (scene, box_w) = (g.scene, g.box_w);
    let row = &scene.rows[r];
    let y = g.row_y(r);
    let _ = writeln!(
        out,
        "<text x=\"12\" y=\"{:.1}\" font-size=\"12\" font-weight=\"bold\">{} ({})</text>",
        y + BOX_H / 2.0 + 4.0,
        esc(&row.title),
        row.nodes.len()
    );
    let fill = LEVEL_COLOURS[r.min(LEVEL_COLOURS.len() - 1)];
    for (i, &n) in row.nodes.iter().enumerate() {
        let node = fabric.node(n);
        let x = g.x_of(r, i);
        let _ = writeln!(
            out,
            "<g><title>{} — {} (GUID 0x{:016x})</title><rect x=\"{:.1}\" y=\"{y:.1}\" width=\"{box_w:.1}\" \
             height=\"{BOX_H}\" rx=\"4\" fill=\"{fill}\" stroke=\"#333\" stroke-width=\"0.6\"/>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{NAME_PX}\" font-weight=\"bold\" text-anchor=\"middle\">{}</text>\
             <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"{NAME_PX}\" text-anchor=\"middle\">{}</text></g>",
            esc(&node.name),
            esc(&node.desc),
            node.guid,
            x - box_w / 2.0,
            y + 12.0,
            esc(&scene.names[n as usize]),
            y + 24.0,
            esc(&row.coords[i])
        );
        hosts_below(out, scene, n, x, y + BOX_H, g.pitch);
    }
}

/// The hosts of switch `n` below it: one dot each when the fabric is small and they fit
/// the switch's width, else their number.
fn hosts_below(out: &mut String, scene: &Scene, n: u32, x: f64, y: f64, pitch: f64) {
    let k = scene.hosts_on[n as usize];
    if k == 0 {
        return;
    }
    let step = 7.0;
    if scene.hosts <= MAX_DRAWN_HOSTS && k as f64 * step <= pitch {
        let x0 = x - (k as f64 - 1.0) * step / 2.0;
        for j in 0..k {
            let hx = x0 + j as f64 * step;
            let _ = writeln!(
                out,
                "<line x1=\"{x:.1}\" y1=\"{y:.1}\" x2=\"{hx:.1}\" y2=\"{:.1}\" stroke=\"#777\" stroke-width=\"0.5\"/>\
                 <circle cx=\"{hx:.1}\" cy=\"{:.1}\" r=\"2.6\" fill=\"#f2f2f2\" stroke=\"#333\" stroke-width=\"0.5\"/>",
                y + 14.0,
                y + 16.6
            );
        }
    } else {
        let _ = writeln!(
            out,
            "<text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"8\" text-anchor=\"middle\" fill=\"#444\">{k} host{}</text>",
            y + 12.0,
            if k == 1 { "" } else { "s" }
        );
    }
}
