#!/usr/bin/env python3
"""Differential check of `classad fmt --to xml` and the XML reader against
libclassad (HTCondor's bindings; see libclassad_xml.py), over the seed
figures (tests/seeds/*.classad) and the corpora (tests/corpora/**).

    cargo build --release -p classad --bin classad
    python3 crate/tests/xml_oracle/check.py [path/to/classad]

For each file it compares, attribute by attribute:

  write  our `fmt --to xml` against libclassad's ClassAdXMLUnParser run on
         the same ads (byte for byte, per attribute: libclassad orders an
         ad's attributes its own way, we keep the ad's order);
  read   libclassad reading our XML against libclassad reading our
         `fmt --to new` of the same file (canonical unparse of each
         attribute): does HTCondor get our ads back?
  back   our reader on libclassad's XML against our `fmt --to new`: do we
         read what HTCondor writes?

then the same for seeded random ads (strings of awkward characters, odd
names, reals of every magnitude, times, nested lists and records), and
the `read` comparison for the hand-written samples of generate.py. Prints
the counts and every difference; exits 1 on any difference that is not one
of the documented ones (a relative time that libclassad itself writes as a
real, a negative zero it writes as 0.0).
"""

import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402
from libclassad_xml import FOOTER, HEADER, attribute_chunks, classad2, read_new, read_xml, xml_of  # noqa: E402

ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "classad")


def inputs():
    files = []
    for d, _, names in os.walk(os.path.join(ROOT, "tests", "seeds")):
        files += [os.path.join(d, n) for n in names if n.endswith(".classad")]
    for d, _, names in os.walk(os.path.join(ROOT, "tests", "corpora")):
        files += [os.path.join(d, n) for n in names if n != "README.md"]
    return sorted(files)


def ours(args, stdin=None):
    p = subprocess.run([BIN] + args, input=stdin, capture_output=True, text=True, encoding="utf-8", errors="surrogateescape")
    return p.returncode, p.stdout, p.stderr


def split_ads(xml):
    """Top-level `<c>…</c>` texts of a document we or libclassad wrote."""
    return re.findall(r"^<c>\n.*?^</c>\n", xml, flags=re.S | re.M)


# Known differences, both as libclassad 25's XML writer has them: a
# relative time is written as its seconds (a real), and a negative zero
# as 0.0.
RELTIME = re.compile(r'relTime\("[^"]*"\)')


def as_xml_keeps(text):
    """A canonical unparse with every relative-time literal as the real
    libclassad's XML writer makes of it, and -0.0 as 0.0."""

    def real(m):
        secs = classad2.ExprTree(m.group(0)).eval()
        return "0.0" if secs == 0 else "%.15E" % secs

    return re.sub(r"(?<![\w.])-0\.0(?![\w.])", "0.0", RELTIME.sub(real, text))


def known_difference(a, b):
    return as_xml_keeps(a) == b


class Tally:
    def __init__(self):
        self.n = {}
        self.diffs = []

    def count(self, what, ok, detail=None, known=False):
        key = (what, "same" if ok else ("known" if known else "differ"))
        self.n[key] = self.n.get(key, 0) + 1
        if not ok and not known:
            self.diffs.append("%s: %s" % (what, detail))


def compare_ads(t, what, name, want, got):
    if isinstance(want, str) or isinstance(got, str) or len(want) != len(got):
        t.count(what, False, "%s: %r vs %r" % (name, str(want)[:200], str(got)[:200]))
        return
    for i, (w, g) in enumerate(zip(want, got)):
        for k in sorted(set(w) | set(g), key=str.lower):
            a, b = w.get(k), g.get(k)
            known = a is not None and b is not None and known_difference(a, b)
            t.count(what, a == b, "%s ad %d %s: %r vs %r" % (name, i + 1, k, a, b), known=known)


CHARS = ["a", "Z", " ", "&", "<", ">", '"', "'", "\\", "\n", "\t", "\r", "\001", "\177", "é", "☃", ";", "]", "&amp;", "=", "/"]


def random_string(r):
    return "".join(r.choice(CHARS) for _ in range(r.randint(0, 12)))


