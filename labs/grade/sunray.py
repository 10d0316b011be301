"""sunray.py - the grader of docs/labs/08-sunray.md (the replay of docs/labs/sunray.md).

Each step's D runs on 4 CPUs after the launcher has started the users:
`/bin/sunray; dtrace -s FILE` (the launcher returns once the users run;
they run on until the guest powers off).  Each file must end by itself.
The checks are the paper's conclusions (its section 9): the top
execname of the cross-calls is the server; the top system call under them
is munmap; the servers mmap /dev/zero's descriptor and the applets' servers
stand out; the top user stack passes through the pixmap function; the top
program woken after an mmap is the applet.  The last task reads the
student's own mpstat figures: cross-calls fall by more than half once the
applets are killed.

The names are the replay programs' (userland/bin/sunray.c, xsrv.c,
ticker.c), gathered here so that a rename is one edit.
"""
import re

from gradelib import Fail, agg_rows, expect, expect_status

DOC = "docs/labs/08-sunray.md"
CPUS = 4
LAUNCH = "/bin/sunray"        # 16 users, 3 of them with the applet
SERVER = "xsrv"
APPLET = "ticker"
APPLETS = 3
PIXMAP_FN = "pixmap_create"
DEVZERO_FD = 3                # xsrv opens /dev/zero first, on the lowest free fd


def step(lab, fname, number, timeout=120):
    f = lab.task_file(fname, number)
    r = lab.shell("%s; dtrace -s %s" % (LAUNCH, f), cpus=CPUS, files=[f], timeout=timeout)
    expect_status(r, 0)
    return r


def top(r, key=r"\S+"):
    rows = agg_rows(r, key)
    expect(rows, "expected an aggregation of one key and a count", r)
    return max(rows, key=lambda kv: kv[1])[0]


def stacks(r):
    """[(frames, count)] of a printed stack aggregation."""
    out, frames = [], []
    for line in r.out.splitlines():
        m = re.fullmatch(r"\s+(\d+)\s*", line)
        if m and frames:
            out.append((frames, int(m.group(1))))
            frames = []
        elif re.fullmatch(r"\s+\S+`\S+\s*|\s+0x[0-9a-f]+\s*", line):
            frames.append(line.strip())
        elif not line.strip():
            frames = []
    return out


def register(lab):
    @lab.task("execname")
    def execname(lab):
        r = step(lab, "step2.d", 2)
        k = top(r)
        expect(k == SERVER, "expected %s to send the most cross-calls, got %s" % (SERVER, k), r)

    @lab.task("syscall")
    def syscall(lab):
        r = step(lab, "step3.d", 3)
        k = top(r)
        expect(k == "munmap", "expected munmap under most of the server's cross-calls, got %s" % k, r)

    @lab.task("mmap-fd")
    def mmap_fd(lab):
        r = step(lab, "step4.d", 4)
        rows = [(int(p), int(fd), int(n)) for p, fd, n in
                re.findall(r"^\s+(\d+)\s+(-?\d+)\s+(\d+)\s*$", r.out, re.M)]
        expect(rows, "expected an aggregation keyed by pid and fd (`  PID  FD  COUNT`)", r)
        fds = {fd for _, fd, _ in rows}
        expect(fds == {DEVZERO_FD}, "expected every mmap on fd %d (/dev/zero), got fds %s"
               % (DEVZERO_FD, sorted(fds)), r)
        counts = sorted((n for _, _, n in rows), reverse=True)
        expect(len(counts) > APPLETS and counts[APPLETS - 1] > 2 * counts[APPLETS],
               "expected %d servers (the applets') to stand out: more than twice the next" % APPLETS, r)

    @lab.task("ustack")
    def ustack(lab):
        r = step(lab, "step5.d", 5)
        s = stacks(r)
        expect(s, "expected a ustack() aggregation (frames, then a count)", r)
        frames, _ = max(s, key=lambda fc: fc[1])
        expect(any(("`%s" % PIXMAP_FN) in f for f in frames),
               "expected the top stack to pass through %s`%s" % (SERVER, PIXMAP_FN), r)

    @lab.task("wakeup")
    def wakeup(lab):
        r = step(lab, "step6.d", 6)
        k = top(r)
        expect(k == APPLET, "expected the applet, %s, to be woken most, got %s" % (APPLET, k), r)

    @lab.task("fix")
    def fix(lab):
        a = lab.answers("answers.txt", 7)
        expect(a.get("culprit") == APPLET, "answers.txt: culprit = the program to stop (got %r)"
               % a.get("culprit"))
        try:
            before, after = float(a["xcal_before"]), float(a["xcal_after"])
        except (KeyError, ValueError):
            raise Fail("answers.txt: xcal_before = N and xcal_after = N "
                       "(mpstat's xcal, summed over the CPUs)")
        expect(before > 0 and (before - after) / before > 0.5,
               "expected cross-calls to fall by more than half (%g -> %g)" % (before, after))
