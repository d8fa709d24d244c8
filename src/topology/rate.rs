//! The one decoder of InfiniBand link width and speed, from the two places they come
//! from: the PortInfo codes a subnet manager reads (LinkWidthActive, LinkSpeedActive,
//! LinkSpeedExtActive, Mellanox's FDR10 bit) and the text tokens the dumps print
//! (`4x`, `EDR`, `4xEDR`, `FDR10`, ...).
//!
//! Every decoder returns `None` for a code or token it does not know: a rate that is not
//! known must stay unknown (a rate check must not compare a guess), never become SDR or
//! 4x by default. ibsim's `w=`/`s=` link options use the same bit values as PortInfo.

use super::fabric::{Speed, Width};

/// PortInfo LinkWidthActive bits (IBA 14.2.5.6), also ibsim's `w=` mask.
pub mod width_code {
    /// 1x
    pub(crate) const X1: u8 = 1;
    /// 4x
    pub(crate) const X4: u8 = 2;
    /// 8x
    pub(crate) const X8: u8 = 4;
    /// 12x
    pub(crate) const X12: u8 = 8;
    /// 2x (added in IBA 1.3)
    pub(crate) const X2: u8 = 16;
}

/// PortInfo LinkSpeedActive values, also ibsim's `s=` mask. 0 means "see
/// LinkSpeedExtActive".
pub mod speed_code {
    /// 2.5 Gb/s per lane
    pub(crate) const SDR: u8 = 1;
    /// 5 Gb/s per lane
    pub(crate) const DDR: u8 = 2;
    /// 10 Gb/s per lane
    pub(crate) const QDR: u8 = 4;
}

/// PortInfo LinkSpeedExtActive values (the high nibble of LinkSpeedExt); 0 means "not
/// an extended speed, see LinkSpeedActive".
pub mod speed_ext_code {
    /// 14 Gb/s per lane
    pub(crate) const FDR: u8 = 1;
    /// 25 Gb/s per lane
    pub(crate) const EDR: u8 = 2;
    /// 50 Gb/s per lane
    pub(crate) const HDR: u8 = 4;
    /// 100 Gb/s per lane
    pub(crate) const NDR: u8 = 8;
}

/// Mellanox extended PortInfo LinkSpeedActive bit for FDR10.
pub(crate) const MLNX_FDR10: u8 = 1;

impl Width {
    /// Every width, narrowest first.
    pub(crate) const ALL: [Width; 5] = [Width::X1, Width::X2, Width::X4, Width::X8, Width::X12];

    /// The width a LinkWidthActive code (or ibsim `w=` mask) stands for; `None` for 0,
    /// several bits or an unassigned bit.
    pub fn from_code(code: u8) -> Option<Width> {
        Some(match code {
            width_code::X1 => Width::X1,
            width_code::X4 => Width::X4,
            width_code::X8 => Width::X8,
            width_code::X12 => Width::X12,
            width_code::X2 => Width::X2,
            _ => return None,
        })
    }

    /// The width a dump token names (`1x`, `2x`, `4x`, `8x`, `12x`, any case); `None`
    /// for anything else (`??x`). Does not allocate: it runs once per port line.
    pub(crate) fn from_token(tok: &str) -> Option<Width> {
        let t = tok.as_bytes();
        let digits = t.strip_suffix(b"x").or_else(|| t.strip_suffix(b"X"))?;
        Some(match digits {
            b"1" => Width::X1,
            b"2" => Width::X2,
            b"4" => Width::X4,
            b"8" => Width::X8,
            b"12" => Width::X12,
            _ => return None,
        })
    }
}

impl Speed {
    /// Every speed, slowest first.
    pub(crate) const ALL: [Speed; 9] = [
        Speed::Sdr,
        Speed::Ddr,
        Speed::Qdr,
        Speed::Fdr10,
        Speed::Fdr,
        Speed::Edr,
        Speed::Hdr,
        Speed::Ndr,
        Speed::Xdr,
    ];

