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

# mode, what the shell says, the console's detail, the pc's symbol (from /bin/crash's .symtab)
CRASHES = [("null", "Segmentation fault", "address 0x0,", "(main+0x"),
           ("jump", "Segmentation fault", "address 0xdead0000, pc 0xdead0000", ""),
           ("divide", "Floating point exception", "address 0x0,", "(main+0x"),
           ("stack", "Segmentation fault", "address 0x7ffff", "(recurse+0x"),
           ("kernel", "Segmentation fault", "address 0xffffffff80100000,", "(main+0x")]


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
    for mode, report, detail, sym in CRASHES:
        out = g.run("/bin/crash " + mode)
        assert report in out, (mode, out)
        assert re.search(r"/bin/crash: pid \d+: %s at %s" % (report, re.escape(detail)), out), out
        assert sym in out, out
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
    assert "sonde: /bad: cannot execute: wrong machine 3, i386 (want 62, x86-64)" in out, out
    assert "hello, world" in g.run("/bin/hello")


# -- fork, exec, wait, kill, pipes, memory (M3) ------------------------------------

def test_process_system_calls(guest):
    out = guest.run("/bin/proccheck", timeout=60)
    assert "not ok" not in out, out
    assert "0 failed" in out, out


def test_programs_over_pipes_and_forks(guest):
    assert guest.run("/bin/pingpong 500", timeout=60).strip() == "pingpong: 500 round trips"
    assert guest.run("/bin/forkbomb 5", timeout=60).strip() == "forkbomb: 63 processes"
    assert guest.run("/bin/churn 3000", timeout=60).strip() == "churn: 3000 rounds"
    assert guest.run("/bin/echo a  b c").strip() == "a b c"


def test_cat_reads_boot_files_and_the_console(boot, tmp_path):
    guest = boot(extra=["-initrd", _module(tmp_path, "notes.txt", b"line one\nline two\n")])
    guest.wait_prompt(timeout=BOOT_TIMEOUT)
    assert guest.run("/bin/cat /notes.txt notes.txt") == "line one\nline two\n" * 2
    assert guest.run("/bin/cat /nope").strip() == "cat: /nope: No such file or directory"
    guest.sendline("/bin/cat")
    guest.expect_exact("\r\n")
    guest.send("typed line\r")
    guest.expect_exact("typed line\r\ntyped line\r\n")     # the echo, then cat's copy
    guest.send("\x04")                                        # Ctrl-D: end of file
    guest.wait_prompt()


def test_ctrl_c_stops_a_spinning_process(guest):
    guest.sendline("/bin/spin")
    guest.drain(1.0)
    guest.send("\x03")
    guest.wait_prompt()
    assert "hello, world" in guest.run("/bin/hello")


@pytest.mark.parametrize("cpus", [1, 4])
def test_sysfuzz_leaves_the_kernel_whole(boot, cpus):
    g = boot(extra=["-smp", str(cpus)])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    for seed in (1, 2, 3):
        assert g.run("/bin/sysfuzz %d 2000" % seed, timeout=60).strip() == "sysfuzz: 2000 calls"
    assert g.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"
    assert "0 failed" in g.run("/bin/proccheck", timeout=60)


def test_forks_free_every_page(guest):
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"
    for _ in range(2):
        guest.run("/bin/forkbomb 4; /bin/pingpong 50; /bin/proccheck; /bin/churn 500", timeout=60)
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"


def host_dtrace(*args, cpus=1):
    """tools/dtrace with these arguments on cpus CPUs: (status, stdout lines that are not blank,
    stderr)."""
    import subprocess
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    r = subprocess.run([os.path.join(root, "tools", "dtrace")] + list(args),
                       capture_output=True, text=True, timeout=150,
                       env=dict(os.environ, SONDE_TIMEOUT="120", SONDE_CPUS=str(cpus)))
    return r.returncode, [l for l in r.stdout.splitlines() if l.strip()], r.stderr


def test_d_builtins_name_the_process():
    status, lines, err = host_dtrace(
        "-q", "-n", 'fbt:kernel:sys_pipe:entry { printf("%s %d %d\\n", execname, pid == $target, ppid); }',
        "-c", "/bin/pingpong 3")
    r = type("R", (), {"stdout": "\n".join(lines), "stderr": err})
    assert sorted(lines) == ["pingpong 1 0", "pingpong 1 0", "pingpong: 3 round trips"], \
        r.stdout + r.stderr


# -- the syscall and proc providers (M4) ---------------------------------------------

