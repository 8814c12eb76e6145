#!/usr/bin/env bash
# Benchmarks: our engine against the real libclassad (HTCondor's Python
# bindings, bench/libclassad_bench.py) on the same generated thesis base
# workload, then a comparison table.
#
# Usage: bench/run.sh [--quick] [--cpu]
#   default  ours with criterion (cargo bench -p classad --bench engine),
#            wall-clock times on both sides
#   --cpu    ours with bench/driver, both sides timed with process CPU time
#            (what to use on a busy machine: other processes' time slices
#            are not counted)
#   --quick  skip libclassad's slow official-API loops
# Env:   SKIP_OURS=1 / SKIP_LIBCLASSAD=1 reuse the last results.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="$here/results"
mkdir -p "$out"

cpu=""
lib_args=()
for a in "$@"; do
  case "$a" in
    --cpu) cpu=1; lib_args+=(--cpu --repeat 2) ;;
    --quick) lib_args+=(--quick) ;;
    *) echo "unknown option $a" >&2; exit 2 ;;
  esac
done

python3 "$here/gen_pool.py"

# Timings are wall-clock: anything else running on the machine inflates them.
load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load average before: $(load) on $(nproc) CPUs" | tee "$out/load.txt" >&2

target_dir="$(cd "$root" && cargo metadata --format-version 1 --no-deps \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"

if [ -z "${SKIP_OURS:-}" ]; then
  if [ -n "$cpu" ]; then
    echo "== ours: bench/driver (release), CPU time" >&2
    (cd "$here/driver" && CARGO_TARGET_DIR="$target_dir" cargo build --release -q)
    drv="$target_dir/release/classad-bench-driver"
    { "$drv" parse10k 5 "$here/data"; "$drv" match 1000 "$here/data"; } | tee "$out/driver.txt"
  else
    echo "== ours: cargo bench -p classad --bench engine" >&2
    (cd "$root" && cargo bench -p classad --bench engine) 2>&1 | tee "$out/engine.txt"
  fi
fi

if [ -z "${SKIP_LIBCLASSAD:-}" ]; then
  echo "== libclassad: bench/libclassad_bench.py ${lib_args[*]:-}" >&2
  python3 "$here/libclassad_bench.py" --json "$out/libclassad.json" "${lib_args[@]}" 2>&1 \
    | tee "$out/libclassad.txt"
fi
echo "load average after: $(load)" | tee -a "$out/load.txt" >&2

python3 - "$target_dir/criterion" "$out/libclassad.json" "$cpu" "$out/driver.txt" <<'PY'
import json, os, re, sys
crit, lib, cpu, driver = sys.argv[1], json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]

def ours(group, bench, elements):
    p = os.path.join(crit, group, bench, "new", "estimates.json")
    e = json.load(open(p))
    return e["mean"]["point_estimate"] / elements, e["median"]["point_estimate"] / elements

if cpu:
    t = open(driver).read()
    parse_o = float(re.search(r"([0-9.]+) ns/ad CPU", t).group(1))
    match_o = float(re.search(r"([0-9.]+) ns/pair CPU", t).group(1))
    clock = "process CPU time"
else:
    parse_o = ours("parse_pool", "old_long_10000_machines", 10000)[0]
    match_o = ours("symmetric_match", "1000_jobs_x_1000_machines", 1_000_000)[0]
    clock = "wall clock (criterion mean)"

rows = [
    ("parse, ns/ad", parse_o, [
        ("libclassad per ad, raw", lib["parse_ns_per_ad_raw"]),
        ("libclassad per ad, kept in a list", lib["parse_ns_per_ad_keep"]),
        ("libclassad, call+wrapper subtracted", lib["parse_ns_per_ad_net_all"]),
    ] + ([("libclassad parseAds() official", lib["parse_ns_per_ad_official"])]
         if lib.get("parse_ns_per_ad_official") else [])),
    ("symmetric match, ns/pair", match_o, [
        ("libclassad _exprtree_eval, raw", lib["match_ns_per_pair_raw"]),
        ("libclassad, call overhead subtracted", lib["match_ns_per_pair_net_call"]),
        ("libclassad, call+MatchClassAd subtracted", lib["match_ns_per_pair_net_all"]),
    ] + ([("libclassad symmetricMatch() official", lib["match_ns_per_pair_official"])]
         if lib.get("match_ns_per_pair_official") else [])),
]
print(f"\nclock: {clock}; ratio = theirs / ours (above 1: we are faster)")
print(f"{'workload':<26} {'ours':>10}  {'libclassad (' + lib['version'] + ')':<42} {'theirs':>10} {'ratio':>8}")
for name, o, theirs in rows:
    for i, (label, t) in enumerate(theirs):
        first = i == 0
        print(f"{name if first else '':<26} {f'{o:.0f}' if first else '':>10}  {label:<42} {t:>10.0f} {t / o:>7.2f}x")
if not cpu:
    req = {b: ours("requirements", b, 1)[0] for b in ("parse", "eval", "parse_eval")}
    print(f"\nours, Requirements expression: parse {req['parse']:.0f} ns, eval {req['eval']:.0f} ns, "
          f"parse+eval {req['parse_eval']:.0f} ns")
print(f"matching pairs: libclassad {lib['matched']} of {lib['match_pairs']}")
print("targets: parse >= 4x faster than libclassad (ratio >= 4); symmetric match < 200 ns/pair")
PY
cat "$out/load.txt"
