"""Users: each process's real, effective and saved user and group ids.

What these show: programs the shell starts run as root, and `runas
UID[:GID]` starts one as another user, whose ids fork and execve keep;
/bin/credcheck's checks of setuid, setgid, seteuid, setegid and setresuid
pass as root and as a user (every change to an id it does not hold is
EPERM); runas refuses bad ids and non-programs with a clear error; ps and
procs show each process's UID; the syscall provider has setuid's probes and
they fire with its argument; D's uid and gid follow the process's ids.
"""

import os
import re
import subprocess

import pytest

from conftest import BOOT_TIMEOUT, exit_code_for

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def host_dtrace(*args, cpus=1):
    """tools/dtrace: (status, stdout lines that are not blank, stderr)."""
    r = subprocess.run([os.path.join(ROOT, "tools", "dtrace")] + list(args),
                       capture_output=True, text=True, timeout=150,
                       env=dict(os.environ, SONDE_TIMEOUT="120", SONDE_CPUS=str(cpus)))
    return r.returncode, [l for l in r.stdout.splitlines() if l.strip()], r.stderr


def test_credcheck_as_root(guest):
    out = guest.run("/bin/credcheck", timeout=60)
    assert "not ok" not in out, out
    assert "ok started as root: every id 0" in out, out
    assert out.strip().endswith("0 failed"), out


@pytest.mark.parametrize("who", ["1000:50", "7", "65534:0"])
def test_credcheck_as_a_user(guest, who):
    out = guest.run("runas %s /bin/credcheck" % who, timeout=60)
    assert "not ok" not in out, out
    assert "ok setuid(0): EPERM" in out and "ok seteuid(0): EPERM" in out, out
    assert out.strip().endswith("0 failed"), out


def test_runas_sets_every_id_and_root_is_the_default(guest):
    assert guest.run("/bin/credcheck -p").strip() == "uid=0 euid=0 gid=0 egid=0"
    assert guest.run("runas 1000:50 /bin/credcheck -p").strip() == \
        "uid=1000 euid=1000 gid=50 egid=50"
    assert guest.run("runas 42 /bin/credcheck -p").strip() == "uid=42 euid=42 gid=42 egid=42"
    assert guest.run("/bin/credcheck -p").strip() == "uid=0 euid=0 gid=0 egid=0"   # the shell's own


def test_runas_exit_status_is_the_programs(boot):
    g = boot(append='cmd="runas 1000 /bin/credcheck -s 0"')    # a user's setuid(0): EPERM, status 1
    assert g.wait_exit(timeout=BOOT_TIMEOUT) == exit_code_for(1)


def test_runas_errors(guest):
    assert "usage: runas" in guest.run("runas")
    assert "usage: runas" in guest.run("runas 1000")
    for bad in ("x", "-1", "1000:", ":5", "65535", "1000:65535", "1:2:3", "99999999999999999999"):
        assert guest.run("runas %s /bin/true" % bad).strip() == \
            "runas: %s: not UID or UID:GID (numbers, 0 to 65534)" % bad, bad
    assert guest.run("runas 5 hello").strip() == \
        "runas: hello: not a program (a path such as /bin/hello)"
    assert guest.run("runas 5 /bin/nope").strip() == "sonde: /bin/nope: No such file or directory"
    assert guest.run("/bin/credcheck -p").strip() == "uid=0 euid=0 gid=0 egid=0"


def test_ps_and_procs_show_the_uid(guest):
    out = guest.run("ps")
    assert out.splitlines()[0].split() == ["UID", "PID", "PPID", "S", "TIME", "COMMAND"], out
    root = int(re.match(r"\[1\] (\d+)$", guest.run("/bin/spin &").strip()).group(1))
    user = int(re.match(r"\[2\] (\d+)$", guest.run("runas 1000:50 /bin/spin &").strip()).group(1))
    ps = guest.run("ps")
    assert re.search(r"^ +0 +%d +0 [ORS] +\d+\.\d{3}  spin$" % root, ps, re.M), ps
    assert re.search(r"^ +1000 +%d +0 [ORS] +\d+\.\d{3}  spin$" % user, ps, re.M), ps
    procs = guest.run("procs")
    assert procs.splitlines()[0].split() == ["UID", "PID", "PPID", "S", "TID", "TIME", "COMMAND"]
    assert re.search(r"^ +1000 +%d +0 [ORS] +\d+ +\d+\.\d{3}  spin$" % user, procs, re.M), procs
    guest.run("kill -9 %d %d; wait" % (root, user), timeout=30)


def test_runas_in_a_pipeline_and_its_errors_there(guest):
    assert guest.run("runas 7:8 /bin/credcheck -p | /bin/cat").strip() == \
        "uid=7 euid=7 gid=8 egid=8"
    assert guest.run("/bin/echo hi | runas 9 /bin/credcheck -p").strip() == \
        "uid=9 euid=9 gid=9 egid=9"
    assert guest.run("runas x /bin/true | /bin/cat").strip() == \
        "runas: x: not UID or UID:GID (numbers, 0 to 65534)"
    assert "usage: runas" in guest.run("runas 5 &")


def test_syscall_setuid_probes_list_and_fire():
    status, lines, err = host_dtrace("-l", "-n", "syscall::setuid:")
    assert status == 0, err
    assert [l.split()[1:] for l in lines[1:]] == [["syscall", "setuid", "entry"],
                                                  ["syscall", "setuid", "return"]], lines
    status, lines, err = host_dtrace("-q", "-n", "syscall::setuid:entry /pid == $target/ "
                                     "{ trace(arg0); }", "-c", "/bin/credcheck -s 1000")
    assert status == 0, err
    assert [l.strip() for l in lines] == ["1000"], lines


def test_d_uid_and_gid_follow_runas():
    # The shell's runas as dtrace -c's command line: the program's uid and
    # gid in D are the ids runas gave it, $uid (the consumer's) root's.
    status, lines, err = host_dtrace(
        "-q", "-n", "syscall::exit_group:entry /execname == \"credcheck\"/ "
        "{ printf(\"%d %d %d %d %d\\n\", uid, gid, curpsinfo->pr_euid, curpsinfo->pr_egid, $uid); }",
        "-c", "runas 1000:50 /bin/credcheck -p")
    assert status == 0, err
    assert "uid=1000 euid=1000 gid=50 egid=50" in lines, lines
    assert "1000 50 1000 50 0" in lines, lines