def test_syscall_provider_counts_a_programs_calls():
    status, lines, err = host_dtrace(
        "-q", "-n", 'syscall:::entry /execname == "pingpong"/ { @[probefunc] = count(); }',
        "-n", 'END { printa("%s %@d\\n", @); }', "-c", "/bin/pingpong 40")
    counts = dict(l.split() for l in lines if not l.startswith("pingpong:"))
    assert status == 0, err
    assert counts["fork"] == "1" and counts["pipe"] == "2" and counts["wait4"] == "1", lines
    assert int(counts["read"]) == 80 and int(counts["write"]) >= 80, lines


def test_syscall_return_gives_minus_one_and_errno():
    status, lines, err = host_dtrace(
        "-q", "-n", 'syscall::fstat:return /execname == "syscheck"/ '
                    '{ printf("fstat %d %d %d\\n", arg0, arg1, errno); }',
        "-c", "/bin/syscheck")
    assert status == 0, err
    assert [l for l in lines if l.startswith("fstat")] == ["fstat 0 0 0", "fstat -1 -1 14",
                                                          "fstat -1 -1 14"], lines


def test_syscall_probes_come_from_the_table():
    status, lines, err = host_dtrace("-l", "-P", "syscall")
    names = {(l.split()[-2], l.split()[-1]) for l in lines[1:]}
    for call in ("read", "write", "fork", "execve", "wait4", "mmap", "exit_group", "open"):
        assert (call, "entry") in names and (call, "return") in names, lines
    calls = {c for c, _ in names}
    assert len(lines) - 1 == len(names) == 2 * len(calls), lines       # one entry, one return each


@pytest.mark.parametrize("cpus", [1, 4])
def test_proc_provider_sees_fork_exec_exit(cpus):
    # Each CPU's buffer is printed in turn, so events are put in time order
    # by their timestamps, as a DTrace user does on a multiprocessor.
    status, lines, err = host_dtrace(
        "-q", "-n", 'proc:::create, proc:::exec-success, proc:::exit, proc:::exec, '
                    'proc:::exec-failure /execname != "dtrace -c"/ '
                    '{ printf("@%d %s %s %d\\n", timestamp, probename, execname, arg0); }',
        "-c", "/bin/proccheck", cpus=cpus)
    assert status == 0, err
    stamped = sorted((int(l.split()[0][1:]), l.split(None, 1)[1]) for l in lines if l.startswith("@"))
    events = [e for _, e in stamped]
    assert events[0] == "exec-success proccheck 0", events
    assert "exec-success false 0" in events and "exec-failure proccheck 2" in events, events
    assert "exit false 1" in events and "exit proccheck 2" in events, events   # exited, killed
    assert events[-1] == "exit proccheck 1", events
    assert sum(e.startswith("create proccheck") for e in events) == 7, events   # its forks


def test_copyinstr_reads_the_process_and_refuses_bad_addresses():
    status, lines, err = host_dtrace(
        "-q", "-n", 'syscall::open:entry { printf("open %s\\n", copyinstr(arg0)); }',
        "-c", "/bin/cat /nope")
    assert "open /nope" in lines, (lines, err)
    status, lines, err = host_dtrace(
        "-q", "-n", 'syscall::write:entry /execname == "syscheck" && arg0 == 1 && arg2 == 5/ '
                    '{ trace(copyinstr(arg1)); }', "-c", "/bin/syscheck")
    for addr in ("0x0", "0xffffffff80100000", "0x700000000000"):       # NULL, kernel, unmapped
        assert ("dtrace: error on enabled probe ID 1 (ID %s): invalid address (%s) in action #1 "
                "at DIF offset 8" % (re.search(r"\(ID (\d+: syscall::write:entry)\)", err).group(1),
                                     addr)) in err, err
    assert "0 failed" in lines, lines


def test_profile_gives_the_user_pc():
    status, lines, err = host_dtrace(
        "-q", "-n", 'profile-1ms /execname == "spin"/ '
                    '{ @[arg0 == 0 && arg1 >= 0x400000 && arg1 < 0x500000] = count(); }',
        "-n", 'END { printa("%d %@d\\n", @); }', "-c", "/bin/spin 60")
    counts = dict(map(int, l.split()) for l in lines)
    assert counts.get(1, 0) > 20 and counts.get(1, 0) > 10 * counts.get(0, 0), (lines, err)


def test_dtrace_exiting_first_kills_its_program():
    status, lines, err = host_dtrace(
        "--shell", "dtrace -q -n 'tick-1s { exit(0); }' -c /bin/spin; pmem")
    assert status == 0, err
    assert lines[-1] == "processes: 0 (0 zombies), 0 pages held", lines


