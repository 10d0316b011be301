"""A kernel stack overflow on sparc64 is a fatal report, not QEMU's error state.

`crash stack` (arch_fault_test's FAULT_STACK) recurses until the thread's
kernel stack runs into the unmapped page below it.  The fault is taken
inside a trap handler (a window spill, or trap_generic's own frame on the
overflowing stack); traps.S records it and goes on on the panic stack, and
trap.c's nested_report names the overflow, the thread's stack and a
backtrace through the frames still on the stack, down to the shell
command, as x86_64's double-fault report does (tests/e2e/test_crash.py).
One boot (about 3 s of CPU); skipped without build/sparc64/kernel.elf.
"""

import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "sparc64", "kernel.elf")
EXIT_CRASH = 3

pytestmark = pytest.mark.skipif(not os.path.exists(KERNEL),
                                reason="no sparc64 kernel (make ARCH=sparc64)")


def test_stack_overflow_is_a_fatal_report():
    env = dict(os.environ, SONDE_TIMEOUT=os.environ.get("SONDE_TIMEOUT", "300"))
    p = subprocess.run(["sh", os.path.join(ROOT, "tools", "sparc64_run.sh"), KERNEL,
                        'cmd="crash stack"'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       env=env, timeout=600)
    out = p.stdout.decode("latin-1")
    assert p.returncode == EXIT_CRASH, out          # 125: QEMU stopped without a report
    assert "crash: provoking stack" in out, out
    assert re.search(r"fatal trap 0x[0-9a-f]+: kernel stack overflow\n", out), out
    assert re.search(r"kernel stack \[0x[0-9a-f]+, 0x[0-9a-f]+\)", out), out
    assert re.search(r"overflow[.\w]*\+0x[0-9a-f]+ \(\d+ frames\)", out), out
    assert re.search(r"arch_fault_test\+0x[0-9a-f]+", out), out
    assert re.search(r"shell_do_crash\+0x[0-9a-f]+", out), out
