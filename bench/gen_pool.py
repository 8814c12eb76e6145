#!/usr/bin/env python3
"""Deterministic generator of the thesis "base workload" as condor_status -l /
condor_q -l long-format pools (`Attr = expr` lines, one blank line between ads).

Machines follow Raman's thesis (§5.2.1, Figures 26-28):
  * Arch/OpSys drawn from Figure 26 (UW-Madison Condor pool, March 2000);
  * physical Memory (MB) from Figure 27, independent of arch/opsys;
  * total virtual memory = 2 x Memory, available virtual memory uniform in
    [20%, 90%] of it;
  * a unique integer Key in [0, n);
  * the port constraint `Job.MemoryReqs < Memory - 15M` becomes the START
    clause `TARGET.RequestMemory < Memory - 15` (MB, as HTCondor advertises).
Jobs follow Figure 30: ImageSize uniform in [20%, 80%] of twice a memory size
drawn from Figure 27; RequestMemory (the thesis' MemoryReqs) uniform in
[20%, 50%] of ImageSize; an Arch/OpSys constraint drawn from Figure 26 and a
final `TARGET.VirtualMemory > ImageSize` clause.

Around the thesis attributes both kinds of ad carry the attributes a modern
(HTCondor 25) slot or job ad carries, with realistic values and policies, so
that parsing and matching costs look like a real pool's.

Units follow HTCondor: Memory / RequestMemory in MiB, VirtualMemory,
TotalVirtualMemory, ImageSize, Disk, RequestDisk in KiB.

Usage: gen_pool.py [--out DIR] [--seed N] [--force]
Writes DIR/machines_10000.txt, DIR/machines_1000.txt, DIR/jobs_1000.txt
(DIR defaults to bench/data next to this script). machines_1000 is the first
1,000 ads of machines_10000 (same seed, same stream).
"""
import argparse
import os
import random
import sys

ARCH_OPSYS = [  # Figure 26
    (("INTEL", "LINUX"), 0.3191),
    (("INTEL", "SOLARIS26"), 0.2127),
    (("INTEL", "WINNT40"), 0.2411),
    (("SGI", "IRIX6"), 0.0212),
    (("SUN4u", "SOLARIS26"), 0.0390),
    (("SUN4u", "SOLARIS27"), 0.0390),
    (("SUN4x", "SOLARIS26"), 0.0766),
    (("SUN4x", "SOLARIS27"), 0.0524),
]
MEMORY = [(32, 0.070), (64, 0.400), (128, 0.200), (256, 0.200), (800, 0.130)]  # Figure 27

DEPARTMENTS = ["CS", "CS", "CS", "Physics", "Chemistry", "Engineering", "Biostat"]
DOMAIN = "cs.wisc.edu"
BASE_TIME = 1_767_225_600  # 2026-01-01T00:00:00Z; fixed so output is reproducible
VERSION = '"$CondorVersion: 25.0.1 2025-06-04 BuildID: 805211 PackageID: 25.0.1-1 $"'


def pick(rng, table):
    x = rng.random()
    acc = 0.0
    for value, p in table:
        acc += p
        if x < acc:
            return value
    return table[-1][0]


def fnum(x, digits=6):
    s = f"{x:.{digits}f}".rstrip("0")
    return s + "0" if s.endswith(".") else s


