#!/usr/bin/env python3
"""Differential-conformance case generator for the `classad` crate.

Every case is an expression (plus optional MY / TARGET ads and a mode) whose
expected value is computed by the real libclassad, through HTCondor's official
Python bindings (`pip install htcondor`, the `htcondor2` / `classad2` modules).

    python3 generate.py            # rewrite cases.jsonl next to this file
    python3 generate.py --check    # regenerate in memory, diff against cases.jsonl
    python3 generate.py --stats    # print the per-group / per-mode counts of cases.jsonl

See README.md for the case format and for what was learnt about the bindings.

How an expected value is obtained (the "oracle", see `OracleServer`):

* The oracle runs in a child process per mode, started with TZ=UTC,
  CONDOR_CONFIG=/dev/null, `_CONDOR_STRICT_CLASSAD_EVALUATION=false|true`, and
  with the C locale; it imports `htcondor2` first (that import runs HTCondor's
  ClassAdReconfig(), which registers the HTCondor-only functions and sets
  libclassad's old-semantics flag from STRICT_CLASSAD_EVALUATION), then
  `classad2`.
* Parse check: libclassad's own `ClassAdParser::ParseExpression(text, full=true)`
  is called through ctypes (the bindings only parse whole ads and silently ignore
  trailing junk, so `ExprTree("1 ]")` would "parse").  A NULL result means
  "PARSE_ERROR".
* Evaluation: the expression is parsed as the only attribute of a wrapper ad,
  then `ExprTree.simplify(my_ad, target_ad)` evaluates it exactly like HTCondor's
  EvalExprTree() (expression scope = MY; a MatchClassAd(MY, TARGET) when a target
  is given), and converts the resulting value back into a literal.
* The expected text is `repr()` of that literal, which is libclassad's
  `ClassAdUnParser::Unparse()` of the value (str() would be the PrettyPrint
  multi-line form; do not use it).
"""

import argparse
import ctypes
import glob
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CASES_PATH = os.path.join(HERE, "cases.jsonl")

MODES = ("htcondor", "strict")

# ---------------------------------------------------------------------------
# Oracle: libclassad through the htcondor2/classad2 bindings
# ---------------------------------------------------------------------------

WRAP_ATTR = "__conformance_expr__"


def oracle_env(mode):
    """Environment for an oracle child process in the given mode."""
    env = {k: v for k, v in os.environ.items()
           if not k.upper().startswith(("_CONDOR_", "CONDOR_"))}
    env["CONDOR_CONFIG"] = "/dev/null"
    env["TZ"] = "UTC"
    env["_CONDOR_STRICT_CLASSAD_EVALUATION"] = "true" if mode == "strict" else "false"
    env["_CONDOR_ENABLE_CLASSAD_CACHING"] = "false"
    env["PYTHONIOENCODING"] = "utf-8"
    return env


class OracleServer:
    """Runs inside the child process; evaluates requests with libclassad."""

    def __init__(self, mode):
        import locale
        import htcondor2  # noqa: F401  (must come first: runs ClassAdReconfig)
        import classad2
        locale.setlocale(locale.LC_ALL, "C")
        self.classad2 = classad2
        self.mode = mode
        libdir = os.path.join(os.path.dirname(classad2.__file__), "..", "htcondor.libs")
        libs = glob.glob(os.path.join(libdir, "libclassad-*.so*")) + \
            glob.glob(os.path.join(libdir, "libclassad.so*"))
        if not libs:
            raise RuntimeError("cannot find the libclassad bundled with the bindings")
        lib = ctypes.CDLL(libs[0])  # same object the bindings already loaded
        flag = ctypes.c_bool.in_dll(lib, "_ZN7classad23_useOldClassAdSemanticsE")
        want_old = (mode == "htcondor")
        if bool(flag.value) != want_old:
            raise RuntimeError("libclassad old-semantics flag is %r, wanted %r for mode %s"
                               % (flag.value, want_old, mode))
        self._parser = ctypes.create_string_buffer(1 << 16)  # >> sizeof(ClassAdParser)
        lib._ZN7classad13ClassAdParserC1Ev(self._parser)
        self._parse_expr = lib._ZN7classad13ClassAdParser15ParseExpressionEPKcb
        self._parse_expr.restype = ctypes.c_void_p
        self._parse_expr.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_bool]
        self._parse_ad = lib._ZN7classad13ClassAdParser12ParseClassAdEPKcb
        self._parse_ad.restype = ctypes.c_void_p
        self._parse_ad.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_bool]

    def parses(self, text):
        return self._parse_expr(self._parser, text.encode("utf-8"), True) is not None

    def ad_parses(self, text):
        return self._parse_ad(self._parser, text.encode("utf-8"), True) is not None

    def evaluate(self, expr, my=None, target=None):
        """Return {"value": text} or {"skip": reason}."""
        c2 = self.classad2
        for name, text in (("my", my), ("target", target)):
            if text is not None and ("\0" in text or not self.ad_parses(text)):
                return {"skip": "%s ad does not parse" % name}
        if "\0" in expr:
            return {"skip": "NUL in expression"}
        if expr.rfind("/*") > expr.rfind("*/"):
            # An unterminated /* comment makes libclassad's lexer read past the
            # end of its input: the answer changes from run to run.
            return {"skip": "unterminated block comment"}
        if not self.parses(expr):
            return {"value": "PARSE_ERROR"}
        try:
            wrapper = c2.ClassAd("[ %s = %s\n]" % (WRAP_ATTR, expr))
        except Exception as ex:  # full parse OK but the wrapper failed: don't trust it
            return {"skip": "wrapper parse failed: %s" % ex}
        if len(wrapper) != 1:
            return {"skip": "wrapper ad has %d attributes" % len(wrapper)}
        tree = wrapper.lookup(WRAP_ATTR)
        scope = c2.ClassAd(my) if my is not None else c2.ClassAd()
        other = c2.ClassAd(target) if target is not None else None
        try:
            value = tree.simplify(scope, other)
        except Exception as ex:
            return {"skip": "evaluation failed: %s" % ex}
        text = repr(value)
        if "\n" in text:
            return {"skip": "multi-line unparse"}
        return {"value": text}

    def serve(self, inp, out):
        for raw in inp:
            raw = raw.strip()
            if not raw:
                continue
            req = json.loads(raw.decode("utf-8"))
            try:
                res = self.evaluate(req["expr"], req.get("my"), req.get("target"))
            except Exception as ex:  # never let one request kill the server
                res = {"skip": "oracle exception: %r" % (ex,)}
            out.write((json.dumps(res) + "\n").encode("utf-8"))
            out.flush()


def _run_oracle_server(mode):
    # Keep the protocol channel private: anything libclassad / HTCondor prints
    # (debug(), dprintf) goes to stderr instead of corrupting the replies.
    proto = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    server = OracleServer(mode)
    proto.write(b'{"ready": true}\n')
    proto.flush()
    server.serve(sys.stdin.buffer, proto)


class OracleClient:
    """Talks to an oracle child process; restarts it if it dies or grows."""

    RESTART_EVERY = 20000  # parsed trees are leaked by the ctypes parse check

    def __init__(self, mode):
        assert mode in MODES
        self.mode = mode
        self.proc = None
        self.count = 0
        self._start()

    def _start(self):
        self.proc = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--oracle-server", self.mode],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=oracle_env(self.mode))
        line = self.proc.stdout.readline()
        if not line or not json.loads(line).get("ready"):
            raise RuntimeError("oracle server (%s) failed to start" % self.mode)
        self.count = 0

    def close(self):
        if self.proc is not None:
            try:
                self.proc.stdin.close()
                self.proc.wait(timeout=10)
            except Exception:
                self.proc.kill()
            self.proc = None

    def evaluate(self, expr, my=None, target=None):
        if self.count >= self.RESTART_EVERY:
            self.close()
            self._start()
        self.count += 1
        req = json.dumps({"expr": expr, "my": my, "target": target}) + "\n"
        try:
            self.proc.stdin.write(req.encode("utf-8"))
            self.proc.stdin.flush()
            line = self.proc.stdout.readline()
        except (BrokenPipeError, OSError):
            line = b""
        if not line:
            # The library crashed on this input; never trust it, start afresh.
            self.close()
            self._start()
            return {"skip": "oracle crashed"}
        return json.loads(line)


# ---------------------------------------------------------------------------
# Case collection
# ---------------------------------------------------------------------------

def q(s):
    """ClassAd string literal for the Python string s."""
    out = ['"']
    for ch in s:
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


class Cases:
    def __init__(self):
        self.items = []
        self._counters = {}
        self._seen = set()
        self.group = None

    def add(self, prefix, expr, my=None, target=None):
        """Add one case (both modes are evaluated; see STRICT_POLICY)."""
        key = (expr, my, target)
        if key in self._seen:
            return
        self._seen.add(key)
        n = self._counters.get(prefix, 0) + 1
        self._counters[prefix] = n
        self.items.append({"id": "%s-%03d" % (prefix, n), "group": self.group,
                           "expr": expr, "my": my, "target": target})

    def many(self, prefix, exprs, my=None, target=None):
        for e in exprs:
            self.add(prefix, e, my, target)


# Common argument values used to probe type handling.
TYPE_VALUES = ["3", "2.5", "0", "true", '"abc"', "undefined", "error",
               "{ 1,2 }", "[ a = 1 ]", "absTime(1000)", "relTime(60)"]
# Substituted into every argument position by the function sweep.
ODD_VALUES = ["undefined", "error", "3", "2.5", "true", '"abc"', "{ 1,2 }", "[ a = 1 ]"]


# ---------------------------------------------------------------------------
# Groups (one function per group)
# ---------------------------------------------------------------------------

def g_literals(c):
    c.many("lit-int", [
        "0", "1", "-1", "+1", "42", "007", "012", "00", "08", "0x10", "0X1f", "1234567890123",
        "2147483647", "2147483648", "-2147483648", "4294967296",
        "9223372036854775807", "-9223372036854775807", "-9223372036854775808",
        "9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616", "99999999999999999999", "123456789012345678901234567890",
        "- 5", "--5", "-(-5)", "- -5", "09", "0777", "0x", "0xg", "0x7fffffffffffffff",
        "010.5", "0e1", "01e2", "00012", "-012", "1 + 012", "{ 012, 1 }",
    ])
    c.many("lit-real", [
        "0.0", "-0.0", "1.0", "1.5", "-1.5", "0.1", "0.2", "0.3", ".5", "5.", "-.5",
        "1e3", "1E3", "1e+3", "1e-3", "1.5e10", "2.5E-3", "1E-300", "1e-320", "1e-400",
        "1e300", "1.7976931348623157e308", "1e308", "1e309", "-1e309", "1e400",
        "123456789.123", "3.141592653589793", "2.718281828459045", "1.0e15", "1.0e16",
        "1.0e17", "123456789012345678.0", "0.000001", "1e-5", "100.0", "1000000.0",
        "9007199254740993.0", "4.9e-324", "2.2250738585072014e-308", "0.1e1", "00.5",
        "1.", "1.e5", "1e", "1e+", ".e5", "1.2.3", "1e5.5", "5e-1", "-1e-1",
        "0.5000000000000001", "0.30000000000000004", "1.0000000000000002",
        "12345678901234567.0", "6.02214076e23", "1e22", "1e21",
    ])
    c.many("lit-str", [
        '""', '"a"', '"abc"', '"a b"', '"with \\"quotes\\""', '"back\\\\slash"',
        '"\\n"', '"\\t"', '"\\r"', '"\\b"', '"\\f"', '"\\a"', '"\\v"', '"\\\'"', '"\\?"',
        '"\\/"', '"\\101"', '"\\101\\102\\103"', '"\\1"', '"\\12"', '"\\123"', '"\\0"',
        '"\\00"', '"\\000"', '"a\\0b"', '"\\177"', '"\\200"', '"\\377"', '"\\400"',
        '"\\777"', '"\\8"', '"\\18"', '"\\x41"', '"\\u0041"', '"\\q"', '"\\z"', '"\\ "',
        '"\\\\n"', '"\\\\\\n"', '"tab\there"', '"a\\"b\\"c"', '"\'"', '"\'\'"',
        '"a" "b"', '"a" "b" "c"', '"" ""', '"a"\n"b"', '"x" /* c */ "y"', '"caf\u00e9"',
        '"\u20ac"', '"\u65e5\u672c"', '"\U0001F600"', '"\x01"', '"\x7f"', '"\x1b[0m"',
        '"unterminated', '"a" "', "\"a'", '"%s %d"', '"{1,2}"', '"[a=1]"', '"$(X)"',
        '"a\\\\"', '"\\\\\\\\"', '"\\"', '"\\""', '"\\t\\n\\r\\f\\b"',
        '"\\061\\062"', '"\\1010"', '"\\3777"', '"\\0101"',
    ])
    c.many("lit-bool", [
        "true", "false", "TRUE", "FALSE", "True", "False", "tRuE", "fAlSe",
        "undefined", "UNDEFINED", "Undefined", "uNdEfInEd", "error", "ERROR", "Error", "eRrOr",
        "true false", "truex", "!true", "!false", "!!true",
    ])
    c.many("lit-list", [
        "{}", "{ }", "{1}", "{1,2,3}", "{ 1 , 2 , 3 }", '{"a","b"}', "{1,2.5,\"c\",true,undefined,error}",
        "{{}}", "{{1},{2,{3}}}", "{[a=1],[b=2]}", "{1,}", "{,1}", "{1,,2}", "{1 2}", "{1,2",
        "{1;2}", "{absTime(0), relTime(5)}", "{-1, -2.5}", "{x, y, 1+2}", "{ {}, [] }",
    ])
    c.many("lit-ad", [
        "[]", "[ ]", "[a=1]", "[a = 1; b = 2]", "[b = 2; a = 1]", "[a = 1;]", "[;]",
        "[a = 1;; b = 2]", "[a = 1 b = 2]", "[a = ]", "[= 1]", "[a]", "[1 = 2]", "[a = 1",
        "[A = 1; a = 2]", "[a = [b = [c = 1]]]", "[a = {1, [b = 2]}]", "['a b' = 1]",
        "['a\\'b' = 1]", "['' = 1]", "[\"a\" = 1]", "[a = 1; b = a + 1]",
        "[zz = 1; Aa = 2; c = 3; B = 4; mm = 5; _x = 6]",
        "[b = 1; C = 2; a_ = 3; A0 = 4; Z = 5; _ = 6; a = 7]",
        "[longname = 1; x = 2; mid = 3]", "[true = 1]", "['true' = 1]", "[if = 1]",
        "['error' = 1]", "['is' = 1]", "[my = 1]", "[target = 1]", "[parent = 1]",
        "['x.y' = 1]", "['x y' = 1; 'x' = 2]", "[a = -1; b = -1.5; c = !true]",
        "[a = \"s\"; b = {}; c = []]", "[a = 1; b = 2][\"a\"]",
    ])
    c.many("lit-attr", [
        "a", "A", "_a", "a1", "a_b", "'a'", "'a b'", "'a b' + 1", "'a\\'b'", "'a\\\\b'",
        "''", "'1a'", "'true'", "'undefined'", "'error'", "'is'", "'isnt'", "'my'",
        "'a.b'", "'a", "1a", "$a", "a$", "@a", "#a", "a#b", "`a`",
    ])


