#!/usr/bin/env python3
"""Differential test of gangmatching's docking against the real libclassad.

    python3 crate/tests/gang_oracle/generate.py      # builds target/debug/classad first

Builds small random gang problems (seeded, deterministic): requests with one
to three ports or an implicit one, implicit and ported offers (machines,
licenses, storage, two-port aggregates), labels defined from earlier labels
(`HostId = Cpu.Key + 1`), port attributes shadowing ad attributes, unscoped
references to the ad's own attributes, `MY.`, `=?=`/`isUndefined`, strings
compared case-insensitively, lists and nested records, and now and then
`parent`, `self`, `toplevel`, `.absolute` and `TARGET` from a port. Runs
`classad gang --json --algorithm A` for every algorithm and, for every gang
made, builds the thesis' Figure 32 environment as ClassAd text

    [ _ctx_0 = [ <label> = _ctx_1._ad.Ports[k]; ...; _ad = <ad 0> ]; ... ]

(an ad without Ports binds `other` and `target`, and is reached as
`_ctx_j._ad`), and asks libclassad (HTCondor's bindings: `htcondor2`, then
`classad2`) to evaluate every docked port's constraint,
`_ctx_i._ad.Ports[p].Constraint` (or `_ctx_i._ad.Requirements`), with the
environment as the only scope: each must be true. It also records
libclassad's value of both constraints for a sample of (request port, offer
port) pairs, docked or not, in the two-ad environment.

If any docking of a made gang is not true for libclassad, it is printed and
the script exits 1 without writing anything. Otherwise it writes cases.json
next to this file (one line per case: the ads, each algorithm's gang lines,
the pairs with libclassad's values), which
`cargo test -p classad --test gang_oracle` must reproduce.

Options: --bin PATH (skip the build), --cases N, --seed S, --out PATH.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

os.environ["CONDOR_CONFIG"] = "/dev/null"
os.environ["TZ"] = "UTC"
import htcondor2  # noqa: F401,E402  (registers HTCondor's functions)
import classad2  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
OUT = os.path.join(HERE, "cases.json")

SEED = 20261124
CASES = 160
PAIRS_PER_CASE = 14
ALGORITHMS = ["naive", "lr", "rl", "lrc", "rlc", "dyn", "dyns", "dynsr"]

ARCHES = ["INTEL", "intel", "X86_64", "x86_64", "SPARC"]
OWNERS = ["alice", "bob", "Bob", "riffraff"]
APPS = ["sim", "SIM", "render"]


def q(s):
    return '"%s"' % s


def case_of(rng, name):
    """A name as written: references are case-insensitive."""
    r = rng.random()
    if r < 0.15:
        return name.lower()
    if r < 0.2:
        return name.upper()
    return name


def conj(parts):
    return " && ".join("(%s)" % x if "||" in x else x for x in parts) if parts else "true"


class Ad:
    """An ad's text and what the oracle needs of it: its ports (label and
    constraint attribute), or None for an ad without Ports."""

    def __init__(self, name, attrs, ports=None, implicit_attr="Requirements"):
        self.name = name
        self.implicit = ports is None
        body = [("Name", q(name))] + attrs
        if self.implicit:
            self.ports = [("other", implicit_attr)]
        else:
            self.ports = [(p["label"], p["attr"]) for p in ports]
            texts = []
            for p in ports:
                kv = [("Label", p["label"])] + p["attrs"] + [(p["attr"], p["constraint"])]
                texts.append("[ " + "; ".join("%s = %s" % x for x in kv) + " ]")
            body.append(("Ports", "{ " + ", ".join(texts) + " }"))
        self.text = "[ " + "; ".join("%s = %s" % x for x in body) + " ]"


# ---------------------------------------------------------------------------
# Offers: what a request port docks with. `j` is how the offer names the
# request's port (its own port label, or `other`/`TARGET` when implicit).
# ---------------------------------------------------------------------------

def job_pred(rng, j):
    """A predicate on the docked request port (its attributes, or its ad's
    by climbing from the port)."""
    if rng.random() < 0.2:
        return rng.choice([
            "member(%s.Owner, Friends)" % j,
            "%s.Owner =!= \"bob\"" % j,
            "%s.Type =?= undefined || %s.Type =?= \"cpu\"" % (j, j),
            "%s.Friends =?= undefined" % j,  # climbs from the port through its ad and context
            "parent.Friends =!= undefined",
            "MY.Friends =!= undefined",
            "%s.Label =?= undefined" % j,
            "%s.Cpu.Key =?= Key" % j,
            "%s.HostId =?= undefined || %s.HostId > 0" % (j, j),
            "self.Memory > 0",
            "%s.Owner > 3" % j,  # a string compared with a number: error
        ])
    return rng.choice([
        "%s.ImageSize <= Memory" % j,
        "%s.ImageSize < MY.Memory * 2" % j,
        "%s.Owner != \"riffraff\"" % j,
        "isUndefined(%s.Type) || %s.Type == \"CPU\"" % (j, j),
        "%s.MemoryReqs < Memory" % j,
        "%s.NoSuchAttr =?= undefined" % j,
    ])


def machine(rng, name, key):
    mem = rng.choice([64, 128, 256, 512, 1024])
    attrs = [("Key", str(key)), ("Arch", q(rng.choice(ARCHES))), ("Memory", str(mem)),
             ("Rack", str(rng.randint(1, 3)))]
    if rng.random() < 0.3:
        attrs.append(("HasGpu", rng.choice(["true", "false"])))
    if rng.random() < 0.4:
        attrs.append(("Tags", "{ %s }" % ", ".join(q(t) for t in rng.sample(["ssd", "gpu", "ib", "SSD"], rng.randint(1, 3)))))
    if rng.random() < 0.4:
        attrs.append(("Info", "[ Zone = %s; Big = Memory >= 256 ]" % q(rng.choice(["east", "West", "EAST"]))))
    attrs.append(("Friends", "{ %s }" % ", ".join(q(o) for o in rng.sample(OWNERS, 2))))
    n = rng.choice([0, 1, 1, 2])
    if rng.random() < 0.5:
        j = rng.choice(["other", "other", "TARGET", "target"])
        return Ad(name, attrs + [("Requirements", conj([job_pred(rng, j) for _ in range(n)]))])
    j = rng.choice(["Job", "job", "Request"])
    port_attrs = []
    if rng.random() < 0.3:  # a port attribute shadowing the ad's
        port_attrs.append(("Memory", str(mem // 2)))
    p = {"label": j, "attrs": port_attrs, "attr": rng.choice(["Constraint", "Requirements"]),
         "constraint": conj([job_pred(rng, j) for _ in range(n)])}
    return Ad(name, attrs, [p])


def license_(rng, name):
    lo = rng.randint(0, 6)
    hi = lo + rng.randint(2, 8)
    app = rng.choice(APPS + ["sim", "sim"])
    attrs = [("App", q(app)), ("Seats", str(rng.randint(0, 2)))]
    pred = lambda j: rng.choice([  # noqa: E731
        "%s.HostId >= %d && %s.HostId < %d" % (j, lo, j, hi),
        "%s.HostId >= %d && %s.HostId < %d && Seats > 0" % (j, lo, j, hi),
        "isUndefined(%s.HostId) || %s.HostId < %d" % (j, j, hi),
        "%s.HostId =!= undefined" % j,
        "%s.Owner == \"ALICE\" || %s.HostId > %d" % (j, j, lo),
    ])
    if rng.random() < 0.35:
        return Ad(name, attrs + [("Requirements", pred("other"))])
    j = rng.choice(["Job", "Holder"])
    return Ad(name, attrs, [{"label": j, "attrs": [], "attr": "Constraint", "constraint": pred(j)}])


def storage(rng, name):
    free = rng.choice([10, 100, 1000])
    attrs = [("Kind", q(rng.choice(["storage", "Storage", "tape"]))), ("Free", str(free)),
             ("Rack", str(rng.randint(1, 3)))]
    if rng.random() < 0.4:
        return Ad(name, attrs + [("Requirements", "other.Need <= Free")])
    return Ad(name, attrs, [{"label": "Client", "attrs": [], "attr": "Constraint",
                             "constraint": rng.choice(["Client.Need <= Free", "true",
                                                       "Client.Need < Free && Client.Owner != \"bob\""])}])


def aggregate(rng, name, key):
    """Two ports: `up` docks with the request and shows the sub-machine's
    attributes through its own label `sub`; `sub` needs another machine."""
    ports = [
        {"label": "sub", "attrs": [], "attr": "Constraint",
         "constraint": rng.choice(["sub.Memory >= 128", "sub.Rack == %d" % rng.randint(1, 3), "true"])},
        {"label": "up", "attrs": [("Key", "sub.Key"), ("Memory", "sub.Memory * 2"), ("Arch", "sub.Arch"),
                                  ("Rack", "sub.Rack")],
         "attr": "Constraint", "constraint": rng.choice(["true", "up.Owner != \"riffraff\""])},
    ]
    return Ad(name, [("Key", str(key)), ("Kind", q("aggregate"))], ports)


# ---------------------------------------------------------------------------
# Requests
# ---------------------------------------------------------------------------

def cpu_pred(rng, c):
    """A predicate on the docked machine; the odd ones (rarely true, or
    error) mostly show up in the recorded pairs."""
    if rng.random() < 0.15:
        return rng.choice([
            "%s.HasGpu =?= true" % c,
            "member(\"ssd\", %s.Tags)" % c,
            "size(%s.Tags) >= 2" % c,
            "%s.Info.Zone == \"east\"" % c,
            "%s.Arch > 3 || %s.Memory > 0" % (c, c),  # error unless Arch is missing
            "%s.Tags == \"ssd\"" % c,  # a list compared: error
            "%s.Key %% 2 == 0" % c,
            # Scope edge cases: parent/absolute/toplevel/MY/TARGET from a
            # port, a label's own Label, a label seen through the counterpart.
            "parent.Owner =?= Owner",
            ".Owner =?= undefined",
            "%s.Label =!= undefined" % c,
            "MY.%s.Memory > 0" % c,
            "TARGET.Memory =?= undefined",
            "other =?= undefined",
            "isUndefined(%s) || %s.Friends[0] != \"x\"" % (c, c),
            "strcat(%s.Arch, \"x\") == \"INTELX\"" % c,
            "%s.Job.Owner =?= Owner" % c,
            "toplevel._ctx_0._ad.Owner =?= Owner",
            "%s.Info.Big && %s.Info.Zone =!= undefined" % (c, c),
        ])
    return rng.choice([
        "%s.Arch == \"INTEL\"" % c,
        "%s.Arch =?= \"INTEL\"" % c,
        "%s.Arch != \"sparc\"" % c,
        "%s.Memory >= ImageSize" % c,
        "%s.Memory > MemoryReqs" % c,
        "%s.Memory >= MY.ImageSize" % c,
        "isUndefined(%s.HasGpu) || %s.HasGpu" % (c, c),
        "%s.Info.Big =?= true || %s.Info =?= undefined" % (c, c),
        "%s.Kind =!= \"aggregate\"" % c,
        "%s.Memory >= 128" % c,
    ])


def request(rng, name):
    attrs = [("Owner", q(rng.choice(OWNERS))), ("ImageSize", str(rng.choice([50, 100, 200, 400]))),
             ("MemoryReqs", str(rng.choice([32, 100, 300]))), ("Need", str(rng.choice([5, 50, 500])))]
    if rng.random() < 0.3:
        attrs.append(("Type", q(rng.choice(["cpu", "CPU", "gpu"]))))
    if rng.random() < 0.2:
        c = rng.choice(["other", "TARGET"])
        req = conj([cpu_pred(rng, c) for _ in range(rng.randint(1, 2))])
        rank = [("Rank", "%s.Memory" % c)] if rng.random() < 0.5 else []
        return Ad(name, attrs + [("Requirements", req)] + rank)
    kinds = rng.choice([["cpu"], ["cpu"], ["cpu", "lic"], ["cpu", "lic"], ["cpu", "host2"],
                        ["cpu", "disk"], ["cpu", "lic", "disk"], ["cpu", "host2", "lic"], ["disk"]])
    ports = []
    cpu = rng.choice(["Cpu", "Host1"])
    for k in kinds:
        pa = []
        if k == "cpu":
            label = cpu
            if rng.random() < 0.4:  # shadows the ad's ImageSize
                pa.append(("ImageSize", str(rng.choice([10, 100, 300]))))
            c = case_of(rng, label)
            cons = conj([cpu_pred(rng, c) for _ in range(rng.randint(1, 3))])
            if rng.random() < 0.5:
                pa.append(("Rank", "%s.Memory" % c))
        elif k == "host2":
            label = "Host2"
            c = case_of(rng, label)
            cons = conj(["%s.Key != %s.Key" % (c, case_of(rng, cpu))] +
                        rng.sample(["%s.Rack == %s.Rack" % (c, cpu), cpu_pred(rng, c),
                                    "%s.Memory + %s.Memory >= 256" % (c, cpu)], rng.randint(0, 2)))
        elif k == "lic":
            label = rng.choice(["License", "Lic"])
            pa.append(("HostId", rng.choice(["%s.Key + 1" % case_of(rng, cpu), "%s.Key" % cpu,
                                             "%s.Key * 2 - 1" % cpu])))
            c = case_of(rng, label)
            cons = rng.choice(["%s.App == \"sim\"" % c, "%s.App =?= \"sim\"" % c,
                               "%s.App == \"sim\" && HostId =!= undefined" % c,
                               "%s.Seats >= 1 || %s.App == \"SIM\"" % (c, c)])
        else:
            label = "Scratch"
            c = case_of(rng, label)
            if rng.random() < 0.3:
                pa.append(("Need", str(rng.choice([5, 50]))))  # shadows the ad's Need
            cons = rng.choice(["%s.Kind == \"STORAGE\"" % c, "%s.Free >= Need" % c,
                               "%s.Kind == \"storage\" && %s.Free >= Need" % (c, c),
                               "%s.Kind == \"storage\" && %s.Rack =?= %s.Rack" % (c, c, cpu)
                               if "cpu" in kinds else "%s.Free > 0" % c])
        ports.append({"label": label, "attrs": pa, "attr": rng.choice(["Constraint", "Constraint", "Requirements"]),
                      "constraint": cons})
    return Ad(name, attrs, ports)


def make_cases(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        reqs = [request(rng, "r%d" % k) for k in range(rng.randint(1, 3))]
        offers = []
        for k in range(rng.randint(5, 12)):
            r = rng.random()
            if r < 0.55:
                offers.append(machine(rng, "m%d" % k, k))
            elif r < 0.75:
                offers.append(license_(rng, "lic%d" % k))
            elif r < 0.9:
                offers.append(storage(rng, "st%d" % k))
            else:
                offers.append(aggregate(rng, "agg%d" % k, k))
        out.append((reqs, offers))
    return out


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------

def port_path(node_ads, j, q):
    ad = node_ads[j]
    return "_ctx_%d._ad" % j if ad.implicit else "_ctx_%d._ad.Ports[%d]" % (j, q)


def env_text(node_ads, bindings):
    """Figure 32's environment for nodes (ads) with per-port bindings
    (member, member_port) or None."""
    ctxs = []
    for i, ad in enumerate(node_ads):
        ctx = []
        for p, b in enumerate(bindings[i]):
            if b is None:
                continue
            path = port_path(node_ads, *b)
            if ad.implicit:
                ctx += ["other = " + path, "target = " + path]
            else:
                ctx.append("%s = %s" % (ad.ports[p][0], path))
        ctx.append("_ad = " + ad.text)
        ctxs.append("_ctx_%d = [ %s ]" % (i, "; ".join(ctx)))
    return "[ " + "; ".join(ctxs) + " ]"


def constraint_expr(node_ads, i, p):
    return "%s.%s" % (port_path(node_ads, i, p), node_ads[i].ports[p][1])


def evaluate(env, text):
    """libclassad's value of `text` with `env` as the only scope; also
    evaluated as an attribute of a copy of env, which must agree."""
    v = classad2.ExprTree(text).eval(env)
    copy = classad2.ClassAd(repr(env))
    copy["__oracle__"] = classad2.ExprTree(text)
    w = copy.eval("__oracle__")
    if spell(v, text, env) != spell(w, text, copy):
        raise RuntimeError("ExprTree.eval and ClassAd.eval differ on %s: %r vs %r" % (text, v, w))
    return v


def spell(v, text, env):
    """A value as our canonical unparse spells it."""
    if isinstance(v, classad2.Value):  # an IntEnum: undefined, error
        return {classad2.Value.Undefined: "undefined", classad2.Value.Error: "error"}[v]
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    return repr(classad2.ExprTree(text).simplify(env))


def self_check():
    """Figure 32 itself, and what the oracle relies on: a name a port does
    not define is found in its ad, then its context (the labels); a name
    nobody defines is undefined; an implicit port's `other`/`TARGET` are
    its context's."""
    env = classad2.ClassAd(
        "[ _ctx_0 = [ Cpu = _ctx_1._ad.Ports[0]; License = _ctx_2._ad; _ad = [ X = 5; Ports = {"
        " [ Label = Cpu; ImageSize = 10; Constraint = cpu.VirtualMemory > ImageSize && X == 5 ],"
        " [ Label = License; HostId = cpu.Key; Constraint = License.App == \"app1\" ] } ] ];"
        " _ctx_1 = [ Job = _ctx_0._ad.Ports[0]; _ad = [ Key = 90; VirtualMemory = 400; Memory = 800;"
        " Ports = { [ Label = Job; Constraint = Job.ImageSize < Memory ] } ] ];"
        " _ctx_2 = [ other = _ctx_0._ad.Ports[1]; target = _ctx_0._ad.Ports[1]; _ad = [ App = \"app1\";"
        " Requirements = other.HostId >= 50 && TARGET.HostId < 100 && MY.App == \"APP1\" ] ] ]")
    want = {
        "_ctx_0._ad.Ports[0].Constraint": True, "_ctx_0._ad.Ports[1].Constraint": True,
        "_ctx_1._ad.Ports[0].Constraint": True, "_ctx_2._ad.Requirements": True,
        "_ctx_0._ad.Ports[0].X": 5, "_ctx_0._ad.Ports[1].HostId": 90,
        "_ctx_1._ad.Ports[0].Cpu": classad2.Value.Undefined,
        "_ctx_0._ad.Ports[0].Nope": classad2.Value.Undefined,
    }
    for text, w in want.items():
        v = evaluate(env, text)
        if type(v) is not type(w) or v != w:
            raise RuntimeError("libclassad self-check: %s is %r, expected %r" % (text, v, w))


