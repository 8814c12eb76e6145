#!/usr/bin/env python3
"""Time-bounded differential fuzzer: our `classad` CLI against libclassad.

    python3 fuzz.py --classad-bin PATH --seconds N [--seed S]

Random well-formed expressions (literals, references into a fixed MY/TARGET
ad pair, every operator, a selection of deterministic functions) are
evaluated by libclassad (through the HTCondor Python bindings, see
generate.py's oracle) and by

    PATH eval --mode htcondor|strict [--my FILE] [--target FILE]

which reads one expression per line on stdin and prints one line per
expression (the value in libclassad's unparse syntax, or a line starting with
PARSE_ERROR).  Expressions go through the CLI in batches (one process per
batch).  Every mismatch is printed with the smallest sub-expression that still
mismatches; the exit status is 1 on any mismatch or CLI failure, 2 when the
CLI cannot evaluate `1 + 1` at all, 0 otherwise.

--oracle-only skips the CLI (exercises the generator and the libclassad half).
"""

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from generate import MODES, OracleClient  # noqa: E402

MY_AD = ('[ a = 1; b = 2.5; n = -7; z = 0; big = 9223372036854775807; s = "Hello"; '
         'cs = "a,b,c"; v = "1.2.3"; bt = true; bf = false; l = { 1,2,3 }; '
         'sl = { "a","B" }; r = [ p = 1; q = "x"; w = a + 1 ]; u = undefined; e = error; '
         'at = absTime(1000); rt = relTime(90); inc = a + 1; reft = TARGET.ta; '
         'chain = inc * 2; self_ref = self_ref; lr = { [ k = 1 ],[ k = 2 ] } ]')
TARGET_AD = ('[ ta = 10; tb = "World"; a = 100; s = "hello"; tl = { "x","y" }; '
             'tr = [ p = 2 ]; tref = MY.a; tu = tb; tinc = ta + 1; tx = missing ]')
CONTEXTS = ("both", "my", "none")

REFS = ["a", "b", "n", "z", "big", "s", "cs", "v", "bt", "bf", "l", "sl", "r", "u", "e",
        "at", "rt", "inc", "reft", "chain", "self_ref", "lr", "ta", "tb", "tl", "tr",
        "tref", "tu", "tinc", "tx", "missing", "A", "S", "MY.a", "MY.s", "MY.ta",
        "TARGET.ta", "TARGET.a", "TARGET.s", "TARGET.tref", "TARGET.missing", "my.b",
        "target.tb", "r.p", "r.q", "r.w", "tr.p", "MY.r.w", "l[0]", "l[2]", "lr.k",
        "self", ".a", "parent", "other.ta"]

INTS = ["0", "1", "2", "3", "-1", "7", "10", "-7", "42", "63", "64", "100", "1000",
        "2147483647", "4294967296", "9223372036854775807", "-9223372036854775807"]
REALS = ["0.0", "-0.0", "0.5", "1.5", "2.5", "-2.5", "3.14159", "1e10", "1e-5", "1e308",
         "1.0", "100.0", ".25", "6.02e23"]
STRS = ['""', '"a"', '"abc"', '"ABC"', '"Hello"', '"a,b,c"', '"a b"', '"1.2.3"', '"1.10"',
        '"x\\ny"', '"q\\"q"', '"back\\\\"', '"%Y-%m-%d"', '"A=1;B=2"', '"s@h"', '"10"',
        '"2.5"', '"true"', '" a , b "', '"\\101\\102"', '"caf\u00e9"']
PATTERNS = ['"a"', '"^a"', '"b$"', '"a.c"', '"[a-c]+"', '"A"', '"x*"', '"(b)"', '"."', '""']
SPECIAL = ["true", "false", "undefined", "error", "TRUE", "Undefined"]

BINOPS = ["+", "-", "*", "/", "%", "<", "<=", ">", ">=", "==", "!=", "=?=", "=!=", "is",
          "isnt", "&&", "||", "&", "|", "^", "<<", ">>", ">>>"]
