//! Pictures of a fabric, drawn by ibfat itself as SVG (no Graphviz, so they are fast,
//! deterministic and never missing).
//!
//! A fat-tree is a stack of switch levels with cables only between neighbouring levels,
//! so the picture is that stack: one row per level, in the family's canonical order with
//! its coordinates as labels (`P(x,y)` leaves and `L(c,r)` spines of an LSFT, tree
//! positions of the k-ary and MOLS trees; unrecognised fabrics get levels by distance
//! from the hosts). Two views of the same [`Scene`]:
//!
//! * [`layered`] draws every cable, for fabrics up to [`LAYERED_MAX_CABLES`] switch-to-switch
//!   cables and [`LAYERED_MAX_ROW`] switches per level (LSFT(7) and two-sided LSFT(7) fit);
//! * [`matrix`] draws, for each pair of neighbouring levels, the incidence matrix (lower
//!   level's switches down, upper level's across, a dot per cable bundle), which stays
//!   readable at thousands of hosts: LSFT(16) with 4,641 hosts is a 273 × 273 matrix.
//!
//! A heat map colours each direction of a cable by its load: in the layered view every
//! cable is two strokes (left upward, right downward), in the matrix view the upward and
//! downward loads are two matrices side by side; a legend gives the colour scale.

pub(crate) mod layered;
pub(crate) mod matrix;

use crate::topology::{Fabric, Layout, NodeId, NodeKind};
use std::fmt::Write;

/// Load of the traffic leaving node `n` through port `p`: a value in 0..=1 (0 = one flow,
/// 1 = the worst link of the pattern) and a description for the tooltip.
pub(crate) type HeatFn<'a> = &'a dyn Fn(NodeId, u8) -> Option<Heat>;

/// A load in 0..=1 and its description.
pub(crate) type Heat = (f64, String);

/// Largest number of switch-to-switch cables the layered view draws one by one.
pub(crate) const LAYERED_MAX_CABLES: usize = 1500;
/// Largest number of switches in one level the layered view puts side by side.
pub(crate) const LAYERED_MAX_ROW: usize = 160;
/// Hosts are drawn one by one (as dots under their leaf) up to this many in the fabric.
pub(crate) const MAX_DRAWN_HOSTS: usize = 128;

/// One switch level of the picture, in canonical order (the family's rows, or rows by
/// distance from the hosts).
pub(crate) use crate::topology::SwitchRow as Row;

/// The cables between one switch of a level and one of the level above (parallel cables
/// are one bundle).
#[derive(Clone, Debug)]
pub(crate) struct Bundle {
    /// Index of the lower level in [`Scene::rows`].
    pub row: usize,
    /// Position of the lower switch in its row.
    pub lower: usize,
    /// Position of the upper switch in the row above.
    pub upper: usize,
    /// (lower switch port, upper switch port) of every cable of the bundle.
    pub ports: Vec<(u8, u8)>,
}

/// What a picture shows: levels, cable bundles between neighbouring levels, hosts per
/// switch.
#[derive(Clone, Debug)]
pub(crate) struct Scene {
    /// Levels bottom (leaves) to top.
    pub rows: Vec<Row>,
    /// Bundles in (row, lower, upper) order.
    pub bundles: Vec<Bundle>,
    /// Hosts cabled to each node (indexed by node id).
    pub hosts_on: Vec<u32>,
    /// Hosts in the fabric.
    pub hosts: usize,
    /// Switch-to-switch cables that do not join neighbouring levels (not drawn; counted
    /// in the subtitle so the picture never hides them silently).
    pub other_cables: usize,
    /// The short name drawn for each node (indexed by node id), see [`short_names`].
    pub names: Vec<String>,
    /// Cables between two switches of one row, drawn as arcs above it (a full mesh, whose
    /// switches are all one level): (row, first index, second index, cables), only for
    /// families whose rows are meant to be cabled within ([`Layout::Fullmesh`]).
    pub arcs: Vec<(usize, usize, usize, usize)>,
}