def g_operators(c):
    # Arithmetic edge cases.
    c.many("op-add", [
        "1 + 2", "1 + 2.5", "2.5 + 1", "0.1 + 0.2", "1.5 + 1.5", "-1 + 1",
        "9223372036854775807 + 1", "9223372036854775807 + 9223372036854775807",
        "-9223372036854775807 - 1 + -1", "1 + true", "true + true", "true + 1.5",
        '"a" + "b"', '"1" + 1', "1 + undefined", "undefined + undefined", "error + 1",
        "undefined + error", "error + undefined", "1e308 + 1e308", "-1e308 - 1e308",
        "real(\"INF\") + real(\"-INF\")", "real(\"NaN\") + 1", "1 + 2 + 3", "1 + -1",
        "+1", "+1.5", "+-1", "-+1", "+true", '+"a"', "+undefined", "+error", "+{1}",
        "+[a=1]", "+absTime(0)", "+relTime(5)",
    ])
    c.many("op-sub", [
        "5 - 3", "3 - 5", "5 - 2.5", "2.5 - 5", "0.3 - 0.1", "-9223372036854775807 - 1",
        "-9223372036854775807 - 2", "0 - -9223372036854775807 - 1", "1 - true",
        "false - true", '"b" - "a"', "undefined - 1", "1 - error", "-5", "-2.5",
        "-0", "-0.0", "- 0.0", "-true", '-"a"', "-undefined", "-error", "-{1}", "-[a=1]",
        "-(-9223372036854775807 - 1)", "-absTime(0)", "-relTime(5)", "- - 3", "1 - - 1",
        "1--1", "1 - -1.5",
    ])
    c.many("op-mul", [
        "6 * 7", "6 * 2.5", "2.5 * 2.5", "-3 * 4", "0 * -1", "0.0 * -1", "-0.0 * -1",
        "4294967296 * 4294967296", "9223372036854775807 * 2", "-9223372036854775807 * 2",
        "3037000500 * 3037000500", "1e200 * 1e200", "-1e200 * 1e200", "1e-200 * 1e-200",
        "true * 5", "true * true", '"a" * 2', "undefined * 0", "0 * undefined",
        "error * 0", "0 * error", "real(\"INF\") * 0", "2 * 3 * 4",
    ])
    c.many("op-div", [
        "7 / 2", "-7 / 2", "7 / -2", "-7 / -2", "7 / 2.0", "7.0 / 2", "1 / 3", "1.0 / 3",
        "2.0 / 3", "1 / 0", "0 / 0", "-1 / 0", "1 / 0.0", "-1 / 0.0", "0 / 0.0",
        "0.0 / 0.0", "1.0 / 0", "-1.0 / 0", "1.5 / 0.0", "-1.5 / 0.0", "0.0 / 0",
        "(0 - 1) / 0.0", "(-1) / 0.0", "-(1) / 0.0", "x = -1.0 / 0.0",
        "(-9223372036854775807 - 1) / -1", "(-9223372036854775807 - 1) / 1",
        "9223372036854775807 / -1", "true / 2", "5 / true", "5 / false", '"a" / 1',
        "undefined / 0", "0 / undefined", "error / 0", "1e308 / 1e-308", "1 / 1e-320",
        "10 / 3 / 2", "10 / (3 / 2)",
    ])
    c.many("op-mod", [
        "7 % 3", "-7 % 3", "7 % -3", "-7 % -3", "0 % 5", "5 % 1", "1 % 0", "0 % 0",
        "-1 % 0", "7.5 % 2", "7 % 2.5", "7.0 % 2", "7 % 2.0", "(-9223372036854775807 - 1) % -1",
        "9223372036854775807 % 2", "true % 2", "5 % true", "5 % false", '"a" % 2',
        "undefined % 0", "error % 0", "10 % 3 % 2",
    ])
    # Comparisons: numbers, strings (case-insensitive), mixed.
    c.many("op-cmp", [
        "1 < 2", "2 < 1", "1 < 1", "1 <= 1", "1 > 0", "1 >= 2", "1 == 1", "1 != 1",
        "1 == 1.0", "1 != 1.0", "1 < 1.5", "2.5 > 2", "0.0 == -0.0", "0.0 < -0.0",
        "0.1 + 0.2 == 0.3", "9223372036854775807 == 9223372036854775807.0",
        "9223372036854775807 < 9223372036854775807.0", "9007199254740993 == 9007199254740992.0",
        "true == 1", "true == 2", "false == 0", "true < 2", "true > false", "true == true",
        "true != false", "true == 1.0", '"a" == "a"', '"a" == "A"', '"abc" == "ABC"',
        '"a" != "A"', '"a" < "b"', '"a" < "B"', '"A" < "b"', '"B" < "a"', '"abc" < "abd"',
        '"abc" < "ab"', '"" < "a"', '"a" <= "A"', '"a" >= "A"', '"Z" > "a"', '"_" < "a"',
        '"_" < "A"', '"[" < "a"', '"a" == 1', '1 == "1"', '"1" < 2', '"true" == true',
        "undefined == undefined", "undefined != undefined", "undefined < 1", "1 < undefined",
        "error == error", "error < 1", "undefined == error", "error == undefined",
        "{1} == {1}", "{1} != {1}", "[a=1] == [a=1]", "{} == {}", "{1} < {2}",
        "real(\"NaN\") == real(\"NaN\")", "real(\"NaN\") != real(\"NaN\")",
        "real(\"NaN\") < 1", "real(\"NaN\") > 1", "real(\"NaN\") == 1",
        "real(\"NaN\") =?= real(\"NaN\")", "real(\"INF\") == real(\"INF\")",
        "real(\"INF\") > 1e308", "real(\"-INF\") < -1e308",
        "absTime(10) < absTime(20)", "absTime(10) == absTime(10)", "absTime(10) == 10",
        "absTime(10) < 20", "relTime(5) < relTime(6)", "relTime(5) == 5", "relTime(5) == relTime(5)",
        "absTime(10) == relTime(10)", "1 < 2 < 3", "3 > 2 > 1", "1 == 1 == true",
        '"\u00e9" == "\u00c9"', '"\u00e9" < "f"', '"a\\0" == "a"',
    ])
    c.many("op-meta", [
        "1 =?= 1", "1 =?= 1.0", "1.0 =?= 1.0", "1 =!= 1.0", '"a" =?= "a"', '"a" =?= "A"',
        '"a" =!= "A"', "undefined =?= undefined", "undefined =!= undefined",
        "error =?= error", "error =!= error", "undefined =?= error", "undefined =?= 0",
        "0 =?= undefined", "true =?= 1", "true =?= true", "false =!= 0", "{1} =?= {1}",
        "{1,2} =?= {1,2}", "{1} =?= {1.0}", "{} =?= {}", "[a=1] =?= [a=1]",
        "[a=1] =?= [A=1]", "[a=1;b=2] =?= [b=2;a=1]", "[] =?= []", "{[a=1]} =?= {[a=1]}",
        "{1} =?= {2}", "x =?= undefined", "x =?= x", "x =!= y", "x is undefined",
        "x isnt undefined", "1 is 1", "1 is 1.0", "1 isnt 1.0", '"a" is "A"', '"a" isnt "A"',
        "undefined is undefined", "error is error", "error isnt error", "1 IS 1", "1 Is 1",
        "1 ISNT 2", "absTime(5) =?= absTime(5)", "absTime(5) =?= 5", "relTime(5) =?= relTime(5)",
        "relTime(5) =?= 5", "absTime(5) =?= relTime(5)", "real(\"NaN\") is real(\"NaN\")",
        "0.0 =?= -0.0", "0.0 is -0.0", "1 =?= 1 =?= true", "(1 =?= 1) =?= true",
    ])
    # Logical truth tables with undefined / error / non-booleans.
    vals = ["true", "false", "undefined", "error", "0", "1", "2.5", "0.0", '"x"', "{1}"]
    for op, name in (("&&", "op-and"), ("||", "op-or")):
        for a in vals:
            for b in vals:
                c.add(name, "%s %s %s" % (a, op, b))
    for a in vals + ["[a=1]", "-1", "absTime(0)", "relTime(0)"]:
        c.add("op-not", "!" + a)
        c.add("op-not", "!!" + a)
    c.many("op-logic", [
        "true && true && false", "false || false || true", "true || false && false",
        "(true || false) && false", "!true || true", "!(true || true)", "true && !false",
        "undefined && undefined", "undefined || undefined", "x && false", "false && x",
        "x || true", "true || x", "1/0 && false", "false && 1/0", "true || 1/0",
        "1/0 || true", "undefined && 1/0", "1/0 && undefined", "undefined || 1/0",
        "1/0 || undefined", "!(1/0)", "!x", "true && 5", "5 && true", "false || 5",
        "true && \"a\"", "false || \"a\"", "TRUE && FALSE", "true AND false", "true and false",
    ])
    # Bitwise.
    c.many("op-bit", [
        "5 & 3", "5 | 3", "5 ^ 3", "~5", "~0", "~-1", "~9223372036854775807", "-1 & 255",
        "-8 | 1", "-1 ^ 1", "0 & 0", "12 & 10 | 1", "12 | 10 & 1", "12 ^ 10 & 6",
        "5 & 3.0", "5.0 | 3", "5 ^ true", "true & true", "true & false", "true | false",
        "true ^ true", "false ^ true", "~true", "~false", "~2.5", '~"a"', "~undefined",
        "~error", "5 & undefined", "undefined | 5", "error & 5", "5 ^ error",
        '"a" & 1', "{1} | 1",
        "1 << 0", "1 << 1", "1 << 10", "1 << 31", "1 << 32", "1 << 62", "1 << 63",
        "1 << 64", "1 << 65", "1 << 127", "1 << -1", "1 << -63", "1 << -64", "3 << 62",
        "-1 << 1", "-1 << 63", "-5 << 2", "1024 >> 3", "1024 >> 11", "1 >> 0", "-1 >> 1",
        "-1 >> 63", "-1 >> 64", "-1 >> 65", "-16 >> 2", "9223372036854775807 >> 62",
        "1 >> -1", "1024 >> -1", "-1 >>> 1", "-1 >>> 0", "-1 >>> 63", "-1 >>> 64",
        "-16 >>> 2", "16 >>> 2", "-1 >>> -1", "1 << 2.0", "1.0 << 2", "true << 1",
        "1 << true", "undefined << 1", "1 >> undefined", "error >>> 1", '"a" << 1',
        "1 << 2 << 3", "256 >> 2 >> 1", "1 << 2 + 1", "1 + 2 << 1", "-1 >>> 1 >> 1",
        "(-9223372036854775807 - 1) >> 63", "(-9223372036854775807 - 1) >>> 63",
    ])
    # Ternary and elvis.
    c.many("op-cond", [
        "true ? 1 : 2", "false ? 1 : 2", "undefined ? 1 : 2", "error ? 1 : 2",
        "1 ? 2 : 3", "0 ? 2 : 3", "2.5 ? 2 : 3", "0.0 ? 2 : 3", '"x" ? 1 : 2', "{1} ? 1 : 2",
        "[a=1] ? 1 : 2", "true ? 1/0 : 2", "false ? 1/0 : 2", "true ? 1 : 1/0",
        "true ? x : 2", "false ? 1 : x", "true ? false ? 1 : 2 : 3", "false ? 1 : true ? 2 : 3",
        "true ? 1 : false ? 2 : 3", "1 < 2 ? \"yes\" : \"no\"", "(true ? 1 : 2) + 1",
        "true ? 1 : 2 + 10", "false ? 1 : 2 + 10", "true || false ? 1 : 2",
        "undefined ?: 5", "error ?: 5", "0 ?: 5", "false ?: 5", "\"\" ?: 5", "x ?: 5",
        "x ?: y", "x ?: y ?: 7", "1 ?: 2", "{} ?: 1", "(1/0) ?: 2", "undefined ?: undefined",
        "undefined ?: error", "true ? : 5", "? 1 : 2", "true ? 1", "true ? 1 :",
        "1 + undefined ?: 3", "x ?: 1 + 2", "true ?: 1/0", "IfThenElse(true, 1, 2)",
        "1 ?: 2 + 3", "x ?: 1 * 2", "2 * x ?: 5", "1 + x ?: 2", "x ?: y || true",
        "false || x ?: true", "1 < x ?: 3", "x ?: 1 ? 2 : 3", "true ? x ?: 1 : 2",
        "-x ?: 4", "!x ?: 4", "x.y ?: 4", "{1}[x] ?: 4", "(x ?: 1) + 1", "x ?: (1 + 1)",
        "x == 1 ?: 2", "x =?= undefined ?: 2", "1 ?: 2 ?: 3", "x ?: error ?: 3",
    ])
    # Precedence and associativity.
    c.many("op-prec", [
        "1 + 2 * 3", "(1 + 2) * 3", "2 * 3 + 4 * 5", "10 - 4 - 3", "10 - (4 - 3)",
        "2 * 3 % 4", "2 + 3 % 2", "-2 * 3", "-(2 * 3)", "!true == false", "!(true == false)",
        "1 + 2 == 3", "1 < 2 == true", "1 == 1 && 2 == 2", "true || false && false",
        "false && true || true", "1 | 2 ^ 3 & 4", "1 & 2 == 2", "1 | 2 == 3", "~1 + 1",
        "-1 + -1", "1 + 2 << 1", "1 << 1 + 2", "1 < 2 << 1", "2 * 3 << 1",
        "true ? 1 : 0 + 5", "1 + 2 * 3 - 4 / 2 % 3", "((((1))))", "(1 + (2 * (3 - (4))))",
        "1 =?= 1 && 2 =!= 3", "1 is 1 || false", "!x is undefined", "-x", "- - - 1",
        "! ! ! true", "1 - -1 - -1", "2 * -3", "~-~1", "1 + +1", "1 == 1 ? 2 : 3",
        "1 < 2 && 3 > 2 || false", "1 + 2 > 2 + 0.5", "\"a\" + 1 == error",
        "5 / 2 * 2", "5 / 2.0 * 2", "7 % 4 % 2", "2 ^ 3 ^ 1", "1 || 0 && 0",
    ])
    # Selection and subscripts.
    c.many("op-sel", [
        "[a = 1].a", "[a = 1].b", "[a = 1].A", "[a = [b = 2]].a.b", "[a = [b = 2]].a.c",
        "[a = 1; b = a + 1].b", "[a = {1,2}].a[1]", "{[a = 1], [a = 2]}[1].a",
        "{[a = 1], [a = 2]}.a", "{[a = 1], [b = 2]}.a", "{1, 2}.a", "undefined.a",
        "error.a", '"abc".a', "5.a", "x.a", "[a = 1].'a'", "[a = 1]['a']",
        "[a = 1][\"a\"]", "[a = 1][\"A\"]", "[a = 1][\"b\"]", "[a = 1][1]",
        "[a = 1][undefined]", "[a = 1][error]", "[a = 1][{1}]", "{10, 20, 30}[0]",
        "{10, 20, 30}[2]", "{10, 20, 30}[3]", "{10, 20, 30}[-1]", "{10, 20, 30}[1.9]",
        "{10, 20, 30}[true]", "{10, 20, 30}[\"1\"]", "{10, 20, 30}[undefined]",
        "{10, 20, 30}[error]", "{}[0]", "{{1, 2}, {3, 4}}[1][0]", "{1, 2}[0][0]",
        '"abc"[0]', "undefined[0]", "error[0]", "5[0]", "x[0]", "{x, 2}[0]",
        "{1/0, 2}[1]", "{1/0, 2}[0]", "[a = 1/0; b = 2].b", "[a = 1].a.b", "[a=1] . a",
        "[a = [b = [c = 3]]].a.b.c", "{1, 2, 3}[1 + 1]", "{1, 2}[9223372036854775807]",
        "[a = 1; b = 2][\"B\"]", "[a = 1][\"a\" + \"\"]", "([a = 1]).a", "({1, 2})[1]",
        "[x = 1].x + [x = 2].x", "[a = {[b = 5]}].a[0].b", "[a = 1].'A'",
    ])
    # The full binary-operator x type matrix.
    ops = [("+", "add"), ("-", "sub"), ("*", "mul"), ("/", "div"), ("%", "mod"),
           ("<", "lt"), ("<=", "le"), (">", "gt"), (">=", "ge"), ("==", "eq"),
           ("!=", "ne"), ("=?=", "meq"), ("=!=", "mne"), ("is", "is"), ("isnt", "isnt"),
           ("&&", "and"), ("||", "or"), ("&", "band"), ("|", "bor"), ("^", "bxor"),
           ("<<", "shl"), (">>", "shr"), (">>>", "ushr")]
    for op, name in ops:
        for a in TYPE_VALUES:
            for b in TYPE_VALUES:
                c.add("op-matrix-" + name, "%s %s %s" % (a, op, b))
    # Time arithmetic.
    c.many("op-time", [
        "absTime(100) + relTime(5)", "relTime(5) + absTime(100)", "absTime(100) - relTime(5)",
        "absTime(100) - absTime(40)", "absTime(40) - absTime(100)", "relTime(5) + relTime(6)",
        "relTime(5) - relTime(6)", "relTime(5) * 3", "3 * relTime(5)", "relTime(5) * 2.5",
        "relTime(10) / 4", "relTime(10) / 4.0", "relTime(10) / relTime(4)", "relTime(10) % 3",
        "absTime(100) + 5", "absTime(100) + 2.5", "absTime(100) - 5", "5 + absTime(100)",
        "absTime(100) * 2", "absTime(100) / 2", "absTime(100) + absTime(1)",
        "relTime(5) + 5", "relTime(5) + 2.5", "relTime(5) - 5", "-relTime(5)",
        "relTime(-5)", "relTime(90061) + relTime(1)", "absTime(0) - relTime(1)",
        "absTime(\"2020-01-01T00:00:00Z\") - absTime(\"2019-01-01T00:00:00Z\")",
        "absTime(\"2020-01-01T00:00:00+01:00\") + relTime(3600)",
        "absTime(\"2020-01-01T00:00:00+01:00\") - absTime(\"2020-01-01T00:00:00Z\")",
        "absTime(\"2020-01-01T00:00:00+01:00\") == absTime(\"2019-12-31T23:00:00Z\")",
        "absTime(100) < relTime(200)", "relTime(1.5) * 2", "relTime(5) * relTime(2)",
        "absTime(100) - 2.5", "relTime(0.5) + relTime(0.5)",
    ])