UNOPS = ["-", "+", "!", "~"]

# name: list of argument kinds per position (the last kinds are optional args
# when min_args < len(kinds)), min_args.
FUNCS = {
    "isUndefined": (["any"], 1), "isError": (["any"], 1), "isString": (["any"], 1),
    "isInteger": (["any"], 1), "isReal": (["any"], 1), "isBoolean": (["any"], 1),
    "isList": (["any"], 1), "isClassAd": (["any"], 1), "isAbstime": (["any"], 1),
    "isReltime": (["any"], 1),
    "member": (["any", "list"], 2), "identicalMember": (["any", "list"], 2),
    "anyCompare": (["cmpop", "list", "any"], 3), "allCompare": (["cmpop", "list", "any"], 3),
    "size": (["list"], 1), "sum": (["list"], 1), "avg": (["list"], 1), "min": (["list"], 1),
    "max": (["list"], 1),
    "strcat": (["any", "any", "any"], 0), "join": (["str", "list"], 1),
    "split": (["str", "str"], 1), "substr": (["str", "int", "int"], 2),
    "strcmp": (["str", "str"], 2), "stricmp": (["str", "str"], 2),
    "toUpper": (["str"], 1), "toLower": (["str"], 1),
    "regexp": (["pat", "str", "opt"], 2), "regexpMember": (["pat", "list", "opt"], 2),
    "regexps": (["pat", "str", "str", "opt"], 3), "replace": (["pat", "str", "str", "opt"], 3),
    "replaceall": (["pat", "str", "str", "opt"], 3),
    "stringListSize": (["slist", "delim"], 1), "stringListSum": (["slist", "delim"], 1),
    "stringListAvg": (["slist", "delim"], 1), "stringListMin": (["slist", "delim"], 1),
    "stringListMax": (["slist", "delim"], 1), "stringListMember": (["str", "slist", "delim"], 2),
    "stringListIMember": (["str", "slist", "delim"], 2),
    "stringListsIntersect": (["slist", "slist", "delim"], 2),
    "stringListSubsetMatch": (["slist", "slist", "delim"], 2),
    "stringListISubsetMatch": (["slist", "slist", "delim"], 2),
    "stringList_regexpMember": (["pat", "slist", "delim", "opt"], 2),
    "versioncmp": (["ver", "ver"], 2), "versionLT": (["ver", "ver"], 2),
    "versionLE": (["ver", "ver"], 2), "versionGT": (["ver", "ver"], 2),
    "versionGE": (["ver", "ver"], 2), "versionEQ": (["ver", "ver"], 2),
    "version_in_range": (["ver", "ver", "ver"], 3),
    "floor": (["num"], 1), "ceiling": (["num"], 1), "ceil": (["num"], 1), "round": (["num"], 1),
    "pow": (["num", "num"], 2), "quantize": (["num", "num"], 2), "int": (["any"], 1),
    "real": (["any"], 1), "string": (["any"], 1), "bool": (["any"], 1),
    "absTime": (["int", "int"], 1), "relTime": (["num"], 1),
    "getYear": (["time"], 1), "getMonth": (["time"], 1), "getDayOfYear": (["time"], 1),
    "getDayOfMonth": (["time"], 1), "getDayOfWeek": (["time"], 1), "getHours": (["time"], 1),
    "getMinutes": (["time"], 1), "getSeconds": (["time"], 1), "getDays": (["time"], 1),
    "splitTime": (["time"], 1), "formatTime": (["time", "fmt"], 1), "interval": (["num"], 1),
    "ifThenElse": (["any", "any", "any"], 3), "eval": (["evalstr"], 1),
    "unparse": (["ref"], 1), "splitUserName": (["str"], 1), "splitSlotName": (["str"], 1),
    "envV1ToV2": (["str"], 1), "mergeEnvironment": (["str", "str"], 0),
    "argsToList": (["str"], 1), "listToArgs": (["list"], 1),
    "evalInEachContext": (["any", "adlist"], 2), "countMatches": (["any", "adlist"], 2),
}
FUNC_NAMES = sorted(FUNCS)


