//! `cables.csv`: the installers' cable list, one row per cable with both ends.

use crate::families::railopt::model::{RailFabric, NONE};
use crate::topology::{Fabric, NodeKind};
use std::fmt::Write;

/// Quote a CSV field when it needs it (RFC 4180).
pub(crate) fn field(s: &str) -> String {
    // a control character is never needed in a cable list, and line-based readers
    // (awk, grep) would split a row at an embedded newline even when quoted
    let s = crate::formats::text::flatten_controls(s);
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.into_owned()
    }
}

/// Header of `cables.csv`.
pub(crate) const HEADER: &str = "cable,label,a_node,a_guid,a_port,a_desc,b_node,b_guid,b_port,b_desc,width,speed";

/// Columns a rail-optimised fabric adds: which server, HCA, unit and rail a host cable
/// serves (empty on switch cables), so installers label cables in those terms.
pub(crate) const RAIL_COLUMNS: &str = "server,hca,unit,rail";

/// Per node: the (server, HCA device, unit, rail) columns of its host cable, when the
/// fabric is rail-optimised ([`crate::families::railopt::model`]).
fn rail_columns(fabric: &Fabric) -> Option<Vec<Option<String>>> {
    let rf = RailFabric::of(fabric)?;
    let mut cols = vec![None; fabric.len()];
    for s in &rf.servers {
        let unit = match s.unit {
            NONE => String::new(),
            u => format!("su{}", u + 1),
        };
        for h in &s.hcas {
            let rail = if h.rail == NONE {
                String::new()
            } else {
                h.rail.to_string()
            };
            cols[h.endpoint.node as usize] = Some(format!("{},{},{unit},{rail}", field(&s.name), field(&h.device)));
        }
    }
    Some(cols)
}

/// Render the cable list. End `a` is the switch of a host cable and the lower (leaf-side)
/// switch of a switch cable, so rows group by the switch an installer stands at. A
/// rail-optimised fabric gets the [`RAIL_COLUMNS`] too.
pub fn write_cables(fabric: &Fabric) -> String {
    let mut rows: Vec<(u32, u8, u32, u8)> = fabric
        .links()
        .map(|l| {
            let a_is_ca = fabric.node(l.a).kind != NodeKind::Switch;
            let b_is_ca = fabric.node(l.b).kind != NodeKind::Switch;
            let swap = if a_is_ca != b_is_ca { a_is_ca } else { l.a > l.b };
            if swap {
                (l.b, l.pb, l.a, l.pa)
            } else {
                (l.a, l.pa, l.b, l.pb)
            }
        })
        .collect();
    // switch cables first (by switch, port), then host cables (by switch, port)
    rows.sort_by_key(|&(a, pa, b, _)| (fabric.node(b).kind != NodeKind::Switch, a, pa));
    let mut out = String::with_capacity(rows.len() * 120);
    let rails = rail_columns(fabric);
    out.push_str(HEADER);
    if rails.is_some() {
        out.push(',');
        out.push_str(RAIL_COLUMNS);
    }
    out.push('\n');
    for (i, &(a, pa, b, pb)) in rows.iter().enumerate() {
        let (na, nb) = (fabric.node(a), fabric.node(b));
        let port = fabric.port(a, pa);
        let _ = write!(
            out,
            "{},{},{},0x{:016x},{},{},{},0x{:016x},{},{},{},{}",
            i + 1,
            field(&format!("{}:{}-{}:{}", na.name, pa, nb.name, pb)),
            field(&na.name),
            na.guid,
            pa,
            field(&na.desc),
            field(&nb.name),
            nb.guid,
            pb,
            field(&nb.desc),
            port.width,
            port.speed
        );
        if let Some(cols) = &rails {
            out.push(',');
            out.push_str(cols[b as usize].as_deref().unwrap_or(",,,"));
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_only_when_needed() {
        assert_eq!(field("L3 leaf"), "L3 leaf");
        assert_eq!(field("a,b"), "\"a,b\"");
        assert_eq!(field("say \"hi\""), "\"say \"\"hi\"\"\"");
    }
}