def g_scoping(c):
    # Records and lexical scoping without MY / TARGET.
    c.many("scope-rec", [
        "[a = 1; b = a].b", "[a = 1; b = [c = a]].b.c", "[a = 1; b = [a = 2; c = a]].b.c",
        "[a = 1; b = [c = parent.a]].b.c", "[a = 1; b = [a = 2; c = parent.a]].b.c",
        "[a = 1; b = [c = self.a]].b.c", "[a = 1; b = [a = 2; c = self.a]].b.c",
        "[a = 1; b = self.a].b", "[a = 1; b = root.a].b", "[a = 1; b = [c = root.a]].b.c",
        "[a = 1; b = [c = toplevel.a]].b.c", "[a = 1; b = .a].b", "[a = 1; b = [a = 2; c = .a]].b.c",
        "[a = 1; b = [c = [d = a]]].b.c.d", "[a = 1; b = [c = [d = parent.parent.a]]].b.c.d",
        "[a = b; b = a].a", "[a = a].a", "[a = a + 1].a", "[a = b + 1; b = a + 1].a",
        "[a = {a}].a", "[a = {a}].a[0]", "[a = [b = a]].a.b", "[a = b; b = 3].a",
        "[A = 1; b = a].b", "[a = 1; b = A].b", "[a = 1; b = 'a'].b", "[a = 1; B = 2; c = a + b].c",
        "[a = 1; b = x].b", "[a = undefined; b = a].b", "[a = error; b = a].b",
        "[a = 1; b = [c = 2]; d = b.c].d", "[a = 1; b = {a, a + 1}].b", "[a = 1; b = {a}].b[0]",
        "[a = [b = 1]; c = a.b].c", "[a = [b = 1]; c = a['b']].c", "[a = {1, 2}; c = a[1]].c",
        "[x = 5; f = [x = 7; g = x]; h = f.g].h", "[x = 5; f = [g = x]; h = f.g].h",
        "self", "parent", "root", "toplevel", "self.a", "parent.a", ".a", "[a = 1].self",
        "[a = 1; b = self].b", "[a = 1; b = self].b.a", "[a = 1; b = parent].b",
        "[a = [b = 1; c = parent]].a.c", "[a = [b = 1; c = parent]].a.c.a",
        "[a = 1; b = root].b", "[a = 1; b = 2].self.a", "[a = 1; b = [c = 1]].b.parent.a",
        "[x = 1; y = [z = x + parent.x + self.w; w = 10]].y.z",
        "[my = 1; b = my].b", "[target = 5; b = target].b", "[other = 5; b = other].b",
        "[a = 1; b = MY.a].b", "[a = 1; b = TARGET.a].b", "[a = 1; b = other.a].b",
        "[a = 1; b = my.a].b", "[a = 1; b = [c = MY.a]].b.c",
        "[a = 1; b = 'a b'; 'a b' = 7].b", "[a = {[b = 1], [b = 2]}; c = a.b].c",
        "[a = 1; b = [a = 2]; c = b.a + a].c", "[a = 1; b = 2; a = 3].a",
        "[a = 1].parent", "[a = [b = 1]].a.parent", "[a = 1; b = [c = 2]].b.root",
        "MY", "TARGET", "my", "target", "other", "MY.a", "TARGET.a", "other.a",
    ])
    my = "[ a = 1; b = \"str\"; c = a + 1; d = x; s = self; r = [ p = 5; q = a ]; " \
         "l = { 1, a, c }; e = 1/0; u = undefined; ci = 7; CI2 = 8; t = TARGET.tb; " \
         "m = MY.a; cyc = cyc2; cyc2 = cyc; self_ref = self_ref + 1; fb = tb + 1 ]"
    target = "[ ta = 10; tb = 20; a = 100; b = \"tstr\"; tc = a; td = ta + 1; tx = x; " \
             "tmy = MY.a; ttarget = TARGET.a; tl = { a, ta }; tr = [ k = a ]; tu = ub; ub = 3 ]"
    exprs = [
        "a", "b", "c", "d", "x", "s", "s.a", "r.p", "r.q", "r.x", "l", "l[1]", "l[2]", "e",
        "u", "ci", "CI", "Ci2", "ci2", "t", "m", "cyc", "self_ref", "fb",
        "ta", "tb", "tc", "td", "tx", "tmy", "ttarget", "tl", "tr", "tr.k", "tu", "ub",
        "MY.a", "MY.ta", "MY.b", "MY.x", "my.a", "My.a", "MY.c", "MY.r.p", "MY.l[0]",
        "TARGET.a", "TARGET.ta", "TARGET.tc", "TARGET.td", "TARGET.tx", "TARGET.tmy",
        "TARGET.ttarget", "TARGET.tl", "TARGET.tr.k", "TARGET.x", "target.ta", "Target.TA",
        "TARGET.tu", "other.a", "other.ta", "OTHER.ta", "MY", "TARGET", "other",
        "MY.a + TARGET.a", "a + ta", "TARGET.a - MY.a", "MY.t", "MY.fb", "TARGET.b == b",
        "b == \"STR\"", "TARGET.b =?= \"tstr\"", ".a", ".ta", "self.a", "self.ta", "parent",
        "root.a", "toplevel.a", "parent.a", "MY.MY.a", "TARGET.TARGET.a", "MY.TARGET.a",
        "TARGET.MY.a", "MY.self", "isUndefined(ta)", "isUndefined(TARGET.zz)",
        "ifThenElse(isUndefined(zz), \"none\", zz)", "[q = a].q", "[q = ta].q",
        "[a = 2; q = a].q", "[q = MY.a].q", "[q = TARGET.a].q", "{a, ta, MY.a, TARGET.a}",
        "strcat(b, TARGET.b)", "size(l)", "l[0] + TARGET.tl[1]", "MY.a =?= TARGET.a",
        "eval(\"a\")", "eval(\"ta\")", "eval(\"TARGET.a\")", "eval(\"MY.a + 1\")",
        "unparse(c)", "unparse(ta)", "unparse(td)", "unparse(x)", "unparse(MY.c)",
        "unparse(TARGET.td)", "unresolved(c)", "unresolved(d)",
    ]
    for e in exprs:
        c.add("scope-both", e, my=my, target=target)
    for e in exprs[:40] + ["MY.a", "MY.x", "TARGET.a", "my.a", "other.a", "MY", "TARGET",
                           "[q = MY.a].q", "eval(\"MY.a\")"]:
        c.add("scope-my", e, my=my)
    for e in ["a", "ta", "MY.a", "TARGET.a", "TARGET.ta", "tc", "TARGET.tc", "TARGET.tmy",
              "TARGET.ttarget", "MY", "TARGET", "other.ta", "tu"]:
        c.add("scope-target", e, target=target)
    # Nested-ad scoping in the MY ad.
    nested = "[ a = 1; n = [ a = 2; b = a; c = parent.a; d = self.a; e = .a; f = MY.a; " \
             "g = TARGET.a; h = ta; i = root.a; j = [ k = parent.parent.a; m = a ] ] ]"
    for e in ["n.b", "n.c", "n.d", "n.e", "n.f", "n.g", "n.h", "n.i", "n.j.k", "n.j.m",
              "n.a", "n.parent.a", "n.j.parent.a"]:
        c.add("scope-nested", e, my=nested, target="[ a = 30; ta = 40 ]")
        c.add("scope-nested", e, my=nested)


def g_match(c):
    job = ("[ MyType = \"Job\"; Owner = \"alice\"; RequestMemory = 2048; RequestCpus = 2; "
           "RequestDisk = 1000000; ImageSize = 512; DiskUsage = 100; "
           "Requirements = TARGET.Arch == \"X86_64\" && TARGET.OpSys == \"LINUX\" && "
           "TARGET.Memory >= RequestMemory && TARGET.Cpus >= RequestCpus; "
           "Rank = TARGET.Memory + TARGET.Mips; JobPrio = 0; NiceUser = false; "
           "WantGPU = undefined; AcctGroup = \"group_physics.alice\"; "
           "Env = \"A=1;B=2\"; Args = \"-x 1\"; Cmd = \"/bin/sleep\"; "
           "JobStatus = 1; QDate = 1700000000; ConcurrencyLimits = \"license_a,license_b:2\" ]")
    machine = ("[ MyType = \"Machine\"; Name = \"slot1@host.example.org\"; Arch = \"X86_64\"; "
               "OpSys = \"LINUX\"; Memory = 4096; Cpus = 4; Disk = 50000000; Mips = 1000; "
               "KFlops = 900000; State = \"Unclaimed\"; Activity = \"Idle\"; LoadAvg = 0.25; "
               "Requirements = TARGET.RequestMemory <= MY.Memory && START; START = true; "
               "Rank = TARGET.JobPrio; HasDocker = true; GPUs = 0; "
               "CpuModel = \"Intel(R) Xeon(R)\"; Slotweight = Cpus; "
               "TotalMemory = Memory * 2; OwnerList = \"alice,bob\" ]")
    exprs = [
        "Requirements", "Rank", "MY.Requirements", "TARGET.Requirements", "TARGET.Rank",
        "RequestMemory", "Memory", "TARGET.Memory", "MY.Memory", "Memory >= RequestMemory",
        "TARGET.Memory >= MY.RequestMemory", "Arch == \"x86_64\"", "Arch =?= \"x86_64\"",
        "TARGET.Arch =?= \"X86_64\"", "OpSys == \"LINUX\" && Arch == \"X86_64\"",
        "TARGET.Cpus * 1024 >= RequestMemory", "RequestCpus <= Cpus", "Disk >= RequestDisk",
        "TARGET.Disk >= RequestDisk * 2", "Mips * 2", "TARGET.LoadAvg < 0.5",
        "State == \"Unclaimed\" && Activity == \"Idle\"", "START", "TARGET.START", "MY.START",
        "WantGPU", "WantGPU =?= true", "WantGPU == true", "GPUs > 0 || WantGPU =!= true",
        "HasDocker", "TARGET.HasDocker =?= true", "Owner", "TARGET.Owner", "Name",
        "TARGET.Name", "MY.Name", "stringListMember(Owner, TARGET.OwnerList)",
        "stringListMember(Owner, OwnerList)", "regexp(\"^slot1@\", TARGET.Name)",
        "splitSlotName(TARGET.Name)", "splitUserName(AcctGroup)", "Slotweight",
        "TARGET.Slotweight", "TotalMemory", "TARGET.TotalMemory", "TotalMemory / RequestMemory",
        "NiceUser", "NiceUser || TARGET.HasDocker", "JobPrio + Rank", "ifThenElse(NiceUser, 0, Rank)",
        "QDate < 1800000000", "MyType", "TARGET.MyType", "MY.MyType", "other.MyType",
        "TARGET.Requirements && MY.Requirements", "Requirements && TARGET.Requirements",
        "ConcurrencyLimits", "stringListSize(ConcurrencyLimits)", "KFlops / 1000",
        "CpuModel", "toLower(CpuModel)", "size(TARGET.CpuModel)", "Nonexistent",
        "TARGET.Nonexistent", "MY.Nonexistent", "Nonexistent =?= undefined",
        "Nonexistent || true", "Nonexistent && false", "Memory - RequestMemory",
        "real(Memory) / RequestMemory", "Memory / RequestMemory", "Memory % 1000",
        "Cpus == RequestCpus * 2", "Env", "Cmd", "Args", "JobStatus == 1", "TARGET.JobStatus",
    ]
    for e in exprs:
        c.add("match-job", e, my=job, target=machine)
    for e in exprs[:45]:
        c.add("match-machine", e, my=machine, target=job)


def g_fn_types(c):
    preds = ["isUndefined", "isError", "isString", "isInteger", "isReal", "isBoolean",
             "isList", "isClassAd", "isAbstime", "isReltime"]
    vals = ["undefined", "error", '"s"', '""', "1", "-1", "1.5", "true", "false", "{}",
            "{1}", "[]", "[a=1]", "absTime(0)", "relTime(0)", "x", "1/0", "real(\"NaN\")",
            "absTime(\"2020-01-01\")", "relTime(\"1d\")", "{1}[0]", "[a=1].a", "[a=[b=1]].a"]
    for p in preds:
        for v in vals:
            c.add("fn-is", "%s(%s)" % (p, v))
        c.add("fn-is", "%s()" % p)
        c.add("fn-is", "%s(1, 2)" % p)
        c.add("fn-is", "%s(undefined, undefined)" % p)
        c.add("fn-is", "%s(%s)" % (p.upper(), "1"))
        c.add("fn-is", "%s(%s)" % (p.lower(), "1"))


