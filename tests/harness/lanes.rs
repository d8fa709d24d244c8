//! Reading back what OpenSM programmed for virtual lanes: a switch's SL-to-VL tables
//! (`smpquery sl2vl`) and the SL of SA's PathRecords (`saquery -p`), for the tests that
//! compare them with ibfat's lane rules.

use super::Sim;

impl Sim {
    /// `smpquery sl2vl LID OUT` of a switch: the 16 VLs of every input port towards
    /// `out`, as (input port, VLs).
    pub fn sl2vl(&self, lid: u16, out: u8) -> Vec<(u8, Vec<u8>)> {
        let text = self.tool("smpquery", &["sl2vl", &lid.to_string(), &out.to_string()]);
        let mut tables = Vec::new();
        for line in text.lines().filter(|l| l.starts_with("ports:")) {
            // ports: in  2, out  3: | 0| 1| ...
            let (ports, vls) = line.split_at(line.find('|').unwrap_or_else(|| panic!("{text}")));
            let nums: Vec<u8> = ports
                .split(|c: char| !c.is_ascii_digit())
                .filter_map(|x| x.parse().ok())
                .collect();
            assert_eq!((nums.len(), nums[1]), (2, out), "{line}");
            let vls: Vec<u8> = vls.split('|').filter_map(|x| x.trim().parse().ok()).collect();
            assert_eq!(vls.len(), 16, "{line}");
            tables.push((nums[0], vls));
        }
        assert!(!tables.is_empty(), "no table in smpquery output:\n{text}");
        tables
    }

    /// The SL of SA's PathRecord for `slid` → `dlid` (`saquery -p`).
    pub fn path_record_sl(&self, slid: u16, dlid: u16) -> u8 {
        let text = self.tool(
            "saquery",
            &["-p", "--slid", &slid.to_string(), "--dlid", &dlid.to_string()],
        );
        let v = text
            .lines()
            .map(str::trim)
            .find_map(|l| l.strip_prefix("sl."))
            .map(|v| v.trim_start_matches('.'))
            .unwrap_or_else(|| panic!("no sl in the PathRecord:\n{text}"));
        u8::from_str_radix(v.trim_start_matches("0x"), 16).unwrap_or_else(|_| panic!("sl {v}:\n{text}"))
    }
}
