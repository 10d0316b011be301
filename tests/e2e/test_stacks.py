"""stack() from the profile provider: the idle loop's samples.

An idle CPU is halted in arch_wait_for_interrupt (sti; hlt), a leaf with no
frame of its own, so the interrupted %rbp is still idle_loop's: a frame walk
from it alone skips idle_loop.  And sched_start's call of the idle loop is its
last instruction (idle_loop never returns), so that return address lies just
past sched_start, in no symbol.  Both must still print as functions: every
sampled idle stack is arch_wait_for_interrupt, idle_loop, then its caller,
with no raw hex frame.
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
PROG = "profile-997 /arg0/ { @[stack()] = count(); } tick-1s { exit(0); }"


def stacks(cpus):
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_TIMEOUT="120")
    env.pop("SONDE_BOOT", None)
    r = subprocess.run([TOOL, "-q", "-n", PROG], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=180)
    assert r.returncode == 0, r.stderr.decode("latin-1")
    out = r.stdout.decode("latin-1")
    result = []
    for block in re.split(r"\n\s*\n", out):
        lines = [l.strip() for l in block.strip().splitlines()]
        if len(lines) >= 2 and lines[-1].isdigit():
            result.append(lines[:-1])
    return result, out


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_idle_stack_shows_idle_loop(cpus):
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)
    all_stacks, out = stacks(cpus)
    idle = [s for s in all_stacks if s[0].startswith("kernel`arch_wait_for_interrupt+")]
    assert idle, out
    for s in idle:
        assert len(s) >= 3 and s[1].startswith("kernel`idle_loop+"), out
        assert not any(f.startswith("0x") for f in s), out
    callers = {s[2].split("+")[0] for s in idle}
    assert "kernel`sched_start" in callers or cpus > 1, out
