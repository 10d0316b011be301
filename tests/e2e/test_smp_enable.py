"""Enabling and disabling every fbt probe while workloads run on every CPU.

Each `fbt:::` enabling plants a trap in about 1,200 places of text that the
workloads are running on the other CPUs, and its end takes them all out
again.  A CPU that went on running a trap byte already taken out (a stale
translation in QEMU's TCG) used to be sent back to the same byte forever:
the next dtrace never started.  Here it must, on 1, 2 and 4 CPUs.

Counts depend on timing (TCG on a shared host): the test asserts only that
each dtrace prints its aggregation and that the last one runs."""
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "kernel.elf")
DTRACE = os.path.join(ROOT, "tools", "dtrace")
TIMEOUT = int(os.environ.get("SONDE_TIMEOUT", "300"))   # generous: 4 vCPUs on 2 shared cores

FBT_ALL = 'dtrace -q -n "fbt::: { @[cpu] = count(); } tick-100ms { exit(0); }"'
ALIVE = 'dtrace -q -n "BEGIN { printf(\\"alive\\\\n\\"); exit(0); }"'
WORKLOADS = ["run spin 20000", "run churn 100000", "run pingpong 100000"]


# The reproducer's command line has two fbt::: runs; on 4 CPUs the hang came in
# about one try in three with two and was not certain with eight either, so
# 4 CPUs does six: each one more chance to catch it.
@pytest.mark.parametrize("cpus,runs", [(1, 2), (2, 2), (4, 6)])
def test_fbt_all_under_load_then_alive(cpus, runs):
    cmdline = "; ".join(WORKLOADS + [FBT_ALL] * runs + [ALIVE])
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_KERNEL=KERNEL, SONDE_TIMEOUT=str(TIMEOUT))
    r = subprocess.run(["/usr/bin/python3", DTRACE, "--shell", cmdline], env=env,
                       capture_output=True, text=True, timeout=TIMEOUT + 30)
    assert r.returncode == 0, (r.returncode, r.stdout[-2000:], r.stderr[-2000:])
    assert [l for l in r.stdout.splitlines() if l][-1:] == ["alive"], r.stdout[-2000:]
    # One aggregation per run: rows of "cpu count", a blank line before each.
    assert r.stdout.count("\n\n") >= runs, r.stdout[-2000:]
    rows = re.findall(r"^\s+(\d+)\s+(\d+)$", r.stdout, re.M)
    assert rows and all(int(c) < cpus for c, _ in rows), r.stdout[-2000:]