def g_fn_lists(c):
    c.many("fn-member", [
        "member(1, {1, 2})", "member(3, {1, 2})", "member(1.0, {1, 2})", "member(1, {1.0})",
        "member(\"a\", {\"A\", \"b\"})", "member(\"a\", {\"a\"})", "member(true, {1})",
        "member(1, {true})", "member(undefined, {1})", "member(1, {undefined, 1})",
        "member(1, {undefined})", "member(1, {error, 1})", "member(1, {1, error})",
        "member(error, {1})", "member(1, undefined)", "member(1, error)", "member(1, 1)",
        "member(1, \"1\")", "member({1}, {{1}})", "member(1, {})", "member(1)", "member()",
        "member(1, {1}, 2)", "member(\"a\", \"a, b\")", "member(x, {1})", "member(1, {x, 1})",
        "member(1, {1, x})", "member(2, {1, x})", "member([a=1], {[a=1]})",
        "member(absTime(5), {absTime(5)})", "member(relTime(5), {5})",
        "identicalMember(1, {1, 2})", "identicalMember(1, {1.0})", "identicalMember(\"a\", {\"A\"})",
        "identicalMember(\"a\", {\"a\"})", "identicalMember(undefined, {undefined})",
        "identicalMember(undefined, {1})", "identicalMember(error, {error})",
        "identicalMember(1, {undefined, 1})", "identicalMember(1, undefined)",
        "identicalMember(1, {error})", "identicalMember(true, {1})", "identicalMember(1)",
        "identicalMember(1, {1}, 1)", "identicalMember({1}, {{1}})", "identicalMember(x, {x})",
        "isMember(1, {1})",
    ])
    c.many("fn-size", [
        "size({})", "size({1, 2, 3})", "size({{1, 2}})", "size(\"\")", "size(\"abc\")",
        "size(\"\u00e9\")", "size([])", "size([a = 1; b = 2])", "size(1)", "size(1.5)",
        "size(true)", "size(undefined)", "size(error)", "size()", "size({1}, {2})",
        "size(x)", "size({x, y})", "size(absTime(0))", "size(relTime(0))", "size(\"a\" \"b\")",
    ])
    for f in ("sum", "avg", "min", "max"):
        c.many("fn-" + f, ["%s(%s)" % (f, a) for a in [
            "{}", "{1}", "{1, 2, 3}", "{1, 2.5}", "{2.5, 1}", "{-1, -2}", "{1, 2, 4}",
            "{3, 1, 2}", "{1.5, 2.5}", "{true, 1}", "{true}", "{false, true}", "{1, \"a\"}",
            "{\"a\", \"b\"}", "{1, undefined}", "{undefined, 1}", "{undefined}", "{1, error}",
            "{error, 1}", "{1, {2}}", "{x}", "{1, x}", "{9223372036854775807, 1}",
            "{1e308, 1e308}", "{real(\"NaN\"), 1}", "{1, real(\"NaN\")}", "{0.0, -0.0}",
            "{-0.0, 0.0}", "{absTime(5)}", "{relTime(5), relTime(6)}", "undefined", "error",
            "1", "\"1,2\"", "[a=1]", "", "{1}, {2}", "{1, 2, 3, 4}", "{7, 7}", "{1, 1.0}",
            "{1.0, 1}",
        ]])
    for f in ("anyCompare", "allCompare"):
        args = [
            '"<", {1, 2, 3}, 2', '">", {1, 2, 3}, 2', '"<=", {1, 2, 3}, 1', '">=", {1, 2, 3}, 4',
            '"==", {1, 2, 3}, 2', '"!=", {1, 2, 3}, 2', '"==", {2, 2}, 2', '"=?=", {1, 1.0}, 1',
            '"=!=", {1, 1.0}, 1', '"is", {undefined}, undefined', '"isnt", {1}, undefined',
            '"==", {}, 1', '"==", {"a", "A"}, "a"', '"<", {"a", "b"}, "B"',
            '"==", {undefined, 1}, 1', '"==", {1, undefined}, 1', '"==", {error}, 1',
            '"==", {1}, undefined', '"==", {1}, error', '"==", undefined, 1', '"==", 1, 1',
            '"foo", {1}, 1', '"+", {1}, 1', '"&&", {true}, true', '"||", {false}, true',
            'undefined, {1}, 1', '1, {1}, 1', '"LT", {1}, 2', '" <", {1}, 2', '"<"',
            '"<", {1}', '"<", {1}, 2, 3', '"==", {x}, 1', '"==", {1, 2}, "1"',
            '"=?=", {undefined}, undefined', '"<", {1, "a"}, 2',
        ]
        c.many("fn-" + f.lower(), ["%s(%s)" % (f, a) for a in args])


def g_fn_strings(c):
    c.many("fn-strcat", [
        "strcat()", "strcat(\"a\")", "strcat(\"a\", \"b\")", "strcat(\"a\", \"b\", \"c\")",
        "strcat(1)", "strcat(1, 2)", "strcat(1.5)", "strcat(0.1)", "strcat(-0.0)",
        "strcat(1e300)", "strcat(true)", "strcat(false)", "strcat(\"a\", undefined)",
        "strcat(undefined, \"a\")", "strcat(\"a\", error)", "strcat(error, undefined)",
        "strcat(undefined, error)", "strcat({1, 2})", "strcat([a = 1])", "strcat(\"x\", {1})",
        "strcat(absTime(0))", "strcat(relTime(5))", "strcat(relTime(90061))",
        "strcat(real(\"INF\"))", "strcat(real(\"NaN\"))", "strcat(\"\\n\")", "strcat(\"\\\"\")",
        "strcat(\"a\", \"\", \"b\")", "strcat(x)", "strcat(\"a\", x)", "strcat({\"a\"})",
        "strcat(9223372036854775807)", "strcat(-9223372036854775807 - 1)", "strcat(1, \"a\", 2.5)",
        "strcat(1.0)", "strcat(100000.0)", "strcat(1e15)", "strcat(1e16)", "strcat(0.5)",
        "strcat(123456789.123)", "strcat(1.0/3)", "strcat({1/0})", "strcat([a = 1/0])",
    ])
    c.many("fn-join", [
        "join()", "join(\",\")", "join(\",\", \"a\")", "join(\",\", \"a\", \"b\")",
        "join(\",\", {\"a\", \"b\"})", "join(\", \", {\"a\", \"b\", \"c\"})", "join(\",\", {})",
        "join({\"a\", \"b\"})", "join(\",\", {1, 2.5, true})", "join(\",\", {\"a\", undefined})",
        "join(\",\", {\"a\", error})", "join(\",\", {{1}})", "join(1, {\"a\", \"b\"})",
        "join(undefined, {\"a\"})", "join(error, {\"a\"})", "join(\",\", undefined)",
        "join(\",\", error)", "join(\",\", 1, 2)", "join(\"\", {\"a\", \"b\"})",
        "join(\",\", \"a\", {\"b\"})", "join({\"a\"}, {\"b\"})", "join(\"-\", 1)",
        "join(\",\", {x, \"b\"})", "join(\",\", \"a\", undefined)", "join(\",\", [a = 1])",
        "join(\",\", {[a=1]})", "join(\"\\n\", {\"a\", \"b\"})",
    ])
    c.many("fn-split", [
        "split(\"a b c\")", "split(\"a,b,c\")", "split(\"a, b , c\")", "split(\"  a  b  \")",
        "split(\"\")", "split(\" \")", "split(\",\")", "split(\"a,,b\")", "split(\"a\\tb\\nc\")",
        "split(\"a;b\", \";\")", "split(\"a;b,c\", \";\")", "split(\"a;;b\", \";\")",
        "split(\"a-b_c\", \"-_\")", "split(\"abc\", \"\")", "split(\"a b\", \" \")",
        "split(\"a,b\", \",\")", "split(\"a.b.c\", \".\")", "split(1)", "split(undefined)",
        "split(error)", "split(\"a\", undefined)", "split(\"a\", 1)", "split()",
        "split(\"a\", \",\", 1)", "split({\"a\"})", "split(\"a;b\", \";\", \",\")",
        "split(\"x\", \"x\")", "split(\"xax\", \"x\")",
    ])
    c.many("fn-substr", [
        "substr(\"abcdef\", 0)", "substr(\"abcdef\", 2)", "substr(\"abcdef\", 6)",
        "substr(\"abcdef\", 7)", "substr(\"abcdef\", -1)", "substr(\"abcdef\", -2)",
        "substr(\"abcdef\", -6)", "substr(\"abcdef\", -7)", "substr(\"abcdef\", 1, 2)",
        "substr(\"abcdef\", 1, 0)", "substr(\"abcdef\", 1, -1)", "substr(\"abcdef\", 1, -5)",
        "substr(\"abcdef\", 1, -6)", "substr(\"abcdef\", 1, 100)", "substr(\"abcdef\", -3, 2)",
        "substr(\"abcdef\", -3, -1)", "substr(\"abcdef\", 2.9)", "substr(\"abcdef\", 1, 2.9)",
        "substr(\"abcdef\", true)", "substr(\"abcdef\", \"1\")", "substr(\"\", 0)",
        "substr(\"\", 0, 1)", "substr(\"\", 1)", "substr(1234, 1)", "substr(12.5, 1)",
        "substr(true, 1)", "substr(undefined, 1)", "substr(error, 1)", "substr(\"abc\", undefined)",
        "substr(\"abc\", error)", "substr(\"abc\", 1, undefined)", "substr(\"abc\", 1, error)",
        "substr(\"abc\")", "substr()", "substr(\"abc\", 1, 1, 1)", "substr({1}, 0)",
        "substr(\"caf\u00e9\", 3)", "substr(\"caf\u00e9\", 3, 1)", "substr(\"abc\", 0, 9223372036854775807)",
        "substr(\"abc\", -9223372036854775807)", "substr(\"abc\", 1, -9223372036854775807)",
    ])
    c.many("fn-strcmp", [
        "strcmp(\"a\", \"b\")", "strcmp(\"b\", \"a\")", "strcmp(\"a\", \"a\")", "strcmp(\"a\", \"A\")",
        "strcmp(\"A\", \"a\")", "strcmp(\"abc\", \"ab\")", "strcmp(\"ab\", \"abc\")", "strcmp(\"\", \"\")",
        "strcmp(\"\", \"a\")", "strcmp(\"a\", \"z\")", "strcmp(\"z\", \"a\")", "strcmp(1, 2)",
        "strcmp(10, 9)", "strcmp(1, \"1\")", "strcmp(1.5, \"1.5\")", "strcmp(true, \"true\")",
        "strcmp(undefined, \"a\")", "strcmp(\"a\", undefined)", "strcmp(error, \"a\")",
        "strcmp(\"a\")", "strcmp(\"a\", \"b\", \"c\")", "strcmp({1}, \"a\")", "strcmp(\"_\", \"a\")",
        "strcmp(\"\u00e9\", \"e\")", "strcmp(\"a,b\", \"a\")",
        "stricmp(\"a\", \"A\")", "stricmp(\"abc\", \"ABD\")", "stricmp(\"B\", \"a\")",
        "stricmp(\"b\", \"A\")", "stricmp(\"_\", \"a\")", "stricmp(\"_\", \"A\")", "stricmp(\"\", \"\")",
        "stricmp(\"a\", \"\")", "stricmp(1, \"1\")", "stricmp(undefined, \"a\")",
        "stricmp(\"a\", error)", "stricmp(\"a\")", "stricmp(\"ABC\", \"abc\")", "stricmp(\"Z\", \"a\")",
        "stricmp(\"[\", \"a\")", "stricmp(\"[\", \"A\")",
    ])
    c.many("fn-case", [
        "toUpper(\"abc\")", "toUpper(\"aBc1_!\")", "toUpper(\"\")", "toUpper(\"\u00e9\")",
        "toUpper(1)", "toUpper(1.5)", "toUpper(true)", "toUpper(undefined)", "toUpper(error)",
        "toUpper({\"a\"})", "toUpper([a = 1])", "toUpper()", "toUpper(\"a\", \"b\")",
        "toLower(\"ABC\")", "toLower(\"AbC1_!\")", "toLower(\"\")", "toLower(\"\u00c9\")",
        "toLower(1)", "toLower(TRUE)", "toLower(undefined)", "toLower(error)", "toLower()",
        "toupper(\"x\")", "tolower(\"X\")", "TOUPPER(\"x\")", "ToLower(\"X\")", "toLower(x)",
        "toUpper(absTime(0))", "toLower(relTime(5))", "toUpper(2.5e10)",
    ])
    c.many("fn-regexp", [
        "regexp(\"a.c\", \"abc\")", "regexp(\"a.c\", \"xabcx\")", "regexp(\"^a.c$\", \"xabcx\")",
        "regexp(\"A\", \"abc\")", "regexp(\"A\", \"abc\", \"i\")", "regexp(\"A\", \"abc\", \"I\")",
        "regexp(\"^b\", \"a\\nb\")", "regexp(\"^b\", \"a\\nb\", \"m\")", "regexp(\"a.b\", \"a\\nb\")",
        "regexp(\"a.b\", \"a\\nb\", \"s\")", "regexp(\"a b\", \"ab\", \"x\")", "regexp(\"\", \"abc\")",
        "regexp(\"x*\", \"\")", "regexp(\"[\", \"abc\")", "regexp(\"(\", \"abc\")",
        "regexp(\"a\", \"abc\", \"z\")", "regexp(\"a\", \"abc\", \"\")", "regexp(\"\\\\d+\", \"a12\")",
        "regexp(\"^\\\\w+$\", \"abc_1\")", "regexp(\"^[a-z]+$\", \"abC\")",
        "regexp(\"^[a-z]+$\", \"abC\", \"i\")", "regexp(\"(a|b)+c\", \"ababc\")",
        "regexp(\"a{2}\", \"aa\")", "regexp(\"\\\\.\", \"a.b\")", "regexp(\"\\\\.\", \"ab\")",
        "regexp(1, \"1\")", "regexp(\"1\", 1)", "regexp(undefined, \"a\")", "regexp(\"a\", undefined)",
        "regexp(error, \"a\")", "regexp(\"a\", error)", "regexp(\"a\", \"a\", undefined)",
        "regexp(\"a\", \"a\", 1)", "regexp(\"a\")", "regexp()", "regexp(\"a\", \"a\", \"i\", \"x\")",
        "regexp(\"caf.\", \"caf\u00e9\")", "regexp(\"^.{4}$\", \"caf\u00e9\")",
        "regexp(\"(?i)abc\", \"ABC\")", "regexp(\"a+?\", \"aaa\")", "regexp(\"\\\\bfoo\\\\b\", \"a foo b\")",
        "regexp(\"^$\", \"\")", "regexp(\"a\", {\"a\"})",
    ])
    c.many("fn-regexps", [
        "regexps(\"a(b)c\", \"xabcx\", \"[\\\\1]\")", "regexps(\"a(b)c\", \"abc\", \"\\\\0\")",
        "regexps(\"(a)(b)\", \"ab\", \"\\\\2\\\\1\")", "regexps(\"b\", \"abcb\", \"X\")",
        "regexps(\"z\", \"abc\", \"X\")", "regexps(\"B\", \"abc\", \"X\", \"i\")",
        "regexps(\"B\", \"abc\", \"X\")", "regexps(\"a\", \"abc\", \"\\\\\\\\\")",
        "regexps(\"(a)\", \"abc\", \"\\\\9\")", "regexps(\"(\", \"abc\", \"X\")",
        "regexps(\"a\", \"abc\")", "regexps(undefined, \"a\", \"b\")", "regexps(\"a\", undefined, \"b\")",
        "regexps(\"a\", \"a\", undefined)", "regexps(\"a\", \"a\", error)", "regexps(1, \"1\", \"x\")",
        "regexps(\"a\", \"a\", 1)", "regexps(\"^\", \"abc\", \"X\")", "regexps(\"\", \"abc\", \"X\")",
        "regexps(\"b*\", \"abc\", \"X\")", "regexps(\"a\", \"aaa\", \"b\", \"g\")",
        "replace(\"b\", \"abcb\", \"X\")", "replace(\"z\", \"abc\", \"X\")", "replace(\"(b)\", \"abc\", \"<\\\\1>\")",
        "replace(\"B\", \"abc\", \"X\", \"i\")", "replace(\"a\", \"aaa\", \"b\")", "replace(\"\", \"abc\", \"-\")",
        "replace(\"^\", \"abc\", \"-\")", "replace(undefined, \"a\", \"b\")", "replace(\"a\")",
        "replaceall(\"b\", \"abcb\", \"X\")", "replaceall(\"a\", \"aaa\", \"b\")",
        "replaceall(\"(a)\", \"aXa\", \"<\\\\1>\")", "replaceall(\"A\", \"aAa\", \"-\", \"i\")",
        "replaceall(\"\", \"abc\", \"-\")", "replaceall(\"x*\", \"abc\", \"-\")", "replaceall(\"z\", \"abc\", \"-\")",
        "replaceall(\"b\", \"\", \"X\")", "replaceall(\"(\", \"abc\", \"X\")", "replaceall(undefined, \"a\", \"b\")",
        "replaceall(\"a\", \"a\", error)", "replaceall(\"a\", \"a\")", "replaceall(\"[0-9]+\", \"a1b22c333\", \"#\")",
        "replaceall(\"(\\\\w)(\\\\w)\", \"abcd\", \"\\\\2\\\\1\")",
    ])
    c.many("fn-regexpmember", [
        "regexpMember(\"a.\", {\"ab\", \"c\"})", "regexpMember(\"^z\", {\"ab\", \"c\"})",
        "regexpMember(\"A\", {\"a\"})", "regexpMember(\"A\", {\"a\"}, \"i\")", "regexpMember(\"a\", {})",
        "regexpMember(\"a\", {1, \"a\"})", "regexpMember(\"a\", {\"a\", 1})", "regexpMember(\"a\", {undefined})",
        "regexpMember(\"a\", {undefined, \"a\"})", "regexpMember(\"a\", {\"a\", undefined})",
        "regexpMember(\"a\", {error})", "regexpMember(\"a\", \"a\")", "regexpMember(\"a\", undefined)",
        "regexpMember(undefined, {\"a\"})", "regexpMember(1, {\"1\"})", "regexpMember(\"(\", {\"a\"})",
        "regexpMember(\"a\")", "regexpMember(\"a\", {\"a\"}, \"i\", 1)", "regexpMember(\"a\", {x})",
    ])