def machine(rng, key):
    arch, opsys = pick(rng, ARCH_OPSYS)
    mem = pick(rng, MEMORY)
    total_vm = 2 * mem * 1024                      # KiB
    vm = int(total_vm * rng.uniform(0.20, 0.90))   # KiB available
    total_disk = rng.choice([4, 9, 18, 36, 73]) * 1024 * 1024
    disk = int(total_disk * rng.uniform(0.05, 0.95))
    host = f"e{key:05d}.{DOMAIN}"
    ip = f"128.105.{(key >> 8) & 255}.{key & 255}"
    mips = rng.randint(150, 1200)
    kflops = int(mips * rng.uniform(180, 320))
    load = rng.choice([0.0, 0.0, 0.0, rng.uniform(0, 0.3), rng.uniform(0.3, 2.5)])
    kbd = rng.choice([rng.randint(0, 900), rng.randint(900, 86400), rng.randint(86400, 3_000_000)])
    claimed = rng.random() < 0.35
    state, activity = ("Claimed", "Busy") if claimed else ("Unclaimed", "Idle")
    condor_load = round(rng.uniform(0.9, 1.0), 2) if claimed else 0.0
    load = load + condor_load
    entered = BASE_TIME - rng.randint(60, 200_000)
    dept = rng.choice(DEPARTMENTS)
    owner = f"user{rng.randint(0, 199)}"
    # Start policy: thesis memory constraint plus a desktop or dedicated policy.
    mem_clause = "TARGET.RequestMemory < Memory - 15"
    policy = rng.random()
    if opsys == "WINNT40" or policy < 0.45:
        start = (f"({mem_clause}) && (KeyboardIdle > 15 * 60) && "
                 "((LoadAvg - CondorLoadAvg) <= 0.3)")
        rank = "0.0"
    elif policy < 0.85:
        start = f"({mem_clause}) && (TARGET.JobUniverse == 5 || TARGET.JobUniverse == 9)"
        rank = f'(TARGET.Department =?= "{dept}") * 10'
    else:
        start = (f'({mem_clause}) && ((MachineBusy == false) || (TARGET.Owner == "{owner}")) && '
                 '(TARGET.ImageSize <= TotalVirtualMemory)')
        rank = f'(TARGET.Owner == "{owner}") * 100 + (TARGET.Department =?= "{dept}")'
    a = [
        ("MyType", '"Machine"'),
        ("TargetType", '"Job"'),
        ("Name", f'"slot1@{host}"'),
        ("Machine", f'"{host}"'),
        ("Key", str(key)),
        ("SlotID", "1"),
        ("SlotType", '"Static"'),
        ("Arch", f'"{arch}"'),
        ("OpSys", f'"{opsys}"'),
        ("OpSysAndVer", f'"{opsys}"'),
        ("Memory", str(mem)),
        ("TotalMemory", str(mem)),
        ("DetectedMemory", str(mem)),
        ("VirtualMemory", str(vm)),
        ("TotalVirtualMemory", str(total_vm)),
        ("Disk", str(disk)),
        ("TotalDisk", str(total_disk)),
        ("Cpus", "1"),
        ("TotalCpus", "1"),
        ("DetectedCpus", "1"),
        ("KFlops", str(kflops)),
        ("Mips", str(mips)),
        ("LoadAvg", fnum(load)),
        ("CondorLoadAvg", fnum(condor_load)),
        ("TotalLoadAvg", fnum(load)),
        ("TotalCondorLoadAvg", fnum(condor_load)),
        ("KeyboardIdle", str(kbd)),
        ("ConsoleIdle", str(kbd)),
        ("State", f'"{state}"'),
        ("Activity", f'"{activity}"'),
        ("EnteredCurrentState", str(entered)),
        ("EnteredCurrentActivity", str(entered + rng.randint(0, 60))),
        ("LastHeardFrom", str(BASE_TIME - rng.randint(0, 300))),
        ("DaemonStartTime", str(BASE_TIME - rng.randint(86400, 40 * 86400))),
        ("UpdateSequenceNumber", str(rng.randint(1, 5000))),
        ("Department", f'"{dept}"'),
        ("Start", start),
        ("Requirements", "START"),
        ("Rank", rank),
        ("CurrentRank", "0.0"),
        ("IsOwner", "(START =?= false)"),
        ("CpuBusy", "((LoadAvg - CondorLoadAvg) >= 0.5)"),
        ("CpuBusyTime", "0"),
        ("CpuIsBusy", "false"),
        ("KeyboardBusy", "(KeyboardIdle < 15 * 60)"),
        ("MachineBusy", "(CpuBusy || KeyboardBusy)"),
        ("NonCondorLoadAvg", "(LoadAvg - CondorLoadAvg)"),
        ("BackgroundLoad", "0.3"),
        ("HasFileTransfer", "true"),
        ("HasPerFileEncryption", "true"),
        ("HasJava", "true" if opsys in ("LINUX", "WINNT40") else "false"),
        ("JavaVersion", '"1.8.0_402"'),
        ("HasVM", "false"),
        ("FileSystemDomain", f'"{DOMAIN}"'),
        ("UidDomain", f'"{DOMAIN}"'),
        ("MyAddress", f'"<{ip}:9618?addrs={ip}-9618&noUDP&sock=startd_{1000 + key % 9000}_{key * 2654435761 % 65536:04x}>"'),
        ("StartdIpAddr", f'"<{ip}:9618?addrs={ip}-9618&noUDP>"'),
        ("CondorVersion", VERSION),
        ("CondorPlatform", f'"$CondorPlatform: {arch}-{opsys} $"'),
        ("ClockDay", str(rng.randint(0, 6))),
        ("ClockMin", str(rng.randint(0, 1439))),
        ("MonitorSelfCPUUsage", fnum(rng.uniform(0, 2), 4)),
        ("MonitorSelfImageSize", str(rng.randint(20000, 90000))),
        ("RecentJobStarts", str(rng.randint(0, 20))),
        ("TotalSlots", "1"),
        ("WantRemoteIO", "true"),
        ("JobPreemptions", str(rng.randint(0, 5))),
    ]
    if claimed:
        a += [
            ("RemoteUser", f'"user{rng.randint(0, 199)}@{DOMAIN}"'),
            ("RemoteOwner", f'"user{rng.randint(0, 199)}@{DOMAIN}"'),
            ("JobId", f'"{rng.randint(1000, 9999)}.{rng.randint(0, 99)}"'),
            ("JobStart", str(entered)),
        ]
    return a


