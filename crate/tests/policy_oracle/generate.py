#!/usr/bin/env python3
"""Differential test of the HTCondor policy's knobs (`crate/src/policy/sides.rs`)
against the real libclassad.

    python3 crate/tests/policy_oracle/generate.py

HTCondor's negotiator evaluates NEGOTIATOR_PRE_JOB_RANK, NEGOTIATOR_POST_JOB_RANK,
PREEMPTION_RANK, PREEMPTION_REQUIREMENTS and its rank conditions with the slot as
MY and the job as TARGET (EvalExprToNumber(expr, resource, &request)). The engine
evaluates its docking vector with the job as MY, so it rewrites each knob
(`swap_sides`). This script evaluates every knob the way the negotiator does —
libclassad's `ExprTree.eval(scope=slot, target=job)`, HTCondor's official
bindings (`htcondor2`, then `classad2`) — on real slot and job ads from
../shared/real-ads (OSPool glideins, HTCondor's own status ads, a cloud pool),
with RemoteUserPrio and SubmitterUserPrio written in as the negotiator writes
them, and records the values in cases.json; crate/tests/policy_oracle.rs checks
that the rewritten knob, evaluated from the job's side, gives each one.
"""
import json
import os
import sys

import htcondor2  # noqa: F401  (first: it loads libclassad the way HTCondor does)
import classad2

HERE = os.path.dirname(os.path.abspath(__file__))
ADS = os.environ.get("REAL_ADS", os.path.join(HERE, "..", "..", "..", "..", "shared", "real-ads", "ads"))  # ../shared beside the checkout

KNOBS = [
    ("NEGOTIATOR_PRE_JOB_RANK",
     "(10000000 * My.Rank) + (1000000 * (RemoteOwner =?= UNDEFINED)) - (100000 * Cpus) - Memory"),
    ("NEGOTIATOR_POST_JOB_RANK",
     "(RemoteOwner =?= UNDEFINED) * (ifthenElse(isUndefined(KFlops), 1000, Kflops) - SlotID - 1.0e10*(Offline=?=True))"),
    ("PREEMPTION_RANK",
     "(RemoteUserPrio * 1000000) - ifThenElse(isUndefined(TotalJobRuntime), 0, TotalJobRuntime)"),
    ("PREEMPTION_REQUIREMENTS", "RemoteUserPrio > SubmitterUserPrio * 1.2"),
    ("rank preemption", "MY.Rank > MY.CurrentRank"),
    ("priority preemption's rank", "MY.Rank >= MY.CurrentRank"),
    ("a plain name either side has", "ifThenElse(isUndefined(Owner), \"none\", Owner)"),
]

SLOTS = ["ospool-machine-dynamic-glidein.ads", "ospool-machine-partitionable-glidein.ads",
         "ospool-machine-partitionable-gpu-glidein.ads", "ospool-machine-static-glidein.ads",
         "ospool-machine-static-gpu-glidein.ads", "htc-statusads-basic4slot.ads",
         "htc-statusads-small1slot.ads", "cloudsched-machines.ads"]
JOBS = ["cloudsched-jobs.ads", "fife-history-jobs.ads", "gratia-history-jobs.ads"]


def ads(name, most):
    with open(os.path.join(ADS, name)) as f:
        return list(classad2.parseAds(f.read()))[:most]


def value(v):
    # classad2's Undefined and Error are int enums: asked first.
    if isinstance(v, classad2.Value):
        return {"kind": {classad2.Value.Undefined: "undefined", classad2.Value.Error: "error"}.get(v, "other")}
    if isinstance(v, bool):
        return {"kind": "bool", "v": v}
    if isinstance(v, int):
        return {"kind": "number", "v": v}
    if isinstance(v, float):
        return {"kind": "number", "v": v}
    if isinstance(v, str):
        return {"kind": "string", "v": v}
    if v is classad2.Value.Undefined:
        return {"kind": "undefined"}
    if v is classad2.Value.Error:
        return {"kind": "error"}
    return {"kind": "other", "v": repr(v)}


def main():
    slots = [a for name in SLOTS for a in ads(name, 3)]
    jobs = [a for name in JOBS for a in ads(name, 3)]
    out = {"knobs": [{"name": n, "expr": t} for n, t in KNOBS], "slots": [], "jobs": [], "values": []}
    for i, slot in enumerate(slots):
        slot = classad2.ClassAd(str(slot))
        # As addRemoteUserPrios: a claimed slot gets its user's priority.
        if any(k in slot for k in ("RemoteUser", "AccountingGroup")):
            slot["RemoteUserPrio"] = 500.0 + i
        out["slots"].append(str(slot))
    for k, job in enumerate(jobs):
        job = classad2.ClassAd(str(job))
        job["SubmitterUserPrio"] = 0.5 + k
        out["jobs"].append(str(job))
    kinds = {}
    for i, slot_text in enumerate(out["slots"]):
        slot = classad2.ClassAd(slot_text)
        for k, job_text in enumerate(out["jobs"]):
            job = classad2.ClassAd(job_text)
            for n, (_, text) in enumerate(KNOBS):
                w = classad2.ClassAd("[ __oracle_expr__ = %s\n]" % text)
                v = value(w.lookup("__oracle_expr__").eval(slot, job))
                kinds[v["kind"]] = kinds.get(v["kind"], 0) + 1
                out["values"].append([i, k, n, v])
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(out, f, sort_keys=True)
    print("%d values (%d slots x %d jobs x %d knobs): %s" % (len(out["values"]), len(slots), len(jobs), len(KNOBS), kinds))


if __name__ == "__main__":
    sys.exit(main())
