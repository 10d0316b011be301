"""The console keeps what is typed after a Ctrl-C, and echoes it as ^C.

A Ctrl-C that interrupts a command discards the input typed before it (as a
terminal's interrupt character flushes its input queue), the Ctrl-C byte
included, so that it does not also cancel the next prompt.  What is typed
after it is the user's next line and must run, even when it arrives before
the interrupted command has returned to the prompt: here the Ctrl-C and the
next line are sent in one write, three times in a row.

While a command runs, a Ctrl-C is echoed as "^C" and a newline, once, the
moment it arrives (as a terminal in cooked mode echoes it): before what
the interrupted command prints on its way out, whatever the command is.
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


def interrupt(guest, line, started):
    """Run line, Ctrl-C once it has started (started: text to wait for, or None); what follows its echo."""
    guest.sendline(line)
    guest.expect_exact(line + "\r\n")
    if started is not None:
        guest.expect_exact(started)
    guest.drain(0.5)
    guest.send("\x03")
    guest.wait_prompt(timeout=30)
    return guest.before


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ctrl_c_echoes_once_while_a_command_runs(boot, cpus):
    guest = boot(extra=("-smp", str(cpus)))
    guest.wait_prompt(timeout=BOOT_TIMEOUT)
    assert interrupt(guest, "/bin/spin", None) == "^C\r\n"                  # a program
    assert interrupt(guest, "sleep 100", None) == "^C\r\n"                  # a shell command
    assert interrupt(guest, "/bin/spin | /bin/cat | /bin/cat", None) == "^C\r\n"   # one echo, not one per stage
    assert interrupt(guest, "/bin/cat", None) == "^C\r\n"                   # a program reading the console
    out = interrupt(guest, DTRACE, "matched 1 probe\r\n")
    assert re.fullmatch(r"\^C\r\n\r\n +\d+\r\n", out), repr(out)     # the echo, then the aggregation
    guest.sendline("/bin/sleep 100 &")
    guest.wait_prompt()
    assert interrupt(guest, "fg", "/bin/sleep 100\r\n") == "^C\r\n"
    guest.send("echo nope\x03")                                         # at the prompt: the editor's own
    guest.expect_exact("echo nope^C\r\n")
    assert guest.run("echo after").strip() == "after"
