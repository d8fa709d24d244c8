//! Schedule files written and read back; malformed files refused with file and line.

use super::*;
use crate::families::lsft::model::LsftParams;
use crate::schedule::shift::Shift;
use crate::topology::Topology;
use crate::topology::{FamilySpec, Spec};

fn plan() -> Topology {
    Spec::new(FamilySpec::Lsft(LsftParams::new(2, false))).build().unwrap()
}

fn parse(text: &str, plan: Option<&Topology>) -> Result<(Schedule, Option<Job>)> {
    let topo = plan.map(Hosts::of);
    parse_json(text.as_bytes(), Path::new("s.json"), topo.as_ref())
}

struct Gappy;
impl Pattern for Gappy {
    fn name(&self) -> String {
        "gappy".into()
    }
    fn ranks(&self) -> usize {
        3
    }
    fn phases(&self) -> usize {
        2
    }
    fn phase(&self, p: usize, out: &mut [u32]) {
        out.copy_from_slice(&[[1, IDLE, 0], [IDLE, IDLE, 2]][p]);
    }
}

fn on(lfts: Option<&str>) -> ComputedFor {
    ComputedFor {
        fabric: "0x00000000000000f1".into(),
        lfts: lfts.map(String::from),
    }
}

#[test]
fn json_and_csv_round_trip() {
    let hosts = [0x0002_c900_2000_0001u64, 0xffff_0000_0000_0002, 3];
    let mut buf = Vec::new();
    let tables = on(Some("0x00000000000000aa"));
    let counts = write_to(&mut buf, Format::Json, &Gappy, &hosts, &tables).unwrap();
    assert_eq!((counts.flows, counts.self_flows, counts.idle), (3, 1, 3));
    let text = String::from_utf8(buf).unwrap();
    assert_eq!(
        text,
        "{\"computed_for\": {\"fabric\":\"0x00000000000000f1\",\"lfts\":\"0x00000000000000aa\"},\n\
         \"hosts\": [\n\"0x0002c90020000001\",\n\"0xffff000000000002\",\n\"0x0000000000000003\"\n],\n\
         \"phases\": [\n[1,null,0],\n[null,null,2]\n]}\n"
    );
    let (s, job) = parse(&text, None).unwrap();
    assert!(job.is_none());
    assert_eq!(s.computed_for.as_ref(), Some(&tables));
    assert_eq!(
        peek_computed_for(&text.as_bytes()[..=text.find('\n').unwrap()]),
        Some(tables.clone())
    );
    assert_eq!(peek_computed_for(b"{\"hosts\": [\n"), None);
    assert_eq!(
        s,
        Schedule {
            computed_for: Some(tables.clone()),
            ..Schedule::from_pattern(&Gappy, hosts.to_vec())
        }
    );
    // files written before computed_for existed still read, with nothing recorded
    let old = text.replacen(&text[..text.find("\"hosts\"").unwrap()], "{", 1);
    assert_eq!(parse(&old, None).unwrap().0.computed_for, None);
    let mut csv = Vec::new();
    write_to(&mut csv, Format::Csv, &Gappy, &hosts, &tables).unwrap();
    assert_eq!(
        String::from_utf8(csv).unwrap(),
        "rank,phase,peer\n0,0,1\n1,0,\n2,0,0\n0,1,\n1,1,\n2,1,2\n"
    );
    // a big pattern round-trips through the parallel batches
    let shift = Shift::new(300);
    let g: Vec<u64> = (1..=300).collect();
    let mut big = Vec::new();
    write_to(&mut big, Format::Json, &shift, &g, &on(None)).unwrap();
    assert_eq!(
        parse_json(&big, Path::new("x"), None).unwrap().0,
        Schedule {
            computed_for: Some(on(None)),
            ..Schedule::from_pattern(&shift, g)
        }
    );
}

#[test]
fn written_files_are_atomic_and_checked_against_the_topology() {
    let p = plan();
    let t = tempfile::tempdir().unwrap();
    let path = t.path().join("shift.json");
    let job = Job::whole(p.layout.hosts());
    let shift = Shift::new(job.len());
    let counts = write(&path, Format::Json, &shift, &job.port_guids(&p.fabric), &on(None)).unwrap();
    assert_eq!(counts.flows, 21 * 21);
    let (s, j) = read_json(&path, Some(&Hosts::of(&p))).unwrap();
    assert_eq!(j.unwrap(), job);
    assert_eq!(s.phases.len(), 21);
    // a fabric of unknown family: its endpoints are the rank order
    let eps = p.fabric.endpoints();
    let (_, j) = read_json(&path, Some(&Hosts::new(&p.fabric, &eps, "dump"))).unwrap();
    assert_eq!(j.unwrap().hosts(), job.hosts());
    // a writer that fails leaves the earlier file alone
    let bad = write(&path, Format::Json, &Gappy, &[1, 2], &on(None));
    assert!(bad.is_err());
    assert_eq!(read_json(&path, Some(&Hosts::of(&p))).unwrap().0, s);
    assert_eq!(std::fs::read_dir(t.path()).unwrap().count(), 1);
}

