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
    pub const X1: u8 = 1;
    /// 4x
    pub const X4: u8 = 2;
    /// 8x
    pub const X8: u8 = 4;
    /// 12x
    pub const X12: u8 = 8;
    /// 2x (added in IBA 1.3)
    pub const X2: u8 = 16;
}

/// PortInfo LinkSpeedActive values, also ibsim's `s=` mask. 0 means "see
/// LinkSpeedExtActive".
pub mod speed_code {
    /// 2.5 Gb/s per lane
    pub const SDR: u8 = 1;
    /// 5 Gb/s per lane
    pub const DDR: u8 = 2;
    /// 10 Gb/s per lane
    pub const QDR: u8 = 4;
}

/// PortInfo LinkSpeedExtActive values (the high nibble of LinkSpeedExt); 0 means "not
/// an extended speed, see LinkSpeedActive".
pub mod speed_ext_code {
    /// 14 Gb/s per lane
    pub const FDR: u8 = 1;
    /// 25 Gb/s per lane
    pub const EDR: u8 = 2;
    /// 50 Gb/s per lane
    pub const HDR: u8 = 4;
    /// 100 Gb/s per lane
    pub const NDR: u8 = 8;
}

/// Mellanox extended PortInfo LinkSpeedActive bit for FDR10.
pub const MLNX_FDR10: u8 = 1;

impl Width {
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
    pub fn from_token(tok: &str) -> Option<Width> {
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
    pub fn from_token(tok: &str) -> Option<Speed> {
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
pub fn rate_from_token(tok: &str) -> (Option<Width>, Option<Speed>) {
    match tok.find('x') {
        Some(x) => (Width::from_token(&tok[..=x]), Speed::from_token(&tok[x + 1..])),
        None => (None, None),
    }
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
        for w in [Width::X1, Width::X2, Width::X4, Width::X8, Width::X12] {
            assert_eq!(Width::from_token(&w.to_string()), Some(w));
            assert_eq!(Width::from_token(&w.to_string().to_uppercase()), Some(w));
            assert_eq!(w.to_string().parse::<Width>().unwrap(), w);
        }
        let speeds = [
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
        for s in speeds {
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
}