def test_background_procs_and_kill(guest):
    out = guest.run("/bin/spin &")
    pid = int(re.match(r"\[1\] (\d+)$", out.strip()).group(1))     # job 1, its pid
    rows = [l.split() for l in guest.run("procs").splitlines()[1:] if l.strip()]
    row = [r for r in rows if r[1] == str(pid)]                # UID PID PPID S TID TIME COMMAND
    assert row and row[0][0] == "0" and row[0][3] == "R" and row[0][6] == "spin", rows
    assert "hello, world" in guest.run("/bin/hello")          # the prompt is free meanwhile
    ps = guest.run("ps")
    assert re.search(r"^ +UID +PID +PPID S +TIME  COMMAND\n +0 +%d +0 R +\d+\.\d{3}  spin\n\n +TID  NAME" % pid,
                     ps, re.M), ps
    guest.run("kill " + row[0][1])                             # SIGTERM: the process dies
    for _ in range(50):
        if guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held":
            break
        guest.drain(0.1)
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"


def test_copyoutstr_writes_the_process_with_w_only():
    prog = 'syscall::write:entry /execname == "echo"/ { copyoutstr("HELLO", arg1, 5); }'
    status, lines, err = host_dtrace("-q", "-w", "-n", prog, "-c", "/bin/echo hello")
    assert lines == ["HELLO"], (lines, err)
    status, lines, err = host_dtrace(
        "-q", "-w", "-n", 'syscall::write:entry /execname == "echo"/ '
                          '{ copyoutstr("XX", 0x401000, 3); }', "-c", "/bin/echo hello")
    assert lines == ["hello"] and "invalid address (0x401000)" in err, (lines, err)   # text: R+X
    status, lines, err = host_dtrace("-q", "-n", prog, "-c", "/bin/echo hello")
    assert status != 0 and "Destructive actions not allowed" in err, err


def test_dtrace_says_when_its_process_has_exited():
    # dtrace(1M)'s notice on standard error when the -c or -p process ends by
    # itself; never under -q (DTrace's notices are quiet), nor when dtrace ends first.
    status, lines, err = host_dtrace("-n", "BEGIN", "-c", "/bin/echo hi")
    assert status == 0 and re.search(r"^dtrace: pid \d+ has exited$", err, re.M), err
    status, lines, err = host_dtrace("-q", "-n", "BEGIN", "-c", "/bin/echo hi")
    assert status == 0 and "has exited" not in err, err
    status, lines, err = host_dtrace("-n", "BEGIN { exit(0); }", "-c", "/bin/spin")
    assert status == 0 and "has exited" not in err, err
    status, lines, err = host_dtrace(
        "--shell", "/bin/sleep 1 & dtrace -p 1 -n 'proc:::exit /pid == $target/ { trace(pid); }'")
    assert status == 0 and "dtrace: pid 1 has exited" in err.splitlines(), err


def test_raise_signals_the_current_process():
    # raise() (destructive, -w) in a process's probe: the signal is taken at
    # its next return to user mode, from an interrupt (profile) or from a pid
    # probe's trap; /bin/spin 1000 would otherwise run for many seconds.
    status, lines, err = host_dtrace(
        "-w", "-q", "-c", "/bin/spin 1000",
        "-n", "profile-97 /pid == $target && !sent/ { sent = 1; raise(15); }")
    assert status == 0 and "Terminated" in lines + err.splitlines(), (lines, err)
    status, lines, err = host_dtrace("-w", "-q", "-c", "/bin/spin 1000",
                                     "-n", "pid$target::main:entry { raise(9); }")
    assert status == 0 and "Killed" in lines + err.splitlines(), (lines, err)


def test_stop_stops_the_process_until_sigcont():
    # stop() stops the process at its return to user mode: ps shows it T,
    # it stays so after dtrace has gone, and kill -CONT lets it run again.
    status, lines, err = host_dtrace(
        "--shell", "/bin/spin & dtrace -w -q -p 1 -n 'profile-97 /pid == $target/ "
        "{ stop(); exit(0); }'; sleep 1; ps; kill -CONT 1; sleep 1; ps; kill 1; wait; pmem")
    assert status == 0, err
    states = re.findall(r"^\s+0\s+1\s+0 ([A-Z])\s+[\d.]+\s+spin$", "\n".join(lines), re.M)
    assert states == ["T", "R"], lines
    assert lines[-1] == "processes: 0 (0 zombies), 0 pages held", lines
