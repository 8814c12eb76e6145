#!/usr/bin/env python3
"""The engine benchmark workloads on the real libclassad, through HTCondor's
official Python bindings (htcondor2 / classad2, which wrap libclassad
25.x in C++).

Workloads (same files as crate/benches/engine.rs, made by gen_pool.py):
  * parse the 10,000-machine old long-format pool;
  * symmetric match of 1,000 jobs x 1,000 machines.

Every figure is reported raw and, where a Python-side cost can be measured
by itself, with that cost subtracted, so the libclassad share is visible:

parse
  official      list(classad2.parseAds(text, ParserType.Old)).  NB the
                binding's parse-next calls strlen() on the whole remaining
                text for every ad, so this is quadratic in the file size.
  per-ad        text pre-split at blank lines (split time reported apart),
                then the binding's C entry point _classad_parse_next(chunk,
                Old, 0) per ad, result discarded (ad built and destroyed).
  per-ad+keep   the same, keeping every ad in a list (no destruction).
  call overhead _classad_parse_next("", Old, 0) per ad: argument parsing,
                the call and the result tuple, no parsing.
match
  official      job.symmetricMatch(machine): Python-level lookup of both
                Requirements, ExprTree copies, and short-circuit `and`.
  direct        Requirements ExprTree handles fetched once per ad, then
                _exprtree_eval(req, scope, target) in both directions for
                every pair (no short circuit, as our symmetric_match).
  call overhead the same loop evaluating the literal `true` with no target
                (Python call + conversion), and with a target (adds the
                MatchClassAd the binding builds and tears down per call).

Usage: libclassad_bench.py [--data DIR] [--repeat N] [--json FILE] [--quick]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import htcondor2  # noqa: F401  (must be imported before classad2)
import classad2
from classad2 import ParserType
from classad2.classad2_impl import _classad_parse_next, _exprtree_eval

HERE = os.path.dirname(os.path.abspath(__file__))
OLD = int(ParserType.Old)


# Wall clock by default; --cpu switches to this process's CPU time, which a
# busy machine inflates much less (time slices taken by other processes are
# not counted).
CLOCK = time.perf_counter_ns


def timed(fn, repeat):
    """Run fn() `repeat` times; return (best, median) seconds."""
    ts = []
    for _ in range(repeat):
        t0 = CLOCK()
        fn()
        ts.append((CLOCK() - t0) / 1e9)
    return min(ts), statistics.median(ts)


def ensure_data(d):
    need = ["machines_10000.txt", "machines_1000.txt", "jobs_1000.txt"]
    if not all(os.path.exists(os.path.join(d, f)) for f in need):
        subprocess.check_call([sys.executable, os.path.join(HERE, "gen_pool.py"), "--out", d])


def split_ads(text):
    return [c for c in text.split("\n\n") if c.strip()]


def bench_parse(text, repeat, quick):
    res = {}
    if not quick:
        n = [0]

        def official():
            n[0] = sum(1 for _ in classad2.parseAds(text, ParserType.Old))

        best, med = timed(official, max(1, repeat - 1))
        res["official"] = (best, med, n[0])

    t0 = time.perf_counter_ns()
    chunks = split_ads(text)
    res["split"] = ((time.perf_counter_ns() - t0) / 1e9, None, len(chunks))

    def per_ad():
        f = _classad_parse_next
        for c in chunks:
            f(c, OLD, 0)

    def per_ad_keep():
        f = _classad_parse_next
        return [f(c, OLD, 0)[0] for c in chunks]

    def overhead():
        f = _classad_parse_next
        for c in chunks:
            f("", OLD, 0)

    def wrapper():
        # What the binding adds per ad besides parsing: a Python ClassAd
        # object around a new, empty C++ ClassAd, then its destruction.
        C = classad2.ClassAd
        for c in chunks:
            C()

    # Sanity: every chunk gives one ad, with all its attributes.
    ads = per_ad_keep()
    assert all(a is not None for a in ads), "a chunk failed to parse"
    res["attrs_first_ad"] = len(ads[0])
    del ads
    res["per_ad"] = (*timed(per_ad, repeat), len(chunks))
    res["per_ad_keep"] = (*timed(per_ad_keep, repeat), len(chunks))
    res["call_overhead"] = (*timed(overhead, repeat), len(chunks))
    res["wrapper"] = (*timed(wrapper, repeat), len(chunks))
    return res


def bench_match(jobs, machines, repeat, quick):
    res = {}
    true_h = classad2.ExprTree("true")._handle
    J = [(j._handle, j.lookup("Requirements")._handle) for j in jobs]
    M = [(m._handle, m.lookup("Requirements")._handle) for m in machines]
    pairs = len(J) * len(M)
    count = [0]

    def direct():
        ev = _exprtree_eval
        n = 0
        for jh, jr in J:
            for mh, mr in M:
                a = ev(jr, jh, mh)
                b = ev(mr, mh, jh)
                # matches() counts true and non-zero numbers; the workload
                # only yields booleans / undefined.
                if a is True and b is True:
                    n += 1
        count[0] = n

    def overhead_call():
        ev = _exprtree_eval
        for jh, jr in J:
            for mh, mr in M:
                a = ev(true_h, jh, None)
                b = ev(true_h, mh, None)
                if a is True and b is True:
                    pass

    def overhead_match_ad():
        ev = _exprtree_eval
        for jh, jr in J:
            for mh, mr in M:
                a = ev(true_h, jh, mh)
                b = ev(true_h, mh, jh)
                if a is True and b is True:
                    pass

    def empty():
        for jh, jr in J:
            for mh, mr in M:
                pass

    res["direct"] = (*timed(direct, repeat), pairs)
    res["matched"] = count[0]
    res["overhead_call"] = (*timed(overhead_call, repeat), pairs)
    res["overhead_match_ad"] = (*timed(overhead_match_ad, repeat), pairs)
    res["empty_loop"] = (*timed(empty, repeat), pairs)
    if not quick:
        oc = [0]

        def official():
            n = 0
            for j in jobs:
                for m in machines:
                    if j.symmetricMatch(m):
                        n += 1
            oc[0] = n

        res["official"] = (*timed(official, 1), pairs)
        res["official_matched"] = oc[0]
        assert oc[0] == count[0], (oc[0], count[0])
    return res


def ns(x, n):
    return x * 1e9 / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=os.path.join(HERE, "data"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", help="write the results here as JSON")
    ap.add_argument("--quick", action="store_true", help="skip the slow official-API loops")
    ap.add_argument("--cpu", action="store_true", help="time with process CPU time, not wall clock")
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time_ns
    ensure_data(args.data)

    with open(os.path.join(args.data, "machines_10000.txt"), encoding="utf-8") as f:
        text = f.read()
    print(f"libclassad {classad2.version()} via classad2 (Python {sys.version.split()[0]}), "
          f"clock: {'process CPU time' if args.cpu else 'wall'}")
    p = bench_parse(text, args.repeat, args.quick)
    n = p["per_ad"][2]
    print(f"\nparse 10,000-machine long-format pool ({len(text)} bytes, {n} ads, "
          f"{p['attrs_first_ad']} attributes in the first)   best / median, ns per ad")
    rows = []
    if "official" in p:
        rows.append(("parseAds(text, Old) [official, quadratic strlen]", p["official"]))
    rows += [
        ("_classad_parse_next per pre-split ad, discard", p["per_ad"]),
        ("_classad_parse_next per pre-split ad, keep in list", p["per_ad_keep"]),
        ("call overhead (_classad_parse_next on \"\")", p["call_overhead"]),
        ("wrapper overhead (empty classad2.ClassAd() per ad)", p["wrapper"]),
    ]
    for label, (best, med, cnt) in rows:
        print(f"  {label:<55} {ns(best, n):>12.0f} {ns(med, n):>12.0f}")
    print(f"  {'(python split at blank lines, once)':<55} {ns(p['split'][0], n):>12.0f}")
    parse_net = ns(p["per_ad"][0] - p["call_overhead"][0], n)
    parse_net_all = parse_net - ns(p["wrapper"][0], n)
    print(f"  {'=> per ad, call overhead subtracted':<55} {parse_net:>12.0f}")
    print(f"  {'=> per ad, call and wrapper overhead subtracted':<55} {parse_net_all:>12.0f}")

    with open(os.path.join(args.data, "machines_1000.txt"), encoding="utf-8") as f:
        machines = list(classad2.parseAds(f.read(), ParserType.Old))
    with open(os.path.join(args.data, "jobs_1000.txt"), encoding="utf-8") as f:
        jobs = list(classad2.parseAds(f.read(), ParserType.Old))
    m = bench_match(jobs, machines, args.repeat, args.quick)
    pairs = m["direct"][2]
    print(f"\nsymmetric match {len(jobs)} jobs x {len(machines)} machines "
          f"({m['matched']} pairs match)   best / median, ns per pair")
    rows = []
    if "official" in m:
        rows.append(("job.symmetricMatch(machine) [official]", m["official"]))
    rows += [
        ("_exprtree_eval(req, scope, target) both ways", m["direct"]),
        ("overhead: eval `true`, no target, both ways", m["overhead_call"]),
        ("overhead: eval `true` with target (MatchClassAd)", m["overhead_match_ad"]),
        ("empty double loop", m["empty_loop"]),
    ]
    for label, (best, med, cnt) in rows:
        med_s = f"{ns(med, pairs):>12.0f}" if med is not None else ""
        print(f"  {label:<55} {ns(best, pairs):>12.0f} {med_s}")
    match_net_call = ns(m["direct"][0] - m["overhead_call"][0], pairs)
    match_net_all = ns(m["direct"][0] - m["overhead_match_ad"][0], pairs)
    print(f"  {'=> per pair, Python call overhead subtracted':<55} {match_net_call:>12.0f}")
    print(f"  {'=> per pair, call + MatchClassAd setup subtracted':<55} {match_net_all:>12.0f}")

    out = {
        "version": classad2.version(),
        "parse_ads": n,
        "parse_ns_per_ad_official": ns(p["official"][0], n) if "official" in p else None,
        "parse_ns_per_ad_raw": ns(p["per_ad"][0], n),
        "parse_ns_per_ad_keep": ns(p["per_ad_keep"][0], n),
        "parse_ns_per_ad_overhead": ns(p["call_overhead"][0], n),
        "parse_ns_per_ad_wrapper": ns(p["wrapper"][0], n),
        "parse_ns_per_ad_net": parse_net,
        "parse_ns_per_ad_net_all": parse_net_all,
        "match_pairs": pairs,
        "matched": m["matched"],
        "match_ns_per_pair_official": ns(m["official"][0], pairs) if "official" in m else None,
        "match_ns_per_pair_raw": ns(m["direct"][0], pairs),
        "match_ns_per_pair_overhead_call": ns(m["overhead_call"][0], pairs),
        "match_ns_per_pair_overhead_match_ad": ns(m["overhead_match_ad"][0], pairs),
        "match_ns_per_pair_empty_loop": ns(m["empty_loop"][0], pairs),
        "match_ns_per_pair_net_call": match_net_call,
        "match_ns_per_pair_net_all": match_net_all,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
