"""The shell's pipes, redirections, /tmp, directories, kill and ps (docs/processes.md).

Each test boots one guest and checks several things, to stay fast.
"""

import re

import pytest


@pytest.mark.parametrize("cpus", [1, 4])
def test_pipes_between_commands_and_programs(boot, cpus):
    guest = boot(extra=["-smp", str(cpus)])
    guest.wait_prompt(timeout=30)
    out = guest.run("dtrace -l | /bin/head -n 3")
    lines = out.strip().splitlines()
    assert len(lines) == 3 and lines[0].split() == ["ID", "PROVIDER", "MODULE", "FUNCTION", "NAME"], out
    assert guest.run("dtrace -l | /bin/grep BEGIN | /bin/wc -l").strip() == "1"     # three stages
    # a | in a quoted D program is the program's
    out = guest.run("dtrace -q -n 'BEGIN { printf(\"%d\\n\", 6 | 1); exit(0); }' | /bin/cat")
    assert out.strip() == "7", out
    assert guest.run("echo 'a | b' \"c > d\" | /bin/cat").strip() == "a | b c > d"
    assert guest.run("help | /bin/grep -c 'dtrace'").strip() != "0"
    # what system() runs inherits dtrace's output, as a child of a Unix shell would
    out = guest.run("dtrace -w -q -n 'BEGIN { system(\"/bin/echo in; echo x | /bin/cat\"); exit(0); }' | /bin/wc -l")
    assert out.strip() == "3", out            # in, x, and dtrace's closing blank line
    # the reader exits early: a long-running dtrace stops, a program dies of SIGPIPE quietly
    out = guest.run("dtrace -q -n 'profile-1000hz { printf(\"%d\\n\", timestamp); }' | /bin/head -n 2",
                    timeout=60)
    assert len(out.strip().splitlines()) == 2, out
    out = guest.run("/bin/cat /bin/ls /bin/ls /bin/ls | /bin/head -n 1 | /bin/wc -l")
    assert out.strip() == "1", out
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"


def test_redirections_and_tmp(guest):
    assert guest.run("echo one > /tmp/f; echo two >> /tmp/f; /bin/cat < /tmp/f") == "one\ntwo\n"
    assert guest.run("/bin/wc -l < /tmp/f").strip() == "2"
    assert guest.run("/bin/echo three > /tmp/f; cat /tmp/f").strip() == "three"
    assert "Read-only file system" in guest.run("echo x > /bin/x")
    assert "No such file or directory" in guest.run("/bin/cat < /tmp/nothing")
    # write a D script at the console, Ctrl-D ends it, then run it
    guest.sendline("/bin/cat > /tmp/x.d")
    guest.expect_exact("\r\n")
    guest.send("BEGIN { trace(\"from tmp\"); exit(0); }\r")
    guest.expect_exact("exit(0); }\r\n")
    guest.send("\x04")
    guest.wait_prompt()
    out = guest.run("dtrace -q -s /tmp/x.d")
    assert out.strip() == "from tmp", out
    out = guest.run("dtrace -l -s /tmp/x.d | /bin/wc -l")
    assert out.strip() == "2", out
    assert re.search(r"^-rw-r--r-- +6 f$", guest.run("/bin/ls -l /tmp"), re.M)


def test_tmp_full_then_every_page_freed(guest):
    assert guest.run("df").splitlines()[0] == "/tmp: 0 files, 0 of 256 pages held"
    out = guest.run("/bin/cat /dev/zero > /tmp/big", timeout=60)
    assert "cat: write error: No space left on device" in out, out
    assert re.search(r"^-rw-r--r-- +1048576 big$", guest.run("/bin/ls -l /tmp"), re.M)
    assert guest.run("df").splitlines()[0] == "/tmp: 1 files, 256 of 256 pages held"
    assert "No space left on device" in guest.run("echo more >> /tmp/big")
    assert guest.run("/bin/rm /tmp/big; df").splitlines()[0] == "/tmp: 0 files, 0 of 256 pages held"
    assert guest.run("/bin/mkdir /tmp/d; /bin/echo x > /tmp/d/y; /bin/ls /tmp/d").strip() == "y"
    assert "0 failed" in guest.run("/bin/fscheck")       # EFAULT, ENOENT, EEXIST, ENOTDIR, EISDIR, EROFS


