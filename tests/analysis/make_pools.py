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


def slots():
    # 40 slots on 28 machines, as a glidein pool advertises them: slot1 on
    # every node, slot2 on the first 12. Their own requirements read the
    # job's Request* attributes (what lowering them in the job must fix).
    # Memory 1900 on 30 slots, 1024 on the rest; 6 of the 1900s are busy.
    ads = []
    for i in range(40):
        node = i if i < 28 else i - 28
        slot = 1 if i < 28 else 2
        memory = 1900 if i < 30 else 1024
        busy = i in (1, 5, 9, 13, 28, 29)
        ad = [("Name", q("slot%d@node%02d.example.org" % (slot, node))), ("Machine", q("node%02d.example.org" % node)),
              ("Arch", q("X86_64")), ("OpSys", q("LINUX")), ("Cpus", 1 + node % 4), ("Memory", memory),
              ("Disk", 20000000), ("HasFileTransfer", "true"),
              ("State", q("Claimed" if busy else "Unclaimed")), ("Activity", q("Busy" if busy else "Idle"))]
        if busy:
            ad.append(("RemoteUser", q("other@example.org")))
        ad += [("START", "true"),
               ("Requirements", "START && (TARGET.RequestMemory <= MY.Memory) && (TARGET.RequestCpus <= MY.Cpus) && (TARGET.RequestDisk <= MY.Disk)")]
        ads.append(ad)
    write("idle_slots.classad", ads, "issue 23: 40 slots on 28 machines whose requirements read the job's Request* attributes")


def idle_jobs():
    # A real idle OSG job's shape: Memory >= RequestMemory with 2000 asked,
    # 1900 offered. And a 40-clause job: each clause a machine and a Cpus
    # floor, all of them && Memory >= RequestMemory.
    common = [("ClusterId", 769012), ("ProcId", 0), ("Owner", q("osguser")), ("JobStatus", 1),
              ("RequestMemory", 2000), ("RequestCpus", 1), ("RequestDisk", 1000000), ("DiskUsage", 750000)]
    idle = common + [("Requirements", '(TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Disk >= RequestDisk) && '
                      '(TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus) && (TARGET.HasFileTransfer)')]
    write("idle_job.classad", [idle], "issue 23: an idle OSG-shaped job asking 2000 MB where the slots offer 1900")
    clauses = " || ".join('(TARGET.Machine == "node%02d.example.org" && TARGET.Cpus >= %d)' % (k, 1 + k % 2) for k in range(40))
    forty = [("ClusterId", 769013), ("ProcId", 0)] + common[2:] + [("Requirements", "(%s) && (TARGET.Memory >= RequestMemory)" % clauses)]
    write("clauses40_job.classad", [forty], "issue 23: a 40-clause machine list && Memory >= RequestMemory")


def glideins():
    # Issue 34, case 5: 120 glidein slots on six sites, a quarter claimed,
    # every one with the START a glidein factory hands out (reading the
    # job's Request*, DESIRED_Sites and the glidein's retirement time).
    # The same pool past its retirement time, and two jobs: one whose
    # DESIRED_Sites no slot offers, one asking 2 TB.
    start = ('(isUndefined(TARGET.SingularityImage) || MY.HAS_SINGULARITY) && (TARGET.RequestCpus <= MY.Cpus) && '
             '(TARGET.RequestMemory <= MY.Memory) && (TARGET.RequestDisk <= MY.Disk) && '
             '(MY.GLIDEIN_ToRetire is undefined || time() < MY.GLIDEIN_ToRetire) && '
             '((TARGET.DESIRED_Sites is undefined) || stringListMember(MY.GLIDEIN_Site, TARGET.DESIRED_Sites, ",")) && '
             '(TARGET.JobUniverse == 5 || TARGET.JobUniverse == 7)')
    sites = ["UCSD", "Nebraska", "Wisconsin", "FNAL", "Purdue", "MWT2"]

    def pool(retire):
        ads = []
        for i in range(120):
            site, cpus, claimed = sites[i % 6], [1, 2, 4, 8][i % 4], i % 4 == 3
            ad = [("Name", q("slot1@glidein%d.%s.example.org" % (i, site.lower()))),
                  ("Machine", q("glidein%d.%s.example.org" % (i, site.lower()))),
                  ("Arch", q("X86_64")), ("OpSys", q("LINUX")), ("Cpus", cpus), ("Memory", cpus * 2048),
                  ("Disk", cpus * 4000000), ("HAS_SINGULARITY", "true"), ("GLIDEIN_Site", q(site)),
                  ("GLIDEIN_ToRetire", retire + i), ("State", q("Claimed" if claimed else "Unclaimed"))]
            if claimed:
                ad.append(("RemoteUser", q("other@osg.example.org")))
            ad += [("START", start), ("Requirements", "START")]
            ads.append(ad)
        return ads
    write("glidein_slots.classad", pool(4102444800), "issue 34: 120 glidein slots, one START, six sites")
    write("glidein_retired_slots.classad", pool(1700000000), "issue 34: the same glideins past GLIDEIN_ToRetire")
    common = [("ClusterId", 4242), ("ProcId", 0), ("Owner", q("cmsuser")), ("JobUniverse", 5), ("JobStatus", 1),
              ("RequestCpus", 1), ("RequestDisk", 1000000)]
    req = '(TARGET.Arch == "X86_64") && (TARGET.OpSys == "LINUX") && (TARGET.Memory >= RequestMemory) && (TARGET.Cpus >= RequestCpus)'
    write("glidein_cms_job.classad", [common + [("RequestMemory", 2000), ("DESIRED_Sites", q("T2_CH_CERN,T2_US_MIT")),
                                                ("Requirements", req)]],
          "issue 34: a CMS job whose DESIRED_Sites no glidein offers")
    write("glidein_bigmem_job.classad", [common + [("RequestMemory", 2097152), ("Requirements", req)]],
          "issue 34: a job asking 2 TB of memory")


analyze1()
analyze2()
analyze3()
eight()
figure4()
figure5()
slots()
idle_jobs()
glideins()
