//! Reading back what OpenSM programmed for virtual lanes: a switch's SL-to-VL tables
//! (`smpquery sl2vl`) and the SL of SA's PathRecords (`saquery -p`), for the tests that
//! compare them with ibfat's lane rules.

use super::Sim;
use ibfat::routing::Lids;
use ibfat::topology::{Fabric, NodeId};

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

    /// `smpquery sl2vl` of every cabled output port of each switch in `which`, for every
    /// input port other than that output, compared with the lane rule `vl(switch, SL,
    /// input, output)`. SL 15 maps to VL 1 where the rule gives it VL 0 (the plugin's
    /// keep-alive, which keeps every table non-zero) and to the rule's VL where the routes
    /// use it (the escape lane). `context` is added to a mismatch's message. Returns
    /// (port pairs compared, pairs with VL 1 for some SL below 15).
    pub fn sl2vl_as_ruled(
        &self,
        fabric: &Fabric,
        lids: &Lids,
        which: impl Iterator<Item = NodeId>,
        vl: impl Fn(NodeId, u8, u8, u8) -> u8,
        context: &dyn Fn() -> String,
    ) -> (usize, usize) {
        let (mut pairs, mut on_vl1) = (0, 0);
        for sw in which {
            let lid = lids.lid(fabric, sw, 0);
            for out in (1..=fabric.node(sw).nports).filter(|&p| fabric.peer(sw, p).is_some()) {
                for (inp, got) in self.sl2vl(lid, out) {
                    if inp == out {
                        continue;
                    }
                    let want: Vec<u8> = (0..16)
                        .map(|sl| match (sl, vl(sw, sl, inp, out)) {
                            (15, 0) => 1,
                            (_, v) => v,
                        })
                        .collect();
                    assert_eq!(
                        got,
                        want,
                        "switch {} in {inp} out {out}{}",
                        fabric.node(sw).desc,
                        context()
                    );
                    on_vl1 += want[..15].contains(&1) as usize;
                    pairs += 1;
                }
            }
        }
        (pairs, on_vl1)
    }

    /// The SL of SA's PathRecord for `slid` → `dlid` (`saquery -p`).
    pub fn path_record_sl(&self, slid: u16, dlid: u16) -> u8 {
        let text = self.tool(
            "saquery",
            // 5 s per query (the tools' default is 1 s): a loaded machine delays OpenSM's SA
            &[
                "-t",
                "5000",
                "-p",
                "--slid",
                &slid.to_string(),
                "--dlid",
                &dlid.to_string(),
            ],
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
