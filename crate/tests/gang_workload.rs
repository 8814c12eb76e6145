//! The thesis' gangmatching workloads (`classad::gang::workload`): the
//! files parse and their ports read; the base workload follows Figures
//! 26-30; license partitions, the §5.6.2 duds, the §5.7 and §5.8.3 shapes
//! are checked by evaluation; the `classad workload gang` command.

use std::collections::HashMap;
use std::sync::Arc;

use classad::gang::dock::{verify, Node};
use classad::gang::model::{ports_of, GangAd};
use classad::gang::workload::{generate, partition_range, GangWorkload, Kind};
use classad::gang::{gangmatch, AdRef, GangOptions, GangResult};
use classad::{parse_classad, ClassAd, EvalOptions, Evaluator, Value};

const MB: f64 = 1048576.0;

fn base(jobs: usize, percent: u32, k: usize, duds: bool, seed: u64) -> GangWorkload {
    GangWorkload {
        kind: Kind::Base,
        jobs,
        licenses_percent: percent,
        selectivity: k,
        duds,
        seed,
    }
}

/// Parse a generated file as the CLI does: no diagnostics at all, and
/// every ad's ports usable.
fn read(text: &str) -> Vec<Arc<ClassAd>> {
    let p = classad::formats::read_pool(
        text,
        classad::formats::InputFormat::Auto,
        classad::Dialect::Auto,
    );
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);
    let ads: Vec<Arc<ClassAd>> = p.ads.into_iter().map(|a| Arc::new(a.ad)).collect();
    for a in &ads {
        ports_of(a).unwrap();
    }
    ads
}

fn attr(ad: &Arc<ClassAd>, name: &str) -> Value {
    let mut ev = Evaluator::new(EvalOptions::default());
    ev.set_ads(Some(ad.clone()), None);
    ev.eval_attr(name)
}

fn text(ad: &Arc<ClassAd>, name: &str) -> String {
    match attr(ad, name) {
        Value::Str(s) => s.to_string(),
        v => panic!("{name} = {v}"),
    }
}

fn num(v: Value) -> f64 {
    match v {
        Value::Int(i) => i as f64,
        Value::Real(r) => r,
        v => panic!("not a number: {v}"),
    }
}

/// The job's Cpu port record.
fn cpu_port(job: &Arc<ClassAd>) -> Arc<ClassAd> {
    let classad::ExprKind::List(ports) = &job.get("Ports").unwrap().kind else {
        panic!("Ports is a list")
    };
    let classad::ExprKind::Record(r) = &ports[0].kind else {
        panic!("a port is a record")
    };
    r.clone()
}

fn gad(s: &str) -> GangAd {
    ports_of(&Arc::new(parse_classad(s).unwrap())).unwrap()
}

/// Whether `license` accepts the machine Key `key`: a full gang of a job
/// that accepts anything, a machine with that Key and the license,
/// verified in the thesis' Figure 32 environment.
fn license_accepts(ev: &mut Evaluator, license: &Arc<ClassAd>, key: usize) -> bool {
    whole_gang(
        ev,
        [
            gad("[ Ports = { [ Label = Cpu; Constraint = true ], [ Label = License; HostId = Cpu.Key; Constraint = true ] } ]"),
            gad(&format!("[ Key = {key}; Ports = {{ [ Label = Job; Constraint = true ] }} ]")),
            ports_of(license).unwrap(),
        ],
    )
}

/// Whether `job`, `machine` and `license` make a whole gang.
fn gang_of_three(
    ev: &mut Evaluator,
    job: &Arc<ClassAd>,
    machine: &Arc<ClassAd>,
    license: &Arc<ClassAd>,
) -> bool {
    whole_gang(ev, [job, machine, license].map(|a| ports_of(a).unwrap()))
}

/// Whether a job, a machine and a license make a whole gang: every port's
/// constraint true, the job's first port docked at the machine and its
/// second at the license, in the thesis' Figure 32 environment.
fn whole_gang(ev: &mut Evaluator, [job, machine, license]: [GangAd; 3]) -> bool {
    let nodes = vec![
        Node {
            ad: 0,
            bindings: vec![Some((1, 0)), Some((2, 0))],
        },
        Node {
            ad: 1,
            bindings: vec![Some((0, 0))],
        },
        Node {
            ad: 2,
            bindings: vec![Some((0, 1))],
        },
    ];
    verify(ev, &[job, machine, license], &nodes, &mut 0)
}