def g_fn_stringlist(c):
    c.many("fn-sl-size", [
        "stringListSize(\"a,b,c\")", "stringListSize(\"a, b, c\")", "stringListSize(\"a b c\")",
        "stringListSize(\"\")", "stringListSize(\" \")", "stringListSize(\",\")", "stringListSize(\"a,,b\")",
        "stringListSize(\"a;b\")", "stringListSize(\"a;b\", \";\")", "stringListSize(\"a;b c\", \";\")",
        "stringListSize(\"a,b\", \"\")", "stringListSize(\"a\\tb\")", "stringListSize(1)",
        "stringListSize(undefined)", "stringListSize(error)", "stringListSize(\"a\", undefined)",
        "stringListSize()", "stringListSize(\"a\", \",\", 1)", "stringListSize({\"a\"})",
        "stringListSize(\"a,b\", 1)", "stringListSize(\" a , b \")", "stringListSize(\",a,\")",
    ])
    for f in ("stringListSum", "stringListAvg", "stringListMin", "stringListMax"):
        c.many("fn-sl-" + f[10:].lower(), ["%s(%s)" % (f, a) for a in [
            "\"1,2,3\"", "\"1, 2.5\"", "\"3 1 2\"", "\"-1,-2\"", "\"\"", "\"a\"", "\"1,a\"",
            "\"1;2\", \";\"", "\"1;2\"", "\"1e3,2\"", "\"0x10\"", "\" 1 , 2 \"", "\"1,,2\"",
            "\"9223372036854775807,1\"", "\"1.5\"", "\"true\"", "undefined", "error", "1",
            "", "\"1\", undefined", "\"1\", \",\", 1", "\"2,1\"", "\"inf\"", "\"nan\"",
            "\"1.0,2\"", "\"01,2\"", "\"+1\"", "\"1.\"", "\".5\"",
        ]])
    c.many("fn-sl-member", [
        "stringListMember(\"a\", \"a,b\")", "stringListMember(\"c\", \"a,b\")", "stringListMember(\"A\", \"a,b\")",
        "stringListMember(\"a\", \"a b\")", "stringListMember(\"a\", \" a , b \")", "stringListMember(\"\", \"a,,b\")",
        "stringListMember(\"\", \"\")", "stringListMember(\"a b\", \"a b,c\")", "stringListMember(\"a\", \"a;b\", \";\")",
        "stringListMember(\"a\", \"a;b\")", "stringListMember(\"a;b\", \"a;b\")", "stringListMember(1, \"1,2\")",
        "stringListMember(1.5, \"1.5\")", "stringListMember(true, \"true\")", "stringListMember(undefined, \"a\")",
        "stringListMember(\"a\", undefined)", "stringListMember(error, \"a\")", "stringListMember(\"a\", error)",
        "stringListMember(\"a\")", "stringListMember(\"a\", \"a\", \",\", 1)", "stringListMember(\"a\", {\"a\"})",
        "stringListMember(\"a\", \"a\", undefined)", "stringListMember(\"a\", \"xa\")", "stringListMember(\"a\", \"a,\")",
        "stringListIMember(\"A\", \"a,b\")", "stringListIMember(\"a\", \"A,B\")", "stringListIMember(\"c\", \"a,b\")",
        "stringListIMember(\"A\", \"a;b\", \";\")", "stringListIMember(undefined, \"a\")", "stringListIMember(\"a\", error)",
        "stringListIMember(1, \"1\")", "stringListIMember(\"a\")", "stringListIMember(\"\u00e9\", \"\u00c9\")",
        "stringlistmember(\"a\", \"a\")", "STRINGLISTMEMBER(\"a\", \"a\")",
    ])
    c.many("fn-sl-intersect", [
        "stringListsIntersect(\"a,b\", \"b,c\")", "stringListsIntersect(\"a,b\", \"c,d\")",
        "stringListsIntersect(\"a,b\", \"B,c\")", "stringListsIntersect(\"\", \"\")", "stringListsIntersect(\"a\", \"\")",
        "stringListsIntersect(\"a;b\", \"b;c\", \";\")", "stringListsIntersect(\"a;b\", \"b;c\")",
        "stringListsIntersect(\"a b\", \"b c\")", "stringListsIntersect(undefined, \"a\")",
        "stringListsIntersect(\"a\", undefined)", "stringListsIntersect(error, \"a\")", "stringListsIntersect(1, \"1\")",
        "stringListsIntersect(\"a\")", "stringListsIntersect(\"a\", \"a\", \",\", 1)", "stringListsIntersect(\"a\", \"a\", 1)",
        "stringListsIntersect({\"a\"}, \"a\")",
    ])
    c.many("fn-sl-subset", [
        "stringListSubsetMatch(\"a\", \"a,b\")", "stringListSubsetMatch(\"a,b\", \"a\")",
        "stringListSubsetMatch(\"a,b\", \"b,a,c\")", "stringListSubsetMatch(\"\", \"a\")", "stringListSubsetMatch(\"\", \"\")",
        "stringListSubsetMatch(\"a\", \"\")", "stringListSubsetMatch(\"A\", \"a\")", "stringListSubsetMatch(\"a;b\", \"a;b;c\", \";\")",
        "stringListSubsetMatch(\"a,a\", \"a\")", "stringListSubsetMatch(undefined, \"a\")", "stringListSubsetMatch(\"a\", error)",
        "stringListSubsetMatch(1, \"1\")", "stringListSubsetMatch(\"a\")",
        "stringListISubsetMatch(\"A\", \"a,b\")", "stringListISubsetMatch(\"A,B\", \"b,a\")", "stringListISubsetMatch(\"c\", \"a\")",
        "stringListISubsetMatch(\"a;B\", \"A;b\", \";\")", "stringListISubsetMatch(undefined, \"a\")", "stringListISubsetMatch(\"a\")",
    ])
    c.many("fn-sl-regexp", [
        "stringList_regexpMember(\"^a\", \"ab,c\")", "stringList_regexpMember(\"^z\", \"ab,c\")",
        "stringList_regexpMember(\"^A\", \"ab,c\")", "stringList_regexpMember(\"^A\", \"ab,c\", \",\", \"i\")",
        "stringList_regexpMember(\"^b\", \"a;b\", \";\")", "stringList_regexpMember(\"(\", \"a\")",
        "stringList_regexpMember(undefined, \"a\")", "stringList_regexpMember(\"a\", undefined)",
        "stringList_regexpMember(\"a\")", "stringList_regexpMember(1, \"1\")", "stringList_regexpMember(\"a\", \"\")",
        "stringListRegexpMember(\"^a\", \"ab,c\")", "stringList_regexpMember(\"^b\", \"a b\")",
    ])


def g_fn_version(c):
    pairs = [("1.2.3", "1.2.3"), ("1.2.3", "1.2.4"), ("1.10", "1.9"), ("1.2", "1.2.0"),
             ("1.2a", "1.2b"), ("a", "b"), ("", ""), ("", "1"), ("1.02", "1.2"), ("01", "1"),
             ("1.2.3", "1.2.3a"), ("2.0", "10.0"), ("1-2", "1.2"), ("abc10", "abc9"),
             ("8.9.10", "8.10.1"), ("1.0.0", "1"), ("v1", "v2"), ("1.2.3", "1.2.30"),
             ("x86_64", "X86_64"), ("10", "9"), ("a1b2", "a1b10"), ("1.2.3.4.5", "1.2.3.4.6")]
    for a, b in pairs:
        c.add("fn-versioncmp", "versioncmp(%s, %s)" % (q(a), q(b)))
    for f in ("versionLT", "versionLE", "versionGT", "versionGE", "versionEQ"):
        for a, b in pairs[:12]:
            c.add("fn-version", "%s(%s, %s)" % (f, q(a), q(b)))
        for extra in ("1, 2", "undefined, \"1\"", "\"1\", undefined", "error, \"1\"", "\"1\"",
                      "\"1\", \"2\", \"3\"", "{1}, \"1\"", "1.5, \"1.5\"", "true, \"1\""):
            c.add("fn-version", "%s(%s)" % (f, extra))
    c.many("fn-versioncmp", [
        "versioncmp(1, 2)", "versioncmp(10, 9)", "versioncmp(undefined, \"1\")", "versioncmp(\"1\", error)",
        "versioncmp(\"1\")", "versioncmp(\"1\", \"2\", \"3\")", "versioncmp(1.5, \"1.5\")", "VersionCmp(\"1\", \"2\")",
    ])
    c.many("fn-version-range", [
        "version_in_range(\"1.5\", \"1.0\", \"2.0\")", "version_in_range(\"1.0\", \"1.0\", \"2.0\")",
        "version_in_range(\"2.0\", \"1.0\", \"2.0\")", "version_in_range(\"2.1\", \"1.0\", \"2.0\")",
        "version_in_range(\"0.9\", \"1.0\", \"2.0\")", "version_in_range(\"1.5\", \"2.0\", \"1.0\")",
        "version_in_range(\"8.9.10\", \"8.8\", \"8.10\")", "version_in_range(1, 0, 2)",
        "version_in_range(undefined, \"1\", \"2\")", "version_in_range(\"1\", undefined, \"2\")",
        "version_in_range(\"1\", \"1\", error)", "version_in_range(\"1\", \"2\")", "version_in_range(\"a\", \"a\", \"b\")",
        "versionInRange(\"1.5\", \"1.0\", \"2.0\")",
    ])


def g_fn_math(c):
    for f in ("floor", "ceiling", "ceil", "round"):
        c.many("fn-" + f, ["%s(%s)" % (f, a) for a in [
            "2.5", "-2.5", "3.5", "-3.5", "2.4", "2.6", "-2.4", "-2.6", "0.5", "-0.5", "1.5",
            "0.0", "-0.0", "5", "-5", "true", "false", "\"2.5\"", "\"abc\"", "\"7\"", "undefined",
            "error", "1e300", "-1e300", "1e19", "9.2233720368547758e18", "real(\"INF\")",
            "real(\"NaN\")", "absTime(5)", "relTime(5)", "relTime(5.5)", "{1}", "", "1, 2",
            "4503599627370495.5", "0.49999999999999994", "x",
        ]])
    c.many("fn-pow", [
        "pow(2, 10)", "pow(2, 0)", "pow(2, -1)", "pow(-2, 3)", "pow(0, 0)", "pow(0, -1)",
        "pow(2, 62)", "pow(2, 63)", "pow(2, 64)", "pow(3, 40)", "pow(-2, 63)", "pow(10, 18)",
        "pow(2.0, 10)", "pow(2, 0.5)", "pow(-8, 1.0/3)", "pow(4, 0.5)", "pow(1.5, 2)",
        "pow(0.0, -1)", "pow(-1, 0.5)", "pow(1e200, 2)", "pow(2, -1074)", "pow(true, 2)",
        "pow(2, true)", "pow(\"2\", 2)", "pow(undefined, 2)", "pow(2, undefined)", "pow(error, 2)",
        "pow(2)", "pow(2, 2, 2)", "pow()", "pow(-1, 9223372036854775807)", "pow(1, -5)",
        "pow(-1, -1)", "pow(2, -2)", "pow(0, 5)", "pow(real(\"INF\"), 0)",
        "pow(-2, 1)", "pow(-2, 2)", "pow(-2, 4)", "pow(-2, 5)", "pow(-3, 3)", "pow(-1, 3)",
        "pow(-1, 2)", "pow(-10, 3)", "pow(-5, 0)", "pow(3, 3)", "pow(5, 3)", "pow(7, 2)",
        "pow(-2, 62)", "pow(2, 61)", "pow(3, 39)", "pow(-3, 39)", "pow(10, 19)", "pow(-2.0, 3)",
    ])
    c.many("fn-quantize", [
        "quantize(3, 4)", "quantize(4, 4)", "quantize(5, 4)", "quantize(0, 4)", "quantize(-3, 4)",
        "quantize(3, 2.5)", "quantize(3.5, 2)", "quantize(3.5, 2.5)", "quantize(1, 0)", "quantize(1.5, 0)",
        "quantize(1, 0.0)", "quantize(3, -4)", "quantize(3, {4})", "quantize(3, {1, 2, 4})",
        "quantize(5, {1, 2, 4})", "quantize(0, {1, 2, 4})", "quantize(3, {1, 2.5, 4})",
        "quantize(2.2, {1, 2.5, 4})", "quantize(3, {})", "quantize(3, {\"a\"})", "quantize(3, {1, \"a\"})",
        "quantize(3, {\"a\", 4})", "quantize(3, {undefined, 4})", "quantize(true, 4)", "quantize(3, true)",
        "quantize(\"3\", 4)", "quantize(undefined, 4)", "quantize(3, undefined)", "quantize(error, 4)",
        "quantize(3)", "quantize(3, 4, 5)", "quantize(9223372036854775807, 2)", "quantize(7, 3.0)",
        "quantize(1e300, 7)", "quantize(-0.5, 1)",
    ])
    c.many("fn-int", [
        "int(5)", "int(5.9)", "int(-5.9)", "int(0.5)", "int(-0.5)", "int(1e18)", "int(1e19)",
        "int(-1e19)", "int(9.2233720368547758e18)", "int(real(\"INF\"))", "int(real(\"-INF\"))",
        "int(real(\"NaN\"))", "int(true)", "int(false)", "int(\"42\")", "int(\"-42\")", "int(\" 42 \")",
        "int(\"42abc\")", "int(\"abc\")", "int(\"4.7\")", "int(\"-4.7\")", "int(\"1e3\")", "int(\"0x10\")",
        "int(\"010\")", "int(\"\")", "int(\"+5\")", "int(\"9223372036854775808\")", "int(\"99999999999999999999\")",
        "int(undefined)", "int(error)", "int({1})", "int([a=1])", "int(absTime(100))", "int(relTime(100))",
        "int(relTime(1.5))", "int()", "int(1, 2)", "int(x)", "int(\"  \")", "int(\"1 2\")",
    ])
    c.many("fn-real", [
        "real(5)", "real(5.5)", "real(-5)", "real(0)", "real(true)", "real(false)", "real(\"3.25\")",
        "real(\"-3.25\")", "real(\"1e3\")", "real(\"1E-3\")", "real(\".5\")", "real(\"5.\")", "real(\"abc\")",
        "real(\"3.25abc\")", "real(\" 3.25\")", "real(\"INF\")", "real(\"inf\")", "real(\"-INF\")",
        "real(\"Infinity\")", "real(\"NaN\")", "real(\"nan\")", "real(\"-nan\")", "real(\"\")", "real(\"0x10\")",
        "real(\"1e400\")", "real(\"1e-400\")", "real(undefined)", "real(error)", "real({1})",
        "real(absTime(100))", "real(relTime(100))", "real(relTime(1.5))", "real()", "real(1, 2)",
        "real(9223372036854775807)", "real(\"9223372036854775807\")", "real(\"42\")", "real(\"+4\")",
        "real(\"1,5\")",
    ])
    c.many("fn-string", [
        "string(5)", "string(-5)", "string(5.5)", "string(0.1)", "string(1e20)", "string(1.0)",
        "string(-0.0)", "string(true)", "string(false)", "string(\"abc\")", "string(\"a\\\"b\")",
        "string(undefined)", "string(error)", "string({1, \"a\"})", "string([a = 1; b = \"x\"])",
        "string(absTime(0))", "string(absTime(\"2020-06-15T12:30:45+02:00\"))", "string(relTime(0))",
        "string(relTime(5))", "string(relTime(90061))", "string(relTime(-90061))", "string(relTime(0.5))",
        "string(relTime(1.25))", "string(real(\"INF\"))", "string(real(\"NaN\"))", "string()",
        "string(1, 2)", "string(x)", "string({x, 1+2})", "string(1e15)", "string(1e16)",
        "string(123456.789)", "string(9223372036854775807)", "string(\"\\n\")",
    ])
    c.many("fn-bool", [
        "bool(true)", "bool(false)", "bool(0)", "bool(1)", "bool(-1)", "bool(0.0)", "bool(0.1)",
        "bool(real(\"NaN\"))", "bool(\"true\")", "bool(\"TRUE\")", "bool(\"True\")", "bool(\"false\")",
        "bool(\"FALSE\")", "bool(\"yes\")", "bool(\"1\")", "bool(\"0\")", "bool(\"\")", "bool(\" true\")",
        "bool(\"t\")", "bool(undefined)", "bool(error)", "bool({1})", "bool([a=1])", "bool(absTime(0))",
        "bool(relTime(0))", "bool(relTime(1))", "bool()", "bool(1, 2)", "bool(x)",
    ])
    c.many("fn-random", [
        "random(1)", "random(1.0) < 1.0", "random(\"a\")",
        "random(undefined)", "random(error)", "random(1, 2)", "isReal(random())",
        "random() >= 0.0", "isInteger(random(10))", "random(10) < 10", "random(true)",
    ])


