#!/usr/bin/env python3
"""libclassad-derived expectations for the XML format, for CI (which has no
Python): `cargo test -p classad --test xml` checks them.

    python3 crate/tests/xml_oracle/generate.py

Writes
  * cases.json next to this file:
      "write": new-syntax ads (libclassad's canonical text, so attributes
               come in libclassad's order) and the XML that libclassad's
               ClassAdXMLUnParser writes for each (compact spacing off, as
               condor_q -xml);
      "read":  XML texts in libclassad's style and the ads libclassad's
               ClassAdXMLParser reads from them (each attribute's canonical
               unparse), or "error" where it rejects the text; "expect"
               says what we do: "same" ads, "warned" (the same ads, with a
               warning), or "error" (we report an error: libclassad
               rejects the text, or reads something unlikely to be meant,
               such as `<b v="true"/>` as false);
  * tests/corpora/condor_q.xml and condor_status.xml: the ads of
    condor_q_l.txt and condor_status_l.txt as condor_q -xml prints them
    (header, each ad from ClassAdXMLUnParser with its attributes sorted
    without regard to case, as the tools' print order is, footer).
"""

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from libclassad_xml import FOOTER, HEADER, attribute_chunks, classad2, read_xml, xml_of  # noqa: E402

CORPORA = os.path.join(HERE, "..", "..", "..", "tests", "corpora")

WRITE = [
    # Every literal kind.
    '[ MyType = "Job"; ClusterId = 1; Neg = -7; Rank = 0.0; Half = 0.5; '
    "Big = 1e300; Tiny = -2.5e-300; Flag = true; Off = false; U = undefined; E = error ]",
    # Strings: markup characters, quotes, escapes, non-ASCII, blanks kept.
    '[ S = "a<b>&c \\"q\\" \'s\'"; T = "tab\\there\\nnl\\\\bs"; U = "\\303\\251t\\303\\251"; '
    'W = "  two  spaces  "; C = "bell\\a\\001"; Empty = "" ]',
    # Expressions: operators that need escaping, strings inside them.
    '[ Requirements = (TARGET.Arch == "X86_64") && (TARGET.Memory >= RequestMemory); '
    'Rank = Memory > 1024 ? 1 : 0; Cmp = a <= b || c >>> 2 != d << 1; '
    'Str = strcat("<", Owner, ">") ; Neg = -x; Paren = (1); Sel = a.b; Idx = l[0]; '
    "Elvis = a ?: b; Meta = a =?= b && c =!= d ]",
    # Lists and records, nested, empty, inside expressions.
    "[ L = { 1, \"x\", a + b, { 2, 3 }, [ p = 1; q = { } ] }; Empty = { }; "
    "R = [ x = 1; y = [ z = a < b ]; w = { [ v = 1 ] } ]; ER = [ ]; "
    "InExpr = { 1, 2 }[0]; RecExpr = [ a = 1 ].a ]",
    # Times.
    '[ T = absTime("2024-01-02T03:04:05+01:00"); Z = absTime("2024-01-02T03:04:05Z"); '
    'R = relTime("1+02:03:04"); N = relTime("-00:01:30"); Call = absTime(0) ]',
    # Names that need quoting, escaping in n="…".
    "[ 'a&b' = 1; 'x<y>' = 2; 's t' = 3; 'q\"q' = 4; 'b\\\\s' = 5 ]",
    # Non-finite reals are calls in new syntax; libclassad writes <e>.
    '[ N = real("NaN"); I = real("INF"); M = real("-INF") ]',
]

R = '<a n="{}">{}</a>'


def ad(*attrs):
    return "<c>\n" + "".join("    " + R.format(n, v) + "\n" for n, v in attrs) + "</c>\n"