class Node:
    """Rendered expression text plus the sub-expressions used for shrinking."""
    __slots__ = ("text", "kids")

    def __init__(self, text, kids=()):
        self.text = text
        self.kids = list(kids)

    def descendants(self):
        out = []
        stack = list(self.kids)
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(n.kids)
        return out


class ExprGen:
    def __init__(self, rng, max_depth=4):
        self.rng = rng
        self.max_depth = max_depth

    def leaf(self):
        r = self.rng.random()
        if r < 0.30:
            return Node(self.rng.choice(REFS))
        if r < 0.52:
            return Node(self.rng.choice(INTS))
        if r < 0.64:
            return Node(self.rng.choice(REALS))
        if r < 0.82:
            return Node(self.rng.choice(STRS))
        return Node(self.rng.choice(SPECIAL))

    def typed(self, kind, depth):
        rng = self.rng
        if kind == "any" or rng.random() < 0.15:
            return self.expr(depth)
        if kind == "int":
            return Node(rng.choice(INTS[:13]))
        if kind == "num":
            return Node(rng.choice(INTS[:10] + REALS[:10]))
        if kind == "str":
            return rng.choice([Node(rng.choice(STRS)), Node(rng.choice(["s", "cs", "tb", "v"]))])
        if kind == "list":
            n = rng.randint(0, 4)
            kids = [self.expr(depth + 1) if rng.random() < 0.3 else self.leaf() for _ in range(n)]
            return Node("{ %s }" % ", ".join(k.text for k in kids), kids) if kids else Node("{}")
        if kind == "slist":
            return Node(rng.choice(['"a,b,c"', '"a;b"', '"1,2,3"', '"1.5, 2"', '""', '"b"',
                                    '"A,B"', '"x y z"', '"3 1 2"', "cs"]))
        if kind == "delim":
            return Node(rng.choice(['","', '";"', '" "', '""', '", "']))
        if kind == "pat":
            return Node(rng.choice(PATTERNS))
        if kind == "opt":
            return Node(rng.choice(['"i"', '""', '"I"', '"m"']))
        if kind == "ver":
            return Node(rng.choice(['"1.2.3"', '"1.10"', '"1.9"', '"2"', '"1.2a"', '""', "v"]))
        if kind == "time":
            return Node(rng.choice(["absTime(0)", "absTime(1234567890)", "absTime(1700000000)",
                                    "relTime(90061)", "relTime(-5)", "at", "rt", "1000"]))
        if kind == "fmt":
            return Node(rng.choice(['"%Y-%m-%d"', '"%H:%M:%S"', '"%j %a %b"', '"%s"', '""']))
        if kind == "cmpop":
            return Node(rng.choice(['"<"', '"<="', '">"', '">="', '"=="', '"!="', '"is"',
                                    '"isnt"', '"=?="', '"foo"']))
        if kind == "evalstr":
            return Node(rng.choice(['"1 + 2"', '"a * 2"', '"ta"', '"s"', '"1 +"', '"{1,2}"']))
        if kind == "ref":
            return Node(rng.choice(["a", "inc", "chain", "r", "l", "missing", "ta", "tinc"]))
        if kind == "adlist":
            return Node(rng.choice(["{ [ k = 1 ],[ k = 2 ],[ j = 3 ] }", "lr", "{}", "{ 1,2 }"]))
        return self.expr(depth)

    def expr(self, depth=0):
        rng = self.rng
        if depth >= self.max_depth or rng.random() < 0.25 + 0.15 * depth:
            return self.leaf()
        r = rng.random()
        if r < 0.38:
            a, b = self.expr(depth + 1), self.expr(depth + 1)
            op = rng.choice(BINOPS)
            text = "%s %s %s" % (a.text, op, b.text)
            if rng.random() < 0.5:
                text = "(%s)" % text
            return Node(text, [a, b])
        if r < 0.46:
            a = self.expr(depth + 1)
            op = rng.choice(UNOPS)
            inner = a.text if rng.random() < 0.5 else "(%s)" % a.text
            # "- -1" must not become the decrement-looking "--1" (still valid, but keep it readable)
            return Node("%s%s" % (op, inner) if not inner.startswith(op) else "%s (%s)" % (op, inner), [a])
        if r < 0.52:
            c, a, b = self.expr(depth + 1), self.expr(depth + 1), self.expr(depth + 1)
            return Node("(%s ? %s : %s)" % (c.text, a.text, b.text), [c, a, b])
        if r < 0.56:
            a, b = self.expr(depth + 1), self.expr(depth + 1)
            return Node("(%s ?: %s)" % (a.text, b.text), [a, b])
        if r < 0.82:
            name = rng.choice(FUNC_NAMES)
            kinds, min_args = FUNCS[name]
            n = rng.randint(min_args, len(kinds))
            if rng.random() < 0.05:  # wrong arity now and then
                n = rng.choice([max(0, min_args - 1), len(kinds) + 1])
            if n == 0 and name in ("absTime", "formatTime"):
                n = len(kinds) + 1  # the zero-argument forms read the clock
            kids = [self.typed(kinds[i] if i < len(kinds) else "any", depth + 1) for i in range(n)]
            if rng.random() < 0.1:
                name = rng.choice([name.upper(), name.lower()])
            return Node("%s(%s)" % (name, ", ".join(k.text for k in kids)), kids)
        if r < 0.88:
            n = rng.randint(0, 3)
            kids = [self.expr(depth + 1) for _ in range(n)]
            return Node("{ %s }" % ", ".join(k.text for k in kids) if kids else "{}", kids)
        if r < 0.92:
            kids = [self.expr(depth + 1) for _ in range(rng.randint(1, 3))]
            names = rng.sample(["a", "k", "p", "q", "B", "zz"], len(kids))
            body = "; ".join("%s = %s" % (nm, k.text) for nm, k in zip(names, kids))
            rec = Node("[ %s ]" % body, kids)
            if rng.random() < 0.6:
                return Node("%s.%s" % (rec.text, rng.choice(names + ["a", "nope"])), [rec] + kids)
            return rec
        if r < 0.96:
            base = self.typed("list", depth + 1)
            idx = Node(rng.choice(["0", "1", "2", "-1", "3", "a", "z", "1.0", '"0"']))
            return Node("%s[%s]" % (base.text, idx.text), [base, idx])
        a = self.expr(depth + 1)
        return Node("(%s)" % a.text, [a])

    def mutate(self, text):
        """A small syntactic corruption (to compare parse-error detection)."""
        rng = self.rng
        if not text:
            return text
        i = rng.randrange(len(text))
        choice = rng.random()
        if choice < 0.4:
            return text[:i] + text[i + 1:]
        if choice < 0.8:
            return text[:i] + rng.choice("()[]{},;+-*/.?:=!<>&|^~\"' 0x") + text[i:]
        return text[:i]