#[test]
fn bad_files_name_line_rank_phase_and_guid() {
    let p = plan();
    let g = |r: usize| {
        let e = p.layout.hosts()[r];
        format!("\"0x{:016x}\"", p.fabric.port(e.node, e.port).guid)
    };
    let err = |text: &str, plan: Option<&Topology>| {
        let e = parse(text, plan).unwrap_err();
        assert!(matches!(e, crate::Error::Input(_)), "{e}");
        e.to_string()
    };
    let two = format!("{{\"hosts\": [\n{},\n{}\n],\n\"phases\": [\n", g(0), g(1));
    let e = err(&format!("{two}[1,0],\n[0,0]\n]}}"), Some(&p));
    assert!(
        e.starts_with("s.json:7: phase 1: ranks 0 and 1 both send to rank 0"),
        "{e}"
    );
    let e = err(&format!("{two}[1,2]\n]}}"), None);
    assert!(
        e.starts_with("s.json:6: phase 0: rank 1 sends to rank 2, which does not exist"),
        "{e}"
    );
    let e = err(&format!("{two}[1]\n]}}"), None);
    assert!(e.contains("phase 0 lists 1 ranks; the schedule has 2 hosts"), "{e}");
    let e = err(&format!("{two}[1,0,null]\n]}}"), None);
    assert!(e.contains("phase 0 lists more than 2 ranks"), "{e}");
    let e = err(&format!("{two}[null,-1]\n]}}"), None);
    assert!(e.contains("phase 0: rank 1 sends to -1"), "{e}");
    let e = err(&format!("{two}[null,\"a\"]\n]}}"), None);
    assert!(
        e.starts_with("s.json:6: invalid type: string \"a\", expected phase 0, rank 1"),
        "{e}"
    );
    let e = err(&format!("{two}[null,\n1.5]\n]}}"), None);
    assert!(e.starts_with("s.json:7: invalid type: floating point"), "{e}");
    let e = err("{\"hosts\": [\"0x12\", \"0x12\"], \"phases\": []}", None);
    assert!(e.contains("hosts[1]: GUID 0x0000000000000012 is already rank 0"), "{e}");
    let e = err("{\"hosts\": [\"12\"], \"phases\": []}", None);
    assert!(e.contains("hosts[0]: `12` is not a port GUID"), "{e}");
    let e = err(
        "{\"hosts\": [\n\"0x0002c90020000001\",\n\"0x0002c90010000000\"\n], \"phases\": []}",
        Some(&p),
    );
    assert!(
        e.starts_with("s.json:3: hosts[1]: 0x0002c90010000000 is the GUID of L0"),
        "{e}"
    );
    let e = err("{\"hosts\": [\"0x77\"], \"phases\": []}", Some(&p));
    assert!(
        e.contains("hosts[0]: 0x0000000000000077 is not a host port GUID of lsft2"),
        "{e}"
    );
    let e = err("{\"phases\": []}", None);
    assert!(e.contains("missing field `hosts`"), "{e}");
    let e = err("{\"hosts\": [\"0x1\"], \"phases\": [[0]]", None);
    assert!(e.contains("EOF") && e.contains("hint: a schedule file is"), "{e}");
    let e = err("{\"hosts\": [\"0x1\"], \"phases\": [[0]]} x", None);
    assert!(e.contains("trailing characters"), "{e}");
    // phases before hosts are still checked, without a line
    let e = err("{\"phases\": [[0, 0]], \"hosts\": [\"0x1\", \"0x2\"]}", None);
    assert!(
        e.starts_with("s.json: phase 0: ranks 0 and 1 both send to rank 0"),
        "{e}"
    );
    // unknown keys are ignored
    let (s, _) = parse(
        "{\"note\": {\"a\": 1}, \"hosts\": [\"0x1\"], \"phases\": [[null]]}",
        None,
    )
    .unwrap();
    assert_eq!(s.phases, vec![vec![IDLE]]);
    let e = read_json(Path::new("/nonexistent/s.json"), None)
        .unwrap_err()
        .to_string();
    assert!(e.contains("no such schedule file"), "{e}");
}