SAME = [
    # As condor_q -xml writes it.
    HEADER
    + ad(
        ("MyType", "<s>Job</s>"),
        ("ClusterId", "<i>1</i>"),
        ("Rank", "<r>0.0</r>"),
        ("Half", "<r>5.000000000000000E-01</r>"),
        ("Flag", '<b v="t"/>'),
        ("Off", '<b v="f"/>'),
        ("U", "<un/>"),
        ("E", "<er/>"),
        ("T", "<at>2024-01-02T03:04:05+01:00</at>"),
        ("R", "<rt>1+02:03:04</rt>"),
        ("L", "<l><i>1</i><s>x</s><e>a + b</e></l>"),
        ("Req", '<e>(TARGET.Arch == "X86_64") &amp;&amp; (TARGET.Memory &gt;= RequestMemory)</e>'),
    )
    + ad(("Name", "<s>second</s>"), ("Nested", '<c>\n        <a n="x"><i>1</i></a>\n        <a n="y"><l></l></a>\n    </c>'))
    + FOOTER,
    # Strings: entities, ClassAd escapes, blanks, raw newlines, empty.
    ad(
        ("A", "<s>a&lt;b&gt;&amp;c \"q\" 's'</s>"),
        ("B", "<s>tab\\there\\nnl\\\\bs\\\"</s>"),
        ("C", "<s>\\303\\251t\\303\\251 \\101</s>"),
        ("D", "<s>  two  spaces  </s>"),
        ("E", "<s>line one\n  line two\n</s>"),
        ("F", "<s></s>"),
        ("G", "<s/>"),
        ("H", "<s>a > b</s>"),
    ),
    # Names.
    ad(("a&amp;b", "<i>1</i>"), ('q\\"q', "<i>2</i>"), ("s t", "<i>3</i>"), ("x&lt;y&gt;", "<i>4</i>")),
    # Numbers as other writers may write them.
    ad(
        ("I", "<i>  42  </i>"),
        ("J", "<i>-9223372036854775808</i>"),
        ("K", "<i>007</i>"),
        ("R1", "<r>1</r>"),
        ("R2", "<r> 1.5 </r>"),
        ("R3", "<r>NaN</r>"),
        ("R4", "<r>-INF</r>"),
        ("R5", "<r>INF</r>"),
        ("R6", "<r>-0.0</r>"),
        ("R7", "<r>1e400</r>"),
    ),
    # Booleans, undefined and error written with end tags, `T`.
    ad(("B1", '<b v="T"/>'), ("B2", '<b v="t"></b>'), ("B3", '<b v="F"/>'), ("U", "<un></un>"), ("E", "<er></er>")),
    # Compact spacing (ClassAdXMLUnParser's default), no header.
    '<c><a n="a"><i>1</i></a><a n="b"><l><c><a n="x"><e>y &lt; 2</e></a></c></l></a></c>'
    '<c><a n="a"><i>2</i></a></c>',
    # Relative times as libclassad reads them.
    ad(("A", "<rt>90</rt>"), ("B", "<rt>-1+00:00:01</rt>"), ("C", "<rt>2h30m</rt>")),
    # Later definitions win.
    ad(("x", "<i>1</i>"), ("X", "<i>2</i>")),
]

# We read the same ads, and warn: an integer too large for 64 bits is
# error in libclassad's XML (its JSON reader makes it 0).
WARNED = [
    ad(("x", "<i>99999999999999999999</i>"), ("y", "<i>1</i>")),
]

# We report an error for each (and keep the other attributes and ads).
ERROR = [
    # Rejected by libclassad.
    ad(("x", "<foo>1</foo>")),
    ad(("x", "<e>1 +</e>")),
    ad(("x", "<at>junk</at>")),
    ad(("x", "<rt>junk</rt>")),
    ad(("x", "<s>a\\0b</s>")),
    ad(("x", "<i></i>")),
    ad(("x", "<e></e>")),
    ad(("", "<i>1</i>")),
    '<c><a n="x">1</a></c>',
    # libclassad reads these without complaint, oddly; we report them.
    ad(("x", "<i>abc</i>")),
    ad(("x", "<i>12abc</i>")),
    ad(("x", "<i>+5</i>")),
    ad(("x", "<r>abc</r>")),
    ad(("x", '<b v="true"/>')),
    ad(("x", "<b/>")),
    ad(("x", "<e>1 2</e>")),
    # libclassad loops forever on text inside a list.
    ad(("x", "<l><i>1</i>junk</l>")),
]


def write_cases():
    out = []
    for text in WRITE:
        parsed = classad2.ClassAd(text)
        canonical = repr(parsed)
        xml = xml_of(canonical)
        assert xml is not None, text
        out.append({"new": canonical, "xml": xml})
    return out


def read_cases():
    out = []
    for expect, texts in (("same", SAME), ("warned", WARNED), ("error", ERROR)):
        for text in texts:
            got = read_xml(text)
            if isinstance(got, str):
                assert expect == "error", (text, got)
                got = "error"
            out.append({"xml": text, "libclassad": got, "expect": expect})
    return out


def corpus(src, dst):
    ads = list(classad2.parseAds(open(os.path.join(CORPORA, src)).read(), classad2.ParserType.Old))
    text = HEADER
    for a in ads:
        xml = xml_of(repr(a))
        chunks = attribute_chunks(xml)
        # The tools print attributes sorted without regard to case.
        chunks.sort(key=lambda c: c[0].lower())
        text += "<c>\n" + "".join(c + "\n" for _, c in chunks) + "</c>\n"
    text += FOOTER
    with open(os.path.join(CORPORA, dst), "w", encoding="latin-1") as f:
        f.write(text)
    return len(ads)


def main():
    cases = {"write": write_cases(), "read": read_cases()}
    with open(os.path.join(HERE, "cases.json"), "w") as f:
        json.dump(cases, f, indent=1, ensure_ascii=False)
        f.write("\n")
    n = corpus("condor_q_l.txt", "condor_q.xml")
    m = corpus("condor_status_l.txt", "condor_status.xml")
    print(
        "%d write cases, %d read cases (%d rejected by libclassad); %d + %d corpus ads"
        % (
            len(cases["write"]),
            len(cases["read"]),
            sum(c["libclassad"] == "error" for c in cases["read"]),
            n,
            m,
        )
    )


if __name__ == "__main__":
    main()
