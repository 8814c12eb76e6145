#!/usr/bin/env bash
# Benchmarks: our engine (criterion, crate/benches/engine.rs) against the real
# libclassad (HTCondor's Python bindings, bench/libclassad_bench.py) on the
# same generated thesis base workload, then a comparison table.
#
# Usage: bench/run.sh [--quick]     (--quick skips libclassad's slow
#                                    official-API loops)
# Env:   SKIP_OURS=1 / SKIP_LIBCLASSAD=1 reuse the last results.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="$here/results"
mkdir -p "$out"

python3 "$here/gen_pool.py"

# Timings are wall-clock: anything else running on the machine inflates them.
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load average before: $(load) on $(nproc) CPUs" | tee "$out/load.txt" >&2

target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"

if [ -z "${SKIP_OURS:-}" ]; then
  echo "== ours: cargo bench --bench engine" >&2
  (cd "$root" && cargo bench -p classad --bench engine) 2>&1 | tee "$out/engine.txt"
fi

if [ -z "${SKIP_LIBCLASSAD:-}" ]; then
  echo "== libclassad: bench/libclassad_bench.py $*" >&2
  python3 "$here/libclassad_bench.py" --json "$out/libclassad.json" "$@" 2>&1 | tee "$out/libclassad.txt"
fi

echo "load average after: $(load)" | tee -a "$out/load.txt" >&2

python3 - "$target_dir/criterion" "$out/libclassad.json" <<'PY'
import json, os, sys
crit, lib = sys.argv[1], json.load(open(sys.argv[2]))

def ours(group, bench, elements):
    p = os.path.join(crit, group, bench, "new", "estimates.json")
    e = json.load(open(p))
    return e["mean"]["point_estimate"] / elements, e["median"]["point_estimate"] / elements

parse_mean, parse_med = ours("parse_pool", "old_long_10000_machines", 10000)
match_mean, match_med = ours("symmetric_match", "1000_jobs_x_1000_machines", 1_000_000)
req = {b: ours("requirements", b, 1)[0] for b in ("parse", "eval", "parse_eval")}

rows = [
    ("parse, ns/ad", parse_mean, [
        ("libclassad per ad, raw", lib["parse_ns_per_ad_raw"]),
        ("libclassad, call overhead subtracted", lib["parse_ns_per_ad_net"]),
        ("libclassad, call+wrapper subtracted", lib["parse_ns_per_ad_net_all"]),
    ] + ([("libclassad parseAds() official", lib["parse_ns_per_ad_official"])]
         if lib.get("parse_ns_per_ad_official") else [])),
    ("symmetric match, ns/pair", match_mean, [
        ("libclassad _exprtree_eval, raw", lib["match_ns_per_pair_raw"]),
        ("libclassad, call overhead subtracted", lib["match_ns_per_pair_net_call"]),
        ("libclassad, call+MatchClassAd subtracted", lib["match_ns_per_pair_net_all"]),
    ] + ([("libclassad symmetricMatch() official", lib["match_ns_per_pair_official"])]
         if lib.get("match_ns_per_pair_official") else [])),
]
print()
print(f"{'workload':<26} {'ours':>10}  {'libclassad (' + lib['version'] + ')':<42} {'theirs':>10} {'ratio':>8}")
for name, o, theirs in rows:
    for i, (label, t) in enumerate(theirs):
        first = i == 0
        print(f"{name if first else '':<26} {f'{o:.0f}' if first else '':>10}  {label:<42} {t:>10.0f} {t / o:>7.1f}x")
print(f"\nours, median: parse {parse_med:.0f} ns/ad, match {match_med:.1f} ns/pair")
print(f"ours, Requirements expression: parse {req['parse']:.0f} ns, eval {req['eval']:.0f} ns, parse+eval {req['parse_eval']:.0f} ns")
print(f"matching pairs: libclassad {lib['matched']} of {lib['match_pairs']}")
print("targets: parse >= 4x faster than libclassad; symmetric match < 200 ns/pair")
PY
cat "$out/load.txt"
