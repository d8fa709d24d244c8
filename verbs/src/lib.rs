//! The libibverbs boundary of ibfat (behind ibfat's `verbs` feature): list the local HCA
//! ports with their port GUID, LID, LMC and state, as the verbs library reports them. The
//! unsafe calls live here, at the FFI boundary, and nowhere else; the result is plain data.
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::undocumented_unsafe_blocks)]

use rdma_sys::{
    ibv_close_device, ibv_device_attr, ibv_free_device_list, ibv_get_device_list, ibv_get_device_name, ibv_gid,
    ibv_open_device, ibv_port_attr, ibv_query_device, ibv_query_gid, ibv_query_port,
};
use std::ffi::CStr;

/// One local HCA port.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalPort {
    pub device: String,
    pub port: u8,
    /// Port GUID (the interface id of GID 0).
    pub port_guid: u64,
    pub lid: u16,
    pub lmc: u8,
    /// `ACTIVE`, `DOWN`, `INIT`, `ARMED` ...
    pub state: String,
}

fn state_name(s: u32) -> &'static str {
    match s {
        1 => "DOWN",
        2 => "INIT",
        3 => "ARMED",
        4 => "ACTIVE",
        5 => "ACTIVE_DEFER",
        _ => "NOP",
    }
}

/// Every port of every RDMA device libibverbs knows (empty without hardware).
pub fn local_ports() -> Result<Vec<LocalPort>, String> {
    let mut out = Vec::new();
    let mut n: i32 = 0;
    // SAFETY: n is a valid out-parameter; the list is freed below
    let list = unsafe { ibv_get_device_list(&mut n) };
    if list.is_null() {
        let e = std::io::Error::last_os_error();
        // ENOSYS: no RDMA support in this kernel, which means no local ports
        return if e.raw_os_error() == Some(38) {
            Ok(out)
        } else {
            Err(format!("ibv_get_device_list failed: {e}"))
        };
    }
    for i in 0..n.max(0) as usize {
        // SAFETY: the list holds n device pointers
        let dev = unsafe { *list.add(i) };
        // SAFETY: libibverbs returns a NUL-terminated name owned by the device
        let name = unsafe { CStr::from_ptr(ibv_get_device_name(dev)) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: dev comes from the list; the context is closed below
        let ctx = unsafe { ibv_open_device(dev) };
        if ctx.is_null() {
            continue; // a device we may not open (permissions): skip it
        }
        // SAFETY: ibv_device_attr is plain C data (integers and arrays), valid all zero
        let mut attr: ibv_device_attr = unsafe { std::mem::zeroed() };
        // SAFETY: ctx is open; attr is a valid out-parameter
        if unsafe { ibv_query_device(ctx, &mut attr) } == 0 {
            for port in 1..=attr.phys_port_cnt {
                // the exported ibv_query_port fills the legacy layout, a prefix of ibv_port_attr
                // SAFETY: ibv_port_attr is plain C data (integers), valid all zero
                let mut pa: ibv_port_attr = unsafe { std::mem::zeroed() };
                // SAFETY: pa is at least as large as the legacy structure the library fills
                if unsafe { ibv_query_port(ctx, port, (&mut pa as *mut ibv_port_attr).cast()) } != 0 {
                    continue;
                }
                // SAFETY: ibv_gid is a union of 16 plain bytes, valid all zero
                let mut gid: ibv_gid = unsafe { std::mem::zeroed() };
                // SAFETY: ctx is open; gid is a valid out-parameter
                let guid = if unsafe { ibv_query_gid(ctx, port, 0, &mut gid) } == 0 {
                    // SAFETY: both union views are 16 plain bytes
                    u64::from_be(unsafe { gid.global.interface_id })
                } else {
                    0
                };
                out.push(LocalPort {
                    device: name.clone(),
                    port,
                    port_guid: guid,
                    lid: pa.lid,
                    lmc: pa.lmc,
                    state: state_name(pa.state).into(),
                });
            }
        }
        // SAFETY: ctx was opened above
        unsafe { ibv_close_device(ctx) };
    }
    // SAFETY: list came from ibv_get_device_list
    unsafe { ibv_free_device_list(list) };
    Ok(out)
}

#[cfg(test)]
mod tests {
    #[test]
    fn listing_works_without_hardware() {
        // on a machine without RDMA devices the list is empty, never an error or a crash
        let ports = super::local_ports().expect("libibverbs answers");
        for p in &ports {
            assert!(p.port >= 1);
        }
    }
}