def run_cli(binary, tmp, reqs, offers, algorithm):
    rf = os.path.join(tmp, "requests.ads")
    of = os.path.join(tmp, "offers.ads")
    for path, ads in ((rf, reqs), (of, offers)):
        with open(path, "w") as f:
            f.write("".join(a.text + "\n" for a in ads))
    p = subprocess.run([binary, "gang", "--json", "--algorithm", algorithm, "--requests", rf, "--offers", of],
                       capture_output=True, text=True)
    if p.returncode != 0 or p.stderr:
        raise RuntimeError("classad gang failed (%d): %s" % (p.returncode, p.stderr))
    return json.loads(p.stdout)


def gang_line(g):
    """As Gang::line: the root's ports, then other members' non-parent ports."""
    parts = []
    for k, m in enumerate(g["members"]):
        for d in m["ports"]:
            if k != 0 and d["port"] == m["parent_port"]:
                continue
            to = g["members"][d["member"]]["name"]
            parts.append("%s=%s" % (d["label"], to) if k == 0 else "%s.%s=%s" % (m["name"], d["label"], to))
    return " ".join(parts)


def check_gang(reqs, offers, g):
    """Every docked port's constraint in the gang's environment; returns the
    disagreements and the number of constraints checked."""
    node_ads = [(reqs if m["ad"]["kind"] == "request" else offers)[m["ad"]["index"]] for m in g["members"]]
    bindings = []
    for ad, m in zip(node_ads, g["members"]):
        b = [None] * len(ad.ports)
        for d in m["ports"]:
            b[d["port"]] = (d["member"], d["member_port"])
        bindings.append(b)
    env = classad2.ClassAd(env_text(node_ads, bindings))
    bad, n = [], 0
    for i, b in enumerate(bindings):
        for p in range(len(b)):
            text = constraint_expr(node_ads, i, p)
            v = evaluate(env, text) if b[p] is not None else "unbound"
            n += 1
            if v is not True:
                bad.append((text, spell(v, text, env) if b[p] is not None else v))
    return bad, n, env


