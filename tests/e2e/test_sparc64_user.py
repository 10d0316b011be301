"""User processes on sparc64: /bin programs in user mode under sun4u, in one guest.

What this shows, with one boot of build/sparc64/kernel.elf (tools/dtrace with
SONDE_ARCH=sparc64, the shell running each command in turn):
  - a newlib program runs with its arguments and prints floats (hello);
  - faults in user mode kill the process with the shell's report, the
    kernel goes on: a NULL store, and a stack overflow (the user's register
    windows spill into the guard page: traps.S keeps them, user.c kills);
  - fork with copy-on-write, exec, wait, pipes, signals and the FPU per
    process (proccheck's checks that apply to sparc64), and bad pointers to
    system calls (syscheck), the kernel image's among them;
  - the ELF loader refuses a little-endian file and a wrong machine with
    messages naming both (kernel/elf.c);
  - the two D commands sparc64 user processes were built for: syscall:::entry counted by probefunc over
    /bin/ls, and fbt's stack() symbolized in SPARC frames; and ustack()
    through the user's windows, symbolized from the program's .symtab.
Skipped when the sparc64 kernel is not built (make ARCH=sparc64).  About
25 s on an idle 2-core machine (OpenBIOS alone is about 1 s of guest time).
"""

import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "sparc64", "kernel.elf")
TRUE = os.path.join(ROOT, "build", "sparc64", "kbin", "bin", "true")

pytestmark = pytest.mark.skipif(not (os.path.exists(KERNEL) and os.path.exists(TRUE)),
                                reason="no sparc64 kernel (make ARCH=sparc64)")

# proccheck's checks that need x86_64's layout: none (the user half's size is asked of the machine).
PROCCHECK_X86_ONLY = set()


def _patched(tmp_path, name, offset, data):
    with open(TRUE, "rb") as f:
        image = bytearray(f.read())
    image[offset:offset + len(data)] = data
    path = tmp_path / name
    path.write_bytes(bytes(image))
    return str(path)


@pytest.fixture(scope="module")
def session(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("s64")
    le = _patched(tmp, "le", 5, b"\x01")                 # EI_DATA: little-endian
    x86 = _patched(tmp, "x86", 18, b"\x00\x3e")          # e_machine 62, big-endian
    line = ("/bin/hello a b; /bin/crash null; /bin/crash stack; /bin/proccheck; /bin/syscheck; "
            "%s; %s; "
            "dtrace -n 'syscall:::entry { @[probefunc] = count(); }' -c '/bin/ls /'; "
            "dtrace -n 'fbt::kmalloc:entry { @[stack()] = count(); }' -c 'churn 20'; "
            "dtrace -n 'syscall::write:entry /pid != 0/ { @[ustack()] = count(); }' -c '/bin/hello'; "
            "/bin/echo end" % (le, x86))
    env = dict(os.environ, SONDE_ARCH="sparc64", SONDE_TIMEOUT=os.environ.get("SONDE_TIMEOUT", "400"))
    p = subprocess.run([os.path.join(ROOT, "tools", "dtrace"), "--file", le, "--file", x86,
                        "--shell", line], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace", timeout=600)
    return p.returncode, p.stdout + "\n--- stderr\n" + p.stderr, le, x86


def test_a_program_runs_with_its_arguments(session):
    _, out, _, _ = session
    assert "hello, world\nargv[1] = a\nargv[2] = b\npi is about 3.141593\n" in out, out


def test_user_faults_kill_the_process_not_the_kernel(session):
    status, out, _, _ = session
    assert re.search(r"/bin/crash: pid \d+: Segmentation fault at address 0x0, pc 0x[0-9a-f]+ "
                     r"\(main\+0x", out), out
    assert re.search(r"/bin/crash: pid \d+: Segmentation fault at address 0x7ff[0-9a-f]+, "
                     r"pc 0x[0-9a-f]+ \(recurse\+0x", out), out
    assert re.search(r"\nend\n+--- stderr", out), out   # the kernel went on to the last command
    assert status == 0, out


def test_fork_exec_wait_pipes_fpu_bad_pointers(session):
    _, out, _, _ = session
    checks = re.findall(r"^(ok|not ok) (.*)$", out, re.M)
    assert len(checks) > 30, out
    failed = [what for ok, what in checks if ok == "not ok" and what not in PROCCHECK_X86_ONLY]
    assert failed == [], out
    for what in ("fork returns the child's pid", "the child has a copy of the heap",
                 "munmap of the whole user half",
                 "two processes' SSE registers stay apart", "a child's fault is SIGSEGV to its parent"):
        assert ("ok", what) in checks, out
    # syscheck: the kernel image lies inside sparc64's user half; a system call may not read it
    assert ("ok", "write(1, 0x40004000, 5) = -14") in checks, out


def test_wrong_byte_order_and_machine_are_refused(session):
    _, out, le, x86 = session
    assert "sonde: %s: cannot execute: little-endian file (data 1): this machine is big-endian" % le \
        in out, out
    assert "sonde: %s: cannot execute: wrong machine 62, x86-64 (want 43, SPARC V9)" % x86 in out, out


def test_syscalls_of_ls_are_counted(session):
    _, out, _, _ = session
    assert "\nbin\n" in out, out
    for func in ("getdents64", "write", "exit_group"):
        assert re.search(r"^  %s +\d+$" % func, out, re.M), out


def test_fbt_stacks_are_symbolized(session):
    _, out, _, _ = session
    assert re.search(r"^ +kernel`churn_alloc_batch\+0x[0-9a-f]+\n +kernel`churn_round\+0x", out,
                     re.M), out


def test_ustack_walks_the_user_windows(session):
    _, out, _, _ = session
    assert re.search(r"^ +hello`printf\+0x[0-9a-f]+\n +hello`main\+0x[0-9a-f]+\n +hello`sonde_start\+0x"
                     r"[0-9a-f]+\n +hello`_start\+0x", out, re.M), out
