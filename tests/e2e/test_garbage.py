"""Bad input never crashes the shell: the prompt always comes back.

Each test throws something at the console and then checks that an ordinary
command still works and that QEMU is still running (no crash, no reset).
"""

import random
import re
import time

import pytest

from conftest import BOOT_TIMEOUT


def send_slowly(guest, data, chunk=1024):
    """Send data in chunks, letting the guest keep up (its input ring holds 4 KiB)."""
    for i in range(0, len(data), chunk):
        guest.send(data[i:i + chunk])
        time.sleep(0.02)


def settle(guest, quiet=0.5, limit=60):
    """Wait until the guest has printed nothing for `quiet` seconds.

    The guest may still be working through the garbage (echoing, redrawing)
    after we have sent it all; its input ring (4 KiB) drops and counts what
    does not fit, so a marker sent before it catches up can lose its tail.
    """
    now = time.time()
    deadline, last = now + limit, now
    while now < deadline and now - last < quiet:
        if guest.child.read_nonblocking(65536, timeout=0.05):
            last = now                  # (PopenSpawn returns "" when nothing came)
        time.sleep(0.05)
        now = time.time()


def assert_alive(guest, marker):
    settle(guest)
    guest.resync("sync-" + marker)
    out = guest.run("echo " + marker)
    assert re.search(r"^%s$" % marker, out, re.M), out
    assert guest.child.proc.poll() is None


def test_64k_line_is_rejected_then_shell_works(guest):
    send_slowly(guest, "x" * 65536)
    time.sleep(0.3)
    guest.send("\r")
    guest.expect_exact("line too long", timeout=30)
    guest.wait_prompt()
    assert_alive(guest, "alive-after-long-line")


def test_long_line_of_words_is_rejected(guest):
    send_slowly(guest, "echo " + "word " * 2000)
    time.sleep(0.3)
    guest.send("\r")
    guest.expect_exact("line too long", timeout=30)
    guest.wait_prompt()
    assert_alive(guest, "alive-after-words")


def test_many_arguments_are_an_error(guest):
    out = guest.run("echo " + "a " * 100)
    assert "too many arguments" in out
    assert_alive(guest, "alive-after-args")


def test_random_binary_bytes(guest):
    rng = random.Random(20261129)
    # Leave out the bytes that would end or cancel lines, so the garbage stays
    # one (ignored or rejected) line; a second test feeds those too.
    junk = bytes(b for b in (rng.randrange(256) for _ in range(8192))
                 if b not in (0x0a, 0x0d, 0x03))
    send_slowly(guest, junk.decode("latin-1"))
    assert_alive(guest, "alive-after-binary")


def test_random_bytes_with_line_ends(guest):
    rng = random.Random(42)
    # Printable words and control bytes, including CR and LF: many lines run as
    # (unknown) commands.  Leave out letters so that no real command name can
    # appear by chance (halt, reboot, crash...).
    alphabet = [c for c in range(256) if not chr(c).isalpha()]
    junk = bytes(rng.choice(alphabet) for _ in range(4096))
    send_slowly(guest, junk.decode("latin-1"), chunk=256)
    assert_alive(guest, "alive-after-lines")


def test_escape_sequences_mid_line(guest):
    line = ("ec\x1b[99;99mho \x1b[?25l\x1b[2J mi\x1bOPd\x1b[38;5;196m"
            "-line\x1b[200~\x1b[201~\x1b[6n\x1b]0title\x07")
    out = guest.run(line)
    # The OSC sequence (ESC ] ... BEL) is not CSI: after ESC ] is dropped, the
    # rest ("0title") is typed as text.  Everything else vanishes.
    assert re.search(r"^mid-line0title$", out, re.M), out
    assert_alive(guest, "alive-after-escapes")


def test_truncated_escape_then_enter(guest):
    out = guest.run("echo cut\x1b[12")
    assert re.search(r"^cut$", out, re.M), out


def test_nul_and_high_bytes_are_ignored(guest):
    out = guest.run("echo a\x00b\x80c\xffd")
    assert re.search(r"^abcd$", out, re.M), out


# The editor's keys and escape sequences (ledit.h) and the tokenizer's quotes.
EDITOR_KEYS = ["\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[H", "\x1b[F",
               "\x1b[3~", "\x1b[1~", "\x1b[4~", "\x1bOH", "\x1bOF", "\x1b\x1b",
               "\x1b[", "\x1b", "\x01", "\x02", "\x04", "\x05", "\x06", "\x08",
               "\x0b", "\x0c", "\x0e", "\x10", "\x15", "\x17", "\x7f", "\x03",
               "\r", "\n", "\r\n", "'", '"', "\\", ";", "#", " "]


def console_fuzz(seed, n):
    """n random console tokens: editor keys, digits, punctuation, high bytes.

    No lower-case letters: no real command (halt, reboot, crash...) can be
    typed or recalled by chance; the only letters are inside the escape
    sequences, upper-case.
    """
    rng = random.Random(seed)
    other = [chr(c) for c in range(256) if not chr(c).isalpha() or chr(c).isupper()]
    out = []
    for _ in range(n):
        out.append(rng.choice(EDITOR_KEYS) if rng.random() < 0.4 else rng.choice(other))
    return "".join(out)


@pytest.mark.parametrize("cpus", [1, 4])
def test_random_editor_keys(boot, cpus):
    """Random console bytes rich in the editor's keys (history, cursor,
    kill, Ctrl-C, Ctrl-L, cut escape sequences): the kernel stays up and
    the prompt answers, on one CPU and on four.  The host fuzzer
    (tests/fuzz/shell_fuzz.c) runs the same editor much longer."""
    g = boot(extra=("-smp", str(cpus)))
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    g.run("echo history-seed")            # something for Up and Down to recall
    for seed in range(3):
        send_slowly(g, console_fuzz(1000 * cpus + seed, 3000), chunk=128)
        assert_alive(g, "alive-after-keys-%d-%d" % (cpus, seed))