    /// The speed of a port from its PortInfo codes: LinkSpeedExtActive when it is
    /// non-zero (FDR and faster), else FDR10 when the Mellanox extended PortInfo says so,
    /// else LinkSpeedActive. `None` when the codes name no speed (0 everywhere, several
    /// bits, an unassigned value): the caller records the rate as unknown.
    pub fn from_codes(active: u8, ext_active: u8, mlnx_active: u8) -> Option<Speed> {
        if ext_active != 0 {
            return Some(match ext_active {
                speed_ext_code::FDR => Speed::Fdr,
                speed_ext_code::EDR => Speed::Edr,
                speed_ext_code::HDR => Speed::Hdr,
                speed_ext_code::NDR => Speed::Ndr,
                _ => return None,
            });
        }
        if mlnx_active & MLNX_FDR10 != 0 {
            return Some(Speed::Fdr10);
        }
        Some(match active {
            speed_code::SDR => Speed::Sdr,
            speed_code::DDR => Speed::Ddr,
            speed_code::QDR => Speed::Qdr,
            _ => return None,
        })
    }

    /// The speed a dump token names (`SDR` ... `XDR`, `FDR10`, any case); `None` for
    /// anything else (`???`). Does not allocate: it runs once per port line.
    pub(crate) fn from_token(tok: &str) -> Option<Speed> {
        const NAMES: [(&str, Speed); 9] = [
            ("SDR", Speed::Sdr),
            ("DDR", Speed::Ddr),
            ("QDR", Speed::Qdr),
            ("FDR10", Speed::Fdr10),
            ("FDR", Speed::Fdr),
            ("EDR", Speed::Edr),
            ("HDR", Speed::Hdr),
            ("NDR", Speed::Ndr),
            ("XDR", Speed::Xdr),
        ];
        NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(tok))
            .map(|&(_, s)| s)
    }
}

/// Width and speed of a combined dump token such as `4xQDR`, `12xEDR`, `4x???` (speed
/// unknown) or `??xSDR` (width unknown); both `None` when there is no `x`.
pub(crate) fn rate_from_token(tok: &str) -> (Option<Width>, Option<Speed>) {
    match tok.bytes().position(|b| b == b'x') {
        Some(x) => (Width::from_token(&tok[..=x]), Speed::from_token(&tok[x + 1..])),
        None => (None, None),
    }
}

/// A cable that runs below the rate of the other cables of its kind: a link trained at
/// a lower width or speed (a bad cable or port), which carries a fraction of its peers'
/// bandwidth while routing counts it like any other.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct SlowCable {
    /// One end (the lower global port index), node and port.
    pub a: (super::NodeId, u8),
    /// The other end.
    pub b: (super::NodeId, u8),
    /// Its active width.
    pub width: Width,
    /// Its active speed.
    pub speed: Speed,
    /// The width most cables of its kind run at.
    pub peer_width: Width,
    /// The speed most cables of its kind run at.
    pub peer_speed: Speed,
    /// How many cables of its kind run at that rate.
    pub peers: usize,
    /// Its kind: true between two switches, false between a host and a switch.
    pub switch_to_switch: bool,
}

impl SlowCable {
    /// Its rate as a fraction of its peers' (4xDDR among 4xEDR: about 0.19).
    pub(crate) fn fraction(&self) -> f64 {
        gbps(self.width, self.speed) / gbps(self.peer_width, self.peer_speed)
    }
}

fn gbps(w: Width, s: Speed) -> f64 {
    w.lanes() as f64 * s.gbps_per_lane()
}

/// A cable's nominal rate in units of 0.5 Gb/s (lanes × the per-lane rate its name
/// states: SDR 2.5, DDR 5, QDR and FDR10 10, FDR 14, EDR 25, HDR 50, NDR 100, XDR 200).
///
/// Rate weights compare these, not [`Speed::gbps_per_lane`]: engineers size fabrics by the
/// names (4xEDR is "100 Gb/s", 4xDDR "20 Gb/s", so one counts 5 of the other), and
/// integers keep the checker's weighted counts exact. Encoding overheads (8b/10b up to QDR,
/// 64b/66b from FDR10 on) are left out on purpose: they shift every ratio between the two
/// generations by the same small factor and would make the weights irrational-looking.
pub(crate) fn nominal_units(w: Width, s: Speed) -> u64 {
    let lane = match s {
        Speed::Sdr => 5,
        Speed::Ddr => 10,
        Speed::Qdr | Speed::Fdr10 => 20,
        Speed::Fdr => 28,
        Speed::Edr => 50,
        Speed::Hdr => 100,
        Speed::Ndr => 200,
        Speed::Xdr => 400,
    };
    u64::from(w.lanes()) * lane
}

/// The rate most cables of one kind run at: what a cable of that kind is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PeerRate {
    /// The most common width.
    pub width: Width,
    /// The most common speed.
    pub speed: Speed,
    /// How many cables of the kind run at exactly that rate.
    pub cables: usize,
}