def g_fn_time(c):
    epochs = ["0", "1", "86399", "86400", "951782400", "951868800", "1234567890",
              "1700000000", "-1", "-86401", "4102444800", "253402300799", "1e9", "1.5e9"]
    fields = ["getYear", "getMonth", "getDayOfYear", "getDayOfMonth", "getDayOfWeek",
              "getHours", "getMinutes", "getSeconds", "getDays"]
    for f in fields:
        for e in epochs:
            c.add("fn-getfield", "%s(absTime(%s))" % (f, e))
        for r in ["0", "59", "3600", "90061", "-90061", "1.5", "-0.5", "86400"]:
            c.add("fn-getfield", "%s(relTime(%s))" % (f, r))
        for v in ["0", "1.5", "\"2020-01-01\"", "undefined", "error", "", "absTime(0), 1"]:
            c.add("fn-getfield", "%s(%s)" % (f, v))
        c.add("fn-getfield", "%s(absTime(\"2020-06-15T12:30:45+02:00\"))" % f)
        c.add("fn-getfield", "%s(absTime(\"2020-06-15T12:30:45-05:30\"))" % f)
    c.many("fn-abstime", [
        "absTime(0)", "absTime(1)", "absTime(-1)", "absTime(1700000000)", "absTime(1.5)", "absTime(-1.5)",
        "absTime(253402300799)", "absTime(253402300800)", "absTime(1e15)", "absTime(true)",
        "absTime(\"2020-01-01T00:00:00Z\")", "absTime(\"2020-01-01T00:00:00\")", "absTime(\"2020-01-01\")",
        "absTime(\"2020-01-01T12:34:56+05:30\")", "absTime(\"2020-01-01T12:34:56-08:00\")",
        "absTime(\"2020-01-01T12:34:56+0530\")", "absTime(\"20200101T123456Z\")", "absTime(\"2020-02-30\")",
        "absTime(\"2020-13-01\")", "absTime(\"1969-12-31T23:59:59Z\")", "absTime(\"garbage\")",
        "absTime(\"\")", "absTime(\"2020\")", "absTime(\"2020-01-01T25:00:00\")", "absTime(\"2020-01-01 00:00:00\")",
        "absTime(\"2020-01-01T00:00:00.5Z\")", "absTime(\"2020-01-01T00:00Z\")", "absTime(\" 2020-01-01\")",
        "absTime(undefined)", "absTime(error)", "absTime({1})", "absTime(absTime(5))", "absTime(relTime(5))",
        "absTime(5, 0)", "absTime(5, 3600)", "absTime(5, -3600)", "absTime(5, 1.5)", "absTime(5, \"a\")",
        "absTime(5, undefined)", "absTime(5, 0, 0)", "absTime(\"2020-01-01T00:00:00Z\", 3600)",
        "absTime(\"2020-01-01T00:00:00+01:00\")", "absTime(\"2020-01-01T00:00:00-00:00\")",
        "absTime(\"2020-01-01T00:00:00+00:00\")", "absTime(\"2020-\" + \"01-01\")", "absTime(strcat(\"2020-01-01\"))",
        "absTime(\"2020-01-01T00:00:00+14:00\")", "absTime(\"2020-01-01T00:00:00+23:59\")",
    ])
    c.many("fn-reltime", [
        "relTime(0)", "relTime(1)", "relTime(59)", "relTime(60)", "relTime(61)", "relTime(3599)", "relTime(3600)",
        "relTime(86399)", "relTime(86400)", "relTime(90061)", "relTime(-1)", "relTime(-90061)", "relTime(1.5)",
        "relTime(-1.5)", "relTime(0.25)", "relTime(1e9)", "relTime(9223372036854775807)", "relTime(true)",
        "relTime(\"1\")", "relTime(\"1s\")", "relTime(\"1m\")", "relTime(\"1h\")", "relTime(\"1d\")",
        "relTime(\"1d2h3m4s\")", "relTime(\"2h30m\")", "relTime(\"-1d\")", "relTime(\"+1d\")", "relTime(\"1:00\")",
        "relTime(\"1:00:00\")", "relTime(\"1+01:01:01\")", "relTime(\"1+01:01:01.5\")", "relTime(\"01:01:01\")",
        "relTime(\"garbage\")", "relTime(\"\")", "relTime(\"1.5\")", "relTime(\"1D\")", "relTime(\"1 d\")",
        "isReltime(relTime(\"1d\"))", "isReal(relTime(\"1d\"))", "isReltime(relTime(\"1\" + \"d\"))",
        "relTime(\"1\" + \"d\")", "relTime(strcat(\"1d\"))", "relTime(strcat(\"01:00:00\"))", "relTime(strcat(\"garbage\"))",
        "relTime(undefined)", "relTime(error)", "relTime({1})", "relTime(absTime(5))", "relTime(relTime(5))",
        "relTime()", "relTime(1, 2)", "relTime(0.0001)", "relTime(-0.5)",
    ])
    c.many("fn-splittime", [
        "splitTime(absTime(0))", "splitTime(absTime(1700000000))", "splitTime(absTime(\"2020-06-15T12:30:45+02:00\"))",
        "splitTime(absTime(-1))", "splitTime(relTime(0))", "splitTime(relTime(90061))", "splitTime(relTime(-90061))",
        "splitTime(relTime(1.5))", "splitTime(0)", "splitTime(1700000000)", "splitTime(1.5)", "splitTime(\"a\")",
        "splitTime(undefined)", "splitTime(error)", "splitTime()", "splitTime(1, 2)", "splitTime(true)",
        "splitTime(absTime(951782400)).Month", "splitTime(relTime(90061)).Days", "splitTime(absTime(0)).Offset",
    ])
    c.many("fn-formattime", [
        "formatTime(0)", "formatTime(1700000000)", "formatTime(absTime(0))", "formatTime(absTime(1700000000))",
        "formatTime(0, \"%Y-%m-%d %H:%M:%S\")", "formatTime(1700000000, \"%Y-%m-%dT%H:%M:%S\")",
        "formatTime(951782400, \"%j %a %A %b %B\")", "formatTime(951782400, \"%d/%m/%y\")",
        "formatTime(1234567890, \"%e|%I|%p|%M|%S|%u|%w\")", "formatTime(0, \"%%\")", "formatTime(0, \"\")",
        "formatTime(0, \"plain\")", "formatTime(0, \"%s\")", "formatTime(0, \"%Z\")", "formatTime(0, \"%z\")",
        "formatTime(0, \"%c\")", "formatTime(0, \"%x %X\")", "formatTime(0, \"%D %T %R\")", "formatTime(0, \"%C %g %G %V %U %W\")",
        "formatTime(1.5, \"%S\")", "formatTime(-1, \"%Y\")", "formatTime(absTime(\"2020-06-15T12:30:45+02:00\"), \"%H:%M %z\")",
        "formatTime(absTime(\"2020-06-15T12:30:45+02:00\"))", "formatTime(\"a\")", "formatTime(0, 1)",
        "formatTime(undefined)", "formatTime(0, undefined)", "formatTime(error)", "formatTime(relTime(5))",
        "formatTime(0, \"%Y\", 1)", "formatTime(true)", "formatTime(253402300799, \"%Y\")",
        "formatTime(0, \"%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S%H%M%S\")",
    ])
    c.many("fn-timemisc", [
        "interval(0)", "interval(59)", "interval(60)", "interval(61)", "interval(3600)", "interval(3661)",
        "interval(86400)", "interval(90061)", "interval(-1)", "interval(-90061)", "interval(1.5)", "interval(\"a\")",
        "interval(undefined)", "interval(error)", "interval()", "interval(1, 2)", "interval(relTime(90061))",
        "interval(absTime(5))", "interval(true)", "interval(864000)", "interval(9223372036854775807)",
        "timeZoneOffset()", "timeZoneOffset(1)", "isInteger(time())", "time() > 1600000000", "time(1)",
        "isAbstime(currentTime())", "currentTime() > absTime(\"2020-01-01\")", "currentTime(1)",
        "isReltime(dayTime())", "dayTime() < relTime(86400)", "dayTime(1)",
        "isAbstime(absTime())", "absTime() > absTime(0)", "isString(formatTime())",
    ])


