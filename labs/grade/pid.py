"""pid.py - the grader of docs/labs/07-pid.md.

The student's D runs with -c '/bin/reqs 50 7' (50 requests, request 7
fails); the checks are exact, since the program is deterministic.
"""
import re

from gradelib import agg_rows, expect, expect_status

DOC = "docs/labs/07-pid.md"
CMD = "/bin/reqs 50 7"


def run(lab, fname, number):
    r = lab.dtrace("-s", lab.task_file(fname, number), "-c", CMD)
    expect_status(r, 0)
    expect("reqs: 50 requests, 1 failed" in r.out, "expected /bin/reqs' report line", r)
    return r


def frames(r):
    return re.findall(r"^\s+(reqs`[\w.]+(?:\+0x[0-9a-f]+)?)\s*$", r.out, re.M)


def register(lab):
    @lab.task("calls", quick=True)
    def calls(lab):
        r = run(lab, "calls.d", 1)
        rows = dict(agg_rows(r))
        expect(rows == {"request_path": 50, "request_serve": 50},
               "expected request_path 50 and request_serve 50, got %s" % rows, r)

    @lab.task("returns")
    def returns(lab):
        r = run(lab, "returns.d", 2)
        rows = dict(agg_rows(r, key=r"-?\d+"))
        expect(rows.get("-1") == 1 and sum(rows.values()) == 50,
               "expected one return of -1 among 50 (the other keys: bytes served)", r)

    @lab.task("ustack")
    def ustack(lab):
        r = run(lab, "ustack.d", 3)
        names = [x.split("+")[0] for x in frames(r)]
        expect(names[:3] == ["reqs`open", "reqs`request_serve", "reqs`main"],
               "expected one user stack: open, request_serve, main, ...", r)
        expect(len(re.findall(r"`open\+", r.out)) == 1, "expected the failing open's stack only", r)

    @lab.task("paths")
    def paths(lab):
        r = run(lab, "paths.d", 4)
        rows = dict(agg_rows(r))
        expect(rows == {"/scripts/missing.d": 1, "/scripts/hello.d": 17, "/scripts/tick.d": 16,
                        "/scripts/profile.d": 16},
               "expected the four paths and their counts, got %s" % rows, r)

    @lab.task("leaf")
    def leaf(lab):
        r = run(lab, "leaf.d", 5)
        names = [x.split("+")[0] for x in frames(r)]
        expect(names[:1] == ["reqs`request_path"] and "reqs`main" in names,
               "expected one user stack from request_path's return, through main", r)
        expect("reqs`request_serve" not in names,
               "expected a stack taken inside request_path, where the walk skips a frame", r)
        expect(len(re.findall(r"`request_path\+", r.out)) == 1,
               "expected the failing request's stack only", r)
        a = lab.answers("answers.txt", 5)
        expect(a.get("missing_frame") == "request_serve",
               "answers.txt: missing_frame = the function whose frame the walk skipped "
               "(got %r)" % a.get("missing_frame"))