class Cli:
    def __init__(self, binary, workdir, timeout):
        self.binary = binary
        self.timeout = timeout
        self.my_path = os.path.join(workdir, "my.ad")
        self.target_path = os.path.join(workdir, "target.ad")
        with open(self.my_path, "w", encoding="utf-8") as f:
            f.write(MY_AD + "\n")
        with open(self.target_path, "w", encoding="utf-8") as f:
            f.write(TARGET_AD + "\n")

    def command(self, mode, ctx):
        cmd = [self.binary, "eval", "--dialect", "modern", "--mode", mode]
        if ctx in ("both", "my"):
            cmd += ["--my", self.my_path]
        if ctx == "both":
            cmd += ["--target", self.target_path]
        return cmd

    def run(self, mode, ctx, exprs):
        """Return (list of output lines or None, error text)."""
        data = "".join(e + "\n" for e in exprs).encode("utf-8")
        env = dict(os.environ, TZ="UTC")
        try:
            p = subprocess.run(self.command(mode, ctx), input=data, capture_output=True,
                               timeout=self.timeout, env=env)
        except subprocess.TimeoutExpired:
            return None, "timed out after %ss" % self.timeout
        except OSError as ex:
            return None, "cannot run %s: %s" % (self.binary, ex)
        lines = p.stdout.decode("utf-8", "replace").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        # Exit status 1 only says some expression did not parse (each such
        # line starts with PARSE_ERROR); 2 and above are real failures.
        if p.returncode not in (0, 1):
            return None, "exit status %d; stderr: %s" % (p.returncode, p.stderr.decode("utf-8", "replace")[-500:])
        if len(lines) != len(exprs):
            return None, "printed %d lines for %d expressions" % (len(lines), len(exprs))
        return lines, ""

    def run_robust(self, mode, ctx, exprs):
        """Batch first; if the batch fails, one process per expression."""
        lines, err = self.run(mode, ctx, exprs)
        if lines is not None:
            return lines, []
        out, failures = [], [("batch", err)]
        for e in exprs:
            one, err1 = self.run(mode, ctx, [e])
            out.append(one[0] if one is not None else "<CLI FAILURE: %s>" % err1)
        return out, failures