def test_ls_directories(guest):
    root = guest.run("/bin/ls /").split()
    assert {"bin", "dev", "tmp", "scripts"} <= set(root), root
    assert {"ls", "head", "cat"} <= set(guest.run("/bin/ls /bin").split())
    dev = guest.run("/bin/ls -l /dev")
    assert re.search(r"^crw-rw-rw- +0 null$", dev, re.M), dev
    assert re.search(r"^drwxrwxrwx +0 tmp$", guest.run("/bin/ls -l /"), re.M)
    assert re.search(r"^-r--r--r-- +\d+ /bin/ls$", guest.run("/bin/ls -l /bin/ls"), re.M)
    assert "ls: cannot access '/nope': No such file or directory" in guest.run("/bin/ls /nope")
    assert guest.run("/bin/ls -a /tmp").split() == [".", ".."]


def test_kill_pid_ps_and_jobs(guest):
    pid = int(re.match(r"\[1\] (\d+)$", guest.run("/bin/spin &").strip()).group(1))
    ps = guest.run("ps")
    assert re.search(r"^ +UID +PID +PPID S +TIME  COMMAND\n +0 +%d +0 R +\d+\.\d{3}  spin$" % pid, ps, re.M), ps   # 1 CPU: the shell's
    assert re.search(r"^ +TID  NAME", ps, re.M), ps                     # then the kernel threads
    assert "kill: FOO: unknown signal" in guest.run("kill -FOO %d" % pid)
    assert "kill: x: arguments must be process ids" in guest.run("kill x")
    assert "usage: kill" in guest.run("kill")
    assert "kill: (999) - No such process" in guest.run("kill 999")
    pid2 = int(re.match(r"\[2\] (\d+)$", guest.run("/bin/sleep 100 &").strip()).group(1))
    pid3 = int(re.match(r"\[3\] (\d+)$", guest.run("/bin/spin | /bin/cat &").strip()).group(1))
    jobs = guest.run("jobs")
    assert re.search(r"^\[2\] +Running +/bin/sleep 100$", jobs, re.M), jobs
    assert re.search(r"^\[3\] +Running +/bin/spin \| /bin/cat$", jobs, re.M), jobs
    assert "No such process" not in guest.run("kill -INT %d" % pid)
    assert "No such process" not in guest.run("kill -9 %d %d" % (pid3 - 1, pid3))   # spin and cat
    out = guest.run("kill %d; wait %%2; wait" % pid2)                       # SIGTERM
    assert "No such process" not in out, out
    assert guest.run("jobs").strip() == ""
    assert guest.run("/bin/true & ").startswith("[1] ")
    assert guest.run("wait").strip() == ""
    assert guest.run("/bin/cat & ").startswith("[1] ")             # its input is /dev/null, not the console
    assert guest.run("wait; echo typed").strip() == "typed"
    assert "fg: 4: no such job" in guest.run("fg %4")
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"
    assert "syntax error near '|'" in guest.run("| /bin/cat")
    assert "syntax error near 'newline'" in guest.run("echo >")


def test_ctrl_c_stops_a_pipeline(guest):
    # dtrace blocks writing to a pipe nobody reads: Ctrl-C ends the reader, then dtrace
    guest.sendline("dtrace -q -n 'profile-1000hz { printf(\"%d\\n\", timestamp); }' | /bin/sleep 100")
    guest.drain(2.0)
    guest.send("\x03")
    guest.wait_prompt(timeout=30)
    guest.sendline("/bin/spin | /bin/cat | /bin/cat")
    guest.drain(1.0)
    guest.send("\x03")
    guest.wait_prompt(timeout=30)
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"
    assert guest.run("echo still here").strip() == "still here"


