#!/usr/bin/env python3
"""Differential test of `classad analyze --json` against the real libclassad.

    python3 crate/tests/analysis_oracle/generate.py      # builds target/debug/classad first

Builds random jobs and pools (seeded, deterministic), writes each as ClassAd
files, runs `classad analyze --job J --machines M --json`, and re-evaluates
every claim of its answer with libclassad (HTCondor's official bindings:
`htcondor2`, then `classad2`):

* `machines`, and the four summary numbers (job's Requirements with MY = job,
  TARGET = machine; then the machine's Requirements with MY = machine,
  TARGET = job; then `MY.State == "Claimed"` / `MY.RemoteUser isnt undefined`
  on the machine);
* every clause and predicate text: machines where it is true with MY = job,
  TARGET = machine (true, or a non-zero number: HTCondor's rule), and each
  predicate's `only_failing`;
* every suggestion (fix) applied to a copy of the job — its `job_attributes`
  set, its `requirements` as Requirements — and counted over the pool: the
  machines it accepts (`matches`), libclassad's `symmetricMatch` count
  (`both_ways`) and of those the ones not busy (`willing`); the list ranked
  as offered: listed fixes first, those lowering no request of the job's
  before those that do, then by `willing`, then `both_ways`;
* every job change: the literals parsed by libclassad and set on a copy of
  the job, then the machines whose Requirements accept it (`matches`), those
  gained over the job as it is (`gained`, and their names);
* `conflicts` (a pool conflict is a minimal set no machine satisfies; an
  `always` conflict is satisfied by no machine nor by probe values of its
  attribute), `succeeding` (maximal sets some machine satisfies) and
  `missing_attributes` (no machine defines them, and every predicate
  attribute no machine defines is listed).

Evaluation is `ExprTree.eval(scope, target)` of the expression parsed as the
only attribute of a wrapper ad, as in ../conformance/generate.py: HTCondor's
EvalExprTree() with a MatchClassAd(MY, TARGET). Each Requirements verdict is
also checked against libclassad's own `symmetricMatch` (as ../matching does).

If any claim disagrees, the case and the disagreement are printed and the
script exits 1 without writing anything. Otherwise it writes cases.json next
to this file: one line per case with the job, the machines and the verified
claims, which `cargo test -p classad --test analysis_oracle` must reproduce
exactly.

Options: --bin PATH (skip the build), --cases N, --seed S, --out PATH.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time

os.environ["CONDOR_CONFIG"] = "/dev/null"
os.environ["TZ"] = "UTC"
import htcondor2  # noqa: F401,E402  (registers HTCondor's functions, old semantics)
import classad2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(HERE, "cases.json")

SEED = 20261123
CASES = 150

ARCHES = ["X86_64", "X86_64", "x86_64", "INTEL", "intel", "aarch64", "ppc64le"]
OPSYS = ["LINUX", "LINUX", "linux", "WINDOWS", "OSX"]
STATES = ["Unclaimed", "Unclaimed", "Unclaimed", "Claimed", "claimed", "CLAIMED", "Owner", "Matched"]
OWNERS = ["alice", "bob", "carol", "riffraff", "dave", "Alice"]
MEMORY = [512, 1024, 2048, 4096, 8192, 16384]


def q(s):
    return '"%s"' % s


# ---------------------------------------------------------------------------
# Machines
# ---------------------------------------------------------------------------

def start_policy(rng):
    """A START expression, realistic, mostly about the job (TARGET)."""
    img = rng.choice([200000, 500000, 1000000, 2000000, 4000000, 8000000])
    mem = rng.choice([1024, 2048, 4096])
    disk = rng.choice([1000, 10000, 100000])
    return rng.choice([
        "true",
        "true",
        "TARGET.ImageSize <= %d" % img,
        "TARGET.ImageSize < Memory * 1024",
        "TARGET.Owner != \"riffraff\"",
        "TARGET.Owner == \"alice\" || TARGET.Owner == \"bob\"",
        "member(TARGET.Owner, {\"alice\", \"carol\"})",
        "TARGET.RequestMemory <= Memory",
        "TARGET.RequestMemory <= MY.Memory && TARGET.ImageSize <= %d" % img,
        "RequestMemory <= Memory",
        "TARGET.DiskUsage < Disk",
        "TARGET.DiskUsage <= %d" % disk,
        "KeyboardIdle > 600 && TARGET.ImageSize < %d" % img,
        "TARGET.RequestMemory >= %d" % mem,
        "isUndefined(TARGET.ImageSize) || TARGET.ImageSize < %d" % img,
        "TARGET.Owner =!= undefined && TARGET.RequestMemory * 2 <= Memory",
        "regexp(\"^(alice|bob)$\", TARGET.Owner)",
        "TARGET.ImageSize <= %d || (TARGET.Owner == \"carol\" && TARGET.RequestMemory < 4096)" % img,
        "!(TARGET.Owner == \"dave\") && TARGET.DiskUsage <= %d" % disk,
        "LoadAvg < 0.5 && TARGET.RequestMemory <= %d" % mem,
        "ifThenElse(TARGET.Owner == \"alice\", true, TARGET.ImageSize < %d)" % img,
        "TARGET.ImageSize <= %d && TARGET.RequestMemory <= %d" % (img, mem),
        "TARGET.RequestMemory > %d || TARGET.ImageSize < %d" % (mem, img),
    ])


def number(rng, x):
    """x written as an integer, or sometimes as a real."""
    r = rng.random()
    if r < 0.12:
        return "%.1f" % x
    if r < 0.16:
        return "%.1f" % (x + 0.5)
    if r < 0.18:
        return "%.3e" % x
    return str(x)


def machine(rng, i, pool):
    attrs = []

    def put(k, v, p_missing=0.06):
        if rng.random() >= p_missing:
            attrs.append((k, v))

    if rng.random() < 0.95:
        attrs.append(("Name", q("slot%d@m%d" % (rng.randint(1, 4), i))))
    arch = rng.choice(pool["arches"])
    put("Arch", q(arch))
    put("OpSys", q(rng.choice(pool["opsys"][arch])))
    put("Memory", number(rng, rng.choice(pool["memory"])))
    put("Disk", number(rng, rng.randint(1, 60) * 2500))
    put("Cpus", str(rng.choice([1, 2, 4, 8])), 0.03)
    put("KeyboardIdle", str(rng.randint(0, 3600)), 0.1)
    put("LoadAvg", "%.2f" % rng.random(), 0.1)
    put("State", q(rng.choice(STATES)), 0.1)
    r = rng.random()
    if r < 0.15:
        attrs.append(("RemoteUser", q(rng.choice(OWNERS) + "@example.org")))
    elif r < 0.18:
        attrs.append(("RemoteUser", "undefined"))
    elif r < 0.20:
        attrs.append(("RemoteUser", "TARGET.NoSuchAttr"))
    elif r < 0.22:
        attrs.append(("RemoteUser", "TARGET.Owner"))
    r = rng.random()
    if r < 0.3:
        attrs.append(("HasGPU", "true"))
    elif r < 0.5:
        attrs.append(("HasGPU", "false"))
    start = rng.choice(pool["starts"]) if rng.random() < 0.85 else start_policy(rng)
    req = rng.choice(["Start", "Start", "START", "MY.Start", "Start && TARGET.Owner =!= undefined", start])
    if req != start:
        attrs.append(("Start", start))
    attrs.append(("Requirements", req))
    return "[ " + "; ".join("%s = %s" % kv for kv in attrs) + " ]", dict(attrs)


def pool(rng, kind):
    arches = rng.sample(ARCHES, rng.randint(1, 4))
    opsys = {a: rng.sample(OPSYS, rng.randint(1, 3)) for a in arches}
    n = rng.choice([0, 1, 2, 3, 5, 8, 12, 20, 30, 45, 60]) if rng.random() < 0.9 else rng.randint(0, 60)
    if kind == "nobody":
        starts = [start_policy(rng) for _ in range(rng.randint(1, 3))]
        starts = [s for s in starts if s != "true"] or ["TARGET.ImageSize <= 500000"]
    else:
        starts = [start_policy(rng) for _ in range(rng.randint(1, 3))]
    p = {"arches": arches, "opsys": opsys, "starts": starts,
         "memory": rng.sample(MEMORY, rng.randint(1, len(MEMORY)))}
    ms = [machine(rng, i, p) for i in range(n)]
    p["ads"] = [m[1] for m in ms]
    return [m[0] for m in ms], p


# ---------------------------------------------------------------------------
# Jobs
# ---------------------------------------------------------------------------

OPS = ["==", "!=", "<", "<=", ">", ">=", "=?=", "=!="]
MISSING = ["Foo", "HasDocker", "CUDACapability"]


def ref(rng, attr):
    r = rng.random()
    if r < 0.55:
        return "TARGET." + attr
    if r < 0.65:
        return "other." + attr
    if r < 0.7:
        return "target." + attr.lower()
    if r < 0.73:
        return "TARGET." + attr.upper()
    return attr


def literal_for(rng, attr, pool_info, job_attrs):
    if attr in ("Arch", "OpSys", "State"):
        values = {"Arch": ARCHES + ["SPARC"], "OpSys": OPSYS + ["SOLARIS"], "State": STATES}[attr]
        s = rng.choice(values)
        r = rng.random()
        if r < 0.1:
            s = s.lower()
        elif r < 0.15:
            s = s.upper()
        return q(s)
    if attr == "HasGPU":
        return rng.choice(["true", "true", "false", "1", "0"])
    if attr in MISSING:
        return rng.choice(["true", "3", q("yes")])
    # Numbers, sometimes a job attribute (specialized away) or arithmetic on one.
    if attr == "Memory":
        if rng.random() < 0.35:
            return rng.choice(["RequestMemory", "MY.RequestMemory", "RequestMemory * 2",
                               "ImageSize / 1024", "MY.ImageSize / 1000"])
        return number(rng, rng.choice(MEMORY + [3000, 1911, 100000]))
    if attr == "Disk":
        if rng.random() < 0.35:
            return rng.choice(["DiskUsage", "MY.DiskUsage", "DiskUsage * 10", "ImageSize / 10"])
        return number(rng, rng.randint(1, 60) * 2500)
    if attr == "Cpus":
        return rng.choice(["1", "2", "4", "8", "3", "2.5", "RequestCpus"])
    if attr == "KeyboardIdle":
        return rng.choice(["600", "900", "15 * 60", "1800"])
    if attr == "LoadAvg":
        return rng.choice(["0.3", "0.5", "0.8", "1"])
    return "1"


NUMERIC = ["Memory", "Memory", "Disk", "Disk", "Cpus", "KeyboardIdle", "LoadAvg"]
STRINGS = ["Arch", "Arch", "OpSys", "OpSys", "State"]

OPAQUE = [
    "regexp(\"^x86\", TARGET.Arch, \"i\")",
    "regexp(\"LINUX\", TARGET.OpSys)",
    "TARGET.Memory * 20 >= TARGET.Disk",
    "TARGET.Memory >= TARGET.Disk",
    "(TARGET.Cpus > 2 ? TARGET.Memory >= 4096 : true)",
    "TARGET.HasGPU ?: false",
    "stringListMember(TARGET.OpSys, \"LINUX,OSX\")",
    "TARGET.Memory * 1024 >= ImageSize",
    "member(TARGET.Arch, {\"X86_64\", \"INTEL\"})",
    "TARGET.Cpus * 1024 >= RequestMemory",
    "strcmp(TARGET.OpSys, \"LINUX\") == 0",
    "isUndefined(TARGET.HasGPU)",
    "TARGET.Name =!= undefined",
    "size(TARGET.Name) > 8",
    "TARGET.Cpus % 2",
    "TARGET.LoadAvg",
    "toUpper(TARGET.Arch) == \"X86_64\"",
    "ifThenElse(TARGET.Cpus >= 4, TARGET.Memory > 2048, TARGET.Memory > 8192)",
    "TARGET.State =?= \"Unclaimed\" || TARGET.State =?= undefined",
]


def predicate(rng, pool_info, job_attrs):
    r = rng.random()
    if r < 0.1:
        return rng.choice(OPAQUE)
    if r < 0.16:
        attr = rng.choice(MISSING)
    elif r < 0.55:
        attr = rng.choice(NUMERIC)
    elif r < 0.9:
        attr = rng.choice(STRINGS)
    else:
        attr = "HasGPU"
    if attr in ("Arch", "OpSys", "State", "HasGPU") or attr in MISSING:
        op = rng.choice(["==", "==", "==", "!=", "=?=", "=!="] + OPS)
    else:
        op = rng.choice([">=", ">=", ">", "<=", "<", "==", "!="] + OPS)
    lhs = ref(rng, attr)
    rhs = literal_for(rng, attr, pool_info, job_attrs)
    if rng.random() < 0.25:
        flip = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
        return "%s %s %s" % (rhs, flip.get(op, op), lhs)
    return "%s %s %s" % (lhs, op, rhs)


def tree(rng, depth, pool_info, job_attrs):
    r = rng.random()
    if depth == 0 or r < 0.4:
        return predicate(rng, pool_info, job_attrs)
    if r < 0.75:
        op = "&&"
    elif r < 0.93:
        op = "||"
    else:
        return "!(%s)" % tree(rng, depth - 1, pool_info, job_attrs)
    parts = [tree(rng, depth - 1, pool_info, job_attrs) for _ in range(rng.randint(2, 3))]
    return "(" + (" %s " % op).join(parts) + ")"


def impossible(rng, pool_info):
    """Something no machine of the pool satisfies (or nothing at all can)."""
    r = rng.random()
    if r < 0.3:
        return "%s == %s" % (ref(rng, rng.choice(MISSING)), rng.choice(["true", "3", q("yes")]))
    if r < 0.6:
        lo = rng.choice([1024, 2048, 4096])
        return "%s > %d && %s < %d" % (ref(rng, "Memory"), lo * 2, ref(rng, "Memory"), lo)
    if r < 0.75:
        return "%s == \"X86_64\" && %s == \"INTEL\"" % (ref(rng, "Arch"), ref(rng, "Arch"))
    if r < 0.9:
        # An Arch and an OpSys the pool never combines, when there is one.
        for a in ARCHES:
            for o in OPSYS:
                if a in pool_info["arches"] and o.lower() not in [x.lower() for x in pool_info["opsys"][a]]:
                    return "%s == %s && %s == %s" % (ref(rng, "Arch"), q(a), ref(rng, "OpSys"), q(o))
        return "TARGET.Arch == \"SPARC\""
    return "%s >= %d && %s <= %d" % (ref(rng, "Cpus"), 16, ref(rng, "Memory"), 4096)


def loose(rng, ad):
    """A predicate the machine `ad` satisfies (so that some machines match)."""
    attr = rng.choice([k for k in ("Arch", "OpSys", "Memory", "Disk", "Cpus", "HasGPU") if k in ad] or ["Cpus"])
    if attr not in ad:
        return "TARGET.Cpus =?= undefined"
    v = ad[attr]
    r = ref(rng, attr)
    if attr in ("Arch", "OpSys"):
        v = rng.choice([v, v.lower(), v.upper()])
        return rng.choice(["%s == %s", "%s =?= %s", "!(%s != %s)"]) % (r, v)
    if attr == "HasGPU":
        return rng.choice(["%s == %s", "%s =?= %s"]) % (r, v)
    x = float(v)
    op, y = rng.choice([(">=", x), ("<=", x), (">", x - 1), ("<", x + 1), ("!=", x + 3)])
    y = int(y) if y == int(y) and rng.random() < 0.8 else y
    if rng.random() < 0.2:
        return "!(%s %s %s)" % (r, {">=": "<", "<=": ">", ">": "<=", "<": ">=", "!=": "=="}[op], y)
    return "%s %s %s" % (r, op, y)


def job(rng, i, kind, pool_info):
    attrs = [("ClusterId", str(100 + i)), ("ProcId", "0")]
    ja = {}

    def put(k, v, p_missing):
        if rng.random() >= p_missing:
            attrs.append((k, v))
            ja[k] = v

    put("Owner", q(rng.choice(OWNERS)), 0.08)
    put("ImageSize", number(rng, rng.choice([50000, 300000, 900000, 1500000, 3000000, 6000000, 12000000])), 0.12)
    put("RequestMemory", number(rng, rng.choice([256, 1024, 1500, 2048, 4000, 9000])), 0.12)
    put("DiskUsage", number(rng, rng.choice([500, 5000, 20000, 80000, 200000])), 0.15)
    put("RequestCpus", str(rng.choice([1, 2, 4])), 0.3)
    if kind == "loose" and pool_info["ads"]:
        req = " && ".join(loose(rng, rng.choice(pool_info["ads"])) for _ in range(rng.randint(1, 3)))
        if rng.random() < 0.3:
            req = "(%s) || %s" % (req, predicate(rng, pool_info, ja))
        elif rng.random() < 0.3:
            req = "%s && %s" % (req, tree(rng, 1, pool_info, ja))
    elif kind == "nobody":
        req = rng.choice([
            "true", "TARGET.Cpus >= 1", "TARGET.Arch != \"SPARC\"",
            "TARGET.Memory >= 256 && TARGET.Disk > 0",
            "other.OpSys =!= \"SOLARIS\"",
        ])
        if rng.random() < 0.4:
            req = "(%s) && %s" % (req, predicate(rng, pool_info, ja))
    else:
        depth = rng.choice([1, 2, 2, 3])
        parts = [tree(rng, depth - 1, pool_info, ja) for _ in range(rng.randint(1, 4))]
        if kind in ("dislike", "conflict"):
            x = impossible(rng, pool_info) if kind == "dislike" else (
                "%s >= %d && %s < %d" % (ref(rng, "Disk"), 50000, ref(rng, "Disk"), 20000))
            parts.insert(rng.randint(0, len(parts)), x)
        req = " && ".join(parts)
    attrs.append(("Requirements", req))
    return "[ " + "; ".join("%s = %s" % kv for kv in attrs) + " ]"


def make_cases(seed, n):
    rng = random.Random(seed)
    kinds = ["random", "loose", "dislike", "nobody", "conflict", "loose"]
    out = []
    for i in range(n):
        kind = kinds[i % len(kinds)]
        machines, info = pool(rng, kind)
        out.append({"kind": kind, "job": job(rng, i, kind, info), "machines": machines})
    return out + file_cases()


def file_cases():
    """The real-shaped pools of tests/analysis (an idle OSG job asking more
    memory than its slots offer, a 40-clause machine list): their best fix
    must let the job run."""
    def ads(name):
        with open(os.path.join(ROOT, "tests", "analysis", name)) as f:
            return [l.strip() for l in f if l.strip().startswith("[")]
    slots = ads("idle_slots.classad")
    cases = [{"kind": "file:" + j, "job": ads(j)[0], "machines": slots, "must_run": True}
             for j in ("idle_job.classad", "clauses40_job.classad")]
    # Issue 34: glidein slots whose START rejects a job's DESIRED_Sites, a
    # 2 TB request, and the same glideins past their retirement time.
    for job, pool, must_run in (("glidein_cms_job.classad", "glidein_slots.classad", True),
                                ("glidein_bigmem_job.classad", "glidein_slots.classad", True),
                                ("glidein_cms_job.classad", "glidein_retired_slots.classad", False)):
        cases.append({"kind": "file:%s on %s" % (job, pool), "job": ads(job)[0], "machines": ads(pool),
                      "must_run": must_run})
    return cases


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------

_parsed = {}


def expr(text):
    """Parse text as the only attribute of a wrapper ad (full parse, no junk)."""
    t = _parsed.get(text)
    if t is None:
        w = classad2.ClassAd("[ __oracle_expr__ = %s\n]" % text)
        if len(w) != 1:
            raise ValueError("wrapper ad of %r has %d attributes" % (text, len(w)))
        t = w.lookup("__oracle_expr__")
        _parsed[text] = t
    return t


def truthy(v):
    """HTCondor's rule for Requirements: true, or a non-zero number."""
    if isinstance(v, classad2.Value):  # an IntEnum: undefined, error
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, (int, float)):
        return v != 0
    return False


