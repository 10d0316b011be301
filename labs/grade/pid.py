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
        f = frames(r)
        expect(f[:1] and f[0].startswith("reqs`open+"), "expected a user stack from reqs`open+0x..", r)
        expect(any(x.startswith("reqs`main+") for x in f), "expected reqs`main+0x.. in it", r)
        a = lab.answers("answers.txt", 3)
        expect(a.get("missing_frame") == "request_serve",
               "answers.txt: missing_frame = the function whose frame the walk skipped "
               "(got %r)" % a.get("missing_frame"))

    @lab.task("paths")
    def paths(lab):
        r = run(lab, "paths.d", 4)
        rows = dict(agg_rows(r))
        expect(rows == {"/scripts/missing.d": 1, "/scripts/hello.d": 17, "/scripts/tick.d": 16,
                        "/scripts/profile.d": 16},
               "expected the four paths and their counts, got %s" % rows, r)

    @lab.task("fullstack")
    def fullstack(lab):
        r = run(lab, "fullstack.d", 5)
        f = frames(r)
        names = [x.split("+")[0] for x in f]
        expect(names[:3] == ["reqs`request_path", "reqs`request_serve", "reqs`main"],
               "expected one stack: request_path, request_serve, main, ...", r)
        expect(len(re.findall(r"request_path\s*$", r.out, re.M)) == 1,
               "expected the stack of the failing request only", r)
