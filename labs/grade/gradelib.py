"""gradelib.py - what every lab's grader is made of.

A lab's grader (labs/grade/<lab>.py) is a list of tasks, each a small
Python function registered with @task.  A task reads the student's files
(task_file), runs them in a freshly booted Sonde (dtrace, shell: through
tools/dtrace, so every run is one boot with the files copied in) or on the
host (host), and states what must hold (expect, expect_match, ...).  A
failed expectation raises Fail with a message meant for the student: what
was run, what was expected, what came back.

The runner (labs/grade/grade.py) prints one line per task in the shape of
MIT 6.1810's `make grade`, then the score:

    == grade oneliners: labs/student/oneliners ==
    hello: OK (1.3s)
    syscalls: FAIL (2.1s)
        labs/student/oneliners/syscalls.d: missing (docs/labs/01-oneliners.md, task 2)
    Score: 1/2

What this is not: a sandbox.  The student's D runs in the guest, where
DTrace's safety is the sandbox; the student's C (a kernel edit) runs in a
kernel the grader builds from the student's own tree.  Graders never look
at wall-clock time (the machine may be loaded): only at output, exit
status and -icount instruction counts, which are exact.

Work and solutions: a lab's files are looked for in labs/student/<lab>/ (the
student's) or, with --solutions, in labs/solutions/<lab>/ (the reference
solutions, which make grade-all and make labs-check grade so that the
graders cannot rot).
"""
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS_DTRACE = os.path.join(ROOT, "tools", "dtrace")
PYTHON = "/usr/bin/python3"


class Fail(Exception):
    """A task's expectation did not hold; the message is for the student."""


class Lab:
    """One lab being graded: its name, its doc, where its files are."""

    def __init__(self, name, doc, solutions=False, kernel=None):
        self.name = name
        self.doc = doc
        self.solutions = solutions
        self.dir = os.path.join("labs", "solutions" if solutions else "student", name)
        self.kernel = kernel          # None: build/kernel.elf
        self.tasks = []

    # --- registering tasks -------------------------------------------------

    def task(self, name, quick=False):
        """Decorator: fn(lab) is the task NAME; quick tasks run in make labs-check."""
        def register(fn):
            self.tasks.append((name, quick, fn))
            return fn
        return register

    # --- the student's files -----------------------------------------------

    def task_file(self, fname, number=None):
        """The path (relative to the tree) of a lab file; Fail if it is missing."""
        rel = os.path.join(self.dir, fname)
        if not os.path.isfile(os.path.join(ROOT, rel)):
            where = "%s%s" % (self.doc, ", task %s" % number if number else "")
            raise Fail("%s: missing (%s says what goes in it)" % (rel, where))
        return rel

    def read(self, fname, number=None):
        with open(os.path.join(ROOT, self.task_file(fname, number))) as f:
            return f.read()

    def answers(self, fname="answers.txt", number=None):
        """key = value lines of an answers file (# comments, blank lines ignored)."""
        out = {}
        for line in self.read(fname, number).splitlines():
            line = line.split("#", 1)[0].strip()
            if "=" in line:
                k, v = line.split("=", 1)
                out[k.strip()] = v.strip()
        return out

    # --- running things ----------------------------------------------------

    def dtrace(self, *args, cpus=1, icount=False, timeout=90, files=(), append=None):
        """tools/dtrace ARGS in a fresh guest; a Result."""
        argv = []
        for f in files:
            argv += ["--file", f]
        return self._guest(argv + list(args), cpus, icount, timeout, append)

    def shell(self, line, cpus=1, icount=False, timeout=90, files=(), append=None):
        """One shell command line in a fresh guest (tools/dtrace --shell)."""
        argv = []
        for f in files:
            argv += ["--file", f]
        return self._guest(argv + ["--shell", line], cpus, icount, timeout, append)

    def _guest(self, argv, cpus, icount, timeout, append):
        env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_TIMEOUT=str(timeout))
        env.pop("SONDE_ICOUNT", None)
        if icount:
            env["SONDE_ICOUNT"] = "1"
        if self.kernel:
            env["SONDE_KERNEL"] = self.kernel
        if append:
            env["SONDE_APPEND"] = append
        # Never an anonymous enabling left by tools/dtrace -A: grading boots are plain.
        env["SONDE_ANON"] = os.path.join(ROOT, "build", "no-anonymous-enabling.tar")
        return run([PYTHON, TOOLS_DTRACE] + argv, env=env, timeout=timeout + 60,
                   shown="tools/dtrace " + " ".join(shell_quote(a) for a in argv))

    def host(self, argv, timeout=60):
        """A host program, from the tree's top."""
        return run(argv, timeout=timeout, shown=" ".join(argv))


