"""probe_effect.py - the grader of docs/labs/02-probe-effect.md.

The student's measure.sh prints the figures (key = value lines); the
grader measures the same figures itself, once, in one -icount boot, and
compares.  Under -icount the counts are exact, so the tolerance only
absorbs a different number of calls (the loop's own overhead divided
differently): 1 instruction, or 2 %, whichever is larger.  The figures
change when fbt changes (a jump-optimised entry has no trap): measuring,
not remembering, is what passes.
"""
import re

from gradelib import expect, expect_status

DOC = "docs/labs/02-probe-effect.md"
N = 10000
CASES = [  # key, shell command in the guest; "added" keys are minus plain
    ("plain", "bench_calls plain %d" % N),
    ("fbt_disabled", "bench_calls fbt %d" % N),
    ("sdt_disabled", "bench_calls sdt %d" % N),
    ("fbt_entry_count", "dtrace -q -n 'fbt::bench_fbt:entry { @ = count(); }' -c 'bench_calls fbt %d'" % N),
    ("fbt_return_count", "dtrace -q -n 'fbt::bench_fbt:return { @ = count(); }' -c 'bench_calls fbt %d'" % N),
]
BENCH = re.compile(r"^bench_calls: \w+ (\d+) calls (\d+) ticks (\d+) traps", re.M)
_cache = {}


def reference(lab):
    """The grader's own figures (one boot, cached)."""
    if "ref" not in _cache:
        r = lab.shell("; ".join(c for _, c in CASES), icount=True)
        expect_status(r, 0)
        runs = BENCH.findall(r.out)
        expect(len(runs) == len(CASES), "the grader's measurement went wrong", r)
        per = [int(t) / int(n) for n, t, _ in runs]
        fig = {"plain": per[0]}
        for (key, _), v in list(zip(CASES, per))[1:]:
            fig[key] = v - per[0]
        fig["fbt_entry_traps"] = int(runs[3][2]) / int(runs[3][0])
        _cache["ref"] = fig
    return _cache["ref"]


def student(lab):
    """What the student's measure.sh prints (run once, cached)."""
    if "student" not in _cache:
        script = lab.task_file("measure.sh", 1)
        r = lab.host(["sh", script], timeout=600)
        expect_status(r, 0)
        fig = {}
        for line in r.out.splitlines():
            m = re.fullmatch(r"\s*(\w+)\s*=\s*(-?[\d.]+)\s*", line)
            if m:
                fig[m.group(1)] = float(m.group(2))
        _cache["student"] = (fig, r)
    return _cache["student"]


def compare(lab, keys):
    fig, r = student(lab)
    ref = reference(lab)
    for k in keys:
        expect(k in fig, "measure.sh printed no `%s = N` line" % k, r)
        tol = max(1.0, abs(ref[k]) * 0.02)
        expect(abs(fig[k] - ref[k]) <= tol,
               "%s: measure.sh says %g, the grader measured %.2f (within %.2f)"
               % (k, fig[k], ref[k], tol), r)


def register(lab):
    @lab.task("disabled")
    def disabled(lab):
        compare(lab, ["plain", "fbt_disabled", "sdt_disabled"])

    @lab.task("enabled")
    def enabled(lab):
        compare(lab, ["fbt_entry_count", "fbt_return_count"])

    @lab.task("traps")
    def traps(lab):
        compare(lab, ["fbt_entry_traps"])

    @lab.task("even")
    def even(lab):
        f = lab.task_file("even.d", 4)
        r = lab.shell("dtrace -s %s -c 'bench_calls fbt %d'" % (f, N), files=[f], icount=True)
        expect_status(r, 0)
        counts = [int(x) for x in re.findall(r"^\s+(\d+)\s*$", r.out, re.M)]
        expect(counts == [N // 2], "expected one count() of %d (the even arguments of %d calls)"
               % (N // 2, N), r)