impl Scene {
    /// The scene of a fabric: rows from its family's layout, or levels by distance from
    /// the hosts when the family is unknown.
    pub(crate) fn new(fabric: &Fabric, layout: Option<&Layout>) -> Scene {
        let mut rows = match layout {
            Some(l) => family_rows(l),
            None => distance_rows(fabric),
        };
        label_rails(fabric, &mut rows);
        let mut at = vec![(usize::MAX, 0usize); fabric.len()];
        for (r, row) in rows.iter().enumerate() {
            for (i, &n) in row.nodes.iter().enumerate() {
                at[n as usize] = (r, i);
            }
        }
        let mut hosts_on = vec![0u32; fabric.len()];
        let mut hosts = 0;
        let mut bundles: std::collections::BTreeMap<(usize, usize, usize), Vec<(u8, u8)>> = Default::default();
        let mut other_cables = 0;
        let within_rows = matches!(layout, Some(Layout::Fullmesh(_)));
        let mut arcs: std::collections::BTreeMap<(usize, usize, usize), usize> = Default::default();
        for l in fabric.links() {
            let (ka, kb) = (fabric.node(l.a).kind, fabric.node(l.b).kind);
            if ka != NodeKind::Switch || kb != NodeKind::Switch {
                let sw = if ka == NodeKind::Switch { l.a } else { l.b };
                if ka != kb {
                    hosts_on[sw as usize] += 1;
                    hosts += 1;
                }
                continue;
            }
            let (ra, ia) = at[l.a as usize];
            let (rb, ib) = at[l.b as usize];
            if ra != usize::MAX && rb != usize::MAX && ra + 1 == rb {
                bundles.entry((ra, ia, ib)).or_default().push((l.pa, l.pb));
            } else if ra != usize::MAX && rb != usize::MAX && rb + 1 == ra {
                bundles.entry((rb, ib, ia)).or_default().push((l.pb, l.pa));
            } else if within_rows && ra != usize::MAX && ra == rb && ia != ib {
                *arcs.entry((ra, ia.min(ib), ia.max(ib))).or_default() += 1;
            } else {
                other_cables += 1;
            }
        }
        let bundles = bundles
            .into_iter()
            .map(|((row, lower, upper), mut ports)| {
                ports.sort_unstable();
                Bundle {
                    row,
                    lower,
                    upper,
                    ports,
                }
            })
            .collect();
        Scene {
            rows,
            bundles,
            hosts_on,
            hosts,
            other_cables,
            names: short_names(fabric),
            arcs: arcs.into_iter().map(|((r, a, b), c)| (r, a, b, c)).collect(),
        }
    }

    /// Switch-to-switch cables drawn (bundles and arcs count their cables).
    pub(crate) fn cables(&self) -> usize {
        self.bundles.iter().map(|b| b.ports.len()).sum::<usize>() + self.arcs.iter().map(|a| a.3).sum::<usize>()
    }

    /// True when every cable can be drawn one by one and stay readable.
    pub(crate) fn fits_layered(&self) -> bool {
        self.bundles.len() <= LAYERED_MAX_CABLES && self.rows.iter().all(|r| r.nodes.len() <= LAYERED_MAX_ROW)
    }

    /// Worst (up, down) heat of a bundle: upward = leaving the lower switch.
    fn heat(&self, b: &Bundle, heat: HeatFn) -> (Option<Heat>, Option<Heat>) {
        let lower = self.rows[b.row].nodes[b.lower];
        let upper = self.rows[b.row + 1].nodes[b.upper];
        let worst =
            |it: &mut dyn Iterator<Item = Option<(f64, String)>>| it.flatten().max_by(|x, y| x.0.total_cmp(&y.0));
        (
            worst(&mut b.ports.iter().map(|&(pl, _)| heat(lower, pl))),
            worst(&mut b.ports.iter().map(|&(_, pu)| heat(upper, pu))),
        )
    }
}

