//! Which tool wrote a text: the first line that some format's grammar accepts decides,
//! so a pasted shell prompt, a tool banner or an `ibwarn:` line before the records does
//! not. Listings without cables (`ibswitches`, `ibhosts`, `ibnodes`, `ibnetdiscover -l`)
//! are named and refused: they cannot describe a fabric.

use super::grammar::{guid_line, lines, node_header, shorten, Cur};
use super::{iblinkinfo, ports_report, records, subnet_lst, DumpFormat};

/// Lines read before giving up on finding a record (then the record reader reports).
const LOOK_AHEAD: usize = 10_000;

/// The format of `text`, or (line, message) for a listing that has no cables.
pub(super) fn detect(text: &str) -> Result<DumpFormat, (usize, String)> {
    let mut listing: Option<(usize, Listing)> = None;
    for (idx, line) in lines(text).enumerate().take(LOOK_AHEAD) {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(kind) = listing_line(t) {
            let l = listing.get_or_insert((idx + 1, Listing::default()));
            l.1.add(kind, t);
            continue;
        }
        if listing.is_some() {
            break;
        }
        if node_header(t).is_some() || guid_line(t).is_some() || t.starts_with("vendid=") {
            return Ok(DumpFormat::Ibnetdiscover);
        }
        if ports_report::is_ports_report_line(t) {
            return Ok(DumpFormat::Ports);
        }
        if subnet_lst::is_lst_line(t) {
            return Ok(if records::mentions_ibdiag(text) {
                DumpFormat::IbdiagnetLst
            } else {
                DumpFormat::SubnetLst
            });
        }
        if iblinkinfo::is_iblinkinfo_line(line) {
            return Ok(first_iblinkinfo_form(text, idx));
        }
    }
    match listing {
        Some((line, l)) => Err((line, l.message())),
        None => Ok(DumpFormat::Ibnetdiscover),
    }
}

/// Block or line form: what the first port line says.
fn first_iblinkinfo_form(text: &str, from: usize) -> DumpFormat {
    for line in lines(text).skip(from).take(LOOK_AHEAD) {
        if line.contains("==(") {
            return if iblinkinfo::is_line_form(line) {
                DumpFormat::IblinkinfoLines
            } else {
                DumpFormat::Iblinkinfo
            };
        }
    }
    DumpFormat::Iblinkinfo
}

/// Node kinds a listing names, and whether it has ibnetdiscover's `devid`/`vendid`.
#[derive(Default)]
struct Listing {
    switches: bool,
    cas: bool,
    routers: bool,
    ibnd: bool,
    first: String,
}

impl Listing {
    fn add(&mut self, kind: u8, line: &str) {
        match kind {
            b'S' => self.switches = true,
            b'C' => self.cas = true,
            _ => self.routers = true,
        }
        self.ibnd |= line.contains(" devid ");
        if self.first.is_empty() {
            self.first = shorten(line);
        }
    }

    fn message(&self) -> String {
        let tool = match (self.ibnd, self.switches, self.cas || self.routers) {
            (true, true, false) => "an `ibnetdiscover -S` listing",
            (true, false, _) => "an `ibnetdiscover -H`/`-R` listing",
            (true, true, true) => "an `ibnetdiscover -l` listing",
            (false, true, false) => "an `ibswitches` listing",
            (false, false, _) => "an `ibhosts` listing",
            (false, true, true) => "an `ibnodes` listing",
        };
        format!(
            "this is {tool} (`{}`): it lists nodes but no cables, so it cannot describe a fabric; \
             run `ibnetdiscover` (or `iblinkinfo`) for the topology",
            self.first
        )
    }
}

/// `Switch : 0x… ports N …`, `Ca : 0x…`, `Rt : 0x…`: the kind's first letter.
fn listing_line(t: &str) -> Option<u8> {
    const KINDS: [(&[u8], u8); 3] = [(b"Switch", b'S'), (b"Ca", b'C'), (b"Rt", b'R')];
    let mut c = Cur::new(t);
    let kind = c.one_of(&KINDS)?;
    c.spaces();
    c.eat(b':').then_some(())?;
    c.spaces();
    (c.eat_str(b"0x") && c.hex_u64().is_some() && c.spaces() > 0 && c.eat_str(b"ports")).then_some(kind)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_listings() {
        let ibsw = "Switch\t: 0x0000000000200002 ports 8 \"S-leaf2\" base port 0 lid 4 lmc 0\n";
        let e = detect(ibsw).unwrap_err();
        assert_eq!(e.0, 1);
        assert!(
            e.1.contains("an `ibswitches` listing") && e.1.contains("run `ibnetdiscover`"),
            "{}",
            e.1
        );
        let nodes = format!("Ca\t: 0x0000000000100005 ports 2 \"H-h3\"\n{ibsw}");
        assert!(detect(&nodes).unwrap_err().1.contains("`ibnodes`"));
        let l = "Ca\t : 0x0000000000100005 ports 2 devid 0x0 vendid 0x0 \"H-h3\"\n";
        assert!(detect(l).unwrap_err().1.contains("`ibnetdiscover -H`"));
        let prompt = "[root@host /]# ibnetdiscover -f\n#\nvendid=0x2c9\nSwitch\t4 \"S-1\"\t# \"d\"\n";
        assert_eq!(detect(prompt), Ok(DumpFormat::Ibnetdiscover));
        let link = "ibwarn: [1] x\nSwitch: 0x0000000000200002 S-leaf2:\n           4    1[  ] ==(                Down/ Polling)==>             [  ] \"\" ( )\n";
        assert_eq!(detect(link), Ok(DumpFormat::Iblinkinfo));
    }
}
