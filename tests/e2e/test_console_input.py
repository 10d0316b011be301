"""The console keeps what is typed after a Ctrl-C.

A Ctrl-C that interrupts a command discards the input typed before it (as a
terminal's interrupt character flushes its input queue), the Ctrl-C byte
included, so that it does not also cancel the next prompt.  What is typed
after it is the user's next line and must run, even when it arrives before
the interrupted command has returned to the prompt: here the Ctrl-C and the
next line are sent in one write, three times in a row.
"""

import re

import pytest

from conftest import BOOT_TIMEOUT

DTRACE = "dtrace -n 'tick-10ms { @ = count(); }'"


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_line_typed_after_ctrl_c_runs(boot, cpus):
    guest = boot(extra=("-smp", str(cpus)))
    guest.wait_prompt(timeout=BOOT_TIMEOUT)
    for i in range(3):
        guest.sendline(DTRACE)
        guest.expect_exact("matched 1 probe")
        guest.send("\x03echo typed%d\r" % i)
        guest.expect("\ntyped%d\r\n" % i)
        guest.wait_prompt()


def test_input_before_ctrl_c_is_discarded(guest):
    guest.sendline(DTRACE)
    guest.expect_exact("matched 1 probe")
    guest.send("echo lost\r\x03echo kept\r")
    guest.expect("\nkept\r\n")
    guest.wait_prompt()
    assert not re.search(r"\nlost\r\n", guest.before), repr(guest.before)
    assert guest.run("echo after").strip() == "after"
