#!/usr/bin/env python3
"""The negotiation cycle on production-shaped pools: the cycle as it
decides (`--index auto`) against the plain loop (`--index never`) and the
ch. 4 index from the start (`--index always`), in the same run.

    python3 bench/negotiation_bench.py [--runs 3] [--big] [--always] [--policy htcondor|thesis]

Cases (issue 35's cliff: past 250,000 job x slot pairs the cycle used to
build the index over every slot's START, 65 s and 4.1 GB):
* 30 OSPool-shaped jobs (gen_glidein_jobs.py) x 8,300 and x 8,450 glidein
  slots (gen_production.py, the first slots of the 8,600 pool): pairs just
  below and above the old threshold;
* 300 jobs x 8,600 slots, the production shape;
* the thesis' workload, 10,000 jobs x 10,000 machines (gen_pool.py), where
  the index pays;
* with --big, 10,000 jobs x 20,000 slots.
Each: the whole process's wall time (median of --runs) and peak RSS, the
cycle's own time from --stats, and what the cycle decided about the index.
The three must print the same assignment, line for line.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.join(HERE, "data")


def made(path, cmd):
    if not os.path.exists(path):
        subprocess.run([sys.executable, *cmd], check=True, stdout=subprocess.DEVNULL)
    return path


def slots(n):
    return made(os.path.join(DATA, "production_%d.txt" % n),
                [os.path.join(HERE, "gen_production.py"), "--slots", str(n)])


def first_slots(n, of):
    """The first n slots of the `of` pool (the generator is one stream)."""
    path = os.path.join(DATA, "production_%d_of_%d.txt" % (n, of))
    if not os.path.exists(path):
        with open(slots(of)) as src, open(path, "w") as out:
            ads = 0
            for line in src:
                out.write(line)
                if line == "\n":
                    ads += 1
                    if ads == n:
                        break
    return path


def jobs(n):
    return made(os.path.join(DATA, "glidein_jobs_%d.txt" % n),
                [os.path.join(HERE, "gen_glidein_jobs.py"), "--jobs", str(n)])


def thesis():
    made(os.path.join(DATA, "machines_10000.txt"), [os.path.join(HERE, "gen_pool.py")])
    return (made(os.path.join(DATA, "wl_jobs_10000.txt"), [os.path.join(HERE, "gen_pool.py")]),
            os.path.join(DATA, "wl_machines_10000.txt"))


def timed(cmd):
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=err)
        _, status, usage = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t
        out.seek(0)
        err.seek(0)
        if status != 0:
            raise SystemExit("%s failed (%d): %s" % (" ".join(cmd), status, err.read().decode()))
        return dt, usage.ru_maxrss / 1024, out.read().decode(), err.read().decode()


def stat(err, key):
    for line in err.splitlines():
        if key == "cycle" and line.startswith("read "):
            return line.split("cycle ")[1].split(" s")[0]
        if key == "index" and line.startswith("index: "):
            return line[len("index: "):]
    return "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--big", action="store_true", help="also 10,000 jobs x 20,000 slots")
    ap.add_argument("--always", action="store_true", help="also the index from the start (slow past the cliff)")
    ap.add_argument("--policy", default="htcondor", choices=["htcondor", "thesis"],
                    help="the glidein cases' policy (the thesis workload always runs the thesis' own)")
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "classad", "--bin", "classad"], cwd=ROOT, check=True)
    bin_ = os.path.join(ROOT, "target/release/classad")
    wl_jobs, wl_machines = thesis()
    cases = [
        ("30 x 8,300 glidein slots (249,000 pairs)", jobs(30), first_slots(8300, 8600), ["--policy", args.policy]),
        ("30 x 8,450 glidein slots (253,500 pairs)", jobs(30), first_slots(8450, 8600), ["--policy", args.policy]),
        ("300 x 8,600 glidein slots", jobs(300), slots(8600), ["--policy", args.policy]),
        ("thesis workload 10,000 x 10,000, auto-clustered", wl_jobs, wl_machines, ["--autocluster", "--policy", "thesis"]),
    ]
    if args.big:
        cases.append(("10,000 x 20,000 glidein slots", jobs(10000), slots(20000), ["--policy", args.policy]))
    ways = ["auto", "never"] + (["always"] if args.always else [])
    print("policy of the glidein cases: %s" % args.policy)
    for name, j, m, extra in cases:
        print(name)
        printed = None
        for way in ways:
            runs = [timed([bin_, "match", "--stats", "--index", way, "--jobs", j, "--machines", m, *extra])
                    for _ in range(args.runs)]
            dt, rss, out, err = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
            label = {"auto": "as it decides", "never": "plain loop", "always": "index from the start"}[way]
            print("  %-21s %6.2f s  peak %5.0f MB  cycle %s s" % (label, dt, rss, stat(err, "cycle")))
            if way == "auto":
                print("    index: %s" % stat(err, "index"))
            if printed is not None and out != printed:
                raise SystemExit("  --index %s printed another assignment" % way)
            printed = out


if __name__ == "__main__":
    main()
