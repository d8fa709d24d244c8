//! The lines of a text, their ends found eight bytes at a time where lines are short.
//!
//! An ibsim net file is mostly short lines (a port line is 14 bytes, a GUID line 25): a
//! SIMD search (`memchr`) started per line paid its set-up on every one of them, about
//! 150 instructions a line. In a text of short lines the first 32 bytes of a line are
//! searched a word at a time (a few instructions each) and a longer line's end is left to
//! `memchr`; in a text of longer lines (ibnetdiscover's average 40 bytes, iblinkinfo's
//! more) the words would be searched in vain, and `memchr` has every line.

/// Lines without their `\n` / `\r\n` ends; a last line without `\n` is one too. The
/// record reader's lines (it may read a few lines straight from the text and go on
/// after them: [`Lines::skip_to`]); the other readers' lines are long, and their loops
/// keep the plain `memchr` iterator ([`super::grammar::lines`]).
pub(in crate::formats::dump) fn record_lines(text: &str) -> Lines<'_> {
    Lines {
        text,
        start: 0,
        short: short_lines(text),
    }
}

/// Whether the lines of `text` are short, judged by its first 2 KiB: at least one line
/// end per 24 bytes. (Only the speed depends on it.)
pub(in crate::formats::dump) fn short_lines(text: &str) -> bool {
    let head = &text.as_bytes()[..text.len().min(2048)];
    let ends: usize = head.iter().map(|&b| usize::from(b == b'\n')).sum();
    ends * 24 >= head.len()
}

/// The iterator of [`record_lines`].
pub(in crate::formats::dump) struct Lines<'a> {
    text: &'a str,
    /// Where the next line starts.
    start: usize,
    /// The text's lines are short: their first words are searched before `memchr`.
    short: bool,
}

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    // inlined into each reader's loop: a call per line cost as much as the search
    #[inline(always)]
    fn next(&mut self) -> Option<&'a str> {
        let rest = self.text.get(self.start..).filter(|r| !r.is_empty())?;
        let end = if self.short {
            newline(rest.as_bytes())
        } else {
            memchr::memchr(b'\n', rest.as_bytes())
        };
        let line = match end {
            Some(end) => {
                self.start += end + 1;
                &rest[..end]
            }
            None => {
                self.start = self.text.len();
                rest
            }
        };
        Some(line.strip_suffix('\r').unwrap_or(line))
    }
}

impl Lines<'_> {
    /// Where the next line starts.
    pub(in crate::formats::dump) fn offset(&self) -> usize {
        self.start
    }

    /// Go on from `start`, the start of a line after the next (a reader that read the
    /// lines in between itself).
    pub(in crate::formats::dump) fn skip_to(&mut self, start: usize) {
        self.start = start;
    }
}

/// The offset of every line's first byte (0, and each one after a `\n` but the end of
/// the text): the reference [`for_line_starts`] is tested against.
#[cfg(test)]
pub(in crate::formats::dump) fn line_starts(text: &str) -> LineStarts<'_> {
    let b = text.as_bytes();
    LineStarts {
        b,
        word: 0,
        mask: newline_bytes(word_at(b, 0)),
        first: !b.is_empty(),
    }
}

/// The iterator of [`line_starts`].
#[cfg(test)]
pub(in crate::formats::dump) struct LineStarts<'a> {
    b: &'a [u8],
    /// Offset of the eight bytes `mask` describes.
    word: usize,
    /// The high bits of the `\n` bytes of that word not yet returned.
    mask: u64,
    /// Offset 0 is still to be returned.
    first: bool,
}

#[cfg(test)]
impl Iterator for LineStarts<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        if self.first {
            self.first = false;
            return Some(0);
        }
        while self.mask == 0 {
            self.word += 8;
            if self.word >= self.b.len() {
                return None;
            }
            self.mask = newline_bytes(word_at(self.b, self.word));
        }
        let start = self.word + self.mask.trailing_zeros() as usize / 8 + 1;
        self.mask &= self.mask - 1;
        (start < self.b.len()).then_some(start)
    }
}

/// Call `f` with the offset of every line start (as the test-only `line_starts` gives them) whose
/// first byte `pick` takes: a pass that looks at a few lines only (the header pass). The
/// text is read a word at a time in one loop, without an iterator's state between line
/// starts: the iterator cost about 25 instructions a word, a twentieth of a net file's
/// parse, where this loop takes under ten.
pub(in crate::formats::dump) fn for_line_starts(text: &str, pick: impl Fn(u8) -> bool, mut f: impl FnMut(usize)) {
    let b = text.as_bytes();
    if b.first().is_some_and(|&c| pick(c)) {
        f(0);
    }
    // sixteen bytes a step, two words: half the loop's own instructions per byte
    let mut chunks = b.chunks_exact(16);
    let mut at = 1;
    for w in &mut chunks {
        let word = |i: usize| u64::from_le_bytes(w[i..i + 8].try_into().unwrap_or([0; 8]));
        let (low, high) = (newline_bytes(word(0)), newline_bytes(word(8)));
        if low | high == 0 {
            at += 16;
            continue;
        }
        for (mut ends, from) in [(low, at), (high, at + 8)] {
            while ends != 0 {
                let start = from + ends.trailing_zeros() as usize / 8;
                ends &= ends - 1;
                if b.get(start).is_some_and(|&c| pick(c)) {
                    f(start);
                }
            }
        }
        at += 16;
    }
    for (i, &c) in chunks.remainder().iter().enumerate() {
        if c == b'\n' && b.get(at + i).is_some_and(|&c| pick(c)) {
            f(at + i);
        }
    }
}