def g_fn_misc(c):
    c.many("fn-ifthenelse", [
        "ifThenElse(true, 1, 2)", "ifThenElse(false, 1, 2)", "ifThenElse(undefined, 1, 2)",
        "ifThenElse(error, 1, 2)", "ifThenElse(1, \"a\", \"b\")", "ifThenElse(0, \"a\", \"b\")",
        "ifThenElse(2.5, 1, 2)", "ifThenElse(0.0, 1, 2)", "ifThenElse(\"x\", 1, 2)", "ifThenElse({1}, 1, 2)",
        "ifThenElse(true, 1, 1/0)", "ifThenElse(false, 1/0, 2)", "ifThenElse(true, x, 2)",
        "ifThenElse(true, 1)", "ifThenElse(true)", "ifThenElse()", "ifThenElse(true, 1, 2, 3)",
        "IFTHENELSE(true, 1, 2)", "ifthenelse(false, 1, 2)", "ifThenElse(x, 1, 2)",
        "ifThenElse(true, {1, x}, 2)", "ifThenElse(true, [a = x], 2)",
    ])
    c.many("fn-eval", [
        "eval(\"1 + 2\")", "eval(\"1 +\")", "eval(\"\")", "eval(\"x\")", "eval(\"{1, 2}\")",
        "eval(\"[a = 1].a\")", "eval(\"\\\"s\\\"\")", "eval(1)", "eval(1.5)", "eval(true)", "eval(undefined)",
        "eval(error)", "eval({1})", "eval(\"eval(\\\"1\\\")\")", "eval(\"1\" + \"2\")", "eval(strcat(\"1\", \"+\", \"2\"))",
        "eval()", "eval(\"1\", \"2\")", "eval(\"1 ]\")", "eval(\"1; 2\")", "eval(\"a\" \"b\")",
        "[a = 5; b = eval(\"a * 2\")].b", "[a = 5; b = eval(\"c\"); c = a].b", "[a = eval(\"a\")].a",
        "eval(\"012\")", "eval(\"f(1;2)\")",
    ])
    c.many("fn-unparse", [
        "unparse(x)", "unparse(1)", "unparse(1 + 2)", "unparse(\"a\")", "unparse()", "unparse(x, y)",
        "[a = 1 + 2; b = unparse(a)].b", "[a = x * 2; b = unparse(a)].b", "[a = \"s\"; b = unparse(a)].b",
        "[a = {1, x}; b = unparse(a)].b", "[a = [c = 1]; b = unparse(a)].b", "[a = b; b = unparse(a)].b",
        "[a = 1.5; b = unparse(a)].b", "[a = -1; b = unparse(a)].b", "[a = !true; b = unparse(a)].b",
        "[a = f(1, 2); b = unparse(a)].b", "[a = x ?: y; b = unparse(a)].b", "[a = x ? y : z; b = unparse(a)].b",
        "[a = MY.x; b = unparse(a)].b", "[a = TARGET.x; b = unparse(a)].b", "[a = .x; b = unparse(a)].b",
        "[a = x[0]; b = unparse(a)].b", "[a = x.y.z; b = unparse(a)].b", "[a = 'a b'; b = unparse(a)].b",
        "[a = (1 + 2) * 3; b = unparse(a)].b", "[a = 1 + (2 * 3); b = unparse(a)].b",
        "[a = absTime(0); b = unparse(a)].b", "[a = absTime(\"2020-01-01T00:00:00Z\"); b = unparse(a)].b",
        "[a = relTime(\"1d\"); b = unparse(a)].b", "[a = relTime(5); b = unparse(a)].b",
        "[a = 1e300; b = unparse(a)].b", "[a = undefined; b = unparse(a)].b", "[a = error; b = unparse(a)].b",
        "[a = \"x\\ny\"; b = unparse(a)].b", "[a = 1 =?= 2; b = unparse(a)].b", "[a = x is y; b = unparse(a)].b",
        "[a = x isnt y; b = unparse(a)].b", "[a = x >>> 1; b = unparse(a)].b", "[a = ~x; b = unparse(a)].b",
        "[a = -x; b = unparse(a)].b", "[a = +x; b = unparse(a)].b", "[a = TRUE; b = unparse(a)].b",
        "[a = 007; b = unparse(a)].b", "[a = \"a\" \"b\"; b = unparse(a)].b",
        "[a = strcat(\"a\", 1); b = unparse(a)].b", "[a = [c = 1; d = c]; b = unparse(a)].b",
        "[a = {}; b = unparse(a)].b", "[a = []; b = unparse(a)].b", "[a = parent.x; b = unparse(a)].b",
        "[a = 1; b = unparse(A)].b",
    ])
    c.many("fn-unresolved", [
        "unresolved(x)", "unresolved(1)", "[a = 1; b = unresolved(a)].b", "[a = x; b = unresolved(a)].b",
        "[a = x + y; b = unresolved(a)].b", "[a = 1; c = a + z; b = unresolved(c)].b", "unresolved()",
        "[a = MY.x; b = unresolved(a)].b", "[a = TARGET.x; b = unresolved(a)].b",
    ])
    c.many("fn-debug", ["debug(1)", "debug(\"a\")", "debug(1 + 2)", "debug(x)", "debug()", "debug(1, 2)",
                        "debug(error)", "debug({1, x})"])
    c.many("fn-username", [
        "splitUserName(\"alice@example.org\")", "splitUserName(\"alice\")", "splitUserName(\"@example.org\")",
        "splitUserName(\"alice@\")", "splitUserName(\"a@b@c\")", "splitUserName(\"\")", "splitUserName(\"a.b@c.d\")",
        "splitUserName(\"group_physics.alice\")", "splitUserName(1)", "splitUserName(undefined)",
        "splitUserName(error)", "splitUserName()", "splitUserName(\"a\", \"b\")", "splitUserName({\"a@b\"})",
        "splitSlotName(\"slot1@host\")", "splitSlotName(\"slot1_1@host.example.org\")", "splitSlotName(\"host\")",
        "splitSlotName(\"@host\")", "splitSlotName(\"slot1@\")", "splitSlotName(\"a@b@c\")", "splitSlotName(\"\")",
        "splitSlotName(1)", "splitSlotName(undefined)", "splitSlotName(error)", "splitSlotName()",
        "splitSlotName(\"a\", \"b\")",
    ])
    c.many("fn-env", [
        "envV1ToV2(\"A=1;B=2\")", "envV1ToV2(\"A=1\")", "envV1ToV2(\"\")", "envV1ToV2(\"A=a b\")",
        "envV1ToV2(\"A='x'\")", "envV1ToV2(\"A=\\\"x\\\"\")", "envV1ToV2(\"A=1;;B=2\")", "envV1ToV2(\"A\")",
        "envV1ToV2(\"A=1;B\")", "envV1ToV2(\"A=x=y\")", "envV1ToV2(\"A=1|B=2\")", "envV1ToV2(1)",
        "envV1ToV2(undefined)", "envV1ToV2(error)", "envV1ToV2()", "envV1ToV2(\"A=1\", \"B\")",
        "envV1ToV2(\"A=$(X)\")",
        "mergeEnvironment(\"A=1\", \"B=2\")", "mergeEnvironment(\"A=1 B=2\", \"A=3\")", "mergeEnvironment(\"A=1\")",
        "mergeEnvironment()", "mergeEnvironment(\"\")", "mergeEnvironment(\"A=1;B=2\")", "mergeEnvironment(\"A='x y'\", \"B=2\")",
        "mergeEnvironment(undefined, \"A=1\")", "mergeEnvironment(\"A=1\", undefined)", "mergeEnvironment(error)",
        "mergeEnvironment(1)", "mergeEnvironment(\"A\")", "mergeEnvironment(\"a=1\", \"A=2\")",
        "mergeEnvironment(\"B=1\", \"A=2\", \"C=3\")", "mergeEnvironment(\"A=1\", \"A=\")",
    ])
    c.many("fn-args", [
        "argsToList(\"a b c\")", "argsToList(\"a  b\")", "argsToList(\"'a b' c\")", "argsToList(\"a 'b''c'\")",
        "argsToList(\"\")", "argsToList(\"  \")", "argsToList(\"a \\\"b\\\"\")", "argsToList(\"'unterminated\")",
        "argsToList(\"a\\tb\")", "argsToList(1)", "argsToList(undefined)", "argsToList(error)",
        "argsToList()", "argsToList(\"a\", \"b\")", "argsToList({\"a\"})",
        "listToArgs({\"a\", \"b c\"})", "listToArgs({\"a\"})", "listToArgs({})", "listToArgs({\"\"})",
        "listToArgs({\"it's\"})", "listToArgs({\"a\\\"b\"})", "listToArgs({1, 2})", "listToArgs({\"a\", 1})",
        "listToArgs(\"a b\")", "listToArgs(undefined)", "listToArgs(error)", "listToArgs()",
        "listToArgs({\"a\"}, {\"b\"})", "listToArgs({undefined})", "listToArgs({\"a\\tb\"})",
        "argsToList(listToArgs({\"a b\", \"c\"}))",
    ])
    ctx = "{ [a = 1; b = 2], [a = 3], [b = 4], [a = \"x\"] }"
    c.many("fn-each", [
        "evalInEachContext(a, %s)" % ctx, "evalInEachContext(a + 1, %s)" % ctx,
        "evalInEachContext(a > 1, %s)" % ctx, "evalInEachContext(1, %s)" % ctx,
        "evalInEachContext(a, {})", "evalInEachContext(a, {1, 2})", "evalInEachContext(a, [a = 1])",
        "evalInEachContext(a, undefined)", "evalInEachContext(a, error)", "evalInEachContext(a)",
        "evalInEachContext()", "evalInEachContext(a, %s, 1)" % ctx, "evalInEachContext(MY.a, %s)" % ctx,
        "countMatches(a > 1, %s)" % ctx, "countMatches(a == 1, %s)" % ctx, "countMatches(true, %s)" % ctx,
        "countMatches(a, %s)" % ctx, "countMatches(1, %s)" % ctx, "countMatches(a > 1, {})",
        "countMatches(a > 1, {1})", "countMatches(a > 1, undefined)", "countMatches(a > 1)",
        "countMatches()", "countMatches(a > 1, [a = 5])", "countMatches(b =?= undefined, %s)" % ctx,
    ])
    c.many("fn-unknown", [
        "noSuchFunction()", "noSuchFunction(1)", "strlen(\"abc\")", "length(\"abc\")", "sqrt(4)",
        "makeDate(1, 1, 2000)", "inDays(86400)", "f(1;2)", "f(1 2)", "strcat(1,)", "strcat(,1)",
        "strcat(", "strcat)", "1()", "\"f\"()", "(f)(1)", "f . g()", "isUndefined (x)", "[a=1].f()",
    ])


def g_unparse(c):
    """Results that are lists / records keep their unevaluated elements, so the
    expected text pins libclassad's unparser for every expression node kind."""
    elems = [
        "1 + 2", "x", "x + 1", "f(1, 2)", "strcat(\"a\", x)", "-1", "- 1", "-x", "+x", "!x", "~x",
        "!true", "-(1)", "(1)", "((x))", "(1 + 2) * 3", "1 + 2 * 3", "1 - (2 - 3)", "(1 - 2) - 3",
        "1 - -1", "x ? 1 : 2", "x ?: 2", "x.y", "x.y.z", "x[0]", "x[\"k\"]", "'a b'", "'a b'.c",
        ".x", "MY.x", "TARGET.x", "my.x", "target.x", "other.x", "parent.x", "self", "x =?= y",
        "x =!= y", "x is y", "x isnt y", "x && y", "x || y", "x & y", "x | y", "x ^ y", "x << 1",
        "x >> 1", "x >>> 1", "x == y", "x != y", "x < y", "x <= y", "x > y", "x >= y", "x % 2",
        "x / 2", "x * 2", "TRUE", "False", "UNDEFINED", "Error", "\"s\\n\\t\\\"\"", "1.5", "1e300",
        "1E-5", "007", "0.0", "-0.0", "{1, {2, x}}", "[a = x; b = {y}]", "absTime(0)", "absTime(x)",
        "absTime(\"2020-01-01T00:00:00Z\")", "relTime(\"1d\")", "relTime(5)", "real(\"INF\")",
        "real(\"NaN\")", "\"a\" \"b\"", "IfThenElse(x, 1, 2)", "STRCAT(x)", "x.'a b'", "'if'",
        "'true'", "'MY'", "'x.y'", "(x ? y : z) ? 1 : 2", "x ? (y ? 1 : 2) : 3", "(x || y) && z",
        "x || (y && z)", "!(x && y)", "-(-x)", "- -x", "(-1) * 2", "-(1 + 2)", "x[y][z]",
        "(x + y).z", "{x}[0]", "[a = 1].a", "(x)(1)",
        "'error'", "'undefined'", "'false'", "'TRUE'", "'is'", "'isnt'", "'IS'", "'parent'",
        "'Parent'", "'self'", "'root'", "'toplevel'", "'my'", "'target'", "'other'",
        "'a\\'b'", "'a\"b'", "'1a'", "'_'", "'_1'", "'a-b'", "'a\\\\b'", "'\u00e9'",
        "'a\\tb'", "x.'true'", "x.'a.b'", "'a b'.'c d'", "x.parent", "x.'parent'",
        "parent.parent", "x.self", "self.x", "root.x", "toplevel.x", "'x'.y", "x.'Y'",
        "\"\\001\\177\\377\"", "\"\\a\\v\\f\\b\\r\"", "\"'\"", "\"/\"", "\"\\\\\"",
        "f()", "f( )", "f(x,y,z)", "f(g(h(1)))", "(1, 2)",
    ]
    for e in elems:
        c.add("unparse-list", "{ %s }" % e)
        c.add("unparse-ad", "[ v = %s ]" % e)
    c.many("unparse-misc", [
        "{ x, 1 + 2, \"s\" }", "[ b = 1; a = x; c = { y } ]", "[ a = [ b = [ c = x ] ] ]",
        "[ a = 1 ].self", "{ [ a = x ] }", "[ x = 1; y = [ z = x ] ]", "[ 'a b' = x ]",
        "[ a = x ].a", "{ x }[0]", "{ 1 + x, 2 }", "[ longattributename = 1; b = 2; ccc = 3 ]",
        "[ Z = 1; y = 2; X = 3 ]", "[ a1 = 1; a10 = 2; a2 = 3; A = 4 ]",
        "[ aB = 1; Ab = 2 ]", "[ _b = 1; a = 2; Za = 3; z_ = 4 ]",
    ])


def g_parse_errors(c):
    c.many("parse", [
        "", " ", "1 +", "+", "* 2", "1 2", "a b", "(1", "1)", "((1)", "{1, 2", "[a = 1", "[a = 1;",
        "]", "}", ")", "1 ]", "1 }", "1; 2", "1, 2", "a = 1", "a == ", "== 1", "1 === 1", "1 =! 1",
        "1 =? 1", "1 <> 2", "1 ! 2", "1 && ", "|| 1", "! ", "~", "a.", ".", "a..b", "a.1", "1.a",
        "a[", "a[]", "a[1", "[a = 1].", "\"abc", "'abc", "\"\\\"", "'a'b'", "1 ? 2", "1 ? 2 :",
        "? :", "1 ?: ", "?: 1", "f(", "f(1", "f(1,", "f(,)", "f(1 2)", "#", "$", "@", "`", "1 # 2",
        "1 @ 2", "1 $ 2", "a = b = c", "[a = 1] [b = 2]", "{1} {2}", "1 is", "is 1", "isnt",
        "1 isnt", "true false", "undefined undefined", "x y z",
        "// only a comment", "1 // trailing comment", "/* c */ 1", "1 /* c */ + /* d */ 2",
        "1 + // c\n2", "\"a\" + ", "0x", "1e", "1e+", "1.2.3", "08", "09", "012", "0x1G", "1_000",
        "1,000", "1..", "..1", "[a = 1; b]", "[a = 1; = 2]", "[a = 1; 1 = 2]", "[a.b = 1]",
        "[MY.a = 1]", "['' = 1]", "[a = 1; a]", "{,}", "{1,,}", "[;;]", "\"\\0\"", "\"a\\0\"",
        "absTime(\"garbage\")", "relTime(\"garbage\")", "absTime(\"\")", "relTime(\"\")",
        "absTime(\"2020-13-45\")", "relTime(\"1x\")", "f(1;2)", "f(1;)", "strcat(\"a\";\"b\")",
        "\"\\u00e9\"", "'\\0'", "a.'b c'", "a.\"b\"", "a.(b)", "a . b", "a .b", "a. b",
        ".a.b", "..a", "MY.", "TARGET.", "MY..a", "[a = 1].[b = 2]", "-", "--", "1 - - - ",
        "!!!", "\\", "\\n", "1 \\ 2", "\t1\t", "\n1\n", "1\n+\n2", "\u00e9", "a\u00e9",
        "1 <= = 2", "1 < = 2", "1 > = 2", "1 = = 2", "1 & & 2", "1 | | 2", "1 << < 2",
        "1 >>>> 2", "1 >> > 2", "1 > > 2", "1 =?", "1 =!", "1 ?", "1 ?? 2", "1 ?. 2",
        "error(1)", "undefined(1)", "true(1)", "1 (2)", "x (1)", "{}[]", "[]{}",
    ])


