#!/usr/bin/env python3
"""Seed corpora for the fuzz targets (written to fuzz/corpus/<target>/,
which is not committed): every expression of the conformance cases, the
ads those cases use, a few ads of the generated benchmark pools in the old,
new and JSON formats, and some hand-written edge cases."""
import hashlib
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def put(d, text):
    os.makedirs(d, exist_ok=True)
    b = text.encode("utf-8")
    with open(os.path.join(d, hashlib.sha1(b).hexdigest()), "wb") as f:
        f.write(b)


def main():
    exprs, ads = set(), set()
    cases = os.path.join(ROOT, "crate/tests/conformance/cases.jsonl")
    if os.path.exists(cases):
        for line in open(cases, encoding="utf-8"):
            c = json.loads(line)
            if isinstance(c.get("expr"), str):
                exprs.add(c["expr"])
            for k in ("my", "target"):
                if isinstance(c.get(k), str):
                    ads.add(c[k])
    exprs |= {
        'TARGET.Arch == "INTEL" && TARGET.Memory >= RequestMemory',
        "ifThenElse(a, b, c)", "[a = 1; b = a + 1].b", "{1, 2, [x = 3]}[2].x",
        "strcat(\"a\", 1, 2.5)", "regexp(\"^a.*\", \"abc\", \"i\")", "'00:23:12'",
        "10M + 1K", "a ?: b", "x =?= undefined", "time()", "splitUserName(\"a@b\")",
        "stringListMember(\"a\", \"a,b\")", "sum({1, 2, 3})", "Self", "Loop",
        "Nested.b", "Args[3].x", "MY.Rank + TARGET.Rank",
    }
    pools = []
    for name in ("machines_1000.txt", "jobs_1000.txt"):
        p = os.path.join(ROOT, "bench/data", name)
        if os.path.exists(p):
            text = open(p, encoding="utf-8").read()
            pools += [c for c in text.split("\n\n") if c.strip()][:5]
    for e in exprs:
        put(os.path.join(HERE, "corpus/eval"), e)
        put(os.path.join(HERE, "corpus/parse"), e)
    for a in list(ads) + pools:
        put(os.path.join(HERE, "corpus/parse"), a)
    if pools:
        put(os.path.join(HERE, "corpus/parse"), "\n\n".join(pools[:3]) + "\n")
    for extra in ('[{"a": 1, "b": "x", "c": [1, 2, {"d": null}]}]', '{"Requirements": "\\/Expr(a > 1)\\/"}',
                  "[ a = 1 ] [ b = 2 ]", "# comment\nA = 1\nB = \"x\"\n\nC = A\n", "[]", "{}",
                  '<?xml version="1.0"?>\n<classads>\n<c>\n    <a n="A"><e>x &lt; 1 &amp;&amp; y</e></a>\n'
                  '    <a n="L"><l><i>1</i><s>a&amp;b</s><b v="t"/><c>\n        <a n="r"><r>1.5E+00</r></a>\n'
                  '    </c></l></a>\n</c>\n</classads>\n'):
        put(os.path.join(HERE, "corpus/parse"), extra)
    n_eval = len(os.listdir(os.path.join(HERE, "corpus/eval")))
    n_parse = len(os.listdir(os.path.join(HERE, "corpus/parse")))
    print(f"corpus/eval: {n_eval} files, corpus/parse: {n_parse} files")


if __name__ == "__main__":
    main()