/// The offers no gang of `r` took.
fn free_offers<'a>(offers: &'a [Arc<ClassAd>], r: &GangResult) -> Vec<&'a Arc<ClassAd>> {
    let mut taken = vec![false; offers.len()];
    for o in &r.requests {
        for m in o.gang.iter().flat_map(|g| &g.members) {
            if let AdRef::Offer(i) = m.ad {
                taken[i] = true;
            }
        }
    }
    offers
        .iter()
        .zip(&taken)
        .filter(|(_, t)| !**t)
        .map(|(o, _)| o)
        .collect()
}

/// The naive search is greedy, so its result is maximal: a request of the
/// base workload left without a gang has no whole gang (job, machine,
/// license) among the offers nobody took.
fn assert_maximal(requests: &[Arc<ClassAd>], offers: &[Arc<ClassAd>], r: &GangResult) {
    let free = free_offers(offers, r);
    let is = |a: &Arc<ClassAd>, t: &str| matches!(attr(a, "Type"), Value::Str(s) if &*s == t);
    let mut ev = Evaluator::new(EvalOptions::default());
    for o in r.requests.iter().filter(|o| o.gang.is_none()) {
        let job = &requests[o.request];
        for m in free.iter().filter(|m| is(m, "Machine")) {
            for l in free.iter().filter(|l| is(l, "License")) {
                assert!(
                    !gang_of_three(&mut ev, job, m, l),
                    "{} was left out, yet {} and {} were free for it",
                    o.name,
                    text(m, "Name"),
                    text(l, "Name")
                );
            }
        }
    }
}

/// Whether `job`'s Cpu port and `machine`'s Job port accept each other.
fn cpu_fits(ev: &mut Evaluator, job: &Arc<ClassAd>, machine: &Arc<ClassAd>) -> bool {
    let ads = vec![
        // The job without its License port, so the pair is a whole gang.
        GangAd {
            ports: vec![ports_of(job).unwrap().ports[0].clone()],
            ..ports_of(job).unwrap()
        },
        ports_of(machine).unwrap(),
    ];
    let nodes = vec![
        Node {
            ad: 0,
            bindings: vec![Some((1, 0))],
        },
        Node {
            ad: 1,
            bindings: vec![Some((0, 0))],
        },
    ];
    verify(ev, &ads, &nodes, &mut 0)
}

#[test]
fn deterministic_for_a_seed() {
    for kind in [
        Kind::Base,
        Kind::HeuristicFailure,
        Kind::OpportunityCost {
            discrimination: 6.0,
        },
    ] {
        let w = |seed| GangWorkload {
            kind,
            jobs: 50,
            seed,
            ..GangWorkload::default()
        };
        let a = generate(&w(7)).unwrap();
        assert_eq!(a, generate(&w(7)).unwrap());
        let b = generate(&w(8)).unwrap();
        assert_ne!(a.requests, b.requests);
        if kind != Kind::HeuristicFailure {
            // Heuristic-failure licenses are fixed; its machines still vary.
            assert_ne!(a.offers, b.offers);
        }
    }
}

