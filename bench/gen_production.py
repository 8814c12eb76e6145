#!/usr/bin/env python3
"""Deterministic generator of production-shaped slot pools (condor_status -l).

    python3 bench/gen_production.py --slots 2000 [--seed N] [--out FILE]

Production slot ads are not the thesis' 30-attribute machines. The public
OSPool samples (../shared/real-ads: glidein slots, partitionable, dynamic
and static) average about 26 KB and 530-850 attributes a slot:

* about 45 % integers (Total*/Recent* counters, Child* sizes, times),
  32 % strings (median 9 characters, 10 % over 50, a few over 1 KB:
  AddressV1, the Child* lists of a partitionable slot), 18 % booleans
  (HAS_*, Is*), a few reals (LoadAvg, monitoring rates), lists and
  expressions (START near 1 KB, Requirements, Rank, WithinResourceLimits,
  DaemonShutdown);
* a partitionable slot lists its dynamic children in Child* lists as long
  as the slot has children.

This writes slots with that make-up. Every value is drawn from a seeded
generator (no sample text is copied): names follow the families real pools
use (GLIDEIN_*, OSG_*, HAS_*, Total*, Recent*, Child*, Monitor*), so
attribute lookups hash and compare like a real pool's. The matchmaking
attributes are realistic: Name, Machine, Cpus, Memory (MB), Disk (KiB),
GPUs, Arch, OpSys, State/Activity (a quarter Claimed, with RemoteUser),
GLIDEIN_Site, a START that reads the job's Request* attributes and a
Requirements of START && WithinResourceLimits.
"""
import argparse
import os
import random
import time

SITES = ["UCSD", "Nebraska", "Wisconsin", "FNAL", "Purdue", "SU-ITS", "UConn", "MWT2", "Clemson",
         "Colorado", "SDSC", "TACC", "UChicago", "BNL", "CIT_CMS_T2", "UNL", "IU", "OSG_US_GATech"]
FAMILIES = ["GLIDEIN_", "OSG_", "HAS_", "Total", "Recent", "Monitor", "Starter", "Job", "Machine", "Detected",
            "Condor", "Has", "Is", "Last", "Num", "Max", "Min", "Docker", "Singularity", "Cvmfs"]
WORDS = ["Cpus", "Memory", "Disk", "Load", "Jobs", "Starts", "Busy", "Idle", "Time", "Rate", "Count", "Bytes",
         "Seconds", "Version", "Enabled", "Path", "Image", "Usage", "Limit", "Slots", "Owner", "State",
         "Network", "Kflops", "Mips", "Cache", "Queue", "Transfer", "Upload", "Download", "Checkpoint"]
CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-_."


def string(rng, n):
    return "".join(rng.choice(CHARS) for _ in range(n))


