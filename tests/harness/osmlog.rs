//! Reading OpenSM's log for benchmarks: which engine really routed each pass, how long
//! the pass took, and what a VL-based engine said about virtual lanes.
//!
//! A routing pass (OpenSM 3.3.23, `osm_ucast_mgr.c`) logs `building routing with '<e>'`
//! for every engine it tries, in `-R` order and then the default minhop when all failed,
//! and ends with `<engine used> tables configured on all switches` or, when nothing
//! could route, `No routing engine able to successfully configure`. A comparison must
//! never credit an engine with a pass its fallback routed, so each pass keeps both
//! the engines tried and the one that configured the tables.

/// One routing pass of an OpenSM log.
#[derive(Clone, Debug, PartialEq)]
pub struct RoutingPass {
    /// Engines tried, in order (`building routing with '<e>'`).
    pub tried: Vec<String>,
    /// The engine whose tables the switches got, `None` when every engine failed.
    pub configured_by: Option<String>,
    /// Milliseconds from the first engine's start to the end of the pass.
    pub total_ms: f64,
    /// Milliseconds from the configuring engine's own start to the end of the pass
    /// (what `routing_passes_ms` reports for that engine).
    pub engine_ms: Option<f64>,
}

impl RoutingPass {
    /// True when `engine` was asked first but another engine configured the tables.
    pub fn fell_back_from(&self, engine: &str) -> bool {
        self.configured_by.as_deref() != Some(engine)
    }
}

/// Microseconds since midnight of an OpenSM log line (`Nov 22 06:21:58 729141 [...]`).
fn stamp_us(line: &str) -> Option<f64> {
    let mut f = line.split_whitespace();
    let (_, _, hms, us) = (f.next()?, f.next()?, f.next()?, f.next()?);
    let mut t = hms.split(':').map(|x| x.parse::<f64>().ok());
    let (h, m, s) = (t.next()??, t.next()??, t.next()??);
    Some((h * 3600.0 + m * 60.0 + s) * 1e6 + us.parse::<f64>().ok()?)
}

/// Every complete routing pass of an OpenSM log, in order.
pub fn routing_passes(log: &str) -> Vec<RoutingPass> {
    const START: &str = "building routing with '";
    const END: &str = " tables configured on all switches";
    const FAILED: &str = "No routing engine able to successfully configure";
    let mut out = Vec::new();
    // (engine, start stamp) of every engine tried in the pass under way
    let mut tried: Vec<(String, f64)> = Vec::new();
    for l in log.lines() {
        if let Some(rest) = l.split(START).nth(1) {
            if let (Some(name), Some(t)) = (rest.split('\'').next(), stamp_us(l)) {
                tried.push((name.to_string(), t));
            }
            continue;
        }
        let by = l
            .split("osm_ucast_mgr_process: ")
            .nth(1)
            .and_then(|r| r.strip_suffix(END))
            .map(str::to_string);
        if (by.is_none() && !l.contains(FAILED)) || tried.is_empty() {
            continue;
        }
        let Some(end) = stamp_us(l) else { continue };
        let engine_ms = by
            .as_ref()
            .and_then(|b| tried.iter().rev().find(|(n, _)| n == b))
            .map(|(_, t)| (end - t) / 1e3);
        out.push(RoutingPass {
            total_ms: (end - tried[0].1) / 1e3,
            tried: tried.drain(..).map(|(n, _)| n).collect(),
            configured_by: by,
            engine_ms,
        });
    }
    out
}

/// The engines tried by a pass that has not ended (yet) when the log stops, in order:
/// shows an engine that already gave up while its fallback is still routing.
pub fn unfinished_pass(log: &str) -> Vec<String> {
    let mut tried = Vec::new();
    for l in log.lines() {
        if let Some(name) = l
            .split("building routing with '")
            .nth(1)
            .and_then(|r| r.split('\'').next())
        {
            tried.push(name.to_string());
        } else if l.contains(" tables configured on all switches")
            || l.contains("No routing engine able to successfully configure")
        {
            tried.clear();
        }
    }
    tried
}

/// The text after the last occurrence of `prefix` on a log line, up to the line's end
/// (e.g. `Virtual Lanes needed: ` gives `2`): what an engine last reported.
pub fn last_value<'a>(log: &'a str, prefix: &str) -> Option<&'a str> {
    log.lines().rev().find_map(|l| l.split(prefix).nth(1)).map(str::trim)
}

#[cfg(test)]
mod tests {
    // no imports: bench targets built without the test harness drop the #[test]
    // functions, and an import only they use would be unused there

    const LOG: &str = "\
Nov 24 03:00:00 100000 [7F] 0x02 -> osm_ucast_mgr_process: building routing with 'nue' routing algorithm...
Nov 24 03:00:00 600000 [7F] 0x01 -> nue: cannot build fwd tables
Nov 24 03:00:00 600100 [7F] 0x02 -> ucast_mgr_route: building routing with 'minhop' routing algorithm...
Nov 24 03:00:00 700100 [7F] 0x02 -> osm_ucast_mgr_process: minhop tables configured on all switches
Nov 24 03:00:01 000000 [7F] 0x02 -> ucast_mgr_route: building routing with 'nue' routing algorithm...
Nov 24 03:00:01 250000 [7F] 0x02 -> osm_ucast_mgr_process: nue tables configured on all switches
";

    #[test]
    fn a_fallback_pass_is_not_the_engine_s() {
        let p = super::routing_passes(LOG);
        assert_eq!(p.len(), 2);
        assert_eq!(p[0].tried, ["nue", "minhop"]);
        assert_eq!(p[0].configured_by.as_deref(), Some("minhop"));
        assert!(p[0].fell_back_from("nue"));
        assert!((p[0].total_ms - 600.1).abs() < 1e-6);
        assert!((p[0].engine_ms.unwrap() - 100.0).abs() < 1e-6);
        assert!(!p[1].fell_back_from("nue"));
        assert!((p[1].engine_ms.unwrap() - 250.0).abs() < 1e-6);
    }

    #[test]
    fn a_pass_under_way() {
        let cut = LOG.lines().take(3).collect::<Vec<_>>().join("\n");
        assert_eq!(super::unfinished_pass(&cut), ["nue", "minhop"]);
        assert!(super::unfinished_pass(LOG).is_empty());
    }

    #[test]
    fn last_reported_value() {
        let log = "a x Virtual Lanes needed: 3\nb x Virtual Lanes needed: 2 \n";
        assert_eq!(super::last_value(log, "Virtual Lanes needed: "), Some("2"));
        assert_eq!(super::last_value(log, "absent: "), None);
    }
}
