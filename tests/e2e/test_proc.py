"""User processes: programs from /bin run in ring 3 on newlib, at the console.

What these show: a path at the prompt runs the boot archive's program with
its arguments and its output on the console; its exit status is the
command's status (QEMU's exit code under cmd=); a fault in user mode kills
the process, is reported as a shell reports it, and the kernel goes on; bad
system call arguments are errors (EFAULT, ENOSYS), never a kernel fault;
and every page a process held is free again after it exits.
"""

import io
import os
import re
import tarfile

import pytest

from conftest import BOOT_TIMEOUT, EXIT_HALT, exit_code_for

CRASHES = [("null", "Segmentation fault", "address 0x0,"),
           ("jump", "Segmentation fault", "address 0xdead0000, pc 0xdead0000"),
           ("divide", "Floating point exception", "address 0x0,"),
           ("stack", "Segmentation fault", "address 0x7ffff"),
           ("kernel", "Segmentation fault", "address 0xffffffff80100000,")]


def test_hello_runs_with_its_arguments(guest):
    out = guest.run("/bin/hello a b")
    assert out.split("\n")[:4] == ["hello, world", "argv[1] = a", "argv[2] = b",
                                  "pi is about 3.141593"], out


def test_no_such_program(guest):
    assert guest.run("/bin/nope").strip() == "sonde: /bin/nope: No such file or directory"


@pytest.mark.parametrize("line,status", [("/bin/true", 0), ("/bin/false", 1),
                                         ("/bin/crash null", 128 + 11),
                                         ("/bin/nope", 127)])
def test_exit_status_is_the_command_status(boot, line, status):
    g = boot(append='cmd="%s"' % line)
    assert g.wait_exit(timeout=BOOT_TIMEOUT) == exit_code_for(status)


@pytest.mark.parametrize("cpus", [1, 4])
def test_every_crash_is_reported_and_survived(boot, cpus):
    g = boot(extra=["-smp", str(cpus)])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    for mode, report, detail in CRASHES:
        out = g.run("/bin/crash " + mode)
        assert report in out, (mode, out)
        assert re.search(r"/bin/crash: pid \d+: %s at %s" % (report, re.escape(detail)), out), out
    assert "hello, world" in g.run("/bin/hello")


def test_bad_system_call_arguments_are_errors(guest):
    out = guest.run("/bin/syscheck")
    assert "not ok" not in out, out
    assert "0 failed" in out, out


def _free_kib(out):
    return int(re.search(r"physical: \d+ KiB total, (\d+) KiB free", out).group(1))


def test_every_page_is_freed_at_exit(guest):
    guest.run("/bin/hello; /bin/crash stack")       # the kernel heap grows once, then stays
    before = _free_kib(guest.run("mem"))
    for _ in range(3):
        guest.run("/bin/hello x; /bin/crash null; /bin/crash stack; /bin/syscheck; /bin/false")
    assert _free_kib(guest.run("mem")) == before


def _module(tmp_path, name, data):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo(name)
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    path = tmp_path / "files.tar"
    path.write_bytes(buf.getvalue())
    return str(path)


def test_a_corrupt_executable_is_refused(boot, tmp_path):
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "build", "kbin", "bin", "true"), "rb") as f:
        image = bytearray(f.read())
    image[18] = 3                                   # e_machine: i386
    g = boot(extra=["-initrd", _module(tmp_path, "bad", bytes(image[:4096]))])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    out = g.run("/bad")
    assert "sonde: /bad: cannot execute: wrong machine 3 (want 62)" in out, out
    assert "hello, world" in g.run("/bin/hello")
