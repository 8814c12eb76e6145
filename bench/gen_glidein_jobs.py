#!/usr/bin/env python3
"""Deterministic generator of OSPool-shaped idle jobs (condor_q -l) for the
production slot pools of gen_production.py.

    python3 bench/gen_glidein_jobs.py --jobs 300 [--seed N] [--out FILE]

Jobs as condor_submit makes them for OSPool users: a handful of submitters
(Owner, User, AccountingGroup), clusters of procs, RequestCpus / Memory /
Disk in the usual sizes, a third with DESIRED_Sites naming some of the
pool's sites, and the Requirements condor_submit writes (Arch, OpSys, Disk,
Memory, Cpus, HasFileTransfer) plus the user's own clause.
"""
import argparse
import os
import random

SITES = ["UCSD", "Nebraska", "Wisconsin", "FNAL", "Purdue", "SU-ITS", "UConn", "MWT2", "Clemson",
         "Colorado", "SDSC", "TACC", "UChicago", "BNL", "CIT_CMS_T2", "UNL", "IU", "OSG_US_GATech"]
USERS = ["alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi"]


def job(rng, cluster, proc, user, shape, qdate):
    cpus, memory, disk, sites, extra = shape
    reqs = ('(TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && '
            '(TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)')
    if extra:
        reqs = "(%s) && %s" % (extra, reqs)
    attrs = [
        ("ClusterId", str(cluster)), ("ProcId", str(proc)),
        ("GlobalJobId", '"ap40.example.org#%d.%d#%d"' % (cluster, proc, qdate)),
        ("Owner", '"%s"' % user), ("User", '"%s@osg.example.org"' % user),
        ("AccountingGroup", '"group_osg.%s"' % user),
        ("ProjectName", '"Project_%s"' % user.capitalize()),
        ("MyType", '"Job"'), ("JobUniverse", "5"), ("JobStatus", "1"), ("JobPrio", "0"),
        ("QDate", str(qdate)), ("ImageSize", str(rng.randint(1000, 500000))),
        ("RequestCpus", str(cpus)), ("RequestMemory", str(memory)), ("RequestDisk", str(disk)),
        ("Cmd", '"/home/%s/run.sh"' % user), ("Arguments", '"%d"' % proc),
        ("ShouldTransferFiles", '"YES"'), ("WhenToTransferOutput", '"ON_EXIT"'),
        ("Requirements", reqs), ("Rank", "0.0"),
    ]
    if sites:
        attrs.append(("DESIRED_Sites", '"%s"' % ",".join(sites)))
    return attrs


def write(path, n, seed):
    rng = random.Random(seed)
    qdate = 1_790_000_000
    with open(path, "w") as f:
        cluster, written = 1000, 0
        while written < n:
            user = rng.choice(USERS)
            cpus = rng.choice([1, 1, 1, 2, 4, 8])
            sites = rng.sample(SITES, rng.randint(2, 6)) if rng.random() < 0.33 else None
            extra = rng.choice([None, None, 'TARGET.OpSysAndVer == "AlmaLinux9"', "TARGET.GPUs >= 1",
                                "TARGET.Memory >= 8192"])
            shape = (cpus, cpus * rng.choice([1024, 2000, 4000]), rng.choice([1_000_000, 5_000_000, 20_000_000]),
                     sites, extra)
            procs = min(n - written, rng.choice([1, 5, 10, 50, 100]))
            for p in range(procs):
                for k, v in job(rng, cluster, p, user, shape, qdate + cluster):
                    f.write("%s = %s\n" % (k, v))
                f.write("\n")
            written += procs
            cluster += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=300)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--out", help="default: bench/data/glidein_jobs_<jobs>.txt")
    args = ap.parse_args()
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                   "glidein_jobs_%d.txt" % args.jobs)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    write(out, args.jobs, args.seed)
    print("%s: %d jobs" % (out, args.jobs))


if __name__ == "__main__":
    main()
