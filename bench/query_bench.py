#!/usr/bin/env python3
"""`classad query` against libclassad on the same question: a constraint and
three -af columns over a pool of machine ads in the long format.

    python3 bench/query_bench.py [POOL]   # default bench/data/wl_machines_100000.txt

libclassad's side is what a tool built on it does: `classad2.parseAds` over the
file, then the constraint (and the columns, on matching ads) evaluated with
each ad as the scope — timed in-process, so Python's start-up is left out;
ours is the whole `classad query` process (release build), start-up, reading,
parsing and printing included. Makes the pool first when it is missing.
"""

import os
import subprocess
import sys
import time

os.environ["CONDOR_CONFIG"] = "/dev/null"
import htcondor2  # noqa: F401,E402
import classad2  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CONSTRAINT = "KeyboardIdle > 20*60 && Memory > 100"
COLUMNS = ["Name", "Memory", "LoadAvg"]


def libclassad_query(pool, constraint, columns):
    """What a tool built on libclassad does for the same question, timed
    in-process: (seconds, matching ads)."""
    t = time.perf_counter()
    c = classad2.ExprTree(constraint)
    cols = [classad2.ExprTree(x) for x in columns]
    lines = 0
    with open(pool) as f:
        for ad in classad2.parseAds(f):
            v = c.eval(ad)
            if v is True or (type(v) in (int, float) and v != 0):
                [col.eval(ad) for col in cols]
                lines += 1
    return time.perf_counter() - t, lines


def main():
    pool = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "bench/data/wl_machines_100000.txt")
    if not os.path.exists(pool):
        subprocess.run(["cargo", "run", "--release", "-q", "-p", "classad", "--example", "workload",
                        "100000", os.path.dirname(pool)], cwd=ROOT, check=True)
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "classad", "--bin", "classad"], cwd=ROOT, check=True)
    bin_ = os.path.join(ROOT, "target/release/classad")
    runs = []
    for _ in range(3):
        t = time.perf_counter()
        out = subprocess.run([bin_, "query", pool, "--constraint", CONSTRAINT, "--af", *COLUMNS],
                             check=True, capture_output=True, text=True).stdout
        runs.append(time.perf_counter() - t)
    ours = sorted(runs)[1]
    ours_lines = out.count("\n")

    theirs, lines = libclassad_query(pool, CONSTRAINT, COLUMNS)
    print(f"pool: {pool}")
    print(f"classad query (whole process, median of 3): {ours:.2f} s, {ours_lines} lines")
    print(f"libclassad parseAds + evaluation (in-process): {theirs:.2f} s, {lines} matches")
    print(f"ratio: {theirs / ours:.1f}x")
    if lines != ours_lines:
        print("the two disagree on the number of matching ads")
        sys.exit(1)


if __name__ == "__main__":
    main()