/// The most common (width, speed) among the cables of one kind (`switch_to_switch`, or
/// host cables), counting only the cables whose rate `known` (by the global port index of
/// either end) says is known; ties go to the faster rate. `None` when no cable of the
/// kind has a known rate. The one definition of "its peers" for [`slow_cables`] and the
/// checker's rate weights, so the cable `recognize` calls slow is the one `check --rates`
/// weighs.
pub(crate) fn peer_rate(
    fabric: &super::Fabric,
    switch_to_switch: bool,
    known: &dyn Fn(usize) -> bool,
) -> Option<PeerRate> {
    use super::NodeKind;
    let mut count: Vec<((Width, Speed), usize)> = Vec::new();
    for l in fabric.links() {
        let kind = fabric.node(l.a).kind == NodeKind::Switch && fabric.node(l.b).kind == NodeKind::Switch;
        let i = fabric.port_index(l.a, l.pa) as usize;
        if kind != switch_to_switch || !known(i) {
            continue;
        }
        let p = &fabric.ports[i];
        let r = (p.width, p.speed);
        match count.iter_mut().find(|(x, _)| *x == r) {
            Some((_, c)) => *c += 1,
            None => count.push((r, 1)),
        }
    }
    count
        .iter()
        .max_by(|(ra, ca), (rb, cb)| ca.cmp(cb).then(gbps(ra.0, ra.1).total_cmp(&gbps(rb.0, rb.1))))
        .map(|&((width, speed), cables)| PeerRate { width, speed, cables })
}

