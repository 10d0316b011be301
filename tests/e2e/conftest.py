"""Fixtures for the end-to-end tests: boot Sonde in QEMU and talk to its console.

Every test boots a fresh guest (direct boot takes about 0.1 s) so that tests
never depend on each other.  QEMU's serial console is on its stdin/stdout,
driven through pipes (pexpect's PopenSpawn) rather than a pty: there is no
host terminal in between, so bytes such as Ctrl-C (0x03) reach the guest
unchanged instead of killing QEMU, and a reader thread always drains QEMU's
output so a large input can never deadlock against unread output.  Text is
latin-1 both ways, so "\xff" in a test string is the single byte 0xff.

Exit statuses: Sonde powers off through isa-debug-exit; QEMU then exits with
(v << 1) | 1 where v = 0x10 + status (33 + 2 * status, status capped at 111)
for a clean stop and v = 1 (exit 3) for a crash.  A triple fault exits 0, so
0 never counts as success.
"""

import os
import re
import shutil
import signal
import sys
import time

import pexpect
import pexpect.popen_spawn
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "kernel.elf")
ISO = os.path.join(ROOT, "build", "sonde.iso")
DISK = os.path.join(ROOT, "build", "disk.img")       # mk/disk.mk: the ext2 image
QEMU = "qemu-system-x86_64"
# Direct boots start from qboot, as tools/dtrace's and make's (SONDE_FIRMWARE=seabios: SeaBIOS).
DIRECT_FW = [] if os.environ.get("SONDE_FIRMWARE") == "seabios" else ["-bios", "qboot.rom"]

PROMPT = "sonde# "
BOOT_TIMEOUT = 30          # seconds; CI runs on two shared cores
CMD_TIMEOUT = 20

EXIT_HALT = 33             # status 0
EXIT_CRASH = 3


def exit_code_for(status):
    """QEMU's exit code when the kernel powers off with a command's status."""
    return ((0x10 + min(status, 111)) << 1 | 1) & 0xFF


def qemu_argv(kernel=KERNEL, iso=None, append=None, extra=()):
    argv = [QEMU, "-display", "none", "-no-reboot", "-m", "256M",
            "-serial", "stdio", "-monitor", "none",
            "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
    if iso is not None:
        argv += ["-cdrom", iso]
    else:
        argv += DIRECT_FW + ["-kernel", kernel]
        if append is not None:
            argv += ["-append", append]
    return argv + list(extra)


class Guest:
    """One running QEMU with Sonde; methods type at the console and read back."""

    def __init__(self, argv):
        self.argv = argv
        self.child = pexpect.popen_spawn.PopenSpawn(
            argv, timeout=CMD_TIMEOUT, encoding="latin-1", cwd=ROOT)
        self.child.logfile_read = sys.stdout    # the transcript, shown when a test fails
        self.status = None

    # -- reading ---------------------------------------------------------------
    def expect(self, pattern, timeout=CMD_TIMEOUT):
        """Wait for a regex (or list of them); returns the index matched."""
        return self.child.expect(pattern, timeout=timeout)

    def expect_exact(self, text, timeout=CMD_TIMEOUT):
        return self.child.expect_exact(text, timeout=timeout)

    @property
    def before(self):
        return self.child.before

    def wait_prompt(self, timeout=CMD_TIMEOUT):
        self.child.expect_exact(PROMPT, timeout=timeout)

    def drain(self, seconds=0.2):
        """Read and discard whatever the guest prints for a moment."""
        deadline = time.time() + seconds
        while time.time() < deadline:
            try:
                self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                pass

    def resync(self, marker, timeout=CMD_TIMEOUT):
        """Get back in step with the shell after input whose output is unknown.

        Garbage may contain Ctrl-L (which reprints the prompt) and lines that
        run as commands, so old prompts may still be on their way.  Cancel
        whatever line is being typed, run `echo marker`, and wait for the
        marker as command output: a line of its own, which the echo of the
        typed command (it follows a prompt) never is.
        """
        self.send("\x03")
        self.sendline("echo " + marker)
        self.child.expect("\n%s\r\n" % re.escape(marker), timeout=timeout)
        self.wait_prompt(timeout)

    # -- writing ---------------------------------------------------------------
    def send(self, data):
        self.child.send(data)

    def sendline(self, line):
        """Type a line and press Enter (CR, as a terminal sends it)."""
        self.child.send(line + "\r")

    def run(self, line, timeout=CMD_TIMEOUT):
        """Run one command line at the prompt; returns its output (CRLF -> LF).

        The line editor echoes the line and answers Enter with CRLF; the
        command's output is everything from there to the next prompt.
        """
        self.sendline(line)
        self.child.expect_exact("\r\n", timeout=timeout)
        self.child.expect_exact(PROMPT, timeout=timeout)
        return self.child.before.replace("\r\n", "\n")

    # -- ending ----------------------------------------------------------------
    def wait_exit(self, timeout=CMD_TIMEOUT):
        """Wait for QEMU to exit; returns its exit status (all output is consumed)."""
        self.child.expect(pexpect.EOF, timeout=timeout)
        deadline = time.time() + timeout
        while self.child.proc.poll() is None and time.time() < deadline:
            time.sleep(0.05)
        self.status = self.child.proc.poll()
        return self.status

    def output_until_exit(self, timeout=CMD_TIMEOUT):
        """Everything the guest prints until QEMU exits, and the exit status."""
        status = self.wait_exit(timeout)
        return self.child.before.replace("\r\n", "\n"), status

    def close(self):
        proc = self.child.proc
        if proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(timeout=10)


def _require(path):
    if not os.path.exists(path):
        pytest.fail(f"{os.path.relpath(path, ROOT)} is missing: run `make` first")


def disk_argv(image):
    """QEMU's arguments attaching image as the guest's virtio disk (kernel/virtio_blk.c)."""
    return ["-drive", "file=%s,if=none,id=disk0,format=raw" % image.replace(",", ",,"),
            "-device", "virtio-blk-pci,drive=disk0"]


@pytest.fixture
def boot(tmp_path_factory):
    """Factory: boot(append=None, iso=False, extra=(), disk=True) -> Guest, killed at
    teardown.  disk=True: a fresh copy of build/disk.img, as the guest's own
    virtio disk; a path: that image, written in place; None: no disk."""
    guests = []

    def start(append=None, iso=False, extra=(), disk=True):
        if disk is True:
            _require(DISK)
            image = str(tmp_path_factory.mktemp("disk") / "disk.img")
            shutil.copyfile(DISK, image)
            extra = disk_argv(image) + list(extra)
        elif disk:
            extra = disk_argv(str(disk)) + list(extra)
        if iso:
            _require(ISO)
            g = Guest(qemu_argv(iso=ISO, extra=extra))
        else:
            _require(KERNEL)
            g = Guest(qemu_argv(append=append, extra=extra))
        guests.append(g)
        return g

    yield start
    for g in guests:
        g.close()


@pytest.fixture
def guest(boot):
    """A directly booted guest sitting at its first prompt."""
    g = boot()
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    return g
