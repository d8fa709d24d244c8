//! The records of the last subnet ibfat programmed, kept in a file (`state_file=`) for the
//! next start of OpenSM: the plugin computes their tables when it loads, and the first
//! pass takes them if it reads the same records ([`crate::ahead`]).
//!
//! The file is only a guess of what the first pass will read. A pass takes tables only
//! for records equal field by field to those it read, so a stale, foreign or forged file
//! costs background work and nothing else. It is still read as hostile input: bounded in
//! size, checked whole (a checksum), and refused with the reason. Format (little-endian):
//! the line [`MAGIC`], the node and port counts (u32 each), the nodes (GUID u64, kind u8,
//! port count u8, LID u16, description 64 bytes), the ports (node, port and peer GUIDs
//! u64, LID u16, then LMC, port, peer port, width, speed, extended speed, Mellanox speed
//! and VL capability as u8), and an FNV-1a digest (u64) of everything before it.

use super::{Records, ShimNode, ShimPort};
use std::ffi::c_char;
use std::path::Path;

/// The first line of a state file.
const MAGIC: &[u8] = b"ibfat-osm subnet records 1\n";
/// Bytes of one node and one port record.
const NODE: usize = 8 + 1 + 1 + 2 + 64;
const PORT: usize = 3 * 8 + 2 + 8;
/// The largest state file read: some 400,000 port records, beyond any subnet OpenSM
/// routes (48K unicast LIDs).
const MAX_BYTES: u64 = 16 << 20;

/// The file's bytes for `r`.
pub(crate) fn encode(r: &Records) -> Vec<u8> {
    let mut b = Vec::with_capacity(MAGIC.len() + 8 + r.nodes.len() * NODE + r.ports.len() * PORT + 8);
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&(r.nodes.len() as u32).to_le_bytes());
    b.extend_from_slice(&(r.ports.len() as u32).to_le_bytes());
    for n in &r.nodes {
        b.extend_from_slice(&n.guid.to_le_bytes());
        b.extend_from_slice(&[n.kind, n.nports]);
        b.extend_from_slice(&n.lid.to_le_bytes());
        b.extend(n.desc[..64].iter().map(|&c| c as u8));
    }
    for p in &r.ports {
        for g in [p.node_guid, p.port_guid, p.remote_node_guid] {
            b.extend_from_slice(&g.to_le_bytes());
        }
        b.extend_from_slice(&p.lid.to_le_bytes());
        b.extend_from_slice(&[
            p.lmc,
            p.port,
            p.remote_port,
            p.width,
            p.speed,
            p.speed_ext,
            p.speed_mlnx,
            p.vl_cap,
        ]);
    }
    let sum = fnv1a(&b);
    b.extend_from_slice(&sum.to_le_bytes());
    b
}

/// The records of a state file's bytes, or what is wrong with them.
pub(crate) fn decode(b: &[u8]) -> Result<Records, String> {
    let body = b
        .strip_prefix(MAGIC)
        .ok_or("it does not start with the line \"ibfat-osm subnet records 1\" (not a state file of this plugin)")?;
    if body.len() < 16 {
        return Err(format!("it is truncated ({} bytes)", b.len()));
    }
    let (head, rest) = body.split_at(8);
    let count = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]) as usize;
    let (nn, np) = (count(0), count(4));
    let want = nn
        .checked_mul(NODE)
        .zip(np.checked_mul(PORT))
        .and_then(|(a, c)| a.checked_add(c)?.checked_add(8));
    if want != Some(rest.len()) {
        return Err(format!(
            "it announces {nn} nodes and {np} ports but holds {} bytes after the counts (truncated or corrupt)",
            rest.len()
        ));
    }
    let (data, sum) = b.split_at(b.len() - 8);
    if fnv1a(data).to_le_bytes() != sum {
        return Err("its checksum does not match its contents (corrupt)".into());
    }
    let (nodes, ports) = rest[..rest.len() - 8].split_at(nn * NODE);
    let u64_at = |s: &[u8], i: usize| u64::from_le_bytes(s[i..i + 8].try_into().unwrap_or_default());
    let nodes = nodes
        .chunks_exact(NODE)
        .map(|c| {
            let mut desc = [0 as c_char; 65];
            for (d, &s) in desc.iter_mut().zip(&c[12..NODE]) {
                *d = s as c_char;
            }
            ShimNode {
                guid: u64_at(c, 0),
                kind: c[8],
                nports: c[9],
                lid: u16::from_le_bytes([c[10], c[11]]),
                desc,
            }
        })
        .collect();
    let ports = ports
        .chunks_exact(PORT)
        .map(|c| ShimPort {
            node_guid: u64_at(c, 0),
            port_guid: u64_at(c, 8),
            remote_node_guid: u64_at(c, 16),
            lid: u16::from_le_bytes([c[24], c[25]]),
            lmc: c[26],
            port: c[27],
            remote_port: c[28],
            width: c[29],
            speed: c[30],
            speed_ext: c[31],
            speed_mlnx: c[32],
            vl_cap: c[33],
        })
        .collect();
    Ok(Records::new(nodes, ports))
}

