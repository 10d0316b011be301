"""dif_safety.py - the grader of docs/labs/04-dif-safety.md.

Tasks 1-4 run on the host: the student's DIF text goes through the same
validator the kernel runs on every DIFO (difasm -V), and must be refused
for exactly the one reason the task names; task 4's program must be
accepted and return 10! in the DIF vector runner (dift, the same
interpreter the kernel has).  Tasks 5-8 run D in the guest: the fault must
be reported on standard error with DTrace's exact text, the clause after
it must still run, and dtrace must exit 0.
"""
import os
import re
import subprocess
import tempfile

from gradelib import ROOT, Fail, expect, expect_match, expect_status

DOC = "docs/labs/04-dif-safety.md"
DIFASM = os.path.join("build", "host", "dif", "difasm")
DIFT = os.path.join("build", "host", "dif", "dift")
# dtrace: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): <what> in action #1 at DIF offset 4
ERROR_LINE = r"^dtrace: error on enabled probe ID \d+ \(ID \d+: dtrace:::BEGIN\): %s in action #\d+ at DIF offset \d+$"


def host_tools(lab):
    for tool in (DIFASM, DIFT):
        if not os.path.exists(os.path.join(ROOT, tool)):
            p = subprocess.run(["make", tool], cwd=ROOT, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT)
            if p.returncode != 0:
                raise Fail("make %s failed:\n%s" % (tool, p.stdout.decode()[-2000:]))


def refused(lab, fname, number, reason):
    host_tools(lab)
    f = lab.task_file(fname, number)
    r = lab.host([DIFASM, "-V", f])
    problems = [l for l in (r.out + r.err).splitlines() if ": pc " in l or ": line " in l]
    expect(r.rc != 0 and problems, "expected the validator to refuse %s" % f, r)
    expect(all(": line " not in l for l in problems),
           "the assembler refused it before the validator saw it: write DIF that assembles", r)
    expect(len(problems) == 1 and reason in problems[0],
           "expected exactly one problem, \"%s\"" % reason, r)


def runtime_fault(lab, fname, number, what):
    r = lab.dtrace("-s", lab.task_file(fname, number))
    expect_status(r, 0)
    expect_match(r, ERROR_LINE % what, "DTrace's error line for the fault", stream="err")
    expect("still here" in r.lines(), "expected the next clause to print `still here`", r)


def register(lab):
    @lab.task("loop", quick=True)
    def loop(lab):
        refused(lab, "loop.dif", 1, "branch backwards")

    @lab.task("r0", quick=True)
    def r0(lab):
        refused(lab, "r0.dif", 2, "write to %r0")

    @lab.task("noret", quick=True)
    def noret(lab):
        refused(lab, "noret.dif", 3, "missing final ret")

    @lab.task("fact", quick=True)
    def fact(lab):
        host_tools(lab)
        text = lab.read("fact.dif", 4)
        with tempfile.NamedTemporaryFile("w", suffix=".dift", delete=False) as v:
            v.write("# the student's fact.dif: 10! without a loop\n-- asm\n%s\n-- result\n3628800\n"
                    % text)
        try:
            r = lab.host([DIFT, "-v", v.name])
        finally:
            os.unlink(v.name)
        expect(r.rc == 0, "expected fact.dif to be accepted and return 3628800", r)

    @lab.task("null", quick=True)
    def null(lab):
        runtime_fault(lab, "null.d", 5, re.escape("invalid address (0x0)"))

    @lab.task("divzero")
    def divzero(lab):
        runtime_fault(lab, "divzero.d", 6, "divide-by-zero")

    @lab.task("align")
    def align(lab):
        runtime_fault(lab, "align.d", 7, r"invalid alignment \(0x[0-9a-f]*[1-79a-f]\)")

    @lab.task("error-probe")
    def error_probe(lab):
        r = lab.dtrace("-s", lab.task_file("error.d", 8))
        expect_status(r, 0)
        expect("fault 1 at 0x1234" in r.lines(), "expected the line `fault 1 at 0x1234`", r)
