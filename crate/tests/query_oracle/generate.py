#!/usr/bin/env python3
"""Differential test of `classad query`'s selection and `-af` printing
against the real libclassad (HTCondor's bindings: `htcondor2`, then
`classad2`).

    python3 crate/tests/query_oracle/generate.py

Builds seeded random pools of machine ads in the old long format (what
`condor_status -l` prints: strings, integers, reals, booleans, attributes
that are expressions over others, attributes left out), and queries over
them: constraints with &&, ||, !, comparisons, `=?=`, `isUndefined`,
`regexp`, arithmetic and strings compared without case, and `-af` columns
(attribute names and expressions, some undefined or error). For every query
it asks libclassad which ads the constraint selects (true or a non-zero
number, as condor_status does) and what each column is on each selected ad,
printed as `-af` prints: strings bare, integers as digits, booleans
true/false, undefined, error, anything else in its canonical unparse.

Writes cases.json next to this file (the pools, then every query with
libclassad's lines), which `cargo test -p classad --test
query_oracle` must reproduce.
"""

import json
import os
import random

os.environ["CONDOR_CONFIG"] = "/dev/null"
os.environ["TZ"] = "UTC"
import htcondor2  # noqa: F401,E402  (registers HTCondor's functions)
import classad2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "cases.json")
SEED = 20261124
POOLS = 12
ADS = 40
QUERIES = 10

ARCHES = ["INTEL", "X86_64", "x86_64", "SUN4u"]
OPSYS = ["LINUX", "WINDOWS", "SOLARIS251"]
STATES = ["Claimed", "Unclaimed", "Owner"]


def q(s):
    return '"' + s + '"'


def machine(rng, i):
    attrs = [
        ("MyType", q("Machine")),
        ("Name", q(f"slot{rng.randint(1, 4)}@node{i:03}.example.org")),
        ("Arch", q(rng.choice(ARCHES))),
        ("OpSys", q(rng.choice(OPSYS))),
        ("State", q(rng.choice(STATES))),
        ("Memory", str(rng.choice([64, 100, 128, 1024, 4096]))),
        ("Cpus", str(rng.randint(1, 16))),
        ("LoadAvg", f"{rng.choice([0.0, 0.25, 0.5, 1.0, 3.75])}"),
        ("KeyboardIdle", str(rng.randint(0, 4000))),
        ("HasGPU", rng.choice(["true", "false"])),
        ("Slack", "Memory - 64 * Cpus"),
        ("IsIdle", "KeyboardIdle > 20 * 60 && LoadAvg < 0.3"),
    ]
    # Leave some attributes out: undefined in queries.
    return [(k, v) for (k, v) in attrs if k in ("MyType", "Name") or rng.random() > 0.1]


CONSTRAINTS = [
    "KeyboardIdle > 20*60 && Memory > 100",
    "IsIdle",
    "Memory >= 1024 || HasGPU",
    "!HasGPU && Arch == \"x86_64\"",
    "Arch =?= \"X86_64\"",
    "isUndefined(Cpus) || Cpus > 8",
    "regexp(\"node0[0-1].*\", Name, \"i\")",
    "Slack",
    "Memory / Cpus > 100",
    "OpSys != \"LINUX\" && State == \"claimed\"",
    "LoadAvg",
    "Name",
    "Memory * 0.5 > 400",
    "member(Arch, {\"INTEL\", \"SUN4u\"})",
]

COLUMNS = [
    "Name", "Memory", "LoadAvg", "HasGPU", "Missing", "Memory * 2", "LoadAvg * 3",
    "Slack", "IsIdle", "strcat(Arch, \"/\", OpSys)", "1/0", "Cpus ?: 0", "toUpper(State)",
    "Memory > 1000", "real(Memory) / 3",
]


def af(v, tree, ad):
    if v is classad2.Value.Undefined:
        return "undefined"
    if v is classad2.Value.Error:
        return "error"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return v
    return str(tree.simplify(ad)).strip()


def holds(v):
    # Undefined and Error are an IntEnum in the bindings: test them first.
    if isinstance(v, classad2.Value):
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v != 0
    return False


def main():
    rng = random.Random(SEED)
    pools, cases = [], []
    for p in range(POOLS):
        ads = [machine(rng, i) for i in range(ADS)]
        text = "\n".join("".join(f"{k} = {v}\n" for k, v in a) for a in ads)
        pools.append(text)
        parsed = [classad2.ClassAd("[" + ";".join(f"{k} = {v}" for k, v in a) + "]") for a in ads]
        for _ in range(QUERIES):
            constraint = rng.choice(CONSTRAINTS)
            columns = rng.sample(COLUMNS, rng.randint(1, 4))
            ctree = classad2.ExprTree(constraint)
            trees = [classad2.ExprTree(c) for c in columns]
            lines = []
            for ad in parsed:
                if not holds(ctree.eval(ad)):
                    continue
                lines.append(" ".join(af(t.eval(ad), t, ad) for t in trees))
            cases.append({"pool": p, "constraint": constraint, "af": columns, "lines": lines})
    with open(OUT, "w") as f:
        json.dump({"pools": pools, "queries": cases}, f, indent=0)
        f.write("\n")
    print(f"wrote {len(cases)} queries over {POOLS} pools of {ADS} ads to {OUT}")


if __name__ == "__main__":
    main()