/// On a rail-optimised fabric, a leaf's coordinate is its unit and rail (`SU2 mlx5_3`)
/// and the leaves' row says how many of each: the terms the site wires in.
fn label_rails(fabric: &Fabric, rows: &mut [Row]) {
    let Some(rf) = crate::families::railopt::model::RailFabric::of(fabric) else {
        return;
    };
    use crate::families::railopt::model::NONE;
    for row in rows.iter_mut() {
        let mut any = false;
        for (i, &n) in row.nodes.iter().enumerate() {
            let (u, r) = (rf.leaf_unit[n as usize], rf.leaf_rail[n as usize]);
            if u != NONE && r != NONE {
                row.coords[i] = format!("SU{} {}", u + 1, rf.rails[r as usize]);
                any = true;
            }
        }
        if any {
            row.title = format!(
                "{}: {} units x {} rails, {} servers",
                row.title,
                rf.units.len(),
                rf.rails.len(),
                rf.servers.len()
            );
        }
    }
}

/// Rows of a known family, in canonical order with coordinates.
fn family_rows(layout: &Layout) -> Vec<Row> {
    layout.ops().switch_rows()
}

/// Rows of an unrecognised fabric: switches with hosts are level 1, their other switch
/// neighbours level 2, and so on; switches no host reaches form a last row. Within a
/// level, by name then GUID.
fn distance_rows(fabric: &Fabric) -> Vec<Row> {
    let mut level = vec![usize::MAX; fabric.len()];
    let mut frontier: Vec<NodeId> = fabric.switches_with_hosts().collect();
    frontier.iter().for_each(|&s| level[s as usize] = 0);
    let mut rows: Vec<Vec<NodeId>> = Vec::new();
    while !frontier.is_empty() {
        let mut next = Vec::new();
        for &s in &frontier {
            for p in 1..=fabric.node(s).nports {
                if let Some((n, _)) = fabric.peer(s, p) {
                    if fabric.node(n).kind == NodeKind::Switch && level[n as usize] == usize::MAX {
                        level[n as usize] = rows.len() + 1;
                        next.push(n);
                    }
                }
            }
        }
        rows.push(std::mem::replace(&mut frontier, next));
    }
    let unreached: Vec<NodeId> = fabric.switches().filter(|&s| level[s as usize] == usize::MAX).collect();
    if !unreached.is_empty() {
        rows.push(unreached);
    }
    let last = rows.len();
    rows.into_iter()
        .enumerate()
        .map(|(i, mut nodes)| {
            nodes.sort_by(|&a, &b| {
                let (na, nb) = (fabric.node(a), fabric.node(b));
                na.name.cmp(&nb.name).then(na.guid.cmp(&nb.guid))
            });
            let coords = vec![String::new(); nodes.len()];
            let title = match i {
                0 => "switches with hosts".into(),
                i if i + 1 == last && nodes.iter().all(|&n| level[n as usize] == usize::MAX) => {
                    "switches no host reaches".into()
                }
                i => format!("{i} hops above the hosts"),
            };
            Row { title, nodes, coords }
        })
        .collect()
}

/// What a picture writes on a node: its name when ibfat or the net file gave it one
/// (`L3`, `S12`), but for a discovered fabric, whose names are ibnetdiscover's GUID ids
/// (`S-0002c9030001e3f0`), the NodeDescription operators know (the `--node-name-map`
/// name when given), shortened to fit; when several nodes share the description, its
/// first word and the GUID's last six digits (`SwitchIB …01e3f0`). Tooltips carry the
/// full description and GUID.
pub(crate) fn short_names(fabric: &Fabric) -> Vec<String> {
    const MAX: usize = 20;
    let labels = crate::topology::label::Labels::new(fabric);
    let is_id = |name: &str| {
        name.len() == 18 && matches!(&name[..2], "S-" | "H-" | "R-") && name[2..].bytes().all(|b| b.is_ascii_hexdigit())
    };
    let fit = |s: &str| {
        if s.chars().count() <= MAX {
            s.to_string()
        } else {
            format!("{}…", s.chars().take(MAX - 1).collect::<String>())
        }
    };
    (0..fabric.len() as NodeId)
        .map(|n| {
            let node = fabric.node(n);
            if !is_id(&node.name) || node.desc.trim().is_empty() {
                return fit(&node.name);
            }
            let label = labels.get(n);
            if label.ends_with(']') {
                let word = node.desc.split_whitespace().next().unwrap_or("");
                let word: String = word.chars().take(MAX - 8).collect();
                return format!("{word} …{:06x}", node.guid & 0xff_ffff);
            }
            fit(label)
        })
        .collect()
}

