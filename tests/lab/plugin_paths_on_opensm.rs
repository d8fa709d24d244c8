//! The plugin never makes OpenSM wait (issue 41, item 2): role files and `schedule_out`
//! that are a FIFO, a device, a folder or `-` are refused when the options are read, with
//! the reason in OpenSM's log; the sweep completes (OpenSM falls back to minhop) and
//! SIGTERM ends OpenSM within seconds. Stock OpenSM 3.3.23 on ibsim.

use crate::harness;

use crate::harness::{build_plan, OsmConfig, Sim};
use std::process::Command;
use std::time::{Duration, Instant};

#[test]
fn paths_that_could_block_opensm_are_refused_and_the_sweep_completes() {
    let dir = tempfile::tempdir().unwrap();
    let plan = dir.path().join("plan");
    build_plan(&["build", "kary", "--arity", "2", "--levels", "2"], &plan);
    let sim = Sim::start(&plan.join("topology.net"));
    let fifo = dir.path().join("fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let fifo = fifo.to_str().unwrap().to_string();
    let folder = dir.path().to_str().unwrap().to_string();
    let cases = [
        (format!("io_guid_file={fifo}"), "a FIFO, not a regular file"),
        (format!("cn_guid_file={fifo}"), "a FIFO, not a regular file"),
        (format!("schedule_out={fifo}"), "a FIFO, not a regular file"),
        ("io_guid_file=/dev/zero".to_string(), "a device, not a regular file"),
        (format!("schedule_out={folder}"), "a folder, not a regular file"),
        ("io_guid_file=-".to_string(), "`-` is OpenSM's standard input/output"),
        ("schedule_out=-".to_string(), "`-` is OpenSM's standard input/output"),
    ];
    for (i, (options, says)) in cases.iter().enumerate() {
        let mut osm = sim.opensm_daemon(
            &OsmConfig {
                engine: "ibfat,minhop".into(),
                tag: Some(format!("paths-{i}")),
                timeout: Some(Duration::from_secs(60)),
                ..Default::default()
            }
            .with_ibfat_plugin(options),
        );
        let log = osm.log();
        assert!(
            log.contains("bad plugin options") && log.contains(says),
            "{options}: {}",
            harness::tail(&log, 20)
        );
        let term = Command::new("kill")
            .args(["-TERM", &osm.pid().to_string()])
            .status()
            .unwrap();
        assert!(term.success());
        let t = Instant::now();
        while osm.alive() && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!osm.alive(), "{options}: OpenSM still running 10 s after SIGTERM");
    }
}
