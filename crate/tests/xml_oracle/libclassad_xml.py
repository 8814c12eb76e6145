"""libclassad's own XML writer and reader, for the XML oracle scripts.

HTCondor's Python bindings read XML (`classad2.parseAds(text,
ParserType.XML)`) but have no way to write it, so the writer,
`classad::ClassAdXMLUnParser`, is called in the bindings' shared library
through ctypes (the C++ symbols are exported). Only what the scripts need:

    xml_of(new_syntax_ad_text)  -> the ad as `condor_q -xml` writes it
                                   (compact spacing off), or None
    read_xml(text)              -> [ {name: canonical unparse} ] via
                                   classad2, or an exception's text
"""

import ctypes
import glob
import os

os.environ.setdefault("CONDOR_CONFIG", "/dev/null")
os.environ.setdefault("TZ", "UTC")
import htcondor2  # noqa: F401,E402  (registers HTCondor's functions)
import classad2  # noqa: E402

_LIBS = os.path.join(os.path.dirname(classad2.__file__), "..", "htcondor.libs")
_lib = ctypes.CDLL(sorted(glob.glob(os.path.join(_LIBS, "libclassad-*.so*")))[0])


class _StdString(ctypes.Structure):
    """libstdc++'s std::string (C++11 ABI): pointer, length, 16-byte buffer."""

    _fields_ = [("p", ctypes.c_void_p), ("n", ctypes.c_size_t), ("buf", ctypes.c_char * 16)]


def _empty_string():
    s = _StdString()
    s.p = ctypes.addressof(s) + _StdString.buf.offset
    s.n = 0
    return s


# Objects are given generous room: only their constructors touch them.
_parser = ctypes.create_string_buffer(1 << 16)
_lib._ZN7classad13ClassAdParserC1Ev(_parser)
_parse = _lib._ZN7classad13ClassAdParser12ParseClassAdEPKcb
_parse.restype = ctypes.c_void_p
_parse.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_bool]

_unparser = ctypes.create_string_buffer(256)
_lib._ZN7classad18ClassAdXMLUnParserC1Ev(_unparser)
_compact = _lib._ZN7classad18ClassAdXMLUnParser17SetCompactSpacingEb
_compact.argtypes = [ctypes.c_void_p, ctypes.c_bool]
_compact(_unparser, False)
# Unparse(std::string &, const ExprTree *, int indent); a ClassAd is an
# ExprTree at the same address (single inheritance).
_unparse = _lib._ZN7classad18ClassAdXMLUnParser7UnparseERNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEEPKNS_8ExprTreeEi
_unparse.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]

HEADER = '<?xml version="1.0"?>\n<!DOCTYPE classads SYSTEM "classads.dtd">\n<classads>\n'
FOOTER = "</classads>\n"


def xml_of(ad_text):
    """One ad in new syntax -> ClassAdXMLUnParser's text (bytes as str,
    latin-1 so every byte survives), or None if libclassad rejects it."""
    ad = _parse(_parser, ad_text.encode(), True)
    if not ad:
        return None
    out = _empty_string()
    _unparse(_unparser, ctypes.byref(out), ad, 0)
    # (The ad and any grown buffer are leaked: this runs once per ad.)
    return ctypes.string_at(out.p, out.n).decode("latin-1")


def attribute_chunks(ad_xml):
    """A top-level `<c>…</c>` split into {name line start: text} in order:
    each attribute is the text from its `    <a n=` line to the next."""
    lines = ad_xml.split("\n")
    chunks, name, cur = [], None, []
    for line in lines[1:]:
        if line.startswith('    <a n="') or line == "</c>":
            if name is not None:
                chunks.append((name, "\n".join(cur)))
            if line == "</c>":
                break
            name = line[len('    <a n="'):].split('">', 1)[0]
            cur = [line]
        else:
            cur.append(line)
    return chunks


def canon(ad):
    """{name: libclassad's canonical unparse of its expression}."""
    return {k: repr(ad.lookup(k)) for k in ad.keys()}


def read(text, parser, timeout=5):
    """The ads libclassad reads, or "error: …". Run in a child process:
    libclassad's XML reader loops forever on text inside `<l>`."""
    import multiprocessing

    def child(q):
        try:
            q.put([canon(ad) for ad in classad2.parseAds(text, parser)])
        except Exception as e:  # noqa: BLE001  (classad2 raises plain errors)
            q.put("error: %s" % e)

    import queue

    ctx = multiprocessing.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=child, args=(q,))
    p.start()
    try:
        # Before join: a large answer would fill the pipe and block.
        answer = q.get(timeout=timeout)
    except queue.Empty:
        answer = "error: libclassad did not finish"
    p.kill()
    p.join()
    return answer


def read_xml(text):
    return read(text, classad2.ParserType.XML)


def read_new(text):
    return read(text, classad2.ParserType.New)