#[test]
fn base_files_parse_and_count() {
    for (percent, k, duds) in [(100, 1, false), (50, 2, true), (100, 8, true)] {
        let g = generate(&base(40, percent, k, duds, 3)).unwrap();
        let requests = read(&g.requests);
        let offers = read(&g.offers);
        let licenses = if percent == 100 { 40 } else { 20 };
        assert_eq!(requests.len(), 40);
        assert_eq!(g.requests_count, 40);
        assert_eq!(offers.len(), 40 + licenses + if duds { 8 } else { 0 });
        assert_eq!(g.offers_count, offers.len());
        assert!(!g.requests.contains("M;") && !g.offers.contains("M;"));
        // Machines first (unique Keys 0..n), then licenses.
        for (i, m) in offers[..40].iter().enumerate() {
            assert_eq!(text(m, "Type"), "Machine");
            assert_eq!(text(m, "Name"), format!("m{i}"));
            assert!(matches!(attr(m, "Key"), Value::Int(k) if k == i as i64));
        }
        for (i, l) in offers[40..40 + licenses].iter().enumerate() {
            assert_eq!(text(l, "Type"), "License");
            assert_eq!(text(l, "Name"), format!("lic{i}"));
            assert_eq!(text(l, "App"), "sim_app");
        }
        for (i, j) in requests.iter().enumerate() {
            assert_eq!(text(j, "Name"), format!("job{i}"));
            let labels: Vec<String> = ports_of(j)
                .unwrap()
                .ports
                .into_iter()
                .map(|p| p.label)
                .collect();
            assert_eq!(labels, ["Cpu", "License"]);
        }
    }
}

#[test]
fn figure_26_27_30_frequencies() {
    let n = 20_000;
    let g = generate(&base(n, 50, 1, false, 11)).unwrap();
    let offers = read(&g.offers);
    let requests = read(&g.requests);
    let mut platforms: HashMap<(String, String), usize> = HashMap::new();
    let mut memory: HashMap<i64, usize> = HashMap::new();
    for m in &offers[..n] {
        *platforms
            .entry((text(m, "Arch"), text(m, "OpSys")))
            .or_default() += 1;
        let mem = num(attr(m, "Memory"));
        *memory.entry((mem / MB) as i64).or_default() += 1;
        let vm = num(attr(m, "VirtualMemory"));
        assert!(vm >= 0.2 * 2.0 * mem && vm < 0.9 * 2.0 * mem, "{vm} {mem}");
    }
    let figure_26 = [
        ("INTEL", "LINUX", 0.3191),
        ("INTEL", "SOLARIS26", 0.2127),
        ("INTEL", "WINNT40", 0.2411),
        ("SGI", "IRIX6", 0.0212),
        ("SUN4u", "SOLARIS26", 0.0390),
        ("SUN4u", "SOLARIS27", 0.0390),
        ("SUN4x", "SOLARIS26", 0.0766),
        ("SUN4x", "SOLARIS27", 0.0524),
    ];
    let close = |count: usize, p: f64| (count as f64 / n as f64 - p).abs() < 0.012;
    for (a, o, p) in figure_26 {
        let c = platforms[&(a.to_string(), o.to_string())];
        assert!(close(c, p), "{a}/{o}: {c}");
    }
    assert_eq!(platforms.len(), 8);
    for (mb, p) in [
        (32, 0.07),
        (64, 0.40),
        (128, 0.20),
        (256, 0.20),
        (800, 0.13),
    ] {
        assert!(close(memory[&mb], p), "{mb}M: {}", memory[&mb]);
    }
    assert_eq!(memory.len(), 5);
    // Jobs: the Figure 26 mix in their Cpu constraints, image and needs in
    // their ranges.
    let mut job_platforms: HashMap<String, usize> = HashMap::new();
    for j in &requests {
        let port = cpu_port(j);
        let image = num(attr(&port, "ImageSize"));
        let needs = num(attr(&port, "MemoryReqs"));
        assert!((0.2 * 2.0 * 32.0 * MB..0.8 * 2.0 * 800.0 * MB).contains(&image));
        let r = needs / image;
        assert!((0.2 - 1e-9..0.5 + 1e-9).contains(&r), "{r}");
        let c = classad::unparse(port.get("Constraint").unwrap());
        *job_platforms
            .entry(c.split(" && Cpu.Virtual").next().unwrap().to_string())
            .or_default() += 1;
    }
    for (a, o, p) in figure_26 {
        let key = format!("Cpu.Arch == \"{a}\" && Cpu.OpSys == \"{o}\"");
        assert!(
            close(job_platforms[&key], p),
            "{key}: {}",
            job_platforms[&key]
        );
    }
}

