#!/usr/bin/env python3
"""Fixed-size libclassad workloads to run under valgrind --tool=callgrind,
so libclassad's own instruction counts (inclusive cost of its parse and
evaluate entry points) can be compared with the engine's (bench/driver).

  valgrind --tool=callgrind --callgrind-out-file=OUT python3 bench/libclassad_callgrind.py parse 1000
  valgrind --tool=callgrind --callgrind-out-file=OUT python3 bench/libclassad_callgrind.py match 10
then `callgrind_annotate --inclusive=yes OUT` and read the lines for
CondorClassAdFileIterator::next(classad::ClassAd&, bool) (parse, per ad),
classad::ExprTree::Evaluate(classad::Value&) const (match: the Requirements
evaluations alone) and classad::MatchClassAd::MatchClassAd / ~MatchClassAd
(the per-call match-context set-up the Python binding adds)."""
import os
import sys

import htcondor2  # noqa: F401
import classad2
from classad2 import ParserType
from classad2.classad2_impl import _classad_parse_next, _exprtree_eval

HERE = os.path.dirname(os.path.abspath(__file__))
what = sys.argv[1]
n = int(sys.argv[2])
data = os.path.join(HERE, "data")
if what == "parse":
    text = open(os.path.join(data, "machines_1000.txt"), encoding="utf-8").read()
    chunks = [c for c in text.split("\n\n") if c.strip()][:n]
    for c in chunks:
        _classad_parse_next(c, int(ParserType.Old), 0)
elif what == "match":
    machines = list(classad2.parseAds(open(os.path.join(data, "machines_1000.txt")).read(), ParserType.Old))
    jobs = list(classad2.parseAds(open(os.path.join(data, "jobs_1000.txt")).read(), ParserType.Old))[:n]
    J = [(j._handle, j.lookup("Requirements")._handle) for j in jobs]
    M = [(m._handle, m.lookup("Requirements")._handle) for m in machines]
    k = 0
    for jh, jr in J:
        for mh, mr in M:
            a = _exprtree_eval(jr, jh, mh)
            b = _exprtree_eval(mr, mh, jh)
            k += a is True and b is True
    print(k, "pairs match")
