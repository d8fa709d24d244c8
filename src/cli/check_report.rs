//! The text report of `ibfat check` and the per-rail figures of rail patterns.

use ibfat::check::{check_counted, CheckReport, CompiledRoutes, RailFigures, RateWeights};
use ibfat::families::railopt::schedule::RailTraffic;
use ibfat::schedule::Pattern;
use ibfat::topology::Endpoint;
use ibfat::Result;

/// Every rail of a rail pattern checked alone, on the same routes.
pub(super) fn per_rail(
    fabric: &ibfat::topology::Fabric,
    hosts: &[Endpoint],
    routes: &CompiledRoutes,
    t: &RailTraffic,
    weights: Option<&RateWeights>,
) -> Result<Vec<RailFigures>> {
    (0..t.rails())
        .map(|r| {
            let one = t.only(r);
            let (rep, _) = check_counted(fabric, hosts, routes, &one, 0..one.phases(), weights, &|| {})?;
            Ok(RailFigures {
                rail: r,
                device: t.label(r).to_string(),
                flows: rep.flows,
                throughput_ratio: rep.throughput_ratio,
                max_congestion: rep.max_congestion,
            })
        })
        .collect()
}

pub fn print_report(r: &CheckReport) {
    outln!(
        "{}: {} ranks, phases {}..{} of {} ({} checked), {} flows",
        r.pattern,
        r.ranks,
        r.phase_range.0,
        r.phase_range.1,
        r.phases,
        r.phases_checked,
        r.flows
    );
    outln!(
        "  throughput ratio {:.4}, max congestion {}, unrouted flows {}",
        r.throughput_ratio,
        r.max_congestion,
        r.unrouted_flows
    );
    if let Some(b) = r.leaf_cut {
        outln!(
            "  leaf-cut bound {:.4} (no routing of these cables does better): the ratio is {:.1}% of it",
            b.bound,
            100.0 * r.throughput_ratio / b.bound
        );
    }
    if let Some(x) = &r.rates {
        let host = x
            .host_reference
            .as_ref()
            .map_or(String::new(), |h| format!(", host cables against {h}"));
        outln!(
            "  rate-weighted: one flow on a {} cable ({} Gb/s, {} of {} switch-to-switch cables) counts 1{host}; \
             max weighted congestion {}",
            x.reference,
            number(x.reference_gbps),
            x.reference_cables,
            x.cables,
            number(x.max_congestion)
        );
    }
    let hist: Vec<String> = r
        .histogram
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, &n)| n > 0)
        .map(|(c, n)| format!("{c}:{n}"))
        .collect();
    outln!("  congestion histogram (c:flows) {}", hist.join(" "));
    for x in &r.per_rail {
        outln!(
            "  rail {} ({}): {} flows, throughput ratio {:.4}, max congestion {}",
            x.rail,
            x.device,
            x.flows,
            x.throughput_ratio,
            x.max_congestion
        );
    }
    for p in r.worst_phases.iter().take(5) {
        outln!(
            "  worst phase {}: ratio {:.4}, max congestion {}",
            p.phase,
            p.throughput_ratio,
            p.max_congestion
        );
    }
    for l in r.worst_links.iter().take(5) {
        let rate = l.rate.as_ref().map_or(String::new(), |x| {
            format!(
                " ({}, weight {}, weighted load {})",
                x.rate.as_deref().unwrap_or("rate unknown"),
                number(x.weight),
                number(x.weighted_max)
            )
        });
        outln!(
            "  busiest link {} (max {} flows in a phase, {} in all){rate}",
            l.link,
            l.max_flows,
            l.total_flows
        );
    }
    for u in &r.unrouted_examples {
        outln!(
            "  unrouted: phase {} {} -> {}: {:?} (route starts at {})",
            u.phase,
            u.source,
            u.destination,
            u.fault,
            u.at_switch
        );
    }
}

/// A weight or load for the text report: `5`, `1.786`.
pub(super) fn number(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}
