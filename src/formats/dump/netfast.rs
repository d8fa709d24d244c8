//! The port line most dumps are made of, `[3]\t"H7"[1]` (ibsim; `w=`/`s=` options or
//! an ibnetdiscover `# comment` may follow), read in one pass over its bytes.
//!
//! The general grammar ([`port_line`](super::grammar::port_line)) tries the optional
//! groups of every dialect at each step (`(guid)`, `(label)`, `[ext N]`, a far GUID set
//! apart), which cost about 500 instructions on a 14-byte line. This path takes the line
//! only when it has none of them; on anything else it returns `None` and the caller asks
//! the general grammar, so every message stays the general one's. What follows the far
//! port is read by the same code in both paths.

use super::grammar::{port_tail, RawPort, Remote};
use super::keys::ShortId;
use super::swar::{first_bytes, hex16};
use crate::topology::NodeKind;

/// `[num]`, blanks, `"remote id"`, `[remote port]`, then nothing, or blanks and a tail
/// that is neither a GUID nor a label group: the record the general grammar reads from
/// it (no labels), and whether nothing followed the far port. `None` for any other
/// line, valid or not.
#[inline]
pub(super) fn plain_port_line(line: &str) -> Option<(RawPort<'_>, bool)> {
    let b = line.as_bytes();
    let (num, at) = bracketed(b, 0)?;
    let open = skip_blanks(b, at);
    if b.get(open) != Some(&b'"') {
        return None;
    }
    let len = b[open + 1..].iter().position(|&c| c == b'"')?;
    let close = open + 1 + len;
    let (remote_port, at) = bracketed(b, close + 1)?;
    let rest = match b.get(at) {
        None => "",
        Some(b' ' | b'\t') => {
            let from = skip_blanks(b, at);
            // `"H-…"[1] (guid)`: a far GUID set apart is the general grammar's
            if b.get(from) == Some(&b'(') {
                return None;
            }
            line.get(from..)?
        }
        // `(guid)`, `(label)`, `[ext N]` or garbage right after the far port
        Some(_) => return None,
    };
    let mut p = plain(num, line.get(open + 1..close)?, remote_port);
    // an empty tail holds nothing to read
    (rest.is_empty() || port_tail(rest, &mut p)).then_some((p, rest.is_empty()))
}

/// A port line with nothing after its far port, read straight from the text.
pub(super) struct BarePort<'a> {
    pub num: u32,
    /// The far node's id, and its key when short.
    pub far: &'a str,
    pub key: Option<ShortId>,
    pub far_port: u32,
    /// Where the next line starts.
    pub next: usize,
}

impl<'a> BarePort<'a> {
    /// The record the general grammar reads from the line; node and line are the
    /// caller's to set.
    pub(super) fn record(&self) -> RawPort<'a> {
        plain(self.num, self.far, self.far_port)
    }
}

/// The line of `text` at `start` when it is a port line with nothing after its far port,
/// `[3]\t"H7"[1]` and its `\n` (or `\r\n`, or the end of the text): what it says and
/// where the next line starts. Read straight from the text, such a line costs neither a
/// search for its end nor a trim; `None` for any other line, which is then read as a line.
#[inline]
pub(super) fn bare_port_at(text: &str, start: usize) -> Option<BarePort<'_>> {
    let b = text.as_bytes();
    let (num, at) = bracketed(b, start)?;
    let open = skip_blanks(b, at);
    if b.get(open) != Some(&b'"') {
        return None;
    }
    // the closing quote on the same line
    let close = quote_or_newline(b, open + 1)?;
    if b[close] != b'"' {
        return None;
    }
    let (far_port, end) = bracketed(b, close + 1)?;
    let next = match b.get(end) {
        None => end,
        Some(b'\n') => end + 1,
        Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
        Some(_) => return None,
    };
    Some(BarePort {
        num,
        far: text.get(open + 1..close)?,
        key: ShortId::from_text(b, open + 1, close - open - 1),
        far_port,
        next,
    })
}