def quoted(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def str_len(rng):
    # Median 9, 10 % over 50, rarely long.
    r = rng.random()
    if r < 0.5:
        return rng.randint(2, 9)
    if r < 0.9:
        return rng.randint(10, 50)
    if r < 0.995:
        return rng.randint(51, 300)
    return rng.randint(301, 1400)


def filler_names(rng, n):
    """n distinct attribute names from the families real pools use (the same
    names in every ad: a pool shares its vocabulary)."""
    names, seen = [], set()
    while len(names) < n:
        name = rng.choice(FAMILIES) + rng.choice(WORDS) + (rng.choice(WORDS) if rng.random() < 0.6 else "")
        if rng.random() < 0.25:
            name += str(rng.randint(1, 9))
        if name.lower() not in seen:
            seen.add(name.lower())
            names.append(name)
    return names


def filler_value(rng, name):
    r = rng.random()
    if name.startswith(("HAS_", "Has", "Is")) or r < 0.18:
        return rng.choice(["true", "false"])
    if r < 0.63:
        return str(rng.randint(0, 10 ** rng.randint(1, 10)))
    if r < 0.95:
        return quoted(string(rng, str_len(rng)))
    if r < 0.98:
        return "%.6f" % (rng.random() * 100)
    return "{ %s }" % ", ".join(quoted(string(rng, rng.randint(3, 12))) for _ in range(rng.randint(2, 8)))


START = ("(isUndefined(TARGET.SingularityImage) || MY.HAS_SINGULARITY) && "
         "(TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory) && "
         "(TARGET.RequestDisk <= MY.Disk) && (isUndefined(TARGET.RequestGPUs) || TARGET.RequestGPUs <= MY.GPUs) && "
         "(MY.GLIDEIN_ToRetire is undefined || time() < MY.GLIDEIN_ToRetire) && "
         "(TARGET.ProjectName isnt undefined || TARGET.Owner isnt undefined) && "
         "((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, \",\")) && "
         "((TARGET.UNDESIRED_Sites is undefined) || !stringListMember(MY.GLIDEIN_Site, TARGET.UNDESIRED_Sites, \",\")) && "
         "(TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7) && "
         "(MY.SlotType != \"Partitionable\" || TARGET.RequestCpus >= 1) && "
         "((TARGET.WantGPUs =?= true && MY.GPUs > 0) || TARGET.WantGPUs =!= true) && "
         "(MY.CVMFS_oasis_opensciencegrid_org_REVISION >= TARGET.MinCvmfsRevision || TARGET.MinCvmfsRevision is undefined)")


def slot(rng, i, names, now):
    node = i // 3
    site = SITES[node % len(SITES)]
    kind = ("Partitionable", "Dynamic", "Static")[0 if i % 3 == 0 else (1 if i % 3 == 1 else 2)]
    cpus = rng.choice([1, 2, 4, 8, 16, 32])
    memory = cpus * rng.choice([1024, 2048, 4096])
    gpus = rng.choice([0, 0, 0, 1, 2])
    claimed = rng.random() < 0.25
    attrs = [
        ("Name", quoted("slot1_%d@glidein_%d_%d@node%05d.%s.example.org" % (i % 7, node, i, node, site.lower()))),
        ("Machine", quoted("node%05d.%s.example.org" % (node, site.lower()))),
        ("MyType", quoted("Machine")),
        ("SlotType", quoted(kind)),
        ("Arch", quoted("X86_64")),
        ("OpSys", quoted("LINUX")),
        ("OpSysAndVer", quoted(rng.choice(["AlmaLinux9", "CentOS7", "Ubuntu22"]))),
        ("Cpus", str(cpus)),
        ("Memory", str(memory)),
        ("Disk", str(cpus * rng.randint(2_000_000, 20_000_000))),
        ("GPUs", str(gpus)),
        ("LoadAvg", "%.6f" % (rng.random() * cpus)),
        ("KeyboardIdle", str(rng.randint(0, 100_000))),
        ("State", quoted("Claimed" if claimed else "Unclaimed")),
        ("Activity", quoted("Busy" if claimed else "Idle")),
        ("GLIDEIN_Site", quoted(site)),
        ("GLIDEIN_ResourceName", quoted("%s-CE%d" % (site, node % 3))),
        # Far enough ahead that a pool made today still takes jobs for weeks
        # (a glidein past GLIDEIN_ToRetire rejects every job: see --now).
        ("GLIDEIN_ToRetire", str(now + rng.randint(30 * 86400, 90 * 86400))),
        ("GLIDEIN_ToDie", str(now + rng.randint(91 * 86400, 120 * 86400))),
        ("HAS_SINGULARITY", "true"),
        ("CVMFS_oasis_opensciencegrid_org_REVISION", str(rng.randint(20000, 30000))),
        ("START", START),
        ("WithinResourceLimits", "(TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestMemory <= MY.Memory)"),
        ("Requirements", "START && WithinResourceLimits"),
        ("Rank", "0"),
        ("AddressV1", quoted("{[ p=\"primary\"; a=\"10.%d.%d.%d\"; port=%d; n=\"Internet\"; ]}" % (
            node % 250, i % 250, rng.randint(1, 250), rng.randint(1024, 65000)) + string(rng, 1200))),
        ("DaemonShutdown", "(MyCurrentTime - EnteredCurrentActivity) > 1200 && State == \"Unclaimed\" && "
                           "(MyCurrentTime - LastHeardFrom) > %d" % rng.randint(300, 3600)),
    ]
    if claimed:
        attrs.append(("RemoteUser", quoted("user%d@osg.example.org" % rng.randint(1, 500))))
        attrs.append(("RemoteOwner", quoted("user%d@osg.example.org" % rng.randint(1, 500))))
    if kind == "Partitionable":
        children = rng.randint(2, 24)
        for c in ["ChildName", "ChildRemoteUser", "ChildState", "ChildActivity", "ChildAccountingGroup"]:
            attrs.append((c, "{ %s }" % ", ".join(quoted(string(rng, rng.randint(8, 40))) for _ in range(children))))
        for c in ["ChildCpus", "ChildMemory", "ChildDisk", "ChildEnteredCurrentState", "ChildRetirementTimeRemaining"]:
            attrs.append((c, "{ %s }" % ", ".join(str(rng.randint(1, 10 ** 6)) for _ in range(children))))
    # Fill to the slot's attribute count with the pool's vocabulary.
    total = rng.randint(450, 850)
    for name in names[: max(0, total - len(attrs))]:
        attrs.append((name, filler_value(rng, name)))
    return attrs


def write(path, slots, seed, now):
    rng = random.Random(seed)
    names = filler_names(random.Random(seed + 1), 900)
    with open(path, "w") as f:
        for i in range(slots):
            for k, v in slot(rng, i, names, now):
                f.write("%s = %s\n" % (k, v))
            f.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--slots", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=24)
    ap.add_argument("--out", help="default: bench/data/production_<slots>.txt")
    ap.add_argument("--now", type=int, default=int(time.time()) // 86400 * 86400,
                    help="the pool's clock (default: today, 00:00 UTC); the glideins retire 30-90 days after it")
    args = ap.parse_args()
    out = args.out or os.path.join(os.path.dirname(os.path.abspath(__file__)), "data",
                                   "production_%d.txt" % args.slots)
    os.makedirs(os.path.dirname(out), exist_ok=True)
    write(out, args.slots, args.seed, args.now)
    size = os.path.getsize(out)
    print("%s: %d slots, %.1f MB (%.1f KB a slot)" % (out, args.slots, size / 1e6, size / 1e3 / args.slots))


if __name__ == "__main__":
    main()
