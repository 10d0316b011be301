"""sdt.py - the grader of docs/labs/03-sdt.md: three SDT probes in kernel/pipe.c.

The student edits the kernel; prepare() builds it (make build/kernel.elf
in the student's tree).  With --solutions the reference solution is a
patch (labs/solutions/sdt/pipe-probes.patch): prepare() copies the tree
(sources and build/, mtimes kept, so only pipe.c and the link are redone)
into a directory under $TMPDIR, applies the patch there and builds that
kernel, leaving the real tree alone.  The tasks then boot that kernel and
check the probes with the grader's own D against /bin/pipes, whose
traffic is known exactly.
"""
import hashlib
import os
import re
import shutil
import subprocess
import tempfile

from gradelib import ROOT, Fail, expect, expect_status

DOC = "docs/labs/03-sdt.md"
# Outside build/: the Makefile includes every *.d file under build/ (its
# dependency files), which would take in the copy's D scripts too.
COPY = os.path.join(tempfile.gettempdir(), "sonde-grade-sdt-%d" % os.getuid(),
                    hashlib.sha1(ROOT.encode()).hexdigest()[:8])


def make_kernel(tree):
    p = subprocess.run(["make", "-j2", "build/kernel.elf"], cwd=tree, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=1800)
    if p.returncode != 0:
        out = p.stdout.decode(errors="replace")
        raise Fail("the kernel did not build (make build/kernel.elf in %s):\n%s"
                   % (tree, "\n".join(out.splitlines()[-30:])))


def tree_copy(dest):
    """The tree's files (tracked and new, not ignored) and build/ in DEST, mtimes kept."""
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    files = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                           cwd=ROOT, stdout=subprocess.PIPE, check=True).stdout
    files = b"\0".join(f for f in files.split(b"\0") if f and os.path.isfile(os.path.join(ROOT.encode(), f)))
    subprocess.run(["tar", "-c", "--null", "-T", "-", "-f", "-"], cwd=ROOT, input=files,
                   stdout=open(os.path.join(dest, ".src.tar"), "wb"), check=True)
    subprocess.run(["tar", "-x", "-f", ".src.tar"], cwd=dest, check=True)
    os.unlink(os.path.join(dest, ".src.tar"))
    os.makedirs(os.path.join(dest, "build"))
    for name in os.listdir(os.path.join(ROOT, "build")):
        src = os.path.join(ROOT, "build", name)
        if name == "newlib":      # its 100 MB of sources are only read: link them
            os.makedirs(os.path.join(dest, "build", "newlib"))
            for sub in os.listdir(src):
                s = os.path.join(src, sub)
                if sub == "src":
                    os.symlink(s, os.path.join(dest, "build", "newlib", sub))
                else:
                    subprocess.run(["cp", "-a", s, os.path.join(dest, "build", "newlib")], check=True)
            continue
        subprocess.run(["cp", "-a", src, os.path.join(dest, "build")], check=True)


def prepare(lab):
    if not lab.solutions:
        make_kernel(ROOT)
        return
    patch = lab.task_file("pipe-probes.patch")
    dest = COPY
    tree_copy(dest)
    p = subprocess.run(["patch", "-p1", "-i", os.path.join(ROOT, patch)], cwd=dest,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode != 0:
        raise Fail("%s does not apply to this tree:\n%s" % (patch, p.stdout.decode()))
    make_kernel(dest)
    lab.kernel = os.path.join(dest, "build", "kernel.elf")


def probes(lab):
    """{(function, name)} of the sdt:::pipe-* probes the kernel lists."""
    r = lab.dtrace("-l", "-n", "sdt:::pipe-*")
    return {(m.group(2), m.group(3)) for m in
            re.finditer(r"^\s*\d+\s+sdt\s+(\S+)\s+(\S+)\s+(pipe-\S+)\s*$", r.out, re.M)}, r


def aggs(lab, prog, cmd):
    """Run PROG (D whose END prints `key value` lines) with -c CMD; {key: value}."""
    r = lab.dtrace("-q", "-n", prog, "-c", cmd)
    expect_status(r, 0)
    expect("the reader got" in r.out, "expected /bin/pipes' report line", r)
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+) (\d+)$", r.out, re.M)}, r


def register(lab):
    @lab.task("listed")
    def listed(lab):
        got, r = probes(lab)
        for want in [("pipe_write", "pipe-write"), ("pipe_read", "pipe-read")]:
            expect(want in got, "expected sdt:kernel:%s:%s in dtrace -l" % want, r)

    @lab.task("write-args")
    def write_args(lab):
        got, r = aggs(lab, "sdt:::pipe-write /pid == $target/ { @n = count(); @b = sum(arg1); }"
                      " END { printa(\"writes %@d\\n\", @n); printa(\"bytes %@d\\n\", @b); }",
                      "/bin/pipes 10 100")
        expect(got.get("writes") == 10, "expected 10 firings of pipe-write by /bin/pipes 10 100", r)
        expect(got.get("bytes") == 1000, "expected arg1 to sum to 1000 (the bytes asked)", r)

    @lab.task("read-result")
    def read_result(lab):
        got, r = aggs(lab, "sdt:::pipe-read { @r = sum(arg1); }"
                      " sdt:::pipe-read, sdt:::pipe-write { @p[arg0] = count(); }"
                      " END { printa(\"read %@d\\n\", @r); printa(\"p%x %@d\\n\", @p); }",
                      "/bin/pipes 10 100")
        expect(got.get("read") == 1000, "expected pipe-read's arg1 to sum to 1000 (bytes read)", r)
        pipes = [k for k in got if k.startswith("p")]
        expect(len(pipes) == 1, "expected arg0 of both probes to be the same pipe (one key)", r)

    @lab.task("full")
    def full(lab):
        got, r = probes(lab)
        expect(("pipe_write", "pipe-full") in got, "expected sdt:kernel:pipe_write:pipe-full", r)
        got, r = aggs(lab, "sdt:::pipe-full /pid == $target/ { @f = count(); }"
                      " END { printa(\"full %@d\\n\", @f); }", "/bin/pipes 4 16384")
        expect(got.get("full", 0) >= 3,
               "expected pipe-full to fire at least 3 times (4 writes of 16 KiB, 4 KiB pipe)", r)
        got, r = aggs(lab, "sdt:::pipe-full { @f = count(); } END { printa(\"full %@d\\n\", @f); }",
                      "/bin/pipes 10 100")
        expect(got.get("full", 0) == 0, "expected no pipe-full when 1000 bytes fit in the pipe", r)
