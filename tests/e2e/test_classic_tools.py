"""The classic tools of the script library (scripts/*.d, docs/classic-tools.md):
each run as the guest has it (/scripts/NAME.d) against a program whose
effects are known, and the lines it must print checked.

Each test boots one guest through tools/dtrace (under a second) and runs
one tool with -c on a user program of /bin: cat of a file of the library
(its size is known from the tree), wc of files of /disk, echo, ls,
pingpong (which forks and so takes copy-on-write faults), and the kernel's
spin workload for the profiler.
The checks are on what the program must have done (cat opened
/scripts/hello.d as fd 3 and read all its bytes from it; a missing file
fails with ENOENT; wc of a file of the disk reads its blocks from vioblk0),
never on timings.  tools/dtrace gives each guest a fresh copy of
build/disk.img (the tree's disk/ folder) as /disk.
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
HELLO = "/scripts/hello.d"


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def size_of(script):
    """The bytes of a library script, as the guest has it (built from the tree)."""
    return os.path.getsize(os.path.join(ROOT, "scripts", os.path.basename(script)))


def tool(name, *args, cpus=1, timeout=60):
    """Run /scripts/NAME.d in a fresh guest; returns (status, stdout, stderr)."""
    env = dict(os.environ)
    for k in ("SONDE_BOOT", "SONDE_CPUS", "SONDE_TIMEOUT", "SONDE_ICOUNT", "SONDE_KERNEL"):
        env.pop(k, None)
    env["SONDE_CPUS"] = str(cpus)
    r = subprocess.run([TOOL, "-s", "/scripts/%s.d" % name] + list(args), cwd=ROOT, env=env,
                       stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def ok(name, *args, cpus=1):
    """The output of a tool that must succeed without a message."""
    status, out, err = tool(name, *args, cpus=cpus)
    assert status == 0 and "dtrace:" not in err, (status, out, err)
    return out


def rows(out, pattern):
    """The lines of out that match pattern from their start, as match objects."""
    return [m for m in (re.match(pattern, l) for l in out.splitlines()) if m]


def test_execsnoop():
    out = ok("execsnoop", "-c", "/bin/echo hi-from-exec")
    assert re.search(r"^TIME\(us\) +PID +PPID +UID ARGS$", out, re.M), out
    assert rows(out, r"\d+ +\d+ +\d+ +0 /bin/echo hi-from-exec$"), out


def test_opensnoop():
    out = ok("opensnoop", "-c", "/bin/cat %s /nonexist" % HELLO)
    assert re.search(r"^ +PID COMM +FD +ERR PATH$", out, re.M), out
    assert rows(out, r" +\d+ cat +3 +0 %s$" % re.escape(HELLO)), out
    assert rows(out, r" +\d+ cat +-1 +2 /nonexist$"), out


def test_rwsnoop():
    out = ok("rwsnoop", "-c", "/bin/cat " + HELLO)
    reads = rows(out, r" +\d+ cat +R +(\d+) %s$" % re.escape(HELLO))
    assert sum(int(m.group(1)) for m in reads) == size_of(HELLO), out
    assert rows(out, r" +\d+ cat +W +\d+ /dev/console$"), out


def test_rwtop():
    script = "/scripts/oncpu.d"
    out = ok("rwtop", "1", "-c", "/bin/cat " + script)
    assert "output every 1 seconds" in out, out
    assert re.search(r"^ +PID COMM +D +CALLS +BYTES$", out, re.M), out
    reads = rows(out, r" +\d+ cat +R +\d+ +(\d+)$")
    assert reads and sum(int(m.group(1)) for m in reads) == size_of(script), out


def test_rwtop_default_interval():
    out = ok("rwtop", "-c", "/bin/echo x")
    assert "output every 5 seconds" in out, out


def test_iosnoop():
    out = ok("iosnoop", "-c", "/bin/wc /disk/README")
    assert re.search(r"^TIME\(us\) +DEVICE +D +BLOCK +SIZE +LAT\(us\) +PID +COMM +FILE$",
                     out, re.M), out
    # the file's one block, read for wc, and metadata (inodes, directories) with no file
    assert rows(out, r"\d+ +vioblk0 +R +\d+ +1024 +\d+ +\d+ wc +/disk/README$"), out
    assert rows(out, r"\d+ +vioblk0 +R +\d+ +\d+ +\d+ +\d+ wc +<none>$"), out


def test_iotop():
    big = os.path.getsize(os.path.join(ROOT, "disk", "data", "lines.txt"))
    out = ok("iotop", "1", "-c", "/bin/wc /disk/data/lines.txt")
    assert re.search(r"^ +PID COMM +DEVICE +D +COUNT +BYTES$", out, re.M), out
    reads = rows(out, r" +\d+ wc +vioblk0 +R +\d+ +(\d+)$")
    assert reads and sum(int(m.group(1)) for m in reads) >= big, out


def test_errinfo():
    out = ok("errinfo", "-c", "/bin/cat /nonexist")
    assert rows(out, r" +\d+ cat +open +2 ENOENT +no such file or directory$"), out
    assert rows(out, r"cat +open +2 ENOENT +1$"), out        # the summary


def test_procsystime():
    out = ok("procsystime", "-c", "/bin/ls /scripts")
    assert re.search(r"^SYSCALL +COUNT +TOTAL\(ns\) +AVG\(ns\)$", out, re.M), out
    calls = {m.group(1): int(m.group(2)) for m in rows(out, r"(\w+) +(\d+) +\d+ +\d+$")}
    assert calls.get("getdents64", 0) >= 1 and calls.get("write", 0) >= 1, out


def test_procsystime_needs_a_process():
    status, out, err = tool("procsystime")
    assert status == 1 and "$target is not defined" in err, (status, out, err)


def test_hotkernel():
    out = ok("hotkernel", "-c", "run spin 300")
    assert re.search(r"^FUNCTION +COUNT +PCT$", out, re.M), out
    funcs = rows(out, r"(kernel`\w+) +(\d+) +(\d+)%$")
    assert funcs, out
    top = funcs[-1]                      # hottest last
    assert "spin" in top.group(1) and int(top.group(3)) >= 20, out
    assert sum(int(m.group(3)) for m in funcs) <= 100, out


def test_hotkernel_percentages_on_two_cpus():
    """Both CPUs sample at once: the total must not lose counts (ks[cpu])."""
    out = ok("hotkernel", "-c", "run spin 300", cpus=2)
    funcs = rows(out, r"(kernel`\w+) +(\d+) +(\d+)%$")
    total = int(re.search(r"^(\d+) kernel samples", out, re.M).group(1))
    assert funcs and sum(int(m.group(2)) for m in funcs) == total, out
    assert sum(int(m.group(3)) for m in funcs) <= 100, out


def test_dtruss():
    out = ok("dtruss", "-c", "/bin/cat %s /nonexist" % HELLO)
    assert rows(out, r" +\d+ +\d+  open\(\"%s\", 0x0, 0x[0-9a-f]+\) = 3$" % re.escape(HELLO)), out
    assert rows(out, r" +\d+ +\d+  read\(0x3, 0x[0-9a-f]+, 0x[0-9a-f]+\) = %d$"
                % size_of(HELLO)), out
    assert rows(out, r" +\d+ +\d+  open\(\"/nonexist\", .*\) = -1 Err#2$"), out
    assert rows(out, r" +\d+ +-  exit_group\(0x1\) = \?$"), out


def test_vmbypid():
    out = ok("vmbypid", "-c", "/bin/pingpong 2")
    assert re.search(r"^ +PID COMM +EVENT +COUNT$", out, re.M), out
    assert rows(out, r" +\d+ pingpong +cow_fault +\d+$"), out
