"""Floods must end, on 1, 2 and 4 CPUs.

- exit() ends tracing even when the principal buffer is full: its clause's
  record has room kept for it, and the consumer sees the exit in the status;
- the consumer is not traced by its own enablings (it stands for a user
  process): its printing never shows up, interrupts on top of it still do;
- the deadman does not abort a consumer that is busy printing;
- the command dtrace -c started is stopped and reaped when dtrace ends.

Each test runs tools/dtrace; the only time limit is a generous liveness
timeout (tools/dtrace exits 124 when SONDE_TIMEOUT passes).
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
CPUS = [1, 2, 4]
LIVENESS = 120              # seconds: far beyond what any of these takes


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def dtrace(cpus, *args):
    """Run tools/dtrace on `cpus` CPUs; returns (status, stdout, stderr)."""
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_KERNEL=KERNEL,
               SONDE_TIMEOUT=str(LIVENESS))
    env.pop("SONDE_ICOUNT", None)
    p = subprocess.run([TOOL] + list(args), cwd=ROOT, env=env, capture_output=True,
                       timeout=LIVENESS + 60)
    return (p.returncode, p.stdout.decode(errors="replace"),
            p.stderr.decode(errors="replace"))


@pytest.mark.parametrize("cpus", CPUS)
def test_exit_ends_a_flood_that_fills_the_buffer(cpus):
    rc, out, err = dtrace(cpus, "-q", "-Z", "-x", "bufsize=4k", "-n",
                          'fbt::: {} tick-1s { printf("done\\n"); exit(0); }')
    assert rc == 0, (rc, out[-2000:], err[-2000:])
    assert "drops on CPU" in err, err          # the buffer was full
    assert out == "done\n\n", out[-2000:]      # exit()'s clause was recorded all the same


@pytest.mark.parametrize("cpus", CPUS)
def test_the_consumer_is_not_traced_by_its_own_enablings(cpus):
    # Drains every 100 ms, so what the consumer does while printing one
    # drain would be in the next, if its probes fired.
    rc, out, err = dtrace(cpus, "-x", "switchrate=10hz", "-n",
                          "fbt::: {} tick-1s { exit(0); }")
    assert rc == 0, (rc, out[-2000:], err[-2000:])
    funcs = set(re.findall(r"^ +\d+ +\d+ +(\S+):(?:entry|return) *$", out, re.M))
    assert "timer_interrupt" in funcs, sorted(funcs)[:50]   # interrupts still fire
    mine = {"out_va", "dtc_out", "dtc_records", "print_record", "console_write"} & funcs
    assert not mine, sorted(mine)


@pytest.mark.parametrize("cpus", CPUS)
def test_the_deadman_spares_a_consumer_busy_printing(cpus):
    rc, out, err = dtrace(cpus, "-n", "fbt::: { trace(timestamp); } tick-3s { exit(0); }")
    assert "systemic unresponsiveness" not in err, err[-2000:]
    assert rc == 0, (rc, out[-2000:], err[-2000:])


@pytest.mark.parametrize("cpus", CPUS)
def test_the_c_command_does_not_outlive_dtrace(cpus):
    rc, out, err = dtrace(cpus, "--shell",
                          "dtrace -q -n 'profile-997 { @[stack()] = count(); } tick-1s { exit(0); }' "
                          "-c 'run spin'; ps")
    assert rc == 0, (rc, out[-2000:], err[-2000:])
    assert "kernel`wl_spin_main" in out, out[-3000:]     # it ran while traced
    assert "dtrace -c" not in out, out[-3000:]           # and is gone: ps does not list it


@pytest.mark.parametrize("cpus", CPUS)
def test_a_c_shell_line_is_stopped_too(cpus):
    rc, out, err = dtrace(cpus, "--shell",
                          "dtrace -q -n 'tick-1s { printf(\"tick\\n\"); exit(0); }' -c 'sleep 1000'; ps")
    assert rc == 0, (rc, out[-2000:], err[-2000:])
    assert out.startswith("tick\n\n"), out
    assert "dtrace -c" not in out, out
