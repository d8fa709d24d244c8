//! Node names and descriptions, checked where a node enters a fabric: they travel into
//! files other programs parse line by line (OpenSM's `opensm-lfts.dump`, ibsim's net file,
//! `cables.csv`, Graphviz) and onto terminals, so a newline would forge lines (a
//! `0x0001 005` entry read back by `opensm -R`) and an escape sequence would act on the
//! operator's screen.

use crate::error::{escape_controls, Error, Result};

/// Longest node name ibfat accepts (names are short ids: `L3`, `S-0002c90000001003`).
pub(crate) const MAX_NAME: usize = 256;

/// Longest node description: the NodeDescription attribute is 64 bytes; dumps of some
/// vendors' tools pad or decorate it, so allow some more.
pub(crate) const MAX_DESC: usize = 256;

/// Check a node name or description before it enters a fabric: no control characters
/// (they would split lines of the files written from it, or act on a terminal), no `"` in
/// names (names are quoted in dumps and net files), non-empty names, at most `max` bytes.
/// The error names `field` and says what is valid.
#[inline]
pub(crate) fn check_label(field: &str, s: &str, max: usize, is_name: bool) -> Result<()> {
    // the common case at the caller, without a call: a dump's reader checks every node
    if s.len() <= max && !(is_name && s.is_empty()) && printable_ascii(s.as_bytes(), is_name) {
        return Ok(());
    }
    label_problem(field, s, max, is_name)
}

/// [`check_label`] of a label that is not all printable ASCII (or is empty or too long):
/// what is wrong with it, if anything (other printable text is valid).
#[cold]
fn label_problem(field: &str, s: &str, max: usize, is_name: bool) -> Result<()> {
    let bad = |msg: String| Err(Error::input(field, msg, None));
    if is_name && s.is_empty() {
        return bad("empty: a node name has 1 to 256 characters".into());
    }
    if s.len() > max {
        return bad(format!(
            "\"{}…\" is {} bytes long; valid: at most {max} bytes",
            escape_controls(&s[..s.floor_char_boundary_compat(40)]),
            s.len()
        ));
    }
    if let Some((at, c)) = s.char_indices().find(|&(_, c)| c.is_control()) {
        return bad(format!(
            "\"{}\" holds the control character {} at byte {at}; valid: printable text (no newlines, tabs or escape sequences)",
            escape_controls(s),
            escape_controls(c.encode_utf8(&mut [0; 4]))
        ));
    }
    if is_name && s.contains('"') {
        return bad(format!(
            "\"{}\" holds a double quote; valid: any printable text but `\"` (names are quoted in dumps and net files)",
            s
        ));
    }
    Ok(())
}

/// Whether every byte of `s` is printable ASCII (0x20..0x7f), and none `"` when
/// `no_quote`: eight bytes at a time, as a dump's reader checks every node's id and
/// description (a byte at a time, a thirtieth of an ibsim net file's parse).
#[inline]
fn printable_ascii(s: &[u8], no_quote: bool) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // whether a byte of `w` is zero: exact as a whole (a borrow only follows a zero byte)
    let zero = |w: u64| w.wrapping_sub(ONES) & !w & HIGH != 0;
    let mut words = s.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        // non-ASCII, below 0x20 (exact as a whole, as `zero`), DEL, a refused quote
        let below = w.wrapping_sub(0x20 * ONES) & !w & HIGH != 0;
        if w & HIGH != 0 || below || zero(w ^ (0x7f * ONES)) || (no_quote && zero(w ^ (u64::from(b'"') * ONES))) {
            return false;
        }
    }
    words
        .remainder()
        .iter()
        .all(|&b| (0x20..0x7f).contains(&b) && !(no_quote && b == b'"'))
}

/// Helper for [`check_label`]'s message: the largest char boundary at or below `i`.
trait FloorBoundary {
    fn floor_char_boundary_compat(&self, i: usize) -> usize;
}

impl FloorBoundary for str {
    fn floor_char_boundary_compat(&self, i: usize) -> usize {
        let mut i = i.min(self.len());
        while !self.is_char_boundary(i) {
            i -= 1;
        }
        i
    }
}

/// How reports name nodes. Operators know nodes by their NodeDescription, but real
/// fabrics often give every switch the same one (`SwitchIB Mellanox Technologies` on all
/// six switches), which makes a report like "busiest link X:13 -> X" useless. So a
/// description that several nodes share is followed by the node's GUID and, when known,
/// its LID: `SwitchIB Mellanox Technologies [0x0002c9030001e3f0 LID 12]`; an empty one is
/// replaced by the node's name. A `--node-name-map` sets the descriptions first, so its
/// names are what reports show wherever they are unique.
#[derive(Clone, Debug)]
pub(crate) struct Labels(Vec<String>);