#[test]
fn license_partitions() {
    let n = 64;
    let mut ev = Evaluator::new(EvalOptions::default());
    for percent in [100, 50] {
        for k in [1, 2, 4, 8] {
            let g = generate(&base(n, percent, k, false, 5)).unwrap();
            let offers = read(&g.offers);
            let licenses = &offers[n..];
            let count = n * percent as usize / 100;
            assert_eq!(licenses.len(), count);
            let mut per_partition = vec![0; k];
            for (i, l) in licenses.iter().enumerate() {
                let p = i * k / count;
                per_partition[p] += 1;
                let (lo, hi) = (n * p / k, n * (p + 1) / k);
                assert_eq!(partition_range(n, k, p), (lo, hi));
                for key in 0..n + 10 {
                    assert_eq!(
                        license_accepts(&mut ev, l, key),
                        (lo..hi).contains(&key),
                        "{percent}% k={k} lic{i} key {key}"
                    );
                }
            }
            // Partitions are equal in size.
            assert!(per_partition.iter().all(|&c| c == count / k));
        }
    }
    // Uneven partitions floor their bounds.
    assert_eq!(partition_range(10, 4, 0), (0, 2));
    assert_eq!(partition_range(10, 4, 1), (2, 5));
    assert_eq!(partition_range(10, 4, 3), (7, 10));
}

#[test]
fn duds_never_join_a_gang() {
    let n = 12;
    let g = generate(&base(n, 100, 2, true, 4)).unwrap();
    let requests = read(&g.requests);
    let offers = read(&g.offers);
    assert_eq!(offers.len(), n + n + 8);
    let dud_machines = &offers[2 * n..2 * n + 7];
    let dud_license = &offers[2 * n + 7];
    let dud = |a: &Arc<ClassAd>| matches!(attr(a, "Dud"), Value::Bool(true));
    assert!(dud_machines
        .iter()
        .all(|m| dud(m) && text(m, "Type") == "Machine"));
    assert!(dud(dud_license) && text(dud_license, "Type") == "License");
    assert!(offers[..2 * n].iter().all(|a| !dud(a)));
    // Seven platforms, none of them SGI/IRIX6.
    let mut platforms: Vec<(String, String)> = dud_machines
        .iter()
        .map(|m| (text(m, "Arch"), text(m, "OpSys")))
        .collect();
    platforms.sort();
    platforms.dedup();
    assert_eq!(platforms.len(), 7);
    assert!(!platforms.iter().any(|(a, _)| a == "SGI"));
    let mut ev = Evaluator::new(EvalOptions::default());
    // No license (the dud included) accepts a dud machine; the dud license
    // accepts no machine.
    for m in dud_machines {
        let key = num(attr(m, "Key")) as usize;
        assert!(key >= n);
        for l in offers[n..2 * n].iter().chain([dud_license]) {
            assert!(!license_accepts(&mut ev, l, key));
        }
    }
    for key in 0..n + 7 {
        assert!(!license_accepts(&mut ev, dud_license, key));
    }
    // Every job's Cpu query finds exactly one dud machine (none for SGI).
    for j in &requests {
        let fits = dud_machines
            .iter()
            .filter(|m| cpu_fits(&mut ev, j, m))
            .count();
        let sgi = classad::unparse(cpu_port(j).get("Constraint").unwrap()).contains("SGI");
        assert_eq!(fits, usize::from(!sgi), "{}", text(j, "Name"));
    }
    // The naive search never uses a dud, and leaves out only requests no
    // free offers could serve (5 of the 12 get a gang).
    let r = gangmatch(&requests, &offers, &GangOptions::default()).unwrap();
    assert_eq!(r.counters.gangs, 5);
    assert_maximal(&requests, &offers, &r);
    // The check sees a gang the search could have made: drop one, and its
    // request is left out while its offers are free.
    let mut short = r.clone();
    let dropped = short
        .requests
        .iter_mut()
        .find(|o| o.gang.is_some())
        .unwrap();
    dropped.gang = None;
    let check = || assert_maximal(&requests, &offers, &short);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(check));
    assert!(caught.is_err());
    for o in &r.requests {
        let Some(gang) = &o.gang else { continue };
        assert_eq!(gang.members.len(), 3);
        for m in &gang.members[1..] {
            let AdRef::Offer(i) = m.ad else { panic!() };
            assert!(!dud(&offers[i]), "{} uses {}", o.name, m.name);
        }
    }
}