def raw(text, my, target):
    """libclassad's value, as text (for reports)."""
    try:
        return repr(expr(text).simplify(my, target))
    except Exception as ex:  # pragma: no cover
        return "<exception %r>" % (ex,)


class Case:
    def __init__(self, job_text, machine_texts, must_run=False):
        self.must_run = must_run
        self.job_text = job_text
        self.machine_texts = machine_texts
        self.job = classad2.ClassAd(job_text)
        self.machines = [classad2.ClassAd(m) for m in machine_texts]
        self._truth = {}

    def truth(self, text):
        """Per machine: is `text` true with MY = job, TARGET = machine."""
        t = self._truth.get(text)
        if t is None:
            e = expr(text)
            t = [truthy(e.eval(self.job, m)) for m in self.machines]
            self._truth[text] = t
        return t

    def machine_accepts(self, job):
        return [truthy(m.lookup("Requirements").eval(m, job)) if "Requirements" in m else False
                for m in self.machines]

    def name(self, i):
        """As the analyzer names machines: a string Name, else the position."""
        v = self.machines[i].get("Name")
        return v if isinstance(v, str) else str(i + 1)


def check(case, a):
    """Every claim of analysis `a`; returns (claims, disagreements)."""
    bad = []
    n = len(case.machines)

    def agree(what, ours, theirs, text=None):
        if ours != theirs:
            bad.append({"claim": what, "text": text, "ours": ours, "libclassad": theirs})

    def count(text):
        return sum(case.truth(text))

    agree("machines", a["machines"], n)

    # Summary, in better-analyze's order.
    jreq = case.job.lookup("Requirements")
    job_ok = [truthy(jreq.eval(case.job, m)) for m in case.machines]
    mach_ok = case.machine_accepts(case.job)
    s = {"rejected_by_job": 0, "reject_job": 0, "match_but_busy": 0, "match": 0}
    for i, m in enumerate(case.machines):
        sym = case.job.symmetricMatch(m)
        if sym != (job_ok[i] and mach_ok[i]):
            raise RuntimeError("oracle inconsistent with symmetricMatch on machine %d" % i)
        if not job_ok[i]:
            s["rejected_by_job"] += 1
        elif not mach_ok[i]:
            s["reject_job"] += 1
        elif truthy(expr('MY.State == "Claimed"').eval(m, case.job)) or \
                truthy(expr("MY.RemoteUser isnt undefined").eval(m, case.job)):
            s["match_but_busy"] += 1
        else:
            s["match"] += 1
    for k in s:
        agree("summary." + k, a["summary"][k], s[k])

    clauses = []
    for ci, c in enumerate(a["clauses"]):
        agree("clause %d" % ci, c["matches"], count(c["text"]), c["text"])
        preds = []
        truths = [case.truth(p["text"]) for p in c["predicates"]]
        for j, p in enumerate(c["predicates"]):
            agree("clause %d predicate %d" % (ci, j), p["matches"], count(p["text"]), p["text"])
            only = sum(1 for i in range(n)
                       if not truths[j][i] and all(truths[k][i] for k in range(len(truths)) if k != j))
            agree("clause %d predicate %d only_failing" % (ci, j), p["only_failing"], only, p["text"])
            preds.append([p["text"], p["matches"], p["only_failing"]])
        clauses.append([c["text"], c["matches"], preds])

    # Each fix applied to a copy of the job (its job attributes set, its
    # requirements text as Requirements): the slots it accepts, the
    # symmetric matches, and those not busy; ranked by willing, both ways.
    suggestions = []
    for si, sg in enumerate(a["suggestions"]):
        changed = classad2.ClassAd(case.job_text)
        for k, v in sg["job_attributes"].items():
            changed[k] = expr(v)
        changed["Requirements"] = expr(sg["requirements"])
        creq = changed.lookup("Requirements")
        accepts = [truthy(creq.eval(changed, m)) for m in case.machines]
        both = [changed.symmetricMatch(m) for m in case.machines]
        willing = sum(1 for i, m in enumerate(case.machines) if both[i] and not (
            truthy(expr('MY.State == "Claimed"').eval(m, changed)) or
            truthy(expr("MY.RemoteUser isnt undefined").eval(m, changed))))
        what = "suggestion %d %s" % (si, json.dumps(sg["job_attributes"], sort_keys=True))
        agree(what + " matches", sg["matches"], sum(accepts), sg["requirements"])
        agree(what + " both_ways", sg["both_ways"], sum(both), sg["requirements"])
        agree(what + " willing", sg["willing"], willing, sg["requirements"])
        suggestions.append([sg["requirements"], sg["job_attributes"], sg["matches"], sg["both_ways"], sg["willing"]])
    # Ranked as offered (issue 34): the listed fixes first; of those, the
    # ones that lower none of the job's requests before the ones that do;
    # then by willing, then both ways.
    def lowered(lowers):
        """How much of the job's requests a fix gives up: per lowering
        'Attr from → to', (from - to) / from; a dropped predicate, 1."""
        total = 0.0
        for item in lowers:
            try:
                head, to = item.rsplit(" \u2192 ", 1)
                frm = float(head.rsplit(" ", 1)[1])
                total += min(max((frm - float(to)) / frm, 0.0), 1.0) if frm > 0 else 1.0
            except (ValueError, IndexError):
                total += 1.0
        return total

    ranks = [(not sg.get("listed", False), bool(sg.get("lowers")), round(lowered(sg.get("lowers", [])), 9),
              -x[4], -x[3])
             for sg, x in zip(a["suggestions"], suggestions)]
    agree("suggestions ranked: listed, keeping the requests, lowering them least, by willing, then both ways",
          ranks, sorted(ranks))
    for sg, x in zip(a["suggestions"], suggestions):
        # A listed fix gains willing slots over the job as it is.
        if sg.get("listed"):
            agree("a listed fix gains willing slots", x[4] > a["summary"]["match"], True, sg["requirements"])
    if case.must_run:
        agree("the best fix lets the job run on a willing slot", bool(suggestions) and suggestions[0][4] > 0, True)

    job_changes = []
    for ji, jc in enumerate(a["job_changes"]):
        changed = classad2.ClassAd(case.job_text)
        for k, v in jc["changes"].items():
            changed[k] = expr(v)
        ok = case.machine_accepts(changed)
        gained = [i for i in range(n) if ok[i] and not mach_ok[i]]
        what = "job change %d %s" % (ji, json.dumps(jc["changes"], sort_keys=True))
        agree(what + " matches", jc["matches"], sum(ok))
        agree(what + " gained", jc["gained"], len(gained))
        agree(what + " machines", jc["machines"], [case.name(i) for i in gained][:200])
        creq = changed.lookup("Requirements")
        mutual = sum(1 for i, m in enumerate(case.machines) if ok[i] and truthy(creq.eval(changed, m)))
        agree(what + " mutual", jc["mutual"], mutual)
        job_changes.append([jc["changes"], jc["matches"], jc["gained"], jc["machines"], jc["mutual"]])

    # Nobody Likes Me by clause: each clause's text evaluated with MY = the
    # machine and TARGET = the job on the machines the job accepts that
    # reject it (`slots`: not true; `only`: the only one of the listed
    # clauses not true there is not claimed, as unlisted clauses may fail
    # too: counted against every clause the machine's requirements split
    # into is the analyzer's, so only `slots` is checked here), and every
    # value option set on a copy of the job and counted with symmetricMatch.
    rejections = []
    rejecting = [i for i in range(n) if job_ok[i] and not mach_ok[i]]
    before = [case.job.symmetricMatch(m) for m in case.machines]
    def conjuncts(text):
        """The operands of a top-level && (outside parentheses, braces and
        strings), each without its outer parentheses and spaces."""
        out, depth, cur, k, quoted = [], 0, "", 0, False
        while k < len(text):
            ch = text[k]
            if quoted:
                cur += ch
                if ch == "\\" and k + 1 < len(text):
                    cur += text[k + 1]
                    k += 1
                elif ch == '"':
                    quoted = False
            elif ch == '"':
                quoted = True
                cur += ch
            elif ch in "([{":
                depth += 1
                cur += ch
            elif ch in ")]}":
                depth -= 1
                cur += ch
            elif depth == 0 and text.startswith("&&", k):
                out.append(cur)
                cur = ""
                k += 1
            else:
                cur += ch
            k += 1
        out.append(cur)
        result = []
        for c in out:
            c = "".join(c.split())
            while c.startswith("(") and c.endswith(")") and balanced(c[1:-1]):
                c = c[1:-1]
            result.append(c)
        return result

    def balanced(t):
        depth = 0
        for ch in t:
            depth += ch == "("
            depth -= ch == ")"
            if depth < 0:
                return False
        return depth == 0

    def holds_clause(i, text, attribute):
        """Whether the clause is one of the top-level conjuncts of machine
        i's attribute (where the analyzer found it), both as libclassad
        unparses them."""
        want = conjuncts(repr(expr(text)))
        m = case.machines[i]
        return attribute in m and len(want) == 1 and want[0] in conjuncts(repr(m.lookup(attribute)))

    for ri, r in enumerate(a.get("rejections", [])):
        e = expr(r["clause"])
        failing = sum(1 for i in rejecting
                      if holds_clause(i, r["clause"], r["attribute"]) and not (e.eval(case.machines[i], case.job) is True))
        agree("rejection %d slots (in %s)" % (ri, r["attribute"]), r["slots"], failing, r["clause"])
        options = []
        for o in r["options"]:
            changed = classad2.ClassAd(case.job_text)
            changed[o["attribute"]] = expr(o["value"])
            both = [changed.symmetricMatch(m) for m in case.machines]
            willing = sum(1 for i, m in enumerate(case.machines) if both[i] and not (
                truthy(expr('MY.State == "Claimed"').eval(m, changed)) or
                truthy(expr("MY.RemoteUser isnt undefined").eval(m, changed))))
            gained = sum(1 for i in range(n) if both[i] and not before[i])
            what = "rejection %d option %s = %s" % (ri, o["attribute"], o["value"])
            agree(what + " both_ways", o["both_ways"], sum(both))
            agree(what + " willing", o["willing"], willing)
            agree(what + " gained", o["gained"], gained)
            options.append([o["attribute"], o["value"], o["both_ways"], o["willing"], o["gained"]])
        rejections.append([r["clause"], r["slots"], options])

    # Conflicts and succeeding sets, from the predicates' truth over the pool.
    def sat(ci, preds):
        c = a["clauses"][ci]["predicates"]
        return [all(case.truth(c[j]["text"])[i] for j in preds) for i in range(n)]

    conflicts = []
    for k, cf in enumerate(a["conflicts"]):
        ci, preds = cf["clause"], cf["predicates"]
        what = "conflict %d (%s clause %d %s)" % (k, cf["kind"], ci, preds)
        agree(what + ": some machine satisfies all", False, any(sat(ci, preds)))
        if cf["kind"] == "pool":
            for j in preds:
                rest = [x for x in preds if x != j]
                agree(what + ": some machine satisfies all but %d" % j, True, any(sat(ci, rest)))
        else:
            ps = [a["clauses"][ci]["predicates"][j] for j in preds]
            witness = always_probe(case, ps)
            agree(what + ": a value satisfying all", None, witness)
        conflicts.append([ci, preds, cf["kind"]])

    succeeding = []
    for k, sc in enumerate(a["succeeding"]):
        ci, preds = sc["clause"], sc["predicates"]
        what = "succeeding %d (clause %d %s)" % (k, ci, preds)
        agree(what + ": some machine satisfies all", True, any(sat(ci, preds)))
        for j in range(len(a["clauses"][ci]["predicates"])):
            if j not in preds:
                agree(what + ": some machine satisfies all and %d" % j, False, any(sat(ci, sorted(preds + [j]))))
        succeeding.append([ci, preds])

    missing = a["missing_attributes"]
    for attr in missing:
        agree("missing attribute %s: some machine defines it" % attr, False, any(attr in m for m in case.machines))
    lower = [x.lower() for x in missing]
    for c in a["clauses"]:
        for p in c["predicates"]:
            at = p["attribute"]
            if at is not None and not any(at in m for m in case.machines):
                agree("attribute %s (no machine defines it) in missing_attributes" % at, True, at.lower() in lower)

    # better-analyze's steps: a target-dependent step's count is its text
    # counted over the pool; "always"/"never" hold on every machine.
    steps = []
    for st in a["steps"]:
        if "..." in st["text"]:
            continue
        t = case.truth(st["text"])
        if st["verdict"] is None:
            agree("step [%d]" % st["index"], st["matched"], sum(t), st["text"])
        elif st["verdict"] == "always" and case.machines:
            agree("step [%d] always" % st["index"], True, all(t), st["text"])
        elif st["verdict"] == "never":
            agree("step [%d] never" % st["index"], False, any(t), st["text"])
        steps.append([st["index"], st["text"], st["matched"], st["verdict"]])

    claims = {
        "steps": steps,
        "machines": a["machines"],
        "summary": [a["summary"][k] for k in ("rejected_by_job", "reject_job", "match_but_busy", "match")],
        "clauses": clauses,
        "suggestions": suggestions,
        "job_changes": job_changes,
        "rejections": rejections,
        "conflicts": conflicts,
        "succeeding": succeeding,
        "missing_attributes": missing,
    }
    return claims, bad