def test_console_input_in_a_pipeline_and_no_heap_leak(guest):
    guest.sendline("/bin/cat | /bin/wc -l")
    guest.expect_exact("\r\n")
    guest.send("one\rtwo\r")
    guest.expect_exact("two\r\n")
    guest.send("\x04")                                     # Ctrl-D: end of cat's input
    guest.expect_exact("2\r\n")                            # wc saw both lines
    guest.wait_prompt()
    line = ("dtrace -l | /bin/head -n 3 > /dev/null; echo a > /tmp/a; /bin/cat < /tmp/a | /bin/wc > /tmp/b; "
            "/bin/rm /tmp/a /tmp/b; /bin/ls -l / /tmp > /dev/null; echo x | /bin/cat | /bin/cat > /dev/null")
    guest.run(line, timeout=60)
    heap = lambda: re.search(r"heap: +(\d+) bytes in use", guest.run("mem")).group(1)
    before = heap()
    for _ in range(3):
        guest.run(line, timeout=60)
    assert heap() == before


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ampersand_runs_the_next_command_at_once(boot, cpus):
    # `a & b`, as sh: a starts in the background and the shell goes on to b
    guest = boot(extra=["-smp", str(cpus)])
    guest.wait_prompt(timeout=30)
    out = guest.run("/bin/sleep 100 & echo now")
    assert re.fullmatch(r"\[1\] \d+\nnow\n", out), out
    out = guest.run("/bin/spin | /bin/cat & /bin/sleep 100 &echo next; jobs")
    assert re.fullmatch(r"\[2\] \d+\n\[3\] \d+\nnext\n"
                        r"\[1\] +Running +/bin/sleep 100\n\[2\] +Running +/bin/spin \| /bin/cat\n"
                        r"\[3\] +Running +/bin/sleep 100\n", out), out
    for bad, near in (("& echo x", "&"), ("echo x && echo y", "&"), ("echo x & ; echo y", ";"),
                      ("echo x; /bin/true | &", "&")):
        assert guest.run(bad) == "sonde: syntax error near '%s'\n" % near, bad   # and nothing of it ran
    assert guest.run("jobs").count("Running") == 3
    pids = [int(p) for p in re.findall(r"^ +0 +(\d+) +0 [ORS] ", guest.run("ps"), re.M)]
    assert len(pids) == 4, pids
    guest.run("kill -9 %s; wait" % " ".join(map(str, pids)), timeout=30)
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ps_shows_a_sleeping_process_as_s(boot, cpus):
    # Solaris's ps(1) letters: S sleeping, O on a processor, R runnable, Z zombie
    guest = boot(extra=["-smp", str(cpus)])
    guest.wait_prompt(timeout=30)
    sleeper = int(re.match(r"\[1\] (\d+)$", guest.run("/bin/sleep 100 &").strip()).group(1))
    reader = int(re.match(r"\[2\] (\d+)$", guest.run("/bin/sleep 100 | /bin/cat &").strip()).group(1))
    spinner = int(re.match(r"\[3\] (\d+)$", guest.run("/bin/spin &").strip()).group(1))
    asleep = lambda ps: (re.search(r"^ +0 +%d +0 S +\d+\.\d{3}  sleep$" % sleeper, ps, re.M) and   # in nanosleep
                         re.search(r"^ +0 +%d +0 S +\d+\.\d{3}  cat$" % reader, ps, re.M))       # in a read of its pipe
    running = "R" if cpus == 1 else "[OR]"                  # 1 CPU: the shell is on it, running ps
    spinning = lambda ps: re.search(r"^ +0 +%d +0 %s +\d+\.\d{3}  spin$" % (spinner, running), ps, re.M)
    for _ in range(50):                                     # each may not have got that far yet
        ps = guest.run("ps")                                # (spin may still be loading its program)
        if asleep(ps) and spinning(ps):
            break
        guest.drain(0.1)
    assert asleep(ps), ps
    assert spinning(ps), ps
    assert re.search(r"^ +0 +%d +0 S " % sleeper, guest.run("procs"), re.M)
    guest.run("kill -9 %d %d %d %d; wait" % (sleeper, reader - 1, reader, spinner), timeout=30)
    assert guest.run("pmem").strip() == "processes: 0 (0 zombies), 0 pages held"
