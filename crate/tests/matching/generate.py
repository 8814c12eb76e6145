#!/usr/bin/env python3
"""Generate random job and machine pools and record libclassad's verdict for
every pair (HTCondor's own symmetric match through the official bindings).

    python3 generate.py > pairs.json

`cargo test --test negotiation` checks that our matcher agrees on every
pair. Deterministic (seeded)."""
import json
import os
import random
import sys

os.environ.setdefault("CONDOR_CONFIG", "/dev/null")
os.environ["TZ"] = "UTC"
import htcondor2  # noqa: F401  (registers HTCondor's functions, old semantics)
import classad2

ARCHES = ["X86_64", "INTEL", "aarch64", "ppc64le"]
OPSYS = ["LINUX", "WINDOWS", "OSX"]
OWNERS = ["alice", "bob", "carol", "riffraff", "dave"]


def machine(rng, i):
    attrs = {
        "Name": '"slot%d@node%d.example.org"' % (rng.randint(1, 8), i),
        "Arch": '"%s"' % rng.choice(ARCHES),
        "OpSys": '"%s"' % rng.choice(OPSYS),
        "Memory": str(rng.choice([512, 1024, 2048, 4096, 8192, 16384])),
        "Cpus": str(rng.choice([1, 2, 4, 8])),
        "Disk": str(rng.randint(1, 100) * 100000),
        "LoadAvg": "%.2f" % rng.random(),
        "KeyboardIdle": str(rng.randint(0, 7200)),
    }
    if rng.random() < 0.3:
        attrs["HasGPU"] = "true"
    starts = [
        "KeyboardIdle > 15 * 60 && LoadAvg < 0.3",
        "TARGET.Owner != \"riffraff\"",
        "true",
        "TARGET.RequestMemory <= MY.Memory && TARGET.RequestCpus <= Cpus",
        "RequestMemory <= Memory",                      # unscoped: falls back to the job
        "TARGET.ImageSize < Memory * 1024 || isUndefined(TARGET.ImageSize)",
        "member(TARGET.Owner, {\"alice\", \"bob\"})",
        "TARGET.NiceUser =!= true && LoadAvg < 0.8",
        "regexp(\"^a\", TARGET.Owner)",
        "TARGET.WantGPU ?: false ? HasGPU =?= true : true",
    ]
    attrs["Start"] = rng.choice(starts)
    attrs["Requirements"] = rng.choice(["Start", "Start && TARGET.JobUniverse =!= 7", "START"])
    return "[ " + "; ".join("%s = %s" % kv for kv in attrs.items()) + " ]"


def job(rng, i):
    attrs = {
        "ClusterId": str(100 + i // 3),
        "ProcId": str(i % 3),
        "Owner": '"%s"' % rng.choice(OWNERS),
        "RequestMemory": str(rng.choice([256, 1024, 2048, 4000, 9000])),
        "RequestCpus": str(rng.choice([1, 2, 4])),
        "JobUniverse": str(rng.choice([5, 5, 5, 7])),
    }
    if rng.random() < 0.5:
        attrs["ImageSize"] = str(rng.randint(1, 20000000))
    if rng.random() < 0.2:
        attrs["WantGPU"] = "true"
    if rng.random() < 0.2:
        attrs["NiceUser"] = "true"
    reqs = [
        'TARGET.Arch == "X86_64" && TARGET.OpSys == "LINUX"',
        "TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus",
        'Arch == "INTEL" || Arch == "X86_64"',             # unscoped: falls back to the machine
        "TARGET.Disk > 1000000",
        "TARGET.HasGPU =?= true || WantGPU =!= true",
        "true",
        "TARGET.LoadAvg < 0.5 && TARGET.Memory * 1024 > MY.ImageSize",
        'stringListMember(TARGET.OpSys, "LINUX,OSX")',
    ]
    r = rng.sample(reqs, rng.randint(1, 3))
    attrs["Requirements"] = " && ".join("(%s)" % x for x in r)
    attrs["Rank"] = rng.choice(["TARGET.Memory", "TARGET.Cpus * 10 - TARGET.LoadAvg", "0", "TARGET.KFlops"])
    return "[ " + "; ".join("%s = %s" % kv for kv in attrs.items()) + " ]"


def main():
    rng = random.Random(20261122)
    jobs = [job(rng, i) for i in range(60)]
    machines = [machine(rng, i) for i in range(60)]
    jads = [classad2.ClassAd(j) for j in jobs]
    mads = [classad2.ClassAd(m) for m in machines]
    matrix = []
    for j in jads:
        row = ""
        for m in mads:
            row += "1" if j.symmetricMatch(m) else "0"
        matrix.append(row)
    json.dump({"jobs": jobs, "machines": machines, "symmetric_match": matrix}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
