#!/usr/bin/env python3
"""The eager parse path against libclassad and an older CLI, in one run.

    python3 bench/parse_paths.py [--cli target/release/classad] [--baseline OLD_CLI] [--runs 9]

For each pool (made when missing: the thesis machines of gen_pool.py, the
workload machines of `cargo run --release -p classad --example workload`, the
glidein jobs of gen_glidein_jobs.py) it times `classad fmt --to new POOL`
(every definition read and written; whole process, CPU = user + system from
wait4, best and median of --runs) and `classad2.parseAds(open(POOL))` alone
(the same CPU time of the Python call, best and median of 5), and prints the
ratio of the bests. Both are timed in the same run: libclassad's parseAds
runs strlen over the rest of the text for every ad (see README.md), which is
memory-bound and varies more than 2x between days on this kind of VM, so a
ratio is only meaningful against an anchor measured beside it.
"""
import argparse
import os
import resource
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")


def pools():
    made = {
        "machines_10000.txt": [sys.executable, os.path.join(HERE, "gen_pool.py"), "--out", DATA],
        "wl_machines_10000.txt": ["cargo", "run", "--release", "-q", "-p", "classad", "--example",
                                  "workload", "10000", DATA],
        "glidein_jobs_10000.txt": [sys.executable, os.path.join(HERE, "gen_glidein_jobs.py"),
                                   "--jobs", "10000", "--out", os.path.join(DATA, "glidein_jobs_10000.txt")],
    }
    os.makedirs(DATA, exist_ok=True)
    for name, cmd in made.items():
        path = os.path.join(DATA, name)
        if not os.path.exists(path):
            subprocess.check_call(cmd, cwd=ROOT, stdout=subprocess.DEVNULL)
        yield path


def cli_cpu(cli, pool, runs):
    ts = []
    for _ in range(runs):
        p = subprocess.Popen([cli, "fmt", "--to", "new", pool], stdout=subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        if status != 0:
            sys.exit(f"{cli} fmt --to new {pool} failed")
        ts.append(usage.ru_utime + usage.ru_stime)
    return min(ts), statistics.median(ts)


def libclassad_cpu(pool, runs=5):
    import htcondor2  # noqa: F401  (the bindings want it first)
    import classad2
    ts = []
    for _ in range(runs):
        r0 = resource.getrusage(resource.RUSAGE_SELF)
        with open(pool) as f:
            n = sum(1 for _ in classad2.parseAds(f))
        r1 = resource.getrusage(resource.RUSAGE_SELF)
        ts.append(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime)
    return min(ts), statistics.median(ts), n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", default=os.path.join(ROOT, "target/release/classad"))
    ap.add_argument("--baseline", help="an older CLI to time beside (e.g. 118ee5a's)")
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args()
    clis = [("now", args.cli)] + ([("baseline", args.baseline)] if args.baseline else [])
    print("| pool | " + " | ".join(f"{n} best / median" for n, _ in clis)
          + " | parseAds(file) best / median | libclassad / now |")
    print("|---" * (len(clis) + 3) + "|")
    for pool in pools():
        cells, best_now = [], None
        for name, cli in clis:
            best, med = cli_cpu(cli, pool, args.runs)
            best_now = best if name == "now" else best_now
            cells.append(f"{best:.3f} / {med:.3f} s")
        lbest, lmed, n = libclassad_cpu(pool)
        size = os.path.getsize(pool) / 1e6
        print(f"| {os.path.basename(pool)} ({n} ads, {size:.1f} MB) | " + " | ".join(cells)
              + f" | {lbest:.2f} / {lmed:.2f} s | {lbest / best_now:.1f}x |")


if __name__ == "__main__":
    main()