def always_probe(case, preds):
    """A value of the conflict's attribute satisfying all `preds`, else None."""
    attr = preds[0]["attribute"]
    if attr is None:
        return "no attribute"
    cands = ["true", "false", "undefined", "0", "-1", "1000000000000", "-1000000000000", '""']
    for p in preds:
        for x in re.findall(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?', p["text"]):
            v = float(x)
            for d in (0, -1, 1, -0.5, 0.5, -1e-6, 1e-6):
                cands.append(repr(v + d))
            if v == int(v):
                for d in (0, -1, 1):
                    cands.append(str(int(v) + d))
        for s in re.findall(r'"([^"\\]*)"', p["text"]):
            for t in (s, s.lower(), s.upper(), s + "x", s[:-1]):
                cands.append(q(t))
    for c in cands:
        target = classad2.ClassAd("[ %s = %s ]" % (attr, c))
        if all(truthy(expr(p["text"]).eval(case.job, target)) for p in preds):
            return "%s = %s" % (attr, c)
    return None


def run_cli(binary, tmp, job_text, machine_texts):
    jf = os.path.join(tmp, "job.classad")
    mf = os.path.join(tmp, "machines.classad")
    with open(jf, "w") as f:
        f.write(job_text + "\n")
    with open(mf, "w") as f:
        for m in machine_texts:
            f.write(m + "\n")
    p = subprocess.run([binary, "analyze", "--job", jf, "--machines", mf, "--json"],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError("classad analyze failed (%d): %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def report(i, c, bad, case):
    print("=" * 78)
    print("case %d (%s): %d disagreement(s)" % (i, c["kind"], len(bad)))
    print("job:      %s" % c["job"])
    for k, m in enumerate(c["machines"]):
        print("machine %d: %s" % (k, m))
    for b in bad:
        print("  %s: ours %s, libclassad %s" % (b["claim"], json.dumps(b["ours"]), json.dumps(b["libclassad"])))
        if b["text"]:
            print("    expression: %s" % b["text"])
            vals = [raw(b["text"], case.job, m) for m in case.machines]
            print("    libclassad per machine: %s" % ", ".join("%d:%s" % kv for kv in enumerate(vals)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", help="classad binary (default: build target/debug/classad)")
    ap.add_argument("--cases", type=int, default=CASES)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--out", default=OUT)
    args = ap.parse_args()
    t0 = time.time()
    binary = args.bin
    if binary is None:
        subprocess.run(["cargo", "build", "-q", "-p", "classad", "--bin", "classad"], cwd=ROOT, check=True)
        binary = os.path.join(ROOT, "target", "debug", "classad")
    t1 = time.time()

    cases = make_cases(args.seed, args.cases)
    lines = []
    failed = 0
    stats = {"claims": 0, "suggestions": 0, "job_changes": 0, "conflicts": 0, "pool_conflicts": 0,
             "always_conflicts": 0, "no_machine_accepted": 0, "reject_job": 0, "missing": 0,
             "machines": 0, "busy": 0}
    with tempfile.TemporaryDirectory(prefix="analysis_oracle.") as tmp:
        for i, c in enumerate(cases):
            case = Case(c["job"], c["machines"], c.get("must_run", False))
            a = run_cli(binary, tmp, c["job"], c["machines"])
            claims, bad = check(case, a)
            if bad:
                failed += 1
                report(i, c, bad, case)
                continue
            stats["claims"] += (1 + 4 + sum(1 + 2 * len(x[2]) for x in claims["clauses"])
                                + len(claims["suggestions"]) + 3 * len(claims["job_changes"])
                                + sum(1 + 3 * len(r[2]) for r in claims["rejections"])
                                + len(claims["conflicts"]) + len(claims["succeeding"])
                                + len(claims["missing_attributes"]))
            stats["machines"] += len(c["machines"])
            stats["suggestions"] += bool(claims["suggestions"])
            stats["job_changes"] += bool(claims["job_changes"])
            stats["conflicts"] += bool(claims["conflicts"])
            stats["pool_conflicts"] += any(x[2] == "pool" for x in claims["conflicts"])
            stats["always_conflicts"] += any(x[2] == "always" for x in claims["conflicts"])
            stats["no_machine_accepted"] += bool(c["machines"]) and claims["summary"][0] == len(c["machines"])
            stats["reject_job"] += claims["summary"][1] > 0
            stats["busy"] += claims["summary"][2] > 0
            stats["missing"] += bool(claims["missing_attributes"])
            lines.append(json.dumps({"job": c["job"], "machines": c["machines"], "claims": claims},
                                    separators=(",", ":")))
    t2 = time.time()
    if failed:
        print("%d of %d cases disagree with libclassad; %s not written" % (failed, len(cases), args.out))
        sys.exit(1)
    with open(args.out, "w") as f:
        f.write("[\n" + ",\n".join(lines) + "\n]\n")
    print("%d cases, %d claims verified by libclassad (build %.1fs, check %.1fs); wrote %s (%d bytes)"
          % (len(cases), stats["claims"], t1 - t0, t2 - t1, os.path.relpath(args.out), os.path.getsize(args.out)))
    print("cases with: " + ", ".join("%s %d" % kv for kv in stats.items() if kv[0] != "claims"))


if __name__ == "__main__":
    main()