#[test]
fn heuristic_failure_shape() {
    let w = GangWorkload {
        kind: Kind::HeuristicFailure,
        jobs: 30,
        seed: 2,
        ..GangWorkload::default()
    };
    let g = generate(&w).unwrap();
    let requests = read(&g.requests);
    let offers = read(&g.offers);
    assert_eq!((requests.len(), offers.len()), (30, 1500));
    let (machines, licenses) = offers.split_at(500);
    for (i, m) in machines.iter().enumerate() {
        assert!(matches!(attr(m, "Key"), Value::Int(k) if k == i as i64));
    }
    // Licenses identical but for their names.
    let body = |l: &Arc<ClassAd>| classad::unparse(l.get("Ports").unwrap());
    assert!(licenses.iter().all(|l| body(l) == body(&licenses[0])));
    let mut ev = Evaluator::new(EvalOptions::default());
    for key in 0..510 {
        assert_eq!(
            license_accepts(&mut ev, &licenses[0], key),
            (400..500).contains(&key)
        );
    }
    // Every job fits every machine. (No naive run: it would try 400
    // machines times 1000 licenses per job, the very failure of §5.7.)
    for j in &requests {
        for m in machines.iter().step_by(7) {
            assert!(cpu_fits(&mut ev, j, m));
        }
    }
}

#[test]
fn opportunity_cost_shape() {
    let k = 4.0;
    let w = GangWorkload {
        kind: Kind::OpportunityCost { discrimination: k },
        jobs: 200,
        seed: 9,
        ..GangWorkload::default()
    };
    let g = generate(&w).unwrap();
    let requests = read(&g.requests);
    let offers = read(&g.offers);
    assert_eq!((requests.len(), offers.len()), (200, 200));
    let (mut top_tag, mut top_threshold) = (0.0f64, 0.0f64);
    for (i, r) in requests.iter().enumerate() {
        assert!(ports_of(r).unwrap().implicit);
        assert_eq!(text(r, "Name"), format!("r{i}"));
        let tag = num(attr(r, "Tag"));
        assert!((0.0..=10.0).contains(&tag));
        top_tag = top_tag.max(tag);
        let want = format!(
            "other.Arch == \"{}\" && other.OpSys == \"{}\"",
            text(r, "Arch"),
            text(r, "OpSys")
        );
        assert_eq!(classad::unparse(r.get("Requirements").unwrap()), want);
    }
    for (i, o) in offers.iter().enumerate() {
        assert!(ports_of(o).unwrap().implicit);
        assert_eq!(text(o, "Name"), format!("o{i}"));
        let t = num(attr(o, "Threshold"));
        assert!((0.0..=k).contains(&t));
        top_threshold = top_threshold.max(t);
        // Requirements = other.Tag >= Threshold, by evaluation.
        for tag in [t - 0.001, t] {
            let req = parse_classad(&format!("[ Tag = {tag} ]")).unwrap();
            let mut ev = Evaluator::new(EvalOptions::default());
            ev.set_ads(Some(o.clone()), Some(Arc::new(req)));
            assert!(matches!(ev.eval_attr("Requirements"), Value::Bool(b) if b == (tag >= t)));
        }
    }
    assert!(top_tag > 9.0 && top_threshold > 0.9 * k);
    // Every gang is a request and an offer it meets; a request left out
    // meets no offer nobody took (the search is greedy, so maximal).
    let r = gangmatch(&requests, &offers, &GangOptions::default()).unwrap();
    assert_eq!(r.counters.gangs, 176);
    let meets = |req: &Arc<ClassAd>, o: &Arc<ClassAd>| {
        let mut ev = Evaluator::new(EvalOptions::default());
        ev.set_ads(Some(o.clone()), Some(req.clone()));
        let offer_accepts = ev.eval_attr("Requirements").is_true();
        ev.set_ads(Some(req.clone()), Some(o.clone()));
        offer_accepts && ev.eval_attr("Requirements").is_true()
    };
    for o in &r.requests {
        let req = &requests[o.request];
        match &o.gang {
            Some(g) => {
                let AdRef::Offer(i) = g.members[1].ad else {
                    panic!("{}: the second member is an offer", o.name)
                };
                assert!(meets(req, &offers[i]), "{}", o.name);
            }
            None => {
                let free = free_offers(&offers, &r);
                assert!(!free.iter().any(|f| meets(req, f)), "{}", o.name);
            }
        }
    }
}

