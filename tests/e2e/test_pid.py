"""The pid provider through tools/dtrace -c: listings, a program's own
breakpoint, and a traced process on 4 CPUs that leaves nothing behind.

What these show: `dtrace -l -n 'pid$target:::entry' -c prog` lists one
entry probe per function of the program under pid<PID>, module the
program's name, and nothing else; naming one function exactly lists its
entry, return and one probe per instruction offset; an int3 the program
executes itself still kills it with SIGTRAP while pid probes are enabled;
and on 4 CPUs every call fires once, the program's result is right, and
every page (the scratch page too) is free after it exits.
"""

import os
import re
import subprocess

import pytest


def host_dtrace(*args, cpus=1):
    root = os.path.join(os.path.dirname(__file__), "..", "..")
    r = subprocess.run([os.path.join(root, "tools", "dtrace")] + list(args),
                       capture_output=True, text=True, timeout=150,
                       env=dict(os.environ, SONDE_TIMEOUT="120", SONDE_CPUS=str(cpus)))
    return r.returncode, [l for l in r.stdout.splitlines() if l.strip()], r.stderr


def test_list_entry_probes_of_the_target():
    status, lines, err = host_dtrace("-l", "-n", "pid$target:::entry", "-c", "/bin/pidloop")
    assert status == 0, err
    assert lines[0].split() == ["ID", "PROVIDER", "MODULE", "FUNCTION", "NAME"], lines
    rows = [l.split() for l in lines[1:]]
    assert {r[1] for r in rows} == {rows[0][1]} and re.fullmatch(r"pid\d+", rows[0][1]), rows
    assert {r[2] for r in rows} == {"pidloop"} and {r[4] for r in rows} == {"entry"}, rows
    funcs = {r[3] for r in rows}
    assert {"main", "outer", "inner", "_exit", "atol"} <= funcs, funcs
    assert len(funcs) == len(rows), rows                  # one entry probe per function


def test_list_one_function_gives_its_offsets():
    status, lines, err = host_dtrace("-l", "-n", "pid$target::inner:", "-c", "/bin/pidloop")
    assert status == 0, err
    names = [l.split()[-1] for l in lines[1:]]
    assert sorted(names) == ["0", "4", "entry", "return"], lines   # lea; ret


def test_own_int3_still_kills_with_sigtrap():
    status, lines, err = host_dtrace("-q", "-n", "pid$target::inner:entry { @n = count(); }",
                                     "-n", 'END { printa("calls %@d\\n", @n); }',
                                     "-c", "/bin/pidloop -t 2")
    out = "\n".join(lines) + err
    assert "Trace/breakpoint trap" in out, out
    assert "calls 2" in lines, lines


def test_four_cpus_every_call_and_every_page():
    status, lines, err = host_dtrace(
        "--shell", "dtrace -q -n 'pid$target::inner:entry, pid$target::outer:b "
                   "{ @[probename] = count(); } syscall::exit_group:entry /pid == $target/ "
                   "{ printf(\"status %d\\n\", arg0); }' -c '/bin/pidloop 300'; pmem", cpus=4)
    assert status == 0, err
    assert "status 0" in lines, lines
    counts = dict(l.split() for l in lines if l.startswith("  "))
    assert counts == {"entry": "300", "b": "300"}, lines
    assert lines[-1] == "processes: 0 (0 zombies), 0 pages held", lines


def test_list_usdt_probes():
    status, lines, err = host_dtrace("-l", "-n", "churn$target:::", "-c", "/bin/churn 1")
    assert status == 0, err
    rows = [l.split() for l in lines[1:]]
    assert re.fullmatch(r"churn\d+", rows[0][1]), rows
    assert sorted((r[2], r[3], r[4]) for r in rows) == [("churn", "main", "alloc"),
                                                        ("churn", "main", "free")], rows


