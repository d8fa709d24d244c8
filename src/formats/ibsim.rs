//! ibsim net files (the simulator's topology input, also accepted by OpenSM's tools).
//!
//! Every node gets its own `switchguid=`/`caguid=` line so the GUIDs are exactly the
//! plan's; both ends of every cable are listed (ibsim refuses one-sided links); hosts
//! come first because ibsim attaches OpenSM and the diagnostics to the first node.

use crate::formats::text::flatten_controls;
use crate::topology::{Fabric, NodeKind, Speed, Width};
use std::fmt::Write;

/// A node name between the quotes of a net file: control characters flattened, quotes
/// (which end the name) turned into apostrophes. Names from a fabric are checked when
/// they enter it; this keeps the file well formed whatever set them.
fn name(s: &str) -> String {
    flatten_controls(s).replace('"', "'")
}

/// Render a fabric as an ibsim net file. `title` lines become leading comments.
pub fn write_net(fabric: &Fabric, title: &[String]) -> String {
    let mut out = String::with_capacity(fabric.ports.len() * 32);
    for t in title {
        let _ = writeln!(out, "# {t}");
    }
    out.push('\n');
    let mut order: Vec<u32> = fabric.cas().collect();
    order.extend(fabric.switches());
    order.extend((0..fabric.len() as u32).filter(|&n| fabric.node(n).kind == NodeKind::Router));
    for id in order {
        let node = fabric.node(id);
        let (guid_key, type_word) = match node.kind {
            NodeKind::Switch => ("switchguid", "Switch"),
            NodeKind::Ca => ("caguid", "Hca"),
            NodeKind::Router => ("rtguid", "Rt"),
        };
        if node.sysimg != 0 {
            let _ = writeln!(out, "sysimgguid=0x{:016x}", node.sysimg);
        }
        let _ = writeln!(out, "{guid_key}=0x{:016x}", node.guid);
        let _ = writeln!(
            out,
            "{type_word}\t{} \"{}\"\t# \"{}\"",
            node.nports,
            name(&node.name),
            flatten_controls(&node.desc)
        );
        for p in 1..=node.nports {
            let port = fabric.port(id, p);
            if let Some((peer, pp)) = fabric.peer(id, p) {
                let _ = write!(out, "[{p}]\t\"{}\"[{pp}]", name(&fabric.node(peer).name));
                if port.width != Width::X4 {
                    if let Some(w) = port.width.ibsim_mask() {
                        let _ = write!(out, "\tw={w}");
                    }
                }
                if port.speed != Speed::Sdr {
                    if let Some(s) = port.speed.ibsim_mask() {
                        let _ = write!(out, "\ts={s}");
                    }
                }
                out.push('\n');
            }
        }
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_both_ends_with_guids() {
        let mut f = Fabric::new();
        let h = f.add_node(NodeKind::Ca, 1, 0x100, "H0", "H0 HCA-1").unwrap();
        let s = f.add_node(NodeKind::Switch, 4, 0x200, "L0", "leaf").unwrap();
        f.connect_with(s, 3, h, 1, Width::X1, Speed::Qdr).unwrap();
        let net = write_net(&f, &["test".into()]);
        assert_eq!(
            net,
            "# test\n\ncaguid=0x0000000000000100\nHca\t1 \"H0\"\t# \"H0 HCA-1\"\n[1]\t\"L0\"[3]\tw=1\ts=4\n\n\
             switchguid=0x0000000000000200\nSwitch\t4 \"L0\"\t# \"leaf\"\n[3]\t\"H0\"[1]\tw=1\ts=4\n\n"
        );
    }
}
