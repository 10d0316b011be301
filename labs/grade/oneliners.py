"""oneliners.py - the grader of docs/labs/01-oneliners.md.

Each task is one D file run once in a fresh guest; the checks are on what
DTrace prints (the shape of an aggregation, the top row), never on exact
counts, which vary from boot to boot.
"""
import re

from gradelib import agg_rows, expect, expect_match, expect_status

DOC = "docs/labs/01-oneliners.md"


def top_row(result):
    rows = agg_rows(result)
    expect(rows, "expected an aggregation of one key and a count (`  KEY   N` lines)", result)
    return max(rows, key=lambda r: r[1])


def register(lab):
    @lab.task("hello", quick=True)
    def hello(lab):
        r = lab.dtrace("-s", lab.task_file("hello.d", 1))
        expect_status(r, 0)
        expect(r.lines() == ["hello, Sonde"],
               "expected exactly one line, `hello, Sonde` (quiet: no CPU/ID header)", r)

    @lab.task("syscalls")
    def syscalls(lab):
        r = lab.dtrace("-s", lab.task_file("syscalls.d", 2), "-c", "/bin/hello")
        expect_status(r, 0)
        rows = dict(agg_rows(r))
        expect(rows.get("write", 0) >= 1, "expected a `write` row (hello writes its greeting)", r)
        bad = [k for k in rows if not re.fullmatch(r"[a-z_0-9]+", k)]
        expect(not bad, "expected system call names as keys, got %s" % bad, r)

    @lab.task("kmalloc-sizes")
    def kmalloc_sizes(lab):
        f = lab.task_file("kmalloc-sizes.d", 3)
        r = lab.shell("run churn 1000000; dtrace -s %s" % f, files=[f])
        expect_status(r, 0)
        expect_match(r, r"^\s+value\s+-+ Distribution -+\s+count\s*$", "a quantize() histogram")
        rows = re.findall(r"^\s+(\d+) \|@*\s+(\d+)\s*$", r.out, re.M)
        expect(any(int(c) > 0 for _, c in rows), "expected some non-empty buckets", r)
        expect(all(int(v) & (int(v) - 1) == 0 for v, _ in rows),
               "expected power-of-two buckets (quantize, not lquantize)", r)

    @lab.task("oncpu")
    def oncpu(lab):
        r = lab.dtrace("-s", lab.task_file("oncpu.d", 4), "-c", "/bin/spin 40")
        expect_status(r, 0)
        key, _ = top_row(r)
        expect(key == "spin", "expected `spin` to be sampled most, got `%s`" % key, r)

    @lab.task("kfree-stacks")
    def kfree_stacks(lab):
        r = lab.dtrace("-s", lab.task_file("kfree-stacks.d", 5), "-c", "/bin/hello")
        expect_status(r, 0)
        expect_match(r, r"^\s+kernel`\w[\w.]*\+0x[0-9a-f]+$", "a kernel stack frame (kernel`func+0x1c)")
        expect_match(r, r"^\s+\d+$", "the count under each stack")

    @lab.task("execs")
    def execs(lab):
        r = lab.dtrace("-s", lab.task_file("execs.d", 6), "-c", "/bin/spawnbench 3")
        expect_status(r, 0)
        expect(r.lines().count("/bin/true") == 3,
               "expected the line `/bin/true` three times (stringof(arg0))", r)
        expect(not any("CPU" in l for l in r.lines()), "expected quiet output (no header)", r)