/// The line of `text` at `start` when it is a GUID line as a net file's writer gives it,
/// `caguid=0x` or `switchguid=0x` and sixteen digits, then its `\n` (or `\r\n`, or the
/// end of the text): the kind, the GUID ([`guid_line`](super::grammar::guid_line)'s) and
/// where the next line starts. Read straight from the text, without a search for the
/// line's end or a trim; `None` for any other line, which is then read as a line.
#[inline]
pub(super) fn bare_guid_line_at(text: &str, start: usize) -> Option<(NodeKind, u64, usize)> {
    let b = text.as_bytes().get(start..)?;
    let (kind, at) = match b.first()? {
        b'c' if b.starts_with(b"caguid=0x") => (NodeKind::Ca, 9),
        b's' if b.starts_with(b"switchguid=0x") => (NodeKind::Switch, 13),
        _ => return None,
    };
    let guid = hex16(b.get(at..)?)?;
    let end = at + 16;
    let next = match b.get(end) {
        None => end,
        Some(b'\n') => end + 1,
        Some(b'\r') if b.get(end + 1) == Some(&b'\n') => end + 2,
        Some(_) => return None,
    };
    Some((kind, guid, start + next))
}

/// The offset of the first `"` or `\n` of `b` from `at`, eight bytes at a time (a node
/// id is mostly shorter than that).
#[inline(always)]
fn quote_or_newline(b: &[u8], mut at: usize) -> Option<usize> {
    while let Some(w) = b.get(at..at + 8) {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        let hits = first_bytes(w, b'"') | first_bytes(w, b'\n');
        if hits != 0 {
            return Some(at + hits.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    b.get(at..)?
        .iter()
        .position(|&c| c == b'"' || c == b'\n')
        .map(|i| at + i)
}

/// The record of a port line with nothing but its port, far id and far port; node and
/// line are the caller's to set.
fn plain(num: u32, remote: &str, remote_port: u32) -> RawPort<'_> {
    RawPort {
        node: 0,
        num,
        guid: None,
        remote: Remote::Id(remote),
        remote_port,
        remote_guid: None,
        lid: None,
        lmc: None,
        width: None,
        speed: None,
        line: 0,
    }
}

/// `[digits]` at `at`, at most nine digits (so that the number fits a `u32` as the general
/// grammar reads it): the number and the offset after `]`. (Inlined: a call per number
/// was a tenth of a bare port line.)
#[inline(always)]
fn bracketed(b: &[u8], at: usize) -> Option<(u32, usize)> {
    if b.get(at) != Some(&b'[') {
        return None;
    }
    let mut i = at + 1;
    let mut num = 0u32;
    while let Some(&d) = b.get(i) {
        if !d.is_ascii_digit() {
            break;
        }
        if i - at > 9 {
            return None;
        }
        num = num * 10 + u32::from(d - b'0');
        i += 1;
    }
    (i > at + 1 && b.get(i) == Some(&b']')).then_some((num, i + 1))
}

/// The offset of the first byte from `at` that is not a space or tab.
#[inline(always)]
fn skip_blanks(b: &[u8], mut at: usize) -> usize {
    while matches!(b.get(at), Some(b' ' | b'\t')) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::super::grammar::{port_line, Remote};
    use super::plain_port_line;

    /// A record's fields, to compare the two paths.
    fn fields(p: &super::RawPort<'_>) -> String {
        let remote = match p.remote {
            Remote::Id(s) => format!("id {s:?}"),
            Remote::Index(i) => format!("index {i}"),
        };
        format!(
            "{} {:?} {remote} {} {:?} {:?} {:?} {:?} {:?}",
            p.num, p.guid, p.remote_port, p.remote_guid, p.lid, p.lmc, p.width, p.speed
        )
    }

    /// Lines the fast path takes, and odd ones it must leave to the general grammar:
    /// whatever it returns is what the general grammar reads, labels none.
    #[test]
    fn agrees_with_the_general_grammar_or_refuses() {
        let lines = [
            "[3]\t\"H7\"[1]",
            "[3] \"H7\"[1]",
            "[3]\"H7\"[1]",
            "[3] \t \"H7\"[12]",
            "[003]\t\"L 1\"[0007]",
            "[0]\t\"H7\"[0]",
            "[255]\t\"H7\"[300]",
            "[999999999]\t\"H7\"[1]",
            "[4294967295]\t\"H7\"[1]",
            "[4294967296]\t\"H7\"[1]",
            "[1]\t\"H7\"[99999999999]",
            "[3]\t\"\"[1]",
            "[3]\t\"H7\"",
            "[3]\t\"H7\" # \"d\" lid 3",
            "[3]\t\"H7",
            "[3]\t\"H7\"[",
            "[3]\t\"H7\"[x]",
            "[3]\t\"H7\"[1",
            "[]\t\"H7\"[1]",
            "[x]\t\"H7\"[1]",
            "[3\t\"H7\"[1]",
            "[3]x\"H7\"[1]",
            "[3]\tH7[1]",
            "[3]\t\"H7\"[1]\tw=1\ts=4",
            "[3]\t\"H7\"[1] w=2 s=2 e=1",
            "[3]\t\"H7\"[1]\tw=3",
            "[3]\t\"H7\"[1]\ts=8",
            "[3]\t\"H7\"[1]\tw=1 hello",
            "[3]\t\"H7\"[1]\tw=",
            "[3]\t\"H7\"[1]\tw=0x1",
            "[3]\t\"H7\"[1]x",
            "[3]\t\"H7\"[1]w=1",
            "[3]\t\"H7\"[1]\t\t# \"spine S1\" lid 7 4xQDR",
            "[3]\t\"H7\"[1] # lid 4 lmc 1 \"d\" lid 9 4xEDR",
            "[3]\t\"H7\"[1] # lid 4 lmc 9 \"d\"",
            "[3]\t\"H7\"[1] w=1 # \"d\" 4x???",
            "[3]\t\"H7\"[1] hello # \"d\"",
            "[3]\t\"H7\"[1] #",
            "[3]\t\"H7\"[1](2c9)",
            "[3]\t\"H7\"[1] (2c9)",
            "[3]\t\"H7\"[1] (1/2/1)",
            "[3]\t\"H7\"[1][ext 2]",
            "[3](2c9)\t\"H7\"[1]",
            "[65](65)\t\"H7\"[1]",
            "[3][ext 5]\t\"H7\"[1]",
            "[3]\t\"H\u{e9}\"[1]",
            "[3]\t\"H7\"[1]\u{a0}w=1",
            "[3]\t\"H7\"[1] w=1\u{a0}",
            "[3]\t\"H7\"[1]\t\u{a0}",
            "[3]\u{a0}\"H7\"[1]",
            "[3]\t\"H7\"[1]\r",
            "[3]\t\"H7\"[1] \r",
            "[3]\t\"a\"b\"[1]",
            "[3]\t\"H7\"[1] (",
            "[3]\t\"H7\"[1] )",
        ];
        let mut taken = 0;
        for l in lines {
            // a line refused goes to the general grammar, whatever it makes of it
            if let Some((fast, _)) = plain_port_line(l) {
                taken += 1;
                let (p, labels) = port_line(l).unwrap_or_else(|| panic!("the general grammar refuses {l:?}"));
                assert_eq!(labels, [None, None], "{l:?}");
                assert_eq!(fields(&fast), fields(&p), "{l:?}");
            }
        }
        assert!(taken >= 15, "{taken}");
    }

    /// A line read straight from the text is the line the line path reads: the same
    /// record (the general grammar's), and the next line where the line path goes on.
    #[test]
    fn bare_lines_agree_with_the_line_path() {
        use super::super::grammar::{line_starts, trim_line};
        use super::bare_port_at;
        let text = "[3]\t\"H7\"[1]\n[3] \"H7\"[12]\r\n[3]\"H7\"[1]\n [3]\t\"H7\"[1]\n[3]\t\"H7\"[1] \n\
[3]\t\"H7\"[1]\tw=1\n[3]\t\"H7\n\"[1]\n[3]\t\"H7\"[1](2c9)\n[3]\t\"H7\"[1]\r\r\n[3]\t\"\"[0]\n\
[99999]\t\"a b\"[255]\n[3]\t\"H7\"[1]\r[4]\t\"H7\"[2]\n\n[1234567890]\t\"H\"[1]\n[3]\t\"H\u{e9}\"[1]\r\n[7]\t\"last\"[2]";
        let starts: Vec<usize> = line_starts(text).collect();
        let mut taken = 0;
        for (k, &s) in starts.iter().enumerate() {
            let Some(bare) = bare_port_at(text, s) else {
                continue;
            };
            let (fast, next) = (bare.record(), bare.next);
            assert!(bare.key == super::ShortId::new(bare.far), "{bare:?}", bare = bare.far);
            taken += 1;
            let line = super::super::grammar::line_at(text, s);
            let (p, labels) = port_line(trim_line(line)).unwrap_or_else(|| panic!("{line:?}"));
            assert_eq!((fields(&fast), labels), (fields(&p), [None, None]), "{line:?}");
            assert_eq!(trim_line(line), line, "nothing to trim: {line:?}");
            assert_eq!(next, starts.get(k + 1).copied().unwrap_or(text.len()), "{line:?}");
        }
        assert_eq!(taken, 7, "the bare lines of the text");
    }

    /// A GUID line read straight from the text is the one the line path reads.
    #[test]
    fn bare_guid_lines_agree_with_the_line_path() {
        use super::super::grammar::{guid_line, line_at, line_starts, trim_line};
        use super::bare_guid_line_at;
        let text = "caguid=0x00b6fdccf89e7370\nswitchguid=0x0002C90000001003\r\ncaguid=0x00b6fdccf89e73701\n\
caguid=0x00b6fdccf89e737\ncaguid=0x00b6fdccf89e7370 \nswitchguid=0x0002c90000001003(2c90000001003)\n\
caguid =0x00b6fdccf89e7370\ncaguid=0x00b6fdccf89e7370\r\rrtguid=0x0000000000000001\ncaguid=0x00b6fdccf89e7370";
        let starts: Vec<usize> = line_starts(text).collect();
        let mut taken = 0;
        for (k, &s) in starts.iter().enumerate() {
            let Some((kind, guid, next)) = bare_guid_line_at(text, s) else {
                continue;
            };
            taken += 1;
            let line = line_at(text, s);
            assert_eq!(trim_line(line), line, "nothing to trim: {line:?}");
            assert_eq!(guid_line(line), Some((kind, false, guid)), "{line:?}");
            assert_eq!(next, starts.get(k + 1).copied().unwrap_or(text.len()), "{line:?}");
        }
        assert_eq!(taken, 3, "the bare GUID lines of the text");
    }

    #[test]
    fn reads_the_common_lines() {
        let (p, bare) = plain_port_line("[3]\t\"H7\"[12]\tw=1\ts=4").unwrap();
        assert!(!bare);
        assert!(plain_port_line("[3]\t\"H7\"[12]").unwrap().1);
        assert_eq!((p.num, p.remote_port), (3, 12));
        assert!(matches!(p.remote, Remote::Id("H7")));
        assert!(p.width.is_some() && p.speed.is_some());
        for refused in [
            "[3]\t\"H7\"[1](2c9)",
            "[3]\t\"H7\"[1] (2c9)",
            "[4294967295]\t\"H7\"[1]",
            "[1] \"B\"[2] w=3",
        ] {
            assert!(plain_port_line(refused).is_none(), "{refused:?}");
        }
    }
}