def quoted(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + '"'


def random_value(r, depth=0):
    k = r.randrange(9 if depth < 2 else 6)
    if k == 0:
        return str(r.randint(-(2**63) + 1, 2**63 - 1))
    if k == 1:
        return repr(r.choice([0.0, 0.5, -1.25, 1e-300, 3e300, 0.1, 123456.789]) * r.choice([1, -1, 10, 1e-5]))
    if k == 2:
        return quoted(random_string(r))
    if k == 3:
        return r.choice(["true", "false", "undefined", "error"])
    if k == 4:
        return r.choice(["a + b * 2", "x < y && z >= 1", "strcat(%s, Name)" % quoted(random_string(r)), "l[0] ?: -1"])
    if k == 5 and r.random() < 0.3:
        return 'relTime("%s%d+%02d:%02d:%02d")' % (r.choice(["", "-"]), r.randint(0, 9), r.randint(0, 23), r.randint(0, 59), r.randint(0, 59))
    if k == 5:
        return 'absTime("2024-0%d-1%dT0%d:00:00%s")' % (r.randint(1, 9), r.randint(0, 9), r.randint(0, 9), r.choice(["Z", "+05:30", "-08:00"]))
    if k == 6:
        return "{ " + ", ".join(random_value(r, depth + 1) for _ in range(r.randint(0, 3))) + " }"
    return "[ " + "; ".join("%s = %s" % (random_name(r), random_value(r, depth + 1)) for _ in range(r.randint(0, 3))) + " ]"


def random_name(r):
    if r.random() < 0.7:
        return r.choice(["Name", "Memory", "_x1", "Requirements", "a", "B2"]) + str(r.randint(0, 99))
    # Quoted names: a NUL is impossible, everything else goes, but for a
    # final backslash: libclassad writes `n="x\\"` and its reader takes
    # that `\\"` for an escaped quote (it misreads its own output).
    body = random_string(r) or "q"
    if body.endswith("\\"):
        body += "x"
    return "'" + body.replace("\\", "\\\\").replace("'", "\\'").replace("\n", "\\n").replace("\t", "\\t").replace("\r", "\\r") + "'"


def random_ads(seed, n):
    r = random.Random(seed)
    ads = []
    for _ in range(n):
        attrs, seen = [], set()
        for _ in range(r.randint(1, 8)):
            name = random_name(r)
            if name.lower() in seen:
                continue
            seen.add(name.lower())
            attrs.append("%s = %s" % (name, random_value(r)))
        ads.append("[ " + "; ".join(attrs) + " ]\n")
    return "".join(ads)


def compare_text(t, name, new_text, xml_text):
    """The three comparisons for one pool given as our new syntax and XML."""
    ref_ads = read_new(new_text)
    if isinstance(ref_ads, str):
        print("skip %s: libclassad cannot read our new syntax (%s)" % (name, ref_ads))
        return
    ours_ads = split_ads(xml_text)
    libs = []
    for i, ad in enumerate(classad2.parseAds(new_text, classad2.ParserType.New)):
        lib = xml_of(repr(ad))
        libs.append(lib)
        mine = dict(attribute_chunks(ours_ads[i])) if i < len(ours_ads) else {}
        for k, chunk in attribute_chunks(lib):
            t.count("write", mine.get(k) == chunk, "%s ad %d: %r vs %r" % (name, i + 1, mine.get(k), chunk))
    compare_ads(t, "read", name, ref_ads, read_xml(xml_text))
    lib_doc = HEADER + "".join(libs) + FOOTER
    rc2, back, err2 = ours(["fmt", "--to", "new"], stdin=lib_doc)
    t.count("back-clean", rc2 == 0 and not err2, "%s: %s" % (name, err2.strip()[:300]))
    compare_ads(t, "back", name, ref_ads, read_new(back))


def main():
    t = Tally()
    for path in inputs():
        name = os.path.relpath(path, ROOT)
        rc, new, err = ours(["fmt", "--to", "new", path])
        _, xml, _ = ours(["fmt", "--to", "xml", path])
        compare_text(t, name, new, xml)
    # Seeded random ads, given to us in new syntax.
    for seed in range(20):
        text = random_ads(seed, 25)
        rc, new, err = ours(["fmt", "--to", "new"], stdin=text)
        _, xml, _ = ours(["fmt", "--to", "xml"], stdin=text)
        t.count("random-clean", rc == 0 and not err, "seed %d: %s" % (seed, err.strip()[:300]))
        compare_text(t, "random seed %d" % seed, new, xml)
    # The hand-written samples.
    for text in generate.SAME:
        rc, back, err = ours(["fmt", "--to", "new"], stdin=text)
        compare_ads(t, "samples", "sample", read_xml(text), read_new(back))
    for text in generate.ERROR:
        rc, back, err = ours(["fmt", "--to", "new"], stdin=text)
        t.count("samples-reported", rc == 1 and "error" in err, "%r: %s" % (text, err))

    print("%-18s %8s %8s %8s" % ("check", "same", "known", "differ"))
    for what in ["write", "read", "back", "back-clean", "random-clean", "samples", "samples-reported"]:
        print(
            "%-18s %8d %8d %8d"
            % (what, t.n.get((what, "same"), 0), t.n.get((what, "known"), 0), t.n.get((what, "differ"), 0))
        )
    for d in t.diffs:
        print("DIFF", d)
    print("(known: relative times and -0.0, which libclassad writes as reals and 0.0)")
    return 1 if t.diffs else 0


if __name__ == "__main__":
    sys.exit(main())
