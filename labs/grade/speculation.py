"""speculation.py - the grader of docs/labs/06-speculation.md.

/bin/reqs serves N requests of which one, BAD, fails (its open finds no
file).  The grader picks BAD (not the program's default, so an answer
written for 37 fails) and checks that the student's trace shows that
request and no other.
"""
import re

from gradelib import expect, expect_status

DOC = "docs/labs/06-speculation.md"


def run(lab, fname, number, n, bad):
    r = lab.dtrace("-s", lab.task_file(fname, number), "-c", "/bin/reqs %d %d" % (n, bad))
    expect_status(r, 0)
    expect("reqs: %d requests, 1 failed" % n in r.out, "expected /bin/reqs' report line", r)
    return r


def register(lab):
    @lab.task("failed")
    def failed(lab):
        r = run(lab, "failed.d", 1, 100, 61)
        got = [l for l in r.lines() if l.startswith("request")]
        expect(got == ["request 61 failed"], "expected exactly the line `request 61 failed`", r)

    @lab.task("spec", quick=True)
    def spec(lab):
        r = run(lab, "spec.d", 2, 200, 83)
        reqs = [l for l in r.lines() if l.startswith("request")]
        expect(reqs == ["request 83"], "expected one request traced, `request 83`", r)
        calls = re.findall(r"^\s+syscall (\w+)", r.out, re.M)
        expect(calls[:1] == ["getpid"] and "open" in calls,
               "expected its system calls, getpid then open, after `request 83`", r)
        expect(len(calls) <= 4, "expected only the failing request's system calls", r)

    @lab.task("errno")
    def errno(lab):
        r = run(lab, "spec.d", 3, 50, 7)
        expect(re.search(r"^\s+syscall open = -1 errno 2\s*$", r.out, re.M),
               "expected the line `  syscall open = -1 errno 2` (ENOENT)", r)
        expect([l for l in r.lines() if l.startswith("request")] == ["request 7"],
               "expected one request traced, `request 7`", r)