/// The line that starts at `start` (an offset [`line_starts`] gave), without its end.
#[cfg(test)]
pub(in crate::formats::dump) fn line_at(text: &str, start: usize) -> &str {
    let rest = text.get(start..).unwrap_or("");
    let line = newline(rest.as_bytes()).map_or(rest, |end| &rest[..end]);
    line.strip_suffix('\r').unwrap_or(line)
}

/// The eight bytes of `b` from `at` as a little-endian word, zeros past the end.
#[cfg(test)]
fn word_at(b: &[u8], at: usize) -> u64 {
    match b.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) {
        Some(w) => u64::from_le_bytes(w),
        None => b
            .get(at..)
            .unwrap_or(&[])
            .iter()
            .enumerate()
            .fold(0, |v, (i, &c)| v | (u64::from(c) << (8 * i))),
    }
}

/// Bytes searched a word at a time before `memchr` takes over.
const SHORT: usize = 32;

/// The offset of the first `\n` of `b`.
#[inline]
fn newline(b: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < SHORT {
        let Some(w) = b.get(at..at + 8).and_then(|w| <[u8; 8]>::try_from(w).ok()) else {
            break;
        };
        let high = newline_bytes(u64::from_le_bytes(w));
        if high != 0 {
            return Some(at + high.trailing_zeros() as usize / 8);
        }
        at += 8;
    }
    memchr::memchr(b'\n', &b[at..]).map(|i| at + i)
}

/// The high bit of every byte of `w` that is `\n`, and of no other: the bytes equal to
/// it become zero, which an exact zero-byte test (no borrow between bytes) marks.
#[inline]
fn newline_bytes(w: u64) -> u64 {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let x = w ^ 0x0a0a_0a0a_0a0a_0a0a;
    !(((x & LOW7) + LOW7) | x) & !LOW7
}

#[cfg(test)]
mod tests {
    use super::{for_line_starts, line_at, line_starts, record_lines, short_lines, Lines};

    /// The lines as the plain library split reads them, for comparison.
    fn reference(text: &str) -> Vec<&str> {
        let mut v: Vec<&str> = text.split('\n').map(|l| l.strip_suffix('\r').unwrap_or(l)).collect();
        if text.is_empty() || text.ends_with('\n') {
            v.pop();
        }
        v
    }

    #[test]
    fn short_lines_are_told_by_the_head_of_the_text() {
        assert!(short_lines("[1]\t\"H1\"[2]\n".repeat(400).as_str()));
        assert!(!short_lines(&format!("{}\n", "x".repeat(40)).repeat(100)));
        assert!(short_lines(""));
    }

    #[test]
    fn agrees_with_split_on_every_length_and_end() {
        let pieces = [
            "",
            "a",
            "[3]\t\"H7\"[1]",
            "\r",
            "\u{e9}t\u{e9}",
            "x\ry",
            &"z".repeat(70),
        ];
        let mut texts = vec![String::new(), "\n".into(), "\n\n\n".into(), "\r\n".into()];
        for a in pieces {
            for b in pieces {
                for end in ["", "\n", "\r\n"] {
                    texts.push(format!("{a}\n{b}{end}"));
                    texts.push(format!("{a}\r\n{b}\n\n{a}{end}"));
                }
            }
        }
        // a newline at every offset around the block edges
        for len in 0..200 {
            for at in [0, 7, 8, 63, 64, 65, 127, 128] {
                let mut s: Vec<u8> = (0..len).map(|i| b'a' + (i % 26) as u8).collect();
                if at < len {
                    s[at] = b'\n';
                }
                texts.push(String::from_utf8(s).unwrap());
            }
            texts.push("\n".repeat(len));
        }
        for t in &texts {
            assert_eq!(record_lines(t).collect::<Vec<_>>(), reference(t), "{t:?}");
            let starts: Vec<&str> = line_starts(t).map(|s| line_at(t, s)).collect();
            assert_eq!(starts, reference(t), "{t:?}");
            let mut every = Vec::new();
            for_line_starts(t, |_| true, |s| every.push(s));
            assert_eq!(every, line_starts(t).collect::<Vec<_>>(), "{t:?}");
            let mut picked = Vec::new();
            for_line_starts(t, |c| c == b'a', |s| picked.push(s));
            let want: Vec<usize> = line_starts(t).filter(|&s| t.as_bytes()[s] == b'a').collect();
            assert_eq!(picked, want, "{t:?}");
            assert_eq!(
                super::super::grammar::lines(t).collect::<Vec<_>>(),
                reference(t),
                "{t:?}"
            );
            for short in [false, true] {
                let both = Lines {
                    text: t,
                    start: 0,
                    short,
                };
                assert_eq!(both.collect::<Vec<_>>(), reference(t), "{t:?} {short}");
                // and from every line start on
                for s in line_starts(t) {
                    let mut from = Lines {
                        text: t,
                        start: 0,
                        short,
                    };
                    from.skip_to(s);
                    assert_eq!(from.collect::<Vec<_>>(), reference(&t[s..]), "{t:?} {short} {s}");
                }
            }
        }
    }
}
