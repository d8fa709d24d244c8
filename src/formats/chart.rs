//! A log-log line chart as standalone SVG (no plotting tool needed): one line per
//! series, a legend, decade grid lines. Used by `ibfat predict --plot` for predicted time
//! against message size per algorithm.

use std::fmt::Write;

/// One line of the chart: its name and its (x, y) points, both positive.
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points in x order; non-positive values are left out (no logarithm).
    pub points: Vec<(f64, f64)>,
}

const W: f64 = 760.0;
const H: f64 = 480.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 200.0;
const TOP: f64 = 40.0;
const BOTTOM: f64 = 60.0;
const COLOURS: [&str; 10] = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
];

fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// The chart as SVG text, axes labelled `x_label` and `y_label`.
pub fn loglog_svg(title: &str, x_label: &str, y_label: &str, series: &[Series]) -> String {
    let pts = || {
        series
            .iter()
            .flat_map(|s| s.points.iter())
            .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
    };
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts() {
        (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
    }
    if x0 > x1 {
        (x0, x1, y0, y1) = (1.0, 10.0, 1.0, 10.0);
    }
    // whole decades around the data
    let (lx0, lx1) = (x0.log10().floor(), x1.log10().ceil().max(x0.log10().floor() + 1.0));
    let (ly0, ly1) = (y0.log10().floor(), y1.log10().ceil().max(y0.log10().floor() + 1.0));
    let px = |x: f64| LEFT + (x.log10() - lx0) / (lx1 - lx0) * (W - LEFT - RIGHT);
    let py = |y: f64| H - BOTTOM - (y.log10() - ly0) / (ly1 - ly0) * (H - TOP - BOTTOM);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{}" y="22" text-anchor="middle" font-size="15">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        escape(title)
    );
    for d in lx0 as i32..=lx1 as i32 {
        let x = px(10f64.powi(d));
        let _ = writeln!(
            s,
            r##"<line x1="{x:.1}" y1="{TOP}" x2="{x:.1}" y2="{:.1}" stroke="#ddd"/><text x="{x:.1}" y="{:.1}" text-anchor="middle">1e{d}</text>"##,
            H - BOTTOM,
            H - BOTTOM + 16.0
        );
    }
    for d in ly0 as i32..=ly1 as i32 {
        let y = py(10f64.powi(d));
        let _ = writeln!(
            s,
            r##"<line x1="{LEFT}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">1e{d}</text>"##,
            W - RIGHT,
            LEFT - 6.0,
            y + 4.0
        );
    }
    let _ = writeln!(
        s,
        r#"<text x="{:.1}" y="{:.1}" text-anchor="middle">{}</text>"#,
        (LEFT + W - RIGHT) / 2.0,
        H - 16.0,
        escape(x_label)
    );
    let _ = writeln!(
        s,
        r#"<text x="18" y="{:.1}" text-anchor="middle" transform="rotate(-90 18 {:.1})">{}</text>"#,
        (TOP + H - BOTTOM) / 2.0,
        (TOP + H - BOTTOM) / 2.0,
        escape(y_label)
    );
    for (i, ser) in series.iter().enumerate() {
        let c = COLOURS[i % COLOURS.len()];
        let dash = if i >= COLOURS.len() {
            r#" stroke-dasharray="5,3""#
        } else {
            ""
        };
        let path: Vec<String> = ser
            .points
            .iter()
            .filter(|(x, y)| *x > 0.0 && *y > 0.0 && x.is_finite() && y.is_finite())
            .map(|&(x, y)| format!("{:.1},{:.1}", px(x), py(y)))
            .collect();
        if !path.is_empty() {
            let _ = writeln!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{c}" stroke-width="1.5"{dash}/>"#,
                path.join(" ")
            );
        }
        let ly = TOP + 14.0 * i as f64;
        let lx = W - RIGHT + 12.0;
        let _ = writeln!(
            s,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{c}" stroke-width="2"{dash}/><text x="{}" y="{}">{}</text>"#,
            lx + 20.0,
            lx + 26.0,
            ly + 4.0,
            escape(&ser.name)
        );
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_every_series_and_escapes_names() {
        let svg = loglog_svg(
            "t<1>",
            "bytes",
            "seconds",
            &[
                Series {
                    name: "a&b".into(),
                    points: vec![(16.0, 1e-6), (1e6, 1e-3)],
                },
                Series {
                    name: "c".into(),
                    points: vec![(0.0, 1.0)],
                },
            ],
        );
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert_eq!(svg.matches("<polyline").count(), 1);
        assert!(svg.contains("a&amp;b") && svg.contains("t&lt;1&gt;"));
    }
}