/// Green (one flow) through yellow to red (the worst link) for a load in 0..=1.
pub(crate) fn heat_colour(load: f64) -> String {
    let x = load.clamp(0.0, 1.0);
    let (r, g) = if x < 0.5 {
        ((510.0 * x) as u8, 200u8)
    } else {
        (255u8, (200.0 * (2.0 - 2.0 * x)) as u8)
    };
    format!("#{r:02x}{g:02x}30")
}

/// Colour of a link no flow of the pattern uses.
pub(crate) const UNUSED: &str = "#c8c8c8";

/// A heat map's colour scale: what 0 and 1 stand for.
#[derive(Clone, Debug)]
pub struct Scale {
    /// Text at the green end (`1 flow`).
    pub low: String,
    /// Text at the red end (`4 flows (worst link)`).
    pub high: String,
}

/// Draw a fabric as SVG: the layered view when every cable fits, else the matrices.
/// `heat` and `scale` make it a heat map.
pub fn render(fabric: &Fabric, layout: Option<&Layout>, title: &str, heat: Option<(HeatFn, &Scale)>) -> String {
    let scene = Scene::new(fabric, layout);
    if scene.fits_layered() {
        layered::draw(fabric, &scene, title, heat)
    } else {
        matrix::draw(&scene, title, heat)
    }
}

/// Text for SVG character data and attribute values: markup escaped, control characters
/// flattened (names come from the fabric and may be anything).
pub(crate) fn esc(s: &str) -> String {
    let s = crate::formats::text::flatten_controls(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Approximate width in pixels of `s` at font size `px` (Helvetica-like, for layout).
pub(crate) fn text_width(s: &str, px: f64) -> f64 {
    s.chars().count() as f64 * px * 0.56
}

/// `<svg>` header with a white background, and the title and subtitle lines.
pub(crate) fn open(out: &mut String, width: f64, height: f64, title: &str, subtitle: &str) {
    let _ = writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.0} {height:.0}\" font-family=\"Helvetica, Arial, sans-serif\">"
    );
    let _ = writeln!(out, "<title>{}</title>", esc(title));
    let _ = writeln!(out, "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>");
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"28\" font-size=\"18\" font-weight=\"bold\">{}</text>",
        esc(title)
    );
    let _ = writeln!(
        out,
        "<text x=\"20\" y=\"48\" font-size=\"12\" fill=\"#444\">{}</text>",
        esc(subtitle)
    );
}

/// Height the legend takes.
pub(crate) const LEGEND_H: f64 = 46.0;

/// The heat map legend at (x, y): the colour gradient from `scale.low` to `scale.high`,
/// the colour of unused links, and how the two directions are shown.
pub(crate) fn legend(out: &mut String, x: f64, y: f64, scale: &Scale, directions: &str) {
    let _ = writeln!(
        out,
        "<defs><linearGradient id=\"heat\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">{}</linearGradient></defs>",
        (0..=4)
            .map(|i| format!(
                "<stop offset=\"{}\" stop-color=\"{}\"/>",
                i as f64 / 4.0,
                heat_colour(i as f64 / 4.0)
            ))
            .collect::<String>()
    );
    const BAR: f64 = 300.0;
    let _ = writeln!(
        out,
        "<g font-size=\"11\"><rect x=\"{x}\" y=\"{y}\" width=\"{BAR}\" height=\"12\" fill=\"url(#heat)\" \
         stroke=\"#888\"/><text x=\"{x}\" y=\"{}\">{}</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\
         <rect x=\"{}\" y=\"{y}\" width=\"24\" height=\"12\" fill=\"{UNUSED}\" stroke=\"#888\"/>\
         <text x=\"{}\" y=\"{}\">unused</text>\
         <text x=\"{x}\" y=\"{}\" fill=\"#444\">{}</text></g>",
        y + 25.0,
        esc(&scale.low),
        x + BAR,
        y + 25.0,
        esc(&scale.high),
        x + BAR + 16.0,
        x + BAR + 44.0,
        y + 10.5,
        y + 40.0,
        esc(directions)
    );
}

#[cfg(test)]
mod tests;
