//! `ibfat predict`: the JSON layout (`ibfat.predict/1`), the plot, pruning, the twolevel
//! family's leaf-major `--job ranks:`, and bad input refused with exit 2 before anything
//! is written.

use crate::harness::ibfat;

fn ricc_small(dir: &std::path::Path) {
    let (c, _, e) = ibfat(&[
        "build",
        "twolevel",
        "--leaves",
        "8",
        "--hosts-per-leaf",
        "20",
        "--spines",
        "2",
        "--links-per-pair",
        "2",
        "--no-svg",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(c, 0, "{e}");
}

#[test]
fn json_lists_every_size_with_best_and_shortlist_and_the_plot_is_drawn() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("ricc");
    ricc_small(&plan);
    let svg = t.path().join("p.svg");
    // pattern 0 of seed 001 on 4 leaves: node numbers 0, 4, 8, 12 share uplink 0
    let (c, o, e) = ibfat(&[
        "predict",
        plan.to_str().unwrap(),
        "--family",
        "twolevel",
        "--job",
        "ranks:0,4,8,12,20,24,28,32,40,44,48,52,60,64,68,72",
        "--msg-size",
        "16K,1M",
        "--latency",
        "20e-6",
        "--bandwidth",
        "1.5e9",
        "--plot",
        svg.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(c, 0, "{e}");
    let v: serde_json::Value = serde_json::from_str(&o).unwrap();
    assert_eq!(v["schema"], "ibfat.predict/1");
    assert_eq!(v["family"], "twolevel");
    assert_eq!((v["nodes"].as_u64(), v["ranks"].as_u64()), (Some(16), Some(16)));
    let sizes = v["sizes"].as_array().unwrap();
    assert_eq!(sizes.len(), 2);
    assert_eq!(sizes[0]["msg_size"], 16384);
    assert_eq!(sizes[1]["msg_size"], 1 << 20);
    for s in sizes {
        let algs = s["algorithms"].as_array().unwrap();
        assert!(algs.len() >= 11, "Table 1's ten and kary-shift");
        let best = s["best"].as_str().unwrap();
        let t_best = algs.iter().find(|a| a["algorithm"] == best).unwrap()["predicted_seconds"]
            .as_f64()
            .unwrap();
        let shortlist: Vec<&str> = s["shortlist"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap())
            .collect();
        assert_eq!(shortlist[0], best);
        for a in algs {
            let t = a["predicted_seconds"].as_f64().unwrap();
            assert!(t >= t_best && t > 0.0);
            assert_eq!(a["kept"].as_bool().unwrap(), t < 2.0 * t_best || a["algorithm"] == best);
            assert_eq!(
                a["kept"].as_bool().unwrap(),
                shortlist.contains(&a["algorithm"].as_str().unwrap())
            );
        }
    }
    // Bruck at 1 MiB: 4 steps of 8 blocks against 15 single blocks, on shared uplinks
    let at = |s: &serde_json::Value, n: &str| {
        s["algorithms"]
            .as_array()
            .unwrap()
            .iter()
            .find(|a| a["algorithm"] == n)
            .unwrap()["predicted_seconds"]
            .as_f64()
            .unwrap()
    };
    assert!(at(&sizes[1], "bruck") > 1.5 * at(&sizes[1], sizes[1]["best"].as_str().unwrap()));
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(drawn.starts_with("<svg") && drawn.contains("bruck"));
    // the text report names the best of each size
    let (c, o, e) = ibfat(&[
        "predict",
        plan.to_str().unwrap(),
        "--job",
        "ranks:0-3,20-23",
        "--msg-size",
        "4K",
    ]);
    assert_eq!(c, 0, "{e}");
    assert!(o.contains("message size 4096 bytes") && o.contains("best "), "{o}");
}

#[test]
fn bad_input_exits_2_and_writes_no_plot() {
    let t = tempfile::tempdir().unwrap();
    let plan = t.path().join("ricc");
    ricc_small(&plan);
    let svg = t.path().join("p.svg");
    let p = plan.to_str().unwrap();
    let profile = t.path().join("bad.profile");
    std::fs::write(&profile, "latency: 2e-6\nbandwidth: fast\n").unwrap();
    let cases: [(&[&str], &str); 7] = [
        (&["--job", "ranks:0-3", "--msg-size", "0"], "`0` is not a message size"),
        (
            &["--job", "ranks:0-3", "--msg-size", "12Q"],
            "`12Q` is not a message size",
        ),
        (
            &["--job", "ranks:0-3", "--msg-size", "1K", "--algorithms", "bruk"],
            "unknown algorithm `bruk`",
        ),
        (&["--job", "ranks:0-9999", "--msg-size", "1K"], "ranks"),
        (&["--job", "ranks:0-3", "--msg-size", "1K", "--latency=-1"], "latency"),
        (
            &["--job", "ranks:0-3", "--msg-size", "1K", "--ranks-per-node", "0"],
            "ranks_per_node",
        ),
        (
            &[
                "--job",
                "ranks:0-3",
                "--msg-size",
                "1K",
                "--profile",
                profile.to_str().unwrap(),
            ],
            "bad.profile:2",
        ),
    ];
    for (extra, want) in cases {
        let mut args = vec!["predict", p];
        args.extend_from_slice(extra);
        args.extend(["--plot", svg.to_str().unwrap()]);
        let (c, _, e) = ibfat(&args);
        assert_eq!(c, 2, "{extra:?}: {e}");
        assert!(e.contains(want), "{extra:?}: {e}");
        assert!(!svg.exists(), "{extra:?}");
    }
}