#[test]
fn bad_inputs() {
    let err = |w: GangWorkload| generate(&w).unwrap_err();
    assert!(err(base(0, 100, 1, false, 0)).contains("jobs must be between 1 and 10000000"));
    assert!(err(base(10_000_001, 100, 1, false, 0)).contains("jobs"));
    assert!(err(base(10, 75, 1, false, 0)).contains("100 or 50, not 75"));
    assert!(err(base(10, 100, 0, false, 0)).contains("selectivity"));
    assert!(err(base(10, 50, 6, false, 0)).contains("number of licenses (5"));
    assert!(err(base(1, 50, 1, false, 0)).contains("number of licenses (0"));
    let oc = |d: f64| GangWorkload {
        kind: Kind::OpportunityCost { discrimination: d },
        ..GangWorkload::default()
    };
    assert!(err(oc(-1.0)).contains("discrimination"));
    assert!(err(oc(f64::NAN)).contains("discrimination"));
    let hf = GangWorkload {
        kind: Kind::HeuristicFailure,
        duds: true,
        ..GangWorkload::default()
    };
    assert!(err(hf).contains("duds"));
}

#[test]
fn cli_writes_the_files() {
    let dir = std::env::temp_dir().join(format!("classad-gang-workload-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = dir.join("nested");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_classad"))
            .args(args)
            .output()
            .unwrap()
    };
    let o = run(&[
        "workload",
        "gang",
        "--jobs",
        "10",
        "--licenses-percent",
        "50",
        "--selectivity",
        "2",
        "--duds",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let requests = out.join("requests.ads");
    let offers = out.join("offers.ads");
    assert_eq!(
        String::from_utf8(o.stdout).unwrap(),
        format!(
            "wrote 10 requests to {} and 23 offers to {}\n",
            requests.display(),
            offers.display()
        )
    );
    let g = generate(&base(10, 50, 2, true, 1)).unwrap();
    assert_eq!(std::fs::read_to_string(&requests).unwrap(), g.requests);
    assert_eq!(std::fs::read_to_string(&offers).unwrap(), g.offers);
    // The gang command reads them.
    let o = run(&[
        "gang",
        "--requests",
        requests.to_str().unwrap(),
        "--offers",
        offers.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let stdout = String::from_utf8(o.stdout).unwrap();
    assert_eq!(stdout.lines().count(), 11);
    assert!(stdout.lines().last().unwrap().starts_with("# evaluations="));
    // Bad values: a message and status 2.
    let out_s = out.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--licenses-percent", "75"],
            "licenses percent must be 100 or 50, not 75",
        ),
        (vec!["--jobs", "0"], "jobs must be between 1"),
        (
            vec!["--selectivity", "2000"],
            "selectivity must be between 1 and",
        ),
        (vec!["--kind", "opportunity-cost"], "needs --discrimination"),
        (
            vec!["--discrimination", "3"],
            "only applies to --kind opportunity-cost",
        ),
        (
            vec!["--kind", "heuristic-failure", "--duds"],
            "duds only apply",
        ),
    ] {
        let mut a = vec!["workload", "gang", "--out", out_s];
        a.extend(args);
        let o = run(&a);
        assert_eq!(o.status.code(), Some(2), "{a:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(
            stderr.starts_with("error: ") && stderr.contains(message),
            "{stderr}"
        );
    }
    let o = run(&[
        "workload",
        "gang",
        "--kind",
        "opportunity-cost",
        "--discrimination",
        "8",
        "--jobs",
        "5",
        "--out",
        out_s,
    ]);
    assert!(o.status.success());
    assert!(String::from_utf8(o.stdout)
        .unwrap()
        .starts_with("wrote 5 requests to"));
    let _ = std::fs::remove_dir_all(&dir);
}