# Function sweep: (group, name, good arguments, accepted argument counts).
# Each function is called with its good arguments (every accepted count that
# is deterministic), with every wrong count up to max+1, and with each
# argument position replaced by every ODD_VALUES entry.
SWEEP = [
    ("fn-lists", "member", ["2", "{ 1,2 }"], {2}),
    ("fn-lists", "identicalMember", ["2", "{ 1,2 }"], {2}),
    ("fn-lists", "anyCompare", ['"<"', "{ 1,2 }", "2"], {3}),
    ("fn-lists", "allCompare", ['"<"', "{ 1,2 }", "3"], {3}),
    ("fn-lists", "size", ["{ 1,2 }"], {1}),
    ("fn-lists", "sum", ["{ 1,2 }"], {1}),
    ("fn-lists", "avg", ["{ 1,2 }"], {1}),
    ("fn-lists", "min", ["{ 1,2 }"], {1}),
    ("fn-lists", "max", ["{ 1,2 }"], {1}),
    ("fn-strings", "strcat", ['"a"', '"b"'], {0, 1, 2, 3}),
    ("fn-strings", "join", ['","', '"a"', '"b"'], {0, 1, 2, 3}),
    ("fn-strings", "split", ['"a,b c"', '","'], {1, 2}),
    ("fn-strings", "substr", ['"abcdef"', "1", "3"], {2, 3}),
    ("fn-strings", "strcmp", ['"a"', '"b"'], {2}),
    ("fn-strings", "stricmp", ['"a"', '"B"'], {2}),
    ("fn-strings", "toUpper", ['"aB"'], {1}),
    ("fn-strings", "toLower", ['"aB"'], {1}),
    ("fn-strings", "regexp", ['"a.c"', '"xABCx"', '"i"'], {2, 3}),
    ("fn-strings", "regexpMember", ['"a."', '{ "ab","c" }', '"i"'], {2, 3}),
    ("fn-strings", "regexps", ['"(b)"', '"abc"', '"<\\\\1>"', '"i"'], {3, 4}),
    ("fn-strings", "replace", ['"b"', '"abcb"', '"X"', '"i"'], {3, 4}),
    ("fn-strings", "replaceall", ['"b"', '"abcb"', '"X"', '"i"'], {3, 4}),
    ("fn-stringlist", "stringListSize", ['"a;b"', '";"'], {1, 2}),
    ("fn-stringlist", "stringListSum", ['"1;2"', '";"'], {1, 2}),
    ("fn-stringlist", "stringListAvg", ['"1;2"', '";"'], {1, 2}),
    ("fn-stringlist", "stringListMin", ['"1;2"', '";"'], {1, 2}),
    ("fn-stringlist", "stringListMax", ['"1;2"', '";"'], {1, 2}),
    ("fn-stringlist", "stringListMember", ['"b"', '"a;b"', '";"'], {2, 3}),
    ("fn-stringlist", "stringListIMember", ['"B"', '"a;b"', '";"'], {2, 3}),
    ("fn-stringlist", "stringListsIntersect", ['"a;b"', '"b;c"', '";"'], {2, 3}),
    ("fn-stringlist", "stringListSubsetMatch", ['"a"', '"a;b"', '";"'], {2, 3}),
    ("fn-stringlist", "stringListISubsetMatch", ['"A"', '"a;b"', '";"'], {2, 3}),
    ("fn-stringlist", "stringList_regexpMember", ['"^B"', '"a;b"', '";"', '"i"'], {2, 3, 4}),
    ("fn-version", "versioncmp", ['"1.2"', '"1.10"'], {2}),
    ("fn-version", "versionLT", ['"1.2"', '"1.10"'], {2}),
    ("fn-version", "versionLE", ['"1.2"', '"1.10"'], {2}),
    ("fn-version", "versionGT", ['"1.2"', '"1.10"'], {2}),
    ("fn-version", "versionGE", ['"1.2"', '"1.10"'], {2}),
    ("fn-version", "versionEQ", ['"1.2"', '"1.2"'], {2}),
    ("fn-version", "version_in_range", ['"1.5"', '"1.0"', '"2.0"'], {3}),
    ("fn-math", "floor", ["2.5"], {1}),
    ("fn-math", "ceiling", ["2.5"], {1}),
    ("fn-math", "ceil", ["2.5"], {1}),
    ("fn-math", "round", ["2.5"], {1}),
    ("fn-math", "pow", ["2", "3"], {2}),
    ("fn-math", "quantize", ["3", "2"], {2}),
    ("fn-math", "int", ["2.5"], {1}),
    ("fn-math", "real", ["2"], {1}),
    ("fn-math", "string", ["2"], {1}),
    ("fn-math", "bool", ["2"], {1}),
    ("fn-time", "absTime", ["1000", "3600"], {1, 2}),
    ("fn-time", "relTime", ["90061"], {1}),
    ("fn-time", "getYear", ["absTime(1000)"], {1}),
    ("fn-time", "getMonth", ["absTime(1000)"], {1}),
    ("fn-time", "getDayOfYear", ["absTime(1000)"], {1}),
    ("fn-time", "getDayOfMonth", ["absTime(1000)"], {1}),
    ("fn-time", "getDayOfWeek", ["absTime(1000)"], {1}),
    ("fn-time", "getHours", ["absTime(1000)"], {1}),
    ("fn-time", "getMinutes", ["absTime(1000)"], {1}),
    ("fn-time", "getSeconds", ["absTime(1000)"], {1}),
    ("fn-time", "getDays", ["relTime(90061)"], {1}),
    ("fn-time", "splitTime", ["absTime(1000)"], {1}),
    ("fn-time", "formatTime", ["1000", '"%Y-%m-%d %H:%M:%S"'], {1, 2}),
    ("fn-time", "interval", ["90061"], {1}),
    ("fn-misc", "ifThenElse", ["true", "1", "2"], {3}),
    ("fn-misc", "eval", ['"1 + 2"'], {1}),
    ("fn-misc", "unresolved", ["x"], {1}),
    ("fn-misc", "splitUserName", ['"a@b"'], {1}),
    ("fn-misc", "splitSlotName", ['"s@h"'], {1}),
    ("fn-misc", "envV1ToV2", ['"A=1;B=2"'], {1}),
    ("fn-misc", "mergeEnvironment", ['"A=1"', '"B=2"'], {0, 1, 2, 3}),
    ("fn-misc", "argsToList", ['"a b"'], {1}),
    ("fn-misc", "listToArgs", ['{ "a","b c" }'], {1}),
    ("fn-misc", "evalInEachContext", ["a", "{ [ a = 1 ],[ a = 2 ] }"], {2}),
    ("fn-misc", "countMatches", ["a > 1", "{ [ a = 1 ],[ a = 2 ] }"], {2}),
]
# Zero-argument calls that depend on the clock / random state (skipped).
SWEEP_NONDETERMINISTIC = {("absTime", 0), ("formatTime", 0)}


def g_fn_sweep(c):
    saved = c.group
    for group, name, good, arities in SWEEP:
        c.group = group
        prefix = "sweep-" + name.lower()
        top = max(arities)
        args = list(good) + ["1"] * (top + 1 - len(good))
        for n in range(0, top + 2):
            if (name, n) in SWEEP_NONDETERMINISTIC:
                continue
            c.add(prefix, "%s(%s)" % (name, ", ".join(args[:n])))
        for pos in range(len(good)):
            for v in ODD_VALUES:
                a = list(good)
                a[pos] = v
                c.add(prefix, "%s(%s)" % (name, ", ".join(a)))
                if len(good) > min(arities) and pos < min(arities):
                    c.add(prefix, "%s(%s)" % (name, ", ".join(a[:min(arities)])))
    c.group = saved



def g_real_pools(c):
    """What real pools' ads use that the groups above did not reach: the
    `CurrentTime` attribute (HTCondor's "ClassAd environment"), the other
    special names as attribute names, `unresolved(attr, regex)`, and
    selection from a record got by subscripting one with a name."""
    glidein = "[ GLIDEIN_ToDie = 4000000000; Start = GLIDEIN_ToDie - CurrentTime >= 36000; " \
              "Old = CurrentTime > 5; Rec = [ t = CurrentTime ]; Own = [ CurrentTime = 7; t = CurrentTime ] ]"
    job = "[ RequestMemory = 2000; CurrentTime = 12 ]"
    c.group = "special-names"
    c.many("special-currenttime", [
        "isInteger(CurrentTime)", "CurrentTime > 1600000000", "isUndefined(CurrentTime)",
        "isInteger(MY.CurrentTime)", "isInteger(currenttime)", "isInteger(CURRENTTIME)",
        "isInteger(self.CurrentTime)", "isInteger(root.CurrentTime)", "isInteger(toplevel.CurrentTime)",
        "parent.CurrentTime", "isInteger([x = 1].CurrentTime)", "isInteger({[x = 1]}[0].CurrentTime)",
        "[CurrentTime = 3].CurrentTime", "isInteger([a = [b = CurrentTime]; CurrentTime = 9].a.b)",
        "isInteger([a = [b = CurrentTime]].a.b)", "CurrentTime.x", "CurrentTime[0]",
        "isInteger(eval(\"CurrentTime\"))", "unparse(CurrentTime)", "CurrentTime - CurrentTime",
        "CurrentTime >= time() - 1", "CurrentTime =?= undefined", "isAbsTime(CurrentTime)",
        "Start", "Old", "isInteger(Rec.t)", "Own.t", "isInteger(MY.Own.t)",
        "isInteger(TARGET.CurrentTime)",
    ], my=glidein)
    for e in ["isInteger(CurrentTime)", "isInteger(MY.CurrentTime)", "isInteger(TARGET.CurrentTime)",
              "isInteger(other.CurrentTime)", "Start", "isInteger(x)", "y", "RequestMemory"]:
        c.add("special-currenttime-match", e,
              my="[ x = CurrentTime; y = TARGET.CurrentTime; Start = GLIDEIN_ToDie - CurrentTime >= 36000; "
                 "GLIDEIN_ToDie = 4000000000 ]", target=job)
        c.add("special-currenttime-match", e, my=glidein, target="[ y = 1 ]")
    c.many("special-names", [
        "[self = 3].self", "[parent = 3].parent", "[root = 3].root", "[my = 3].my", "[target = 3].target",
        "[other = 3].other", "['my' = 3].'my'", "[x = 'self'; 'self' = 5].x", "[CurrentTime = 1; x = CurrentTime + 1].x",
        "[left = 1].left", "[right = 1].right", "[ad = 1].ad", "[Left = 1; x = left].x",
        "[a = 1; b = [c = MY.a]].b.c", "[a = 1; b = [c = parent.a]].b.c", "[a = 1; b = [c = root.a]].b.c",
        "[a = 1; b = [c = toplevel.a]].b.c", "[a = 1; b = [c = self.a]].b.c",
    ])
    c.group = "fn-misc"
    req = "[ Requirements = OpSys == \"LINUX\" && Arch == \"ARM\"; R2 = TARGET.Memory > MY.x + y; x = 1; " \
          "R3 = 1; R4 = a.b + c[0] + {d}[0] + x.y.z; R5 = TARGET.Memory + Disk ]"
    exprs = [
        "unresolved(Requirements, \"^OpSys\")", "unresolved(Requirements, \"OpSys.+\")",
        "unresolved(Requirements, \"opsys\")", "unresolved(Requirements, \"^OpSys$\")",
        "unresolved(Requirements, \"Arch,OpSys\")", "unresolved(Requirements, \"OpSys|Foo\")",
        "unresolved(Requirements, \"(\")", "unresolved(Requirements, \"[\")", "unresolved(Nope, \"x\")",
        "unresolved(R3, \".*\")", "unresolved(R3, \"\")", "unresolved(Requirements, \"\")",
        "unresolved(R2, \"^Memory\")", "unresolved(R2, \"TARGET\")", "unresolved(R2, \"^y$\")",
        "unresolved(R2, \"^x$\")", "unresolved(R2, \"MY\")", "unresolved(R4, \"^a$\")",
        "unresolved(R4, \"^a.b$\")", "unresolved(R4, \"^x.y.z$\")", "unresolved(R4)", "unresolved(R5)",
        "unresolved(R5, \"^Disk$\")", "unresolved(R5, \"^Memory$\")", "unresolved(R2)",
        "unresolved(Requirements, \"ops\", \"i\")", "unresolved(Requirements, \"^OpSys\", 3)",
        "unresolved(1, \"x\")", "unresolved(\"Requirements\", \"x\")", "unresolved(MY.Requirements)",
        "unresolved(MY.Requirements, \"OpSys\")", "unresolved(Requirements, strcat(\"^Op\", \"Sys\"))",
        "unresolved(Requirements, \"\\\\bArch\")", "unresolved(Requirements, \"x*\")",
        "unresolved(Requirements, \"^\")", "unresolved(Requirements, \"O*\")",
        "unresolved(Requirements, \"r*\")", "unresolved(Requirements, \"(?=A)\")",
        "unresolved(Requirements, \"(?-i)^ARCH$\")", "unresolved(Requirements, \"^ARCH$\")",
        "unresolved(Requirements, \"s|\")",
    ]
    for e in exprs:
        c.add("fn-unresolved-regex", e, my=req)
        c.add("fn-unresolved-regex", e, my=req, target="[ Memory = 3 ]")
        c.add("fn-unresolved-regex", e, my=req, target="[ Disk = 3 ]")
    c.group = "scoping"
    c.many("scope-subscript-select", [
        "[b = [c = 7]][\"b\"].c", "[b = [c = 7]].b.c", "[a = [b = [c = parent.y]; y = 44]][\"a\"][\"b\"][\"c\"]",
        "[a = [b = [c = parent.y]; y = 44]].a.b.c", "[b = [c = 7]][\"b\"]", "[b = [c = 7]][\"b\"][\"c\"]",
        "{[c = 7]}[0].c", "([b = [c = 7]][\"b\"]).c", "[b = [c = 7]][\"B\"].c", "[b = [c = 7]][\"b\"].c + 1",
        "isUndefined([b = [c = 7]][\"b\"].c)", "size([b = [c = 7]][\"b\"])", "[b = [c = 7]][\"b\"].parent",
        "[b = [c = 7; d = c]][\"b\"].d", "[b = [c = 7; d = c]][\"b\"][\"d\"]", "(true ? [c = 7] : 1).c",
        "eval(\"[c = 7]\").c", "ifThenElse(true, [c = 7], 1).c", "[b = {1, 2}][\"b\"][1]",
    ])
    rec = "[ r = [ b = [ c = [ d = q ] ]; b2 = [ c = q ] ]; q = 1; x = [ b = [ c = 7 ] ]; y = x[\"b\"]; " \
          "z = y.c; w = y[\"c\"]; v = { x[\"b\"] }[0].c ]"
    c.many("scope-subscript-select", [
        "r[\"b\"][\"c\"][\"d\"]", "r[\"b\"][\"c\"].d", "r[\"b\"].c.d", "r.b[\"c\"].d",
        "r.b[\"c\"][\"d\"]", "r.b.c.d", "r.b2[\"c\"]", "y.c", "z", "w", "v", "x[\"b\"].c",
    ], my=rec)

GROUPS = [
    ("literals", g_literals),
    ("operators", g_operators),
    ("scoping", g_scoping),
    ("match", g_match),
    ("fn-types", g_fn_types),
    ("fn-lists", g_fn_lists),
    ("fn-strings", g_fn_strings),
    ("fn-stringlist", g_fn_stringlist),
    ("fn-version", g_fn_version),
    ("fn-math", g_fn_math),
    ("fn-time", g_fn_time),
    ("fn-misc", g_fn_misc),
    ("unparse", g_unparse),
    ("parse-errors", g_parse_errors),
    ("sweep", g_fn_sweep),  # cases are filed under their function's group
    ("real-pools", g_real_pools),  # cases are filed under the groups they set
]

# Every case is evaluated in both modes.  The "htcondor" result is always
# kept; a "strict" case is kept when its group is in STRICT_ALWAYS or when the
# strict answer differs from the htcondor one (so every observed difference
# between the two semantics is recorded).
STRICT_ALWAYS = {"scoping", "match", "parse-errors", "special-names"}


def build_cases():
    c = Cases()
    for name, fn in GROUPS:
        c.group = name
        fn(c)
    return c.items


def evaluate_cases(items, progress=True):
    oracles = {m: OracleClient(m) for m in MODES}
    out, skipped = [], []
    try:
        for i, case in enumerate(items):
            if progress and i % 1000 == 0:
                print("  evaluating %d/%d" % (i, len(items)), file=sys.stderr)
            res = {m: oracles[m].evaluate(case["expr"], case["my"], case["target"]) for m in MODES}
            h, s = res["htcondor"], res["strict"]
            if "value" in h:
                out.append(dict(case, mode="htcondor", expected=h["value"]))
            else:
                skipped.append((case["id"], "htcondor", h["skip"]))
            if "value" in s and (case["group"] in STRICT_ALWAYS or s.get("value") != h.get("value")):
                out.append(dict(case, id=case["id"] + "-strict", mode="strict", expected=s["value"]))
            elif "value" not in s:
                skipped.append((case["id"], "strict", s["skip"]))
    finally:
        for o in oracles.values():
            o.close()
    return out, skipped


def serialize(case):
    ordered = {k: case[k] for k in ("id", "group", "expr", "my", "target", "mode", "expected")}
    return json.dumps(ordered, ensure_ascii=False)


def print_stats(cases, file=sys.stdout):
    groups = {}
    for cs in cases:
        g = groups.setdefault(cs["group"], {"htcondor": 0, "strict": 0})
        g[cs["mode"]] += 1
    total = 0
    for g, n in groups.items():
        print("  %-14s htcondor %5d   strict %4d" % (g, n["htcondor"], n["strict"]), file=file)
        total += n["htcondor"] + n["strict"]
    print("  total %d" % total, file=file)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--oracle-server", choices=MODES, help=argparse.SUPPRESS)
    ap.add_argument("--output", default=CASES_PATH)
    ap.add_argument("--check", action="store_true",
                    help="regenerate and compare with the committed cases.jsonl")
    ap.add_argument("--stats", action="store_true", help="print counts of cases.jsonl")
    args = ap.parse_args()
    if args.oracle_server:
        _run_oracle_server(args.oracle_server)
        return 0
    if args.stats:
        with open(CASES_PATH, encoding="utf-8") as f:
            print_stats([json.loads(l) for l in f if l.strip()])
        return 0

    items = build_cases()
    print("built %d expressions; evaluating in both modes" % len(items), file=sys.stderr)
    cases, skipped = evaluate_cases(items)
    for cid, mode, why in skipped:
        print("  skipped %s (%s): %s" % (cid, mode, why), file=sys.stderr)
    text = "".join(serialize(cs) + "\n" for cs in cases)
    if args.check:
        with open(CASES_PATH, encoding="utf-8") as f:
            old = f.read()
        if old != text:
            print("cases.jsonl is out of date (run generate.py)", file=sys.stderr)
            return 1
        print("cases.jsonl is up to date", file=sys.stderr)
        return 0
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    print_stats(cases, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
