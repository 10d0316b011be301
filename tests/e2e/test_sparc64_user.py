"""User processes on sparc64: /bin programs in user mode under sun4u, in one guest.

What this shows, with one boot of build/sparc64/kernel.elf (tools/dtrace with
SONDE_ARCH=sparc64, the shell running each command in turn):
  - a newlib program runs with its arguments and prints floats (hello);
  - faults in user mode kill the process with the shell's report, the
    kernel goes on: a NULL store, and a stack overflow (the user's register
    windows spill into the guard page: traps.S keeps them, vm_user.c kills);
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

# The pid provider on sparc64 (arch/sparc64/pid_isa.c): an entry probe's arguments (%o0..%o5
# before the save), uregs[] by regs.d's names, ustack() at an entry probe; return probes after
# the delay slot that computes the value (inner: `return %i7 + 8; add %o0, %o1, %o0`, outer:
# `ret; restore %g0, %o0, %o0`); every entry and return probe of a program, and every
# instruction of two large functions of newlib's printf (branches with annulled delay slots,
# floating point), with the program's output unchanged; the program's own breakpoint still
# SIGTRAP; probes that do not exist are DTrace's error; /bin/s64insns (every class of SPARC
# instruction the provider emulates or steps) computes the same checksum with every probe of its
# functions enabled as with none, each probe firing once per instruction run, and a fault in a
# stepped instruction is reported at the original address; tail calls (`call strtol; restore`
# ending atol) fire their function's return probe, so -F nests; raise() in a pid probe kills.
PID_COMMANDS = (
    "dtrace -q -n 'pid$target::main:entry { printf(\"main(%d, %s, %s)\\n\", arg0, "
    "copyinstr(*(uint64_t *)copyin(arg1 + 8, 8)), copyinstr(*(uint64_t *)copyin(arg1 + 16, 8))); "
    "usym(uregs[R_PC]); printf(\" o0 %d sp-is-o6 %d\\n\", uregs[R_O0], uregs[R_SP] == uregs[R_O6]); "
    "ustack(); }' -c '/bin/hello x y'; "
    "dtrace -q -n 'pid$target::inner:entry { self->pc = uregs[R_PC]; } "
    "pid$target::inner:entry /arg0 == 2/ { printf(\"inner(%d, %d) o1 %d\\n\", arg0, arg1, uregs[R_O1]); "
    "ustack(); printf(\"depth %d\\n\", ustackdepth); ufunc(ucaller); printf(\"\\n\"); } "
    "pid$target::inner:return { printf(\"inner returned %d at +%x o0 %d pc-at-return %d\\n\", "
    "arg1, arg0, uregs[R_O0], uregs[R_PC] == self->pc + arg0); } "
    "pid$target::outer:return { printf(\"outer returned %d\\n\", arg1); } "
    "syscall::exit_group:entry /pid == $target/ { printf(\"pidloop status %d\\n\", arg0); }' "
    "-c '/bin/pidloop 3'; "
    "dtrace -q -n 'pid$target:::entry, pid$target:::return, pid$target::_vfprintf_r:, "
    "pid$target::_dtoa_r: { @[probename == \"entry\" || probename == \"return\" ? probename : "
    "probefunc] = count(); } END { printa(\"fired %s %@d\\n\", @); }' -c '/bin/hello p q'; "
    "dtrace -n 'pid$target::nosuchfunc:entry {}' -c /bin/true; "
    "dtrace -n 'pid$target::main:3 {}' -c /bin/true; "
    "dtrace -q -n 'pid$target::inner:entry { @ = count(); }' -c '/bin/pidloop -t 2'; "
    "/bin/s64insns; "
    "dtrace -q -n 'pid$target::sx_branch:, pid$target::sx_leaf:, pid$target::sx_ret:, "
    "pid$target::sx_call:, pid$target::sx_mem: { @[probefunc] = count(); } "
    "END { printa(\"probed %s %@d\\n\", @); }' -c /bin/s64insns; "
    "dtrace -q -n 'pid$target::sx_fault: { @[probename] = count(); }' -c '/bin/s64insns fault'; "
    "dtrace -F -n '" + ", ".join("pid$target::%s:entry, pid$target::%s:return" % (f, f) for f in
                                 ("main", "atol", "strtol", "_strtol_l.part.0", "outer", "inner"))
    + "' -c '/bin/pidloop 1'; "
    "dtrace -w -q -n 'pid$target::main:entry { raise(9); }' -c '/bin/spin 100000'; "
)

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
            "%s"
            "/bin/echo end" % (le, x86, PID_COMMANDS))
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


def test_pid_entry_probe_arguments_uregs_and_ustack(session):
    _, out, _, _ = session
    assert re.search(r"hello, world\nargv\[1\] = x\nargv\[2\] = y\npi is about 3.141593\n"
                     r"main\(3, x, y\)\nhello`main o0 3 sp-is-o6 1\n\n +hello`main\n"
                     r" +hello`sonde_start\+0x[0-9a-f]+\n +hello`_start\+0x", out), out


def test_pid_return_probes_fire_after_the_delay_slot(session):
    _, out, _, _ = session
    for i in (1, 2, 3):
        assert "inner returned %d at +4 o0 %d pc-at-return 1\nouter returned %d\n" % (11 * i, 11 * i, 11 * i) \
            in out, out
    assert re.search(r"inner\(2, 20\) o1 20\n\n +pidloop`inner\n +pidloop`outer\+0x10\n"
                     r" +pidloop`main\+0x[0-9a-f]+\n +pidloop`sonde_start\+0x[0-9a-f]+\n"
                     r" +pidloop`_start\+0x[0-9a-f]+\ndepth 5\npidloop`outer\n", out), out
    assert "pidloop status 0\n" in out, out


def test_pid_probes_everywhere_leave_the_program_unchanged(session):
    _, out, _, _ = session
    assert "hello, world\nargv[1] = p\nargv[2] = q\npi is about 3.141593\n" in out, out
    for what in ("entry", "return", "_vfprintf_r", "_dtoa_r"):
        assert re.search(r"^fired %s \d+$" % what, out, re.M), out


def test_pid_bad_probes_are_errors_and_breakpoints_still_trap(session):
    status, out, _, _ = session
    assert re.search(r"dtrace: invalid probe specifier pid\$target::nosuchfunc:entry \{\}: probe "
                     r"description pid\d+::nosuchfunc:entry does not match any probes", out), out
    assert re.search(r"dtrace: invalid probe specifier pid\$target::main:3 \{\}: probe "
                     r"description pid\d+::main:3 does not match any probes", out), out
    assert re.search(r"/bin/pidloop: pid \d+: Trace/breakpoint trap at address 0x0, pc 0x[0-9a-f]+ "
                     r"\(main\+0x[0-9a-f]+\)", out), out
    assert re.search(r"\nend\n+--- stderr", out), out


def test_pid_every_sparc_instruction_class_replayed_exactly(session):
    _, out, _, _ = session
    sums = re.findall(r"^checksum ([0-9a-f]+)$", out, re.M)
    assert len(sums) == 2 and sums[0] == sums[1], out
    # Counted by hand: sx_leaf runs 6 instructions plus its entry and return probes' sites
    # (entry, cmp, bgu,a, retl, its delay slot, return) per call, 7 when the annulled
    # delay slot runs (5 of its 13 inputs are above 10); sx_ret 6 per call (entry, save, add,
    # return, its delay slot, return).
    assert "probed sx_leaf 83\n" in out, out
    assert "probed sx_ret 78\n" in out, out
    for func in ("sx_branch", "sx_call", "sx_mem"):
        assert re.search(r"^probed %s \d+$" % func, out, re.M), out
    assert re.search(r"/bin/s64insns: pid \d+: Segmentation fault at address 0x0, pc 0x[0-9a-f]+ "
                     r"\(sx_fault\+0x0\)", out), out


def test_pid_tail_calls_fire_return_probes_and_raise_kills(session):
    _, out, _, _ = session
    flow = [re.sub(r"^ +\d+  ", "", l).rstrip() for l in out.split("\n")
            if re.match(r"^ +\d+  +(->|<-) ", l)]
    assert flow == ["-> main", "  -> atol", "  <- atol", "  -> strtol", "  <- strtol",
                    "  -> _strtol_l.part.0", "  <- _strtol_l.part.0", "  -> outer",
                    "    -> inner", "    <- inner", "  <- outer", "<- main"], flow
    assert re.search(r"^Killed$", out, re.M), out
