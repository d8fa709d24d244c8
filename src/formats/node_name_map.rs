//! Node name maps, the infiniband-diags format (`ibnetdiscover --node-name-map`,
//! `/etc/opensm/ib-node-name-map`): one node per line, its node GUID then its name,
//!
//! ```text
//! # comment
//! 0x0002c90010000003 "spine-03 rack 7"
//! 0x0002c90010000004 leaf-04
//! ```
//!
//! Operators name switches by rack and row, not by whatever the vendor put in the
//! NodeDescription (often the same string on every switch of a model); reports then use
//! those names. A name may be quoted; the rest of the line after it is ignored, as the
//! diags tools do.

use crate::error::{Error, Result};
use crate::topology::label::{check_label, MAX_DESC};
use crate::topology::Fabric;
use std::collections::HashMap;
use std::path::Path;

/// Node GUID → name.
pub type NodeNameMap = HashMap<u64, String>;

/// Parse a node name map; errors name the file, line and what was expected.
pub fn parse(text: &str, path: &Path) -> Result<NodeNameMap> {
    let mut map = NodeNameMap::new();
    let mut line_of: HashMap<u64, usize> = HashMap::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let l = raw.trim();
        if l.is_empty() || l.starts_with('#') {
            continue;
        }
        let (guid_text, rest) = l.split_once(char::is_whitespace).unwrap_or((l, ""));
        let guid = crate::guid::hex_or_decimal(guid_text).ok_or_else(|| {
            Error::at(path, line, format!("`{guid_text}` is not a node GUID"))
                .with_hint("write `0x<16 hex digits> \"name\"` per line, as ibnetdiscover --node-name-map reads")
        })?;
        let rest = rest.trim();
        let name = match rest.strip_prefix('"') {
            Some(q) => q
                .split_once('"')
                .map(|(n, _)| n)
                .ok_or_else(|| Error::at(path, line, "the quoted name has no closing `\"`"))?,
            None => rest.split_whitespace().next().unwrap_or(""),
        };
        if name.is_empty() {
            return Err(Error::at(path, line, format!("no name for node 0x{guid:016x}")));
        }
        check_label("name", name, MAX_DESC, false).map_err(|e| e.in_file(path, line))?;
        if let Some(first) = line_of.insert(guid, line) {
            return Err(Error::at(
                path,
                line,
                format!("node 0x{guid:016x} is named again (first at line {first})"),
            ));
        }
        map.insert(guid, name.to_string());
    }
    Ok(map)
}

/// Give the nodes of `fabric` that `map` names their map name as description (what
/// reports print). Returns how many nodes were renamed.
pub fn apply(map: &NodeNameMap, fabric: &mut Fabric) -> usize {
    let mut n = 0;
    for node in fabric.nodes.iter_mut() {
        if let Some(name) = map.get(&node.guid) {
            node.desc = name.clone();
            n += 1;
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_diags_format_and_names_bad_lines() {
        let p = Path::new("map");
        let m = parse(
            "# site map\n0x0002c90010000003 \"spine-03 rack 7\" # core\n\n0X2c90010000004 leaf-04 extra\n",
            p,
        )
        .unwrap();
        assert_eq!(m[&0x0002_c900_1000_0003], "spine-03 rack 7");
        assert_eq!(m[&0x0002_c900_1000_0004], "leaf-04");
        let e = parse("zz \"a\"\n", p).unwrap_err().to_string();
        assert!(e.starts_with("map:1:") && e.contains("not a node GUID"), "{e}");
        let e = parse("0x1 \"a\n", p).unwrap_err().to_string();
        assert!(e.starts_with("map:1:") && e.contains("closing"), "{e}");
        let e = parse("0x1 a\n0x1 b\n", p).unwrap_err().to_string();
        assert!(e.starts_with("map:2:") && e.contains("first at line 1"), "{e}");
        let e = parse("0x1 \"a\u{1b}[31m\"\n", p).unwrap_err().to_string();
        assert!(e.starts_with("map:1:"), "{e}");
        let e = parse("0x1\n", p).unwrap_err().to_string();
        assert!(e.contains("no name"), "{e}");
    }
}