class Result:
    """What a command gave back: status, standard output and error, as text."""

    def __init__(self, shown, rc, out, err):
        self.shown, self.rc, self.out, self.err = shown, rc, out, err

    def describe(self, limit=1500):
        """The command and what it printed, for a failure message."""
        def cut(s):
            return s if len(s) <= limit else s[:limit] + "\n[... %d more bytes]" % (len(s) - limit)
        text = "ran: %s\nexit status %d" % (self.shown, self.rc)
        if self.out.strip():
            text += "\nstdout:\n" + indent(cut(self.out))
        if self.err.strip():
            text += "\nstderr:\n" + indent(cut(self.err))
        return text

    def lines(self):
        return [l for l in self.out.splitlines() if l.strip()]


def run(argv, env=None, timeout=120, shown=None):
    try:
        p = subprocess.run(argv, cwd=ROOT, env=env, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=timeout)
        return Result(shown or " ".join(argv), p.returncode,
                      p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))
    except subprocess.TimeoutExpired:
        raise Fail("ran: %s\nno answer after %d s" % (shown, timeout))


def shell_quote(s):
    if re.fullmatch(r"[\w@%+=:,./-]+", s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def indent(s, by="    "):
    return "\n".join(by + l for l in s.rstrip("\n").split("\n"))


# --- expectations ------------------------------------------------------------

def expect(cond, msg, result=None):
    """Fail with MSG (and the command's output) unless COND."""
    if not cond:
        raise Fail(msg + ("\n" + result.describe() if result is not None else ""))


def expect_status(result, status=0):
    expect(result.rc == status, "expected exit status %d" % status, result)


def expect_match(result, pattern, what, stream="out"):
    """A line of stdout (or stderr) matching the regular expression; the match."""
    text = result.out if stream == "out" else result.err
    m = re.search(pattern, text, re.M)
    expect(m is not None, "expected %s (a line matching /%s/ on std%s)" % (what, pattern, stream),
           result)
    return m


def expect_no_match(result, pattern, what, stream="out"):
    text = result.out if stream == "out" else result.err
    m = re.search(pattern, text, re.M)
    expect(m is None, "expected no %s, found: %r" % (what, m.group(0) if m else ""), result)


def agg_rows(result, key=r"\S+"):
    """(key, count) pairs of a printed one-key count()/sum() aggregation: `  KEY   N`."""
    rows = []
    for line in result.out.splitlines():
        m = re.fullmatch(r"\s+(%s)\s+(-?\d+)\s*" % key, line)
        if m:
            rows.append((m.group(1), int(m.group(2))))
    return rows


# --- the runner ----------------------------------------------------------------

def grade(lab, quick=False, only=None, out=sys.stdout):
    """Run LAB's tasks (the quick ones, or ONLY's); print the report; True if all passed."""
    tasks = [t for t in lab.tasks if (not quick or t[1]) and (only is None or t[0] in only)]
    print("== grade %s: %s ==" % (lab.name, lab.dir), file=out, flush=True)
    passed = 0
    for name, _, fn in tasks:
        t0 = time.time()
        try:
            fn(lab)
            ok, why = True, ""
        except Fail as e:
            ok, why = False, str(e)
        dt = time.time() - t0
        print("%s: %s (%.1fs)" % (name, "OK" if ok else "FAIL", dt), file=out, flush=True)
        if not ok:
            print(indent(why), file=out, flush=True)
        passed += ok
    print("Score: %d/%d" % (passed, len(tasks)), file=out, flush=True)
    return passed == len(tasks)