def agrees(ours, theirs):
    if theirs == "PARSE_ERROR":
        return ours.startswith("PARSE_ERROR")
    return ours == theirs


def ads_for(ctx):
    if ctx == "both":
        return MY_AD, TARGET_AD
    if ctx == "my":
        return MY_AD, None
    return None, None


def documented_divergence(text):
    """Expressions in the areas crate/CONFORMANCE.md lists as deliberate
    differences: `..` typos (libclassad accepts them) and non-ASCII text
    (libclassad's strings are bytes, ours UTF-8), and formatTime of
    times out of range (libclassad prints undefined memory)."""
    return (".." in text or any(ord(c) > 127 for c in text)
            # formatTime of times outside struct tm's range prints whatever
            # libclassad's buffer holds (it differs from run to run).
            or ("formatTime" in text.lower() and "922337203685477" in text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--classad-bin", help="path to our classad CLI")
    ap.add_argument("--seconds", type=float, default=60.0, help="time budget (default 60)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time based)")
    ap.add_argument("--batch", type=int, default=400, help="expressions per CLI process")
    ap.add_argument("--max-depth", type=int, default=4)
    ap.add_argument("--mutate-rate", type=float, default=0.03,
                    help="fraction of expressions syntactically corrupted (default 0.03)")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--max-report", type=int, default=30, help="mismatches printed in full")
    ap.add_argument("--timeout", type=float, default=120.0, help="per CLI process, seconds")
    ap.add_argument("--oracle-only", action="store_true",
                    help="no CLI: only generate and evaluate with libclassad (self-test)")
    ap.add_argument("--show", type=int, default=0,
                    help="with --oracle-only, print this many sample expressions/values")
    args = ap.parse_args()
    if not args.oracle_only and not args.classad_bin:
        ap.error("--classad-bin is required (or use --oracle-only)")
    modes = [m for m in args.modes.split(",") if m]
    for m in modes:
        if m not in MODES:
            ap.error("unknown mode %r" % m)

    seed = args.seed if args.seed is not None else int(time.time() * 1000) % (2 ** 31)
    print("fuzz: seed %d, %.0f s, modes %s" % (seed, args.seconds, ",".join(modes)), flush=True)
    rng = random.Random(seed)
    gen = ExprGen(rng, args.max_depth)
    oracles = {m: OracleClient(m) for m in modes}
    deadline = time.monotonic() + args.seconds
    workdir = tempfile.mkdtemp(prefix="classad-fuzz-")
    cli = None if args.oracle_only else Cli(os.path.abspath(args.classad_bin), workdir, args.timeout)

    if cli is not None:
        lines, err = cli.run("htcondor", "none", ["1 + 1"])
        if lines != ["2"]:
            print("fuzz: the CLI does not work (%s); `%s` printed %r for `1 + 1`"
                  % (err or "wrong answer", " ".join(cli.command("htcondor", "none")), lines))
            for o in oracles.values():
                o.close()
            shutil.rmtree(workdir, ignore_errors=True)
            return 2

    stats = {"batches": 0, "compared": 0, "skipped": 0, "parse_errors": 0, "mismatches": 0,
             "cli_failures": 0}
    reported = 0
    shown = 0
    batch_no = 0
    try:
        while time.monotonic() < deadline:
            mode = modes[batch_no % len(modes)]
            ctx = CONTEXTS[(batch_no // len(modes)) % len(CONTEXTS)]
            batch_no += 1
            my, target = ads_for(ctx)
            nodes, exprs, theirs = [], [], []
            while len(exprs) < args.batch and time.monotonic() < deadline:
                node = gen.expr()
                text = node.text
                if rng.random() < args.mutate_rate:
                    text = gen.mutate(text)
                    node = Node(text)
                if "\n" in text or not text.strip():
                    continue
                if documented_divergence(text):
                    stats["skipped"] += 1
                    continue
                res = oracles[mode].evaluate(text, my, target)
                if "value" not in res:
                    stats["skipped"] += 1
                    continue
                nodes.append(node)
                exprs.append(text)
                theirs.append(res["value"])
                if res["value"] == "PARSE_ERROR":
                    stats["parse_errors"] += 1
            if not exprs:
                break
            stats["batches"] += 1
            if cli is None:
                stats["compared"] += len(exprs)
                for e, t in zip(exprs, theirs):
                    if shown < args.show:
                        print("  [%s/%s] %s  =>  %s" % (mode, ctx, e, t))
                        shown += 1
                continue
            ours, failures = cli.run_robust(mode, ctx, exprs)
            for what, err in failures:
                stats["cli_failures"] += 1
                print("CLI FAILURE (%s, mode=%s, ctx=%s): %s" % (what, mode, ctx, err), flush=True)
            stats["compared"] += len(exprs)
            for node, e, o, t in zip(nodes, exprs, ours, theirs):
                if agrees(o, t):
                    continue
                stats["mismatches"] += 1
                if reported >= args.max_report:
                    continue
                reported += 1
                print("MISMATCH #%d  mode=%s  context=%s" % (reported, mode, ctx))
                print("  expr:   %s" % e)
                print("  ours:   %s" % o)
                print("  theirs: %s" % t)
                small = shrink(node, mode, ctx, my, target, oracles[mode], cli)
                if small is not None:
                    print("  smallest mismatching sub-expression:")
                    print("    expr:   %s" % small[0])
                    print("    ours:   %s" % small[1])
                    print("    theirs: %s" % small[2])
                sys.stdout.flush()
    finally:
        for o in oracles.values():
            o.close()
        shutil.rmtree(workdir, ignore_errors=True)

    print("fuzz summary: seed %d; %d batches; %d expressions compared (%d libclassad parse "
          "errors); %d skipped (untrustworthy oracle answer); %d mismatches; %d CLI failures"
          % (seed, stats["batches"], stats["compared"], stats["parse_errors"], stats["skipped"],
             stats["mismatches"], stats["cli_failures"]))
    if stats["mismatches"] > reported:
        print("(%d further mismatches not shown; see --max-report)" % (stats["mismatches"] - reported))
    return 1 if stats["mismatches"] or stats["cli_failures"] else 0


def shrink(node, mode, ctx, my, target, oracle, cli):
    """Smallest descendant of node on which the two engines still disagree."""
    cands = sorted({d.text for d in node.descendants()}, key=len)
    cands = [c for c in cands if c.strip()][:200]
    if not cands:
        return None
    theirs = []
    keep = []
    for c in cands:
        res = oracle.evaluate(c, my, target)
        if "value" in res:
            keep.append(c)
            theirs.append(res["value"])
    if not keep:
        return None
    ours, _ = cli.run_robust(mode, ctx, keep)
    for c, o, t in zip(keep, ours, theirs):
        if not agrees(o, t):
            return c, o, t
    return None


if __name__ == "__main__":
    sys.exit(main())