def pair_values(r, p, o, q):
    """Both constraints of request port p docked with offer port q, alone."""
    node_ads = [r, o]
    b0 = [None] * len(r.ports)
    b1 = [None] * len(o.ports)
    b0[p], b1[q] = (1, q), (0, p)
    env = classad2.ClassAd(env_text(node_ads, [b0, b1]))
    out = []
    for i, port in ((0, p), (1, q)):
        text = constraint_expr(node_ads, i, port)
        out.append(spell(evaluate(env, text), text, env))
    return out


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
    self_check()

    rng = random.Random(args.seed ^ 0x5EED)
    lines, failed = [], 0
    stats = {"gangs": 0, "distinct_gangs": 0, "dockings": 0, "pairs": 0, "requests": 0, "unmatched": 0}
    values = {}
    with tempfile.TemporaryDirectory(prefix="gang_oracle.") as tmp:
        for ci, (reqs, offers) in enumerate(make_cases(args.seed, args.cases)):
            gangs, bad, seen, docked = {}, [], set(), []
            for alg in ALGORITHMS:
                res = run_cli(binary, tmp, reqs, offers, alg)
                out = []
                for ro in res["requests"]:
                    if ro["error"] or ro["limit_hit"]:
                        raise RuntimeError("case %d %s: %s" % (ci, alg, ro))
                    g = ro["gang"]
                    stats["requests"] += 1
                    if g is None:
                        out.append("%s -" % ro["name"])
                        stats["unmatched"] += 1
                        continue
                    line = "%s %s" % (ro["name"], gang_line(g))
                    out.append(line)
                    stats["gangs"] += 1
                    if line in seen:
                        continue
                    seen.add(line)
                    stats["distinct_gangs"] += 1
                    root = g["members"][0]
                    for d in root["ports"]:
                        m = g["members"][d["member"]]["ad"]
                        if m["kind"] == "offer":
                            docked.append((root["ad"]["index"], d["port"], m["index"], d["member_port"]))
                    b, n, env = check_gang(reqs, offers, g)
                    stats["dockings"] += n
                    bad += [(alg, line, repr(env), x) for x in b]
                gangs[alg] = out
            if bad:
                failed += 1
                print("=" * 78)
                print("case %d: %d docking(s) libclassad does not call true" % (ci, len(bad)))
                for a in reqs + offers:
                    print("  " + a.text)
                for alg, line, env, (text, v) in bad:
                    print("  %s: gang %s\n    %s is %s in\n    %s" % (alg, line, text, v, env))
                continue
            pairs, picked = [], set()
            for _ in range(PAIRS_PER_CASE):
                # Half docked in some gang (alone here: labels of other ports unbound).
                if docked and rng.random() < 0.5:
                    ri, p, oi, q_ = rng.choice(docked)
                else:
                    ri, oi = rng.randrange(len(reqs)), rng.randrange(len(offers))
                    p, q_ = rng.randrange(len(reqs[ri].ports)), rng.randrange(len(offers[oi].ports))
                if (ri, p, oi, q_) in picked:
                    continue
                picked.add((ri, p, oi, q_))
                vals = pair_values(reqs[ri], p, offers[oi], q_)
                for v in vals:
                    values[v] = values.get(v, 0) + 1
                pairs.append([ri, p, oi, q_] + vals)
            stats["pairs"] += len(pairs)
            lines.append(json.dumps({"requests": [a.text for a in reqs], "offers": [a.text for a in offers],
                                     "gangs": gangs, "pairs": pairs}, separators=(",", ":")))
    t2 = time.time()
    if failed:
        print("%d of %d cases disagree with libclassad; %s not written" % (failed, args.cases, args.out))
        sys.exit(1)
    with open(args.out, "w") as f:
        f.write("[\n" + ",\n".join(lines) + "\n]\n")
    print("%d cases: %d gangs (%d distinct) with %d docked constraints true in libclassad, %d pairs "
          "recorded (build %.1fs, check %.1fs); wrote %s (%d bytes)"
          % (len(lines), stats["gangs"], stats["distinct_gangs"], stats["dockings"], stats["pairs"],
             t1 - t0, t2 - t1, os.path.relpath(args.out), os.path.getsize(args.out)))
    print("requests %d (unmatched %d); pair values: %s" % (
        stats["requests"], stats["unmatched"], ", ".join("%s %d" % kv for kv in sorted(values.items()))))


if __name__ == "__main__":
    main()