/// Every cable slower than most cables of its kind (switch-to-switch cables compared with
/// each other, host cables with each other): the most common (width, speed) of the kind
/// is its rate (ties go to the faster), and each cable of a lower rate is listed, in port
/// order. A fabric whose dump states no rates has them all alike and lists none.
pub(crate) fn slow_cables(fabric: &super::Fabric) -> Vec<SlowCable> {
    use super::NodeKind;
    let links: Vec<_> = fabric.links().collect();
    let kind = |l: &super::Link| fabric.node(l.a).kind == NodeKind::Switch && fabric.node(l.b).kind == NodeKind::Switch;
    let rate = |l: &super::Link| {
        let p = fabric.port(l.a, l.pa);
        (p.width, p.speed)
    };
    let mut out = Vec::new();
    for switch_to_switch in [true, false] {
        let Some(PeerRate {
            width: pw,
            speed: ps,
            cables: peers,
        }) = peer_rate(fabric, switch_to_switch, &|_| true)
        else {
            continue;
        };
        let top = gbps(pw, ps);
        for l in links.iter().filter(|l| kind(l) == switch_to_switch) {
            let (w, s) = rate(l);
            if gbps(w, s) < top {
                out.push(SlowCable {
                    a: (l.a, l.pa),
                    b: (l.b, l.pb),
                    width: w,
                    speed: s,
                    peer_width: pw,
                    peer_speed: ps,
                    peers,
                    switch_to_switch,
                });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_width_code() {
        let all = [
            (1, Width::X1),
            (2, Width::X4),
            (4, Width::X8),
            (8, Width::X12),
            (16, Width::X2),
        ];
        for (code, w) in all {
            assert_eq!(Width::from_code(code), Some(w), "code {code}");
        }
        for code in (0..=255u8).filter(|c| !all.iter().any(|&(k, _)| k == *c)) {
            assert_eq!(Width::from_code(code), None, "code {code} is not a width");
        }
    }

    #[test]
    fn every_speed_code() {
        assert_eq!(Speed::from_codes(1, 0, 0), Some(Speed::Sdr));
        assert_eq!(Speed::from_codes(2, 0, 0), Some(Speed::Ddr));
        assert_eq!(Speed::from_codes(4, 0, 0), Some(Speed::Qdr));
        // an extended speed wins over whatever LinkSpeedActive says
        for active in [0, 4] {
            assert_eq!(Speed::from_codes(active, 1, 0), Some(Speed::Fdr));
            assert_eq!(Speed::from_codes(active, 2, 0), Some(Speed::Edr));
            assert_eq!(Speed::from_codes(active, 4, 0), Some(Speed::Hdr));
            assert_eq!(Speed::from_codes(active, 8, 0), Some(Speed::Ndr));
        }
        assert_eq!(Speed::from_codes(4, 0, MLNX_FDR10), Some(Speed::Fdr10));
        assert_eq!(Speed::from_codes(4, 2, MLNX_FDR10), Some(Speed::Edr));
    }

    #[test]
    fn unknown_speed_codes_stay_unknown() {
        // the old plugin turned every one of these into SDR
        for active in [0u8, 3, 5, 8, 15, 255] {
            assert_eq!(Speed::from_codes(active, 0, 0), None, "active {active}");
        }
        for ext in [3u8, 5, 6, 7, 9, 15, 16, 255] {
            assert_eq!(Speed::from_codes(1, ext, 0), None, "ext {ext}");
        }
        assert_eq!(Speed::from_codes(0, 0, 2), None, "only bit 0 is FDR10");
    }

    #[test]
    fn every_token() {
        for w in Width::ALL {
            assert_eq!(Width::from_token(&w.to_string()), Some(w));
            assert_eq!(Width::from_token(&w.to_string().to_uppercase()), Some(w));
            assert_eq!(w.to_string().parse::<Width>().unwrap(), w);
        }
        for s in Speed::ALL {
            assert_eq!(Speed::from_token(&s.to_string()), Some(s));
            assert_eq!(Speed::from_token(&s.to_string().to_lowercase()), Some(s));
            assert_eq!(s.to_string().parse::<Speed>().unwrap(), s);
            for w in [Width::X1, Width::X4, Width::X12] {
                assert_eq!(rate_from_token(&format!("{w}{s}")), (Some(w), Some(s)));
            }
        }
    }

    #[test]
    fn unknown_tokens_stay_unknown() {
        for t in ["", "x", "3x", "0x", "16x", "4", "x4", "4 x", "??x"] {
            assert_eq!(Width::from_token(t), None, "{t:?}");
        }
        for t in ["", "???", "FDR14", "SDR ", "QDRx", "EDR2"] {
            assert_eq!(Speed::from_token(t), None, "{t:?}");
        }
        assert_eq!(rate_from_token("4x???"), (Some(Width::X4), None));
        assert_eq!(rate_from_token("??xSDR"), (None, Some(Speed::Sdr)));
        assert_eq!(rate_from_token("QDR"), (None, None));
        assert!(" 4x ".parse::<Width>().is_ok(), "FromStr still trims");
        assert!("3x"
            .parse::<Width>()
            .unwrap_err()
            .to_string()
            .contains("unknown link width `3x`"));
        assert!("fdr14"
            .parse::<Speed>()
            .unwrap_err()
            .to_string()
            .contains("unknown link speed `FDR14`"));
    }

    #[test]
    fn the_one_slow_cable_among_its_peers_is_named() {
        use crate::topology::{Fabric, NodeKind};
        let mut f = Fabric::new();
        let spine = f.add_node(NodeKind::Switch, 8, 0x10, "S", "sw").unwrap();
        let mut leaves = Vec::new();
        for i in 0..4u32 {
            let leaf = f
                .add_node(NodeKind::Switch, 8, 0x20 + u64::from(i), format!("L{i}"), "sw")
                .unwrap();
            let speed = if i == 2 { Speed::Ddr } else { Speed::Edr };
            f.connect_with(leaf, 1, spine, i + 1, Width::X4, speed).unwrap();
            let h = f
                .add_node(NodeKind::Ca, 1, 0x40 + u64::from(i), format!("H{i}"), "h")
                .unwrap();
            f.connect_with(leaf, 2, h, 1, Width::X4, Speed::Hdr).unwrap();
            leaves.push(leaf);
        }
        let slow = slow_cables(&f);
        assert_eq!(slow.len(), 1, "{slow:?}");
        let c = &slow[0];
        assert!(c.switch_to_switch);
        assert_eq!(
            (c.width, c.speed, c.peer_speed, c.peers),
            (Width::X4, Speed::Ddr, Speed::Edr, 3)
        );
        assert!([c.a, c.b].contains(&(leaves[2], 1)) && [c.a, c.b].contains(&(spine, 3)));
        assert!((c.fraction() - 5.0 / 25.78125).abs() < 1e-9);
        // host cables are compared among themselves (all HDR: none listed); all alike: none
        let mut g = Fabric::new();
        let a = g.add_node(NodeKind::Switch, 2, 1, "a", "").unwrap();
        let b = g.add_node(NodeKind::Switch, 2, 2, "b", "").unwrap();
        g.connect(a, 1, b, 1).unwrap();
        assert!(slow_cables(&g).is_empty());
    }
}
