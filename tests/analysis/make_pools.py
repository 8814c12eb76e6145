#!/usr/bin/env python3
"""Write the analyzer's paper pools (seed 000) as ClassAd files.

    python3 tests/analysis/make_pools.py      # rewrites tests/analysis/*.classad

The §3.3 pools are not in the paper; these are built so that every number its
three `condor_q -analyze` outputs print comes out exactly (839 / 839 / 837
machines, the per-predicate matches, MODIFY TO 1911, ImageSize <= 1220608).
Deterministic: no randomness."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, ads, header):
    with open(os.path.join(HERE, name), "w") as f:
        f.write("// %s\n" % header)
        for ad in ads:
            f.write("[ " + "; ".join("%s = %s" % kv for kv in ad) + " ]\n")


def q(s):
    return '"%s"' % s


def analyze1():
    # Foo: nobody. Memory <= 1911 (one INTEL/LINUX machine has 1911).
    # OpSys == "LINUX": 616; Arch == "INTEL": 740; Disk >= 14: 835.
    ads = []
    for i in range(839):
        arch = "INTEL" if i < 740 else ("SUN4u" if i % 2 else "ALPHA")
        opsys = "LINUX" if i < 616 else "SOLARIS"
        disk = 10 if i >= 835 else 20 + i % 50
        memory = 1911 if i == 7 else [128, 256, 512, 1024][i % 4]
        ads.append([("Name", q("m%03d.cs.wisc.edu" % i)), ("Arch", q(arch)), ("OpSys", q(opsys)),
                    ("Memory", memory), ("Disk", disk), ("State", q("Unclaimed")),
                    ("Requirements", "true")])
    write("analyze1_machines.classad", ads, "seed 000 §3.3, first condor_q -analyze example: 839 machines")


def analyze2():
    # Arch == "ALPHA": 4 (all LINUX); OpSys == "SOLARIS": 120; Disk >= 14: 838.
    ads = []
    for i in range(839):
        arch = "ALPHA" if i < 4 else ("INTEL" if i < 600 else "SUN4u")
        opsys = "SOLARIS" if 100 <= i < 220 else "LINUX"
        disk = 10 if i == 838 else 30
        ads.append([("Name", q("m%03d.cs.wisc.edu" % i)), ("Arch", q(arch)), ("OpSys", q(opsys)),
                    ("Memory", 512), ("Disk", disk), ("State", q("Unclaimed")), ("Requirements", "true")])
    write("analyze2_machines.classad", ads, "seed 000 §3.3, second example (conflict): 839 machines")


def analyze3():
    # Memory > 1024: 30 (all INTEL/LINUX, Disk ok); they accept jobs with
    # ImageSize <= 1220608. LINUX 618, INTEL 741, Disk >= 14: 836.
    ads = []
    for i in range(837):
        arch = "INTEL" if i < 741 else "SUN4u"
        opsys = "LINUX" if i < 618 else "SOLARIS"
        disk = 10 if i == 836 else 40
        memory = 2048 if i < 30 else 512
        req = "TARGET.ImageSize <= 1220608" if i < 30 else "true"
        ads.append([("Name", q("m%03d.cs.wisc.edu" % i)), ("Arch", q(arch)), ("OpSys", q(opsys)),
                    ("Memory", memory), ("Disk", disk), ("State", q("Unclaimed")), ("Requirements", req)])
    write("analyze3_machines.classad", ads, "seed 000 §3.3, third example (Nobody Likes Me): 837 machines")


def eight():
    rows = [("ALPHA", "LINUX", 256), ("INTEL", "LINUX", 256), ("INTEL", "SOLARIS", 1024),
            ("SPARC", "LINUX", 512), ("ALPHA", "LINUX", 512), ("SPARC", "SOLARIS", 1024),
            ("SPARC", "LINUX", 256), ("INTEL", "SOLARIS", 256)]
    ads = [[("Name", q("machine%d" % (i + 1))), ("Arch", q(a)), ("OpSys", q(o)), ("Memory", "%dM" % m),
            ("Requirements", "true")] for i, (a, o, m) in enumerate(rows)]
    write("eight_machines.classad", ads, "seed 000 §3.1.1: the eight machine ClassAds of the M1/M2 tables")


def figure4():
    # Rows {p1,p2}, {p3}, {p4}: the lattice of Figure 4.
    ads = [[("Name", q("m1")), ("A", 1), ("B", 1), ("Requirements", "true")],
           [("Name", q("m2")), ("C", 1), ("Requirements", "true")],
           [("Name", q("m3")), ("D", 1), ("Requirements", "true")]]
    write("figure4_machines.classad", ads, "seed 000 Figure 4: MSS {p1,p2}, {p3}, {p4}")


def figure5():
    ads = [[("Name", q("c1")), ("Requirements", "(ImageSize >= 128M) && (MemoryRequirements >= 512M)")],
           [("Name", q("c2")), ("Requirements", "(ImageSize >= 64M) && (MemoryRequirements >= 1024M)")]]
    write("figure5_machines.classad", ads, "seed 000 §3.2 / Figure 5: two machines, one clause each")


analyze1()
analyze2()
analyze3()
eight()
figure4()
figure5()