/// The records saved at `path`; `None` when there is no file yet.
pub(crate) fn load(path: &Path) -> Result<Option<Records>, String> {
    use std::io::Read;
    // the path was a regular file when the options were read; it may have been replaced
    crate::options::check_regular("state_file", path).map_err(|e| e.to_string())?;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("cannot open it: {e}")),
    };
    let mut bytes = Vec::new();
    file.take(MAX_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read it: {e}"))?;
    if bytes.len() as u64 > MAX_BYTES {
        return Err(format!(
            "it is larger than {} MiB, more than any subnet's records",
            MAX_BYTES >> 20
        ));
    }
    decode(&bytes).map(Some)
}

/// Save `r` at `path`, atomically (a reader never sees half a file).
pub(crate) fn save(path: &Path, r: &Records) -> ibfat::Result<()> {
    crate::options::check_regular("state_file", path)?;
    ibfat::formats::atomic::write_file(path, &encode(r))
}

/// FNV-1a, 64 bits.
fn fnv1a(b: &[u8]) -> u64 {
    b.iter().fold(0xcbf2_9ce4_8422_2325, |h, &x| {
        (h ^ u64::from(x)).wrapping_mul(0x100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab() -> Records {
        crate::subnet::made::warm_up()
    }

    #[test]
    fn a_state_file_gives_back_the_records_field_by_field() {
        let r = lab();
        let back = decode(&encode(&r)).expect("decodes");
        assert!(back == r, "the records come back equal, digest included");
        assert_eq!(back.nodes.len(), r.nodes.len());
        assert_eq!(back.ports.len(), r.ports.len());
    }

    #[test]
    fn a_damaged_state_file_is_refused_with_the_reason() {
        let good = encode(&lab());
        let mut flipped = good.clone();
        flipped[MAGIC.len() + 8 + 20] ^= 1;
        let cases: Vec<(Vec<u8>, &str)> = vec![
            (b"# ibnetdiscover\n".to_vec(), "not a state file"),
            (good[..good.len() - 3].to_vec(), "truncated"),
            (good[..MAGIC.len() + 4].to_vec(), "truncated"),
            (flipped, "checksum"),
            ([MAGIC, &[0xff; 8][..], &[0; 8][..]].concat(), "announces"),
        ];
        for (bytes, why) in cases {
            let e = decode(&bytes)
                .err()
                .unwrap_or_else(|| panic!("accepted a file that is {why}"));
            assert!(e.contains(why), "{e:?} should say {why}");
        }
    }

    #[test]
    fn state_files_are_saved_and_loaded_and_absent_ones_are_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("subnet.state");
        assert!(load(&path).expect("absent is fine").is_none());
        save(&path, &lab()).expect("saved");
        assert!(load(&path).expect("loads").expect("present") == lab());
        std::fs::write(&path, vec![0u8; (MAX_BYTES + 1) as usize]).expect("written");
        assert!(load(&path).err().expect("refused").contains("larger than"));
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .expect("mkfifo runs")
            .success());
        assert!(load(&fifo).err().expect("refused").contains("not a regular file"));
        assert!(save(&fifo, &lab()).is_err(), "never written into a FIFO");
    }
}
