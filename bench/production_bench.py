#!/usr/bin/env python3
"""Production-shaped pools (bench/gen_production.py): how long, and how much
memory, our CLI takes against libclassad.

    python3 bench/production_bench.py [--slots 2000] [--analyze-slots 20000] [--runs 3]

* query: `classad query POOL --constraint C --af …` (the whole process,
  median of --runs) against libclassad's `parseAds` over the same file with
  the constraint and columns evaluated in-process (Python's start-up left
  out), the same matches required; MB/s and the ratio.
* analyze: `classad analyze --job J --machines POOL` with J an OSPool-shaped
  job (RequestMemory, RequestCpus, RequestDisk, a Requirements of the usual
  kind) against --analyze-slots slots: wall time and the process's peak RSS
  (`wait4`).
* Nobody Likes Me: a CMS-shaped job whose DESIRED_Sites no glidein offers
  (every slot's START rejects it) against --nobody-slots slots: wall time,
  peak RSS, the read/analysis split, the rejecting clause found and any
  bound the analysis met (there must be none).
Pools are made when missing (bench/data/, not committed).
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from query_bench import libclassad_query  # noqa: E402  (imports htcondor2, then classad2)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CONSTRAINT = 'Cpus >= 4 && Memory >= 8192 && State == "Unclaimed" && GLIDEIN_Site =!= "UCSD"'
COLUMNS = ["Name", "Cpus", "Memory", "GLIDEIN_Site"]
NOBODY_JOB = ('[ ClusterId = 4243; ProcId = 0; Owner = "cmsuser"; ProjectName = "cms"; JobUniverse = 5; '
              'RequestCpus = 1; RequestMemory = 2000; RequestDisk = 1000000; DESIRED_Sites = "T2_CH_CERN,T2_US_MIT"; '
              'Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && '
              '(TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) ]\n')
JOB = ('[ ClusterId = 4242; ProcId = 0; Owner = "osguser"; ProjectName = "bench"; JobUniverse = 5; '
       'RequestCpus = 4; RequestMemory = 16384; RequestDisk = 4000000; '
       'Requirements = (TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && '
       '(TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HAS_SINGULARITY == true) && '
       '(TARGET.GLIDEIN_Site =!= "UCSD") ]\n')


def pool(slots):
    path = os.path.join(HERE, "data", "production_%d.txt" % slots)
    if not os.path.exists(path):
        subprocess.run([sys.executable, os.path.join(HERE, "gen_production.py"), "--slots", str(slots)], check=True)
    return path


def timed(cmd, stderr=None):
    """(seconds, peak RSS in MB, stdout) of one process; its stderr goes
    to `stderr` (a file) when given."""
    with tempfile.TemporaryFile() as out:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=out, stderr=stderr or subprocess.DEVNULL)
        _, status, usage = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t
        if status != 0:
            raise SystemExit("%s failed (%d)" % (" ".join(cmd), status))
        out.seek(0)
        return dt, usage.ru_maxrss / 1024, out.read().decode()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--slots", type=int, default=2000)
    ap.add_argument("--analyze-slots", type=int, default=20000)
    ap.add_argument("--nobody-slots", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q", "-p", "classad", "--bin", "classad"], cwd=ROOT, check=True)
    bin_ = os.path.join(ROOT, "target/release/classad")

    path = pool(args.slots)
    mb = os.path.getsize(path) / 1e6
    runs = [timed([bin_, "query", path, "--constraint", CONSTRAINT, "--af", *COLUMNS]) for _ in range(args.runs)]
    ours, rss, out = sorted(runs)[len(runs) // 2]
    theirs, lines = libclassad_query(path, CONSTRAINT, COLUMNS)
    print("query, %d slots (%.0f MB): ours %.2f s (%.0f MB/s, peak %.0f MB), libclassad %.2f s: %.1fx; %d matches"
          % (args.slots, mb, ours, mb / ours, rss, theirs, theirs / ours, lines))
    if lines != out.count("\n"):
        raise SystemExit("the two disagree on the number of matching ads (%d, %d)" % (lines, out.count("\n")))

    if args.analyze_slots:
        path = pool(args.analyze_slots)
        mb = os.path.getsize(path) / 1e6
        with tempfile.NamedTemporaryFile("w", suffix=".ad", delete=False) as j:
            j.write(JOB)
        try:
            with tempfile.TemporaryFile() as err:
                dt, rss, out = timed([bin_, "analyze", "--stats", "--job", j.name, "--machines", path], err)
                err.seek(0)
                stats = err.read().decode().strip().splitlines()[-1:]
        finally:
            os.unlink(j.name)
        summary = next((line.strip() for line in out.splitlines() if "Run analysis summary" in line), "?")
        print("analyze, one job against %d slots (%.0f MB): %.2f s, peak %.0f MB; %s"
              % (args.analyze_slots, mb, dt, rss, summary))
        print("  --stats: %s" % " ".join(stats))

    if args.nobody_slots:
        path = pool(args.nobody_slots)
        mb = os.path.getsize(path) / 1e6
        with tempfile.NamedTemporaryFile("w", suffix=".ad", delete=False) as j:
            j.write(NOBODY_JOB)
        try:
            runs = []
            for _ in range(args.runs):
                with tempfile.TemporaryFile() as err:
                    dt, rss, out = timed([bin_, "analyze", "--stats", "--job", j.name, "--machines", path], err)
                    err.seek(0)
                    runs.append((dt, rss, out, err.read().decode().strip().splitlines()[-1:]))
        finally:
            os.unlink(j.name)
        dt, rss, out, stats = sorted(runs)[len(runs) // 2]
        lines = out.splitlines()
        clause = next((lines[k + 2].strip() for k, line in enumerate(lines)
                       if line.startswith("Their own requirements reject")), "?")
        notes = [line for line in lines if line.startswith("Note:")]
        print("Nobody Likes Me, one job against %d glidein slots (%.0f MB): %.2f s (median of %d), peak %.0f MB"
              % (args.nobody_slots, mb, dt, len(runs), rss))
        print("  --stats: %s" % " ".join(stats))
        print("  first rejecting clause: %s" % clause)
        if notes:
            raise SystemExit("the analysis met a bound: %s" % notes)


if __name__ == "__main__":
    main()
