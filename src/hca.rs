//! The local host's InfiniBand ports (port GUID, LID, state): how an MPI process finds its
//! rank in a schedule file. Read from sysfs (`/sys/class/infiniband`, or the folder in
//! `IBFAT_SYSFS_ROOT`); with the `verbs` feature, from libibverbs.

use crate::error::{Error, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One local HCA port.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LocalPort {
    /// RDMA device name, e.g. `mlx5_0`.
    pub device: String,
    /// Port number on the device (1-based).
    pub port: u8,
    /// Port GUID as `0x` and 16 hex digits (the schedule files' notation).
    pub port_guid: String,
    /// Base LID the subnet manager assigned; 0 when none yet (or unreadable).
    pub lid: u16,
    /// LID mask count: the port answers to 2^lmc LIDs from `lid`; 0 when unknown.
    pub lmc: u8,
    /// Port state word: `ACTIVE`, `DOWN`, `INIT`, `ARMED` ... (empty when unreadable).
    pub state: String,
}

#[cfg_attr(feature = "verbs", allow(dead_code))]
fn sysfs_root() -> PathBuf {
    std::env::var_os("IBFAT_SYSFS_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/sys/class/infiniband"))
}

#[cfg_attr(feature = "verbs", allow(dead_code))]
fn read(p: &Path) -> Option<String> {
    std::fs::read_to_string(p).ok().map(|s| s.trim().to_string())
}

#[cfg_attr(feature = "verbs", allow(dead_code))]
/// Port GUID from a GID text `fe80:0000:0000:0000:0002:c903:0001:0002` (its last 64 bits).
pub(crate) fn guid_of_gid(gid: &str) -> Option<u64> {
    let groups: Vec<&str> = gid.split(':').collect();
    if groups.len() != 8 {
        return None;
    }
    groups[4..]
        .iter()
        .try_fold(0u64, |acc, g| Some(acc << 16 | u64::from_str_radix(g, 16).ok()?))
}

#[cfg_attr(feature = "verbs", allow(dead_code))]
/// The ports sysfs lists (empty when the host has no RDMA devices).
pub(crate) fn from_sysfs(root: &Path) -> Result<Vec<LocalPort>> {
    let mut out = Vec::new();
    let Ok(devices) = std::fs::read_dir(root) else {
        return Ok(out);
    };
    let mut devices: Vec<PathBuf> = devices.flatten().map(|e| e.path()).collect();
    devices.sort();
    for dev in devices {
        let name = dev
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let Ok(ports) = std::fs::read_dir(dev.join("ports")) else {
            continue;
        };
        let mut ports: Vec<PathBuf> = ports.flatten().map(|e| e.path()).collect();
        ports.sort();
        for p in ports {
            let Some(num) = p
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.parse::<u8>().ok())
            else {
                continue;
            };
            let bad = |what: &str| Error::at(&p, 0, format!("cannot read the port's {what}"));
            let gid = read(&p.join("gids/0")).ok_or_else(|| bad("GID 0"))?;
            let guid = guid_of_gid(&gid).ok_or_else(|| bad("GID 0 (expected 8 groups of hex digits)"))?;
            let lid = read(&p.join("lid"))
                .and_then(|s| u16::from_str_radix(s.trim_start_matches("0x"), 16).ok())
                .unwrap_or(0);
            let lmc = read(&p.join("lid_mask_count"))
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
            let state = read(&p.join("state"))
                .map(|s| s.split(':').next_back().unwrap_or("").trim().to_string())
                .unwrap_or_default();
            out.push(LocalPort {
                device: name.clone(),
                port: num,
                port_guid: format!("0x{guid:016x}"),
                lid,
                lmc,
                state,
            });
        }
    }
    Ok(out)
}

/// The local ports: libibverbs with the `verbs` feature, sysfs otherwise.
pub fn local_ports() -> Result<Vec<LocalPort>> {
    #[cfg(feature = "verbs")]
    {
        let v = ibfat_verbs::local_ports().map_err(Error::Tool)?;
        Ok(v.into_iter()
            .map(|p| LocalPort {
                device: p.device,
                port: p.port,
                port_guid: format!("0x{:016x}", p.port_guid),
                lid: p.lid,
                lmc: p.lmc,
                state: p.state,
            })
            .collect())
    }
    #[cfg(not(feature = "verbs"))]
    {
        from_sysfs(&sysfs_root())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_sysfs_tree() {
        let t = tempfile::tempdir().unwrap();
        let port = t.path().join("mlx5_0/ports/1");
        std::fs::create_dir_all(port.join("gids")).unwrap();
        std::fs::write(port.join("gids/0"), "fe80:0000:0000:0000:0002:c903:0001:0002\n").unwrap();
        std::fs::write(port.join("lid"), "0x1a\n").unwrap();
        std::fs::write(port.join("lid_mask_count"), "1\n").unwrap();
        std::fs::write(port.join("state"), "4: ACTIVE\n").unwrap();
        let ports = from_sysfs(t.path()).unwrap();
        assert_eq!(
            ports,
            vec![LocalPort {
                device: "mlx5_0".into(),
                port: 1,
                port_guid: "0x0002c90300010002".into(),
                lid: 26,
                lmc: 1,
                state: "ACTIVE".into()
            }]
        );
        assert!(from_sysfs(&t.path().join("none")).unwrap().is_empty());
        std::fs::write(port.join("gids/0"), "garbage").unwrap();
        assert!(from_sysfs(t.path()).unwrap_err().to_string().contains("GID 0"));
    }
}