def job(rng, cluster, proc, owner, qdate, universe, prio, dept):
    arch, opsys = pick(rng, ARCH_OPSYS)
    mem = pick(rng, MEMORY)
    image = int(2 * mem * 1024 * rng.uniform(0.20, 0.80))            # KiB
    req_mem = max(1, int(image * rng.uniform(0.20, 0.50) / 1024))    # MiB
    disk_usage = rng.randint(1_000, 2_000_000)
    exe_size = rng.randint(100, 20_000)
    requirements = (f'(TARGET.Arch == "{arch}") && (TARGET.OpSys == "{opsys}") && '
                    '(TARGET.VirtualMemory > ImageSize) && (TARGET.Memory >= RequestMemory) && '
                    '(TARGET.Disk >= RequestDisk) && (TARGET.HasFileTransfer)')
    rank = rng.choice(["TARGET.KFlops", "TARGET.Mips", "TARGET.Memory", "0.0",
                       'TARGET.Mips + (TARGET.Department == "CS") * 1000'])
    home = f"/home/{owner}"
    a = [
        ("MyType", '"Job"'),
        ("TargetType", '"Machine"'),
        ("ClusterId", str(cluster)),
        ("ProcId", str(proc)),
        ("GlobalJobId", f'"submit.{DOMAIN}#{cluster}.{proc}#{qdate}"'),
        ("Owner", f'"{owner}"'),
        ("User", f'"{owner}@{DOMAIN}"'),
        ("Department", f'"{dept}"'),
        ("QDate", str(qdate)),
        ("JobPrio", str(prio)),
        ("JobUniverse", str(universe)),
        ("JobStatus", "1"),
        ("EnteredCurrentStatus", str(qdate)),
        ("Cmd", f'"{home}/sim_app"'),
        ("Arguments", f'"-seed {cluster * 1000 + proc} -n 100"'),
        ("Iwd", f'"{home}/run{cluster}"'),
        ("In", '"/dev/null"'),
        ("Out", f'"out.{cluster}.{proc}"'),
        ("Err", f'"err.{cluster}.{proc}"'),
        ("UserLog", f'"{home}/run{cluster}/log.txt"'),
        ("ImageSize", str(image)),
        ("ExecutableSize", str(exe_size)),
        ("DiskUsage", str(disk_usage)),
        ("RequestMemory", str(req_mem)),
        ("RequestCpus", "1"),
        ("RequestDisk", "DiskUsage"),
        ("Requirements", requirements),
        ("Rank", rank),
        ("NumJobStarts", "0"),
        ("NumRestarts", "0"),
        ("NumCkpts", "0"),
        ("CumulativeSlotTime", "0"),
        ("RemoteWallClockTime", "0.0"),
        ("CompletionDate", "0"),
        ("LeaveJobInQueue", "false"),
        ("ShouldTransferFiles", '"IF_NEEDED"'),
        ("WhenToTransferOutput", '"ON_EXIT"'),
        ("TransferIn", "false"),
        ("WantRemoteSyscalls", "false"),
        ("WantCheckpoint", "false"),
        ("OnExitRemove", "true"),
        ("OnExitHold", "false"),
        ("PeriodicHold", "false"),
        ("PeriodicRelease", "false"),
        ("PeriodicRemove", "(JobStatus == 5) && ((time() - EnteredCurrentStatus) > 7 * 24 * 3600)"),
        ("NiceUser", "false"),
        ("MaxHosts", "1"),
        ("MinHosts", "1"),
        ("CurrentHosts", "0"),
        ("Environment", '""'),
        ("CondorVersion", VERSION),
        ("CondorPlatform", '"$CondorPlatform: X86_64-Rocky_9.4 $"'),
    ]
    return a


def machines(seed, n):
    rng = random.Random(seed)
    for key in range(n):
        yield machine(rng, key)


def jobs(seed, n):
    rng = random.Random(seed)
    out = []
    cluster = 1000
    qdate = BASE_TIME - 3 * 86400
    while len(out) < n:
        owner = f"user{rng.randint(0, 199)}"
        dept = rng.choice(DEPARTMENTS)
        universe = rng.choice([5, 5, 5, 5, 9])
        prio = rng.choice([0, 0, 0, 0, 5, 10, -5])
        qdate += rng.randint(1, 600)
        size = min(n - len(out), rng.choice([1, 1, 2, 5, 10, 20, 50]))
        for proc in range(size):
            out.append(job(rng, cluster, proc, owner, qdate, universe, prio, dept))
        cluster += 1
    return out


def render(ads):
    parts = []
    for a in ads:
        parts.append("\n".join(f"{k} = {v}" for k, v in a))
        parts.append("\n\n")
    return "".join(parts)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(here, "data"))
    ap.add_argument("--seed", type=int, default=20000301)
    ap.add_argument("--force", action="store_true", help="rewrite existing files")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    targets = {
        "machines_10000.txt": lambda: render(machines(args.seed, 10000)),
        "machines_1000.txt": lambda: render(machines(args.seed, 1000)),
        "jobs_1000.txt": lambda: render(jobs(args.seed + 1, 1000)),
    }
    for name, make in targets.items():
        path = os.path.join(args.out, name)
        if os.path.exists(path) and not args.force:
            continue
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(make())
        os.replace(tmp, path)
        print(f"wrote {path} ({os.path.getsize(path)} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
