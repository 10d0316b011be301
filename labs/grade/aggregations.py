"""aggregations.py - the grader of docs/labs/05-aggregations.md (4 CPUs).

Every task boots 4 CPUs (SONDE_CPUS=4) and checks what the merge of the
per-CPU partial aggregations must give, whatever the counts were: one row
per CPU, buckets that add up to the count, min 0 and max 3 of `cpu`, and
a racy global that can only lose increments, never gain them.
"""
import re

from gradelib import agg_rows, expect, expect_status

DOC = "docs/labs/05-aggregations.md"
CPUS = 4


def values(r):
    """{word: number} of the `word N` lines."""
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+) (-?\d+)\s*$", r.out, re.M)}


def register(lab):
    @lab.task("percpu")
    def percpu(lab):
        r = lab.dtrace("-s", lab.task_file("percpu.d", 1), cpus=CPUS)
        expect_status(r, 0)
        rows = dict(agg_rows(r, key=r"\d+"))
        expect(sorted(rows) == [str(c) for c in range(CPUS)],
               "expected one row for each of CPUs 0-3, got keys %s" % sorted(rows), r)
        expect(all(v > 0 for v in rows.values()), "expected samples on every CPU", r)

    @lab.task("merge")
    def merge(lab):
        r = lab.dtrace("-s", lab.task_file("merge.d", 2), cpus=CPUS)
        expect_status(r, 0)
        total = values(r).get("total")
        expect(total is not None, "expected a `total N` line", r)
        buckets = {int(v): int(c) for v, c in
                   re.findall(r"^\s+(\d+) \|@*\s+(\d+)\s*$", r.out, re.M)}
        expect(all(buckets.get(c, 0) > 0 for c in range(CPUS)),
               "expected an lquantize() with a non-empty bucket for each CPU 0-3", r)
        expect(sum(buckets.values()) == total,
               "expected the buckets to add up to the total (%d), they add up to %d"
               % (total, sum(buckets.values())), r)

    @lab.task("minmax")
    def minmax(lab):
        r = lab.dtrace("-s", lab.task_file("minmax.d", 3), cpus=CPUS)
        expect_status(r, 0)
        v = values(r)
        expect(v.get("min") == 0 and v.get("max") == CPUS - 1,
               "expected `min 0` and `max 3`", r)
        expect(v.get("avg") in (1, 2), "expected `avg 1` (or 2): the mean CPU of even samples", r)

    @lab.task("race")
    def race(lab):
        r = lab.dtrace("-s", lab.task_file("race.d", 4), cpus=CPUS)
        expect_status(r, 0)
        v = values(r)
        expect("count" in v and "global" in v, "expected `count N` and `global M` lines", r)
        expect(0 < v["global"] <= v["count"],
               "expected the global (%d) to be at most the count (%d): increments can be lost, "
               "never invented" % (v["global"], v["count"]), r)
