"""Anonymous tracing through a reboot: tools/dtrace -A saves an enabling on
the host, the next boot enables it before its first thread, dtrace -a claims
it and prints what it gathered, drops included (docs/tracing.md).

Every test points SONDE_ANON at its own file, so no enabling leaks into the
other tests' boots.
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
NO_STATE = "dtrace: could not enable tracing: No anonymous tracing state\n"
PROGRAM = ('BEGIN { printf("traced at boot by %s\\n", execname); } '
           'BEGIN { trace("a string that is far longer than the whole buffer"); } '
           'tick-1ms { @ticks = count(); }')


@pytest.fixture
def anon(tmp_path):
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)
    return str(tmp_path / "anon.tar")


def run(anon_file, *args):
    env = dict(os.environ, SONDE_ANON=anon_file, SONDE_TIMEOUT="60")
    for k in ("SONDE_BOOT", "SONDE_CPUS"):
        env.pop(k, None)
    r = subprocess.run([TOOL] + list(args), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def test_claim_without_state(anon):
    assert run(anon, "-a") == (1, "", NO_STATE)
    assert run(anon, "-a", "-n", "BEGIN") == (
        1, "", "dtrace: could not enable tracing: Can't claim anonymous state and enable probes\n")


def test_enabling_survives_the_reboot(anon):
    status, out, err = run(anon, "-A", "-q", "-x", "bufsize=128", "-n", PROGRAM)
    assert (status, out) == (0, "")
    assert err == ("dtrace: saved anonymous enabling in %s\n"
                   "dtrace: boot again (tools/dtrace ...) to enable changes\n" % anon)
    assert os.path.isfile(anon)
    # the next boot: enabled before init, claimed by -a -e, printed, drops reported
    status, out, err = run(anon, "-a", "-e")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "traced at boot by idle", out       # BEGIN fired in the boot thread
    assert len(lines) == 3 and lines[1] == "" and int(lines[2]) >= 1, out
    assert "dtrace: 1 drop on CPU 0\n" in err
    # claimed once per boot; every boot enables it again until -A alone removes it
    status, out, err = run(anon, "--shell", "dtrace -a -e -q; dtrace -a -e")
    assert err.endswith(NO_STATE), err
    status, out, err = run(anon, "-A")
    assert (status, out, err) == (0, "", "dtrace: cleaned up old anonymous enabling in %s\n" % anon)
    assert not os.path.exists(anon)
    assert run(anon, "-a") == (1, "", NO_STATE)


def test_bad_program_is_not_saved(anon):
    status, out, err = run(anon, "-A", "-n", "BEGIN { x = ; }")
    assert status == 1 and "syntax error" in err
    assert not os.path.exists(anon)


def test_json_flame_graph_of_the_boot(anon, tmp_path):
    # The profile runs for the boot's first second, claimed or not: the time
    # from enabling to a claim alone can be a few samples, or none when the
    # host is busy (QEMU's timer drops the ticks it is late for).
    program = "profile-4999 { @[stack()] = count(); } tick-1s { exit(0); }"
    assert run(anon, "-A", "-n", program)[0] == 0
    svg = tmp_path / "boot.svg"
    status, out, err = run(anon, "--flamegraph", str(svg), "-a")
    assert status == 0, err
    samples = re.search(r"tools/dtrace: flame graph of (\d+) samples", err)
    assert samples and int(samples.group(1)) >= 100, err
    assert 'class="frame"' in svg.read_text()