def test_malloc_stacks_of_churn():
    status, lines, err = host_dtrace("-n", "pid$target::malloc:entry { @[ustack()] = count(); }",
                                     "-n", "churn$target:::alloc { @a = count(); }",
                                     "-c", "/bin/churn 100")
    assert status == 0, err
    frames = [l.strip() for l in lines if "`" in l]
    assert frames[:2] == ["churn`malloc", frames[1]] and frames[1].startswith("churn`main+0x"), lines
    assert lines[-2].strip() == "100" and lines[-1].strip() == "100", lines


def test_fault_in_a_stepped_instruction_is_reported_at_the_original():
    status, lines, err = host_dtrace("-n", "pid$target::ix_load:entry { }", "-c", "/bin/insns fault")
    out = "\n".join(lines) + err
    assert "Segmentation fault" in out, out
    assert re.search(r"/bin/insns: pid \d+: Segmentation fault at address 0x0, pc 0x[0-9a-f]+ "
                     r"\(ix_load\+0x0\)", out), out


def test_sessions_one_after_another():
    cmd = ("dtrace -q -n 'pid$target::inner:return { @ = sum(arg1); }' -c '/bin/pidloop %d'")
    status, lines, err = host_dtrace("--shell", "; ".join([cmd % 3, cmd % 4, cmd % 5, "pmem"]))
    assert status == 0, err
    sums = [l.strip() for l in lines if l.strip().isdigit()]
    assert sums == ["66", "110", "165"], lines                   # 11 n (n + 1) / 2
    assert lines[-1] == "processes: 0 (0 zombies), 0 pages held", lines


def test_probes_of_an_exited_process_are_gone():
    status, lines, err = host_dtrace(
        "--shell", "dtrace -q -n 'pid$target::inner:entry { @ = count(); }' -c '/bin/pidloop 2'; "
                   "dtrace -l -n 'pid*:::entry'; pmem")
    assert status == 0, err
    assert "2" in [l.strip() for l in lines], lines
    assert not any("inner" in l for l in lines), lines               # listed no more
    assert lines[-1] == "processes: 0 (0 zombies), 0 pages held", lines


TAILCALL_FUNCS = ("main", "atol", "strtol", "_strtol_l.part.0", "outer", "inner")


def tailcall_flow(host_dtrace, *args, **kw):
    """-F over the functions of pidloop 1 that newlib's tail calls link (atol -> strtol -> ...)."""
    descs = []
    for f in TAILCALL_FUNCS:
        descs += ["-n", "pid$target::%s:entry, pid$target::%s:return" % (f, f)]
    status, lines, err = host_dtrace("-F", "-c", "/bin/pidloop 1", *(descs + list(args)), **kw)
    return status, [re.sub(r"^\s*\d+  ", "", l).rstrip() for l in lines[1:]], err   # no CPU column


# atol ends in `jmp strtol` (sparc64: `call strtol; restore`), strtol in a jump to
# _strtol_l.part.0: each return probe fires at the jump, so every entry has its
# return and -F comes back to main's level.
TAILCALL_EXPECT = ["-> main", "  -> atol", "  <- atol", "  -> strtol", "  <- strtol",
                   "  -> _strtol_l.part.0", "  <- _strtol_l.part.0", "  -> outer",
                   "    -> inner", "    <- inner", "  <- outer", "<- main"]


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_tail_calls_fire_return_probes(cpus):
    status, flow, err = tailcall_flow(host_dtrace, cpus=cpus)
    assert status == 0, err
    assert flow == TAILCALL_EXPECT, flow


def test_a_function_of_one_ret_has_entry_and_return():
    # newlib's __malloc_lock is a lone `ret`: its entry and return probes sit
    # on the same instruction and both fire, entry first (before, the return
    # probe was never made: "does not match any probes").
    status, lines, err = host_dtrace(
        "-q", "-n", "pid$target::__malloc_lock:entry, pid$target::__malloc_lock:return "
        "{ printf(\"%s %d\\n\", probename, probename == \"return\" ? arg0 : 0); }",
        "-c", "/bin/hello")
    assert status == 0, err
    events = [l for l in lines if l.startswith(("entry", "return"))]
    assert events and events == ["entry 0", "return 0"] * (len(events) // 2), events