impl Labels {
    /// The label of every node of `fabric` (computed once: one pass over the nodes).
    pub(crate) fn new(fabric: &super::Fabric) -> Labels {
        let mut seen: std::collections::HashMap<&str, u32> = std::collections::HashMap::new();
        for node in &fabric.nodes {
            *seen.entry(node.desc.trim()).or_default() += 1;
        }
        let labels = (0..fabric.nodes.len())
            .map(|i| label(fabric, i, |desc| seen[desc] > 1))
            .collect();
        Labels(labels)
    }

    /// The label of node `n` alone, without labelling the fabric: for a message that
    /// names a node or two (a refusal), where labelling every node would cost more than
    /// the work that failed.
    pub(crate) fn one(fabric: &super::Fabric, n: super::NodeId) -> String {
        label(fabric, n as usize, |desc| {
            // a shorter description cannot trim to `desc`: most are skipped untrimmed
            let same = |o: &&super::Node| o.desc.len() >= desc.len() && o.desc.trim() == desc;
            fabric.nodes.iter().filter(same).nth(1).is_some()
        })
    }

    /// The label of node `n`.
    pub(crate) fn get(&self, n: super::NodeId) -> &str {
        &self.0[n as usize]
    }
}

/// Node `i`'s label, `shared` telling whether another node has its (trimmed) description.
fn label(fabric: &super::Fabric, i: usize, shared: impl Fn(&str) -> bool) -> String {
    let node = &fabric.nodes[i];
    let desc = node.desc.trim();
    if desc.is_empty() {
        return node.name.clone();
    }
    if !shared(desc) {
        return desc.to_string();
    }
    let first = node.first_port as usize;
    let lid = fabric.ports[first..=first + node.nports as usize]
        .iter()
        .map(|p| p.lid)
        .find(|&l| l != 0);
    debug_assert_eq!(fabric.ports[first].node as usize, i);
    match lid {
        Some(l) => format!("{desc} [0x{:016x} LID {l}]", node.guid),
        None => format!("{desc} [0x{:016x}]", node.guid),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_descriptions() {
        assert!(check_label("desc", "H3_1 HCA-1", MAX_DESC, false).is_ok());
        let e = check_label("desc", "x\n0x0001 005", MAX_DESC, false)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "desc: \"x\\n0x0001 005\" holds the control character \\n at byte 1; valid: printable text (no newlines, tabs or escape sequences)"
        );
        assert!(check_label("name", "", MAX_NAME, true).is_err());
        assert!(check_label("name", "a\"b", MAX_NAME, true).is_err());
        assert!(check_label("desc", "a\"b", MAX_DESC, false).is_ok());
        let e = check_label("desc", &"é".repeat(200), MAX_DESC, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("is 400 bytes long; valid: at most 256 bytes"), "{e}");
    }

    /// The word-wise check agrees with the byte-wise one on every byte at every offset.
    #[test]
    fn printable_ascii_agrees_with_the_bytes() {
        let reference = |s: &[u8], q: bool| s.iter().all(|&b| (0x20..0x7f).contains(&b) && !(q && b == b'"'));
        for len in 0..20 {
            for at in 0..len {
                for b in 0..=255u8 {
                    // and a second byte after it, to catch a borrow that hides one
                    for next in [b'a', 0x00, 0x1f, 0x20, b'"', 0x7e, 0x7f, 0x80, 0xff] {
                        let mut s = vec![b'a'; len];
                        s[at] = b;
                        if at + 1 < len {
                            s[at + 1] = next;
                        }
                        for q in [false, true] {
                            assert_eq!(super::printable_ascii(&s, q), reference(&s, q), "{s:?} {q}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn shared_descriptions_get_guid_and_lid() {
        use crate::topology::{Fabric, NodeKind};
        let mut f = Fabric::new();
        let a = f
            .add_node(NodeKind::Switch, 4, 0xa, "S-a", "SwitchIB Mellanox Technologies")
            .unwrap();
        let b = f
            .add_node(NodeKind::Switch, 4, 0xb, "S-b", "SwitchIB Mellanox Technologies")
            .unwrap();
        let c = f.add_node(NodeKind::Switch, 4, 0xc, "S-c", "core-1").unwrap();
        let h = f.add_node(NodeKind::Ca, 1, 0xd, "H-d", "").unwrap();
        let p0 = f.port_index(a, 0) as usize;
        f.ports[p0].lid = 12;
        let l = Labels::new(&f);
        assert_eq!(l.get(a), "SwitchIB Mellanox Technologies [0x000000000000000a LID 12]");
        assert_eq!(l.get(b), "SwitchIB Mellanox Technologies [0x000000000000000b]");
        assert_eq!(l.get(c), "core-1");
        assert_eq!(l.get(h), "H-d");
    }
}
