"""dtrace at the sonde# prompt: runs, listings, errors that leave the kernel
working, Ctrl-C ending a run (END, aggregations, back to the prompt)."""

import re
import time

import pytest

from conftest import BOOT_TIMEOUT, exit_code_for

HEADER = "CPU     ID                    FUNCTION:NAME"
LIST_HEADER = "   ID   PROVIDER            MODULE                          FUNCTION NAME"


def test_hello_at_the_prompt(guest):
    out = guest.run("dtrace -n 'BEGIN { printf(\"hello\\n\"); exit(0); }'")
    assert out == ("dtrace: description 'BEGIN ' matched 1 probe\n"
                   + HEADER + "\n"
                   "  0      1                           :BEGIN hello\n"
                   "\n"
                   "\n"), out


def test_quiet_run_prints_only_its_output(guest):
    out = guest.run("dtrace -q -n 'BEGIN { printf(\"%d-%s\\n\", 6 * 7, \"x\"); exit(0); }'")
    assert out == "42-x\n\n", out


def test_script_from_the_library(guest):
    listing = guest.run("ls /scripts")
    assert "hello.d" in listing, listing
    out = guest.run("dtrace -q -s /scripts/hello.d")
    assert "hello" in out.lower(), out
    assert guest.run("echo still-here").strip() == "still-here"


def test_list_all(guest):
    out = guest.run("dtrace -l")
    lines = out.splitlines()
    assert lines[0] == LIST_HEADER, lines[0]
    assert lines[1] == "    1     dtrace" + " " * 53 + "BEGIN", lines[1]
    assert lines[2].split() == ["2", "dtrace", "END"]
    assert lines[3].split() == ["3", "dtrace", "ERROR"]
    # every row: id, provider, module, function, name in the header's columns
    ids = [int(l[:5]) for l in lines[1:]]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    providers = {l[6:16].strip() for l in lines[1:]}
    assert {"dtrace", "sdt", "profile"} <= providers, providers


def test_list_one_description(guest):
    out = guest.run("dtrace -l -n BEGIN")
    assert out == LIST_HEADER + "\n" + "    1     dtrace" + " " * 53 + "BEGIN\n", out


def test_list_by_provider(guest):
    out = guest.run("dtrace -l -P profile")
    lines = out.splitlines()
    assert lines[0] == LIST_HEADER
    assert len(lines) > 1
    assert all(l.split()[1] == "profile" for l in lines[1:]), out


def test_list_by_function(guest):
    out = guest.run("dtrace -l -f kmalloc")
    rows = [l.split() for l in out.splitlines()[1:]]
    names = sorted((r[1], r[-1]) for r in rows)
    assert ("fbt", "entry") in names and ("fbt", "return") in names, out
    assert all(r[3] == "kmalloc" for r in rows), out


def test_compile_error_leaves_the_kernel_working(guest):
    out = guest.run("dtrace -n 'BEGIN { x = ; }'")
    assert out.startswith("dtrace: invalid probe specifier BEGIN { x = ; }: syntax error"), out
    assert out.count("\n") == 1, out
    assert guest.run("echo alive").strip() == "alive"
    out = guest.run("dtrace -q -n 'BEGIN { printf(\"again\\n\"); exit(0); }'")
    assert out == "again\n\n", out


def test_many_errors_in_a_row(guest):
    for bad in ("dtrace -n 'BEGIN { trace(); }'",
                "dtrace -n 'nosuchprovider:::nosuchprobe { }'",
                "dtrace -x nosuchoption -n 'BEGIN { exit(0); }'",
                "dtrace -s /no/such/file.d",
                "dtrace -n"):
        out = guest.run(bad)
        assert out.startswith("dtrace: ") or out.startswith("usage"), (bad, out)
    out = guest.run("dtrace -q -n 'BEGIN { printf(\"ok\\n\"); exit(0); }'")
    assert out == "ok\n\n", out


def test_runtime_fault_reported_and_kernel_survives(guest):
    out = guest.run("dtrace -q -n 'BEGIN { x = *(int *)0; } BEGIN { printf(\"next\\n\"); exit(0); }'")
    assert ("dtrace: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): "
            "invalid address (0x0) in action #1 at DIF offset") in out, out
    assert "next\n" in out
    assert guest.run("echo alive").strip() == "alive"


def test_repeated_runs_in_one_boot(guest):
    for i in range(5):
        out = guest.run("dtrace -q -n 'BEGIN { a[%d] = %d; printf(\"%%d\\n\", a[%d]); exit(0); }'"
                        % (i, i + 10, i))
        assert out == "%d\n\n" % (i + 10), out


def test_ctrl_c_stops_tracing_and_prints_the_aggregation(guest):
    guest.sendline("dtrace -n 'tick-10ms { @ = count(); }'")
    guest.expect_exact("dtrace: description 'tick-10ms ' matched 1 probe")
    time.sleep(0.5)
    guest.send("\x03")
    guest.wait_prompt()
    out = guest.before.replace("\r\n", "\n")
    m = re.search(r"\n( +)(\d+)\n$", out)          # " %16lld": 17 columns in all
    assert m and int(m.group(2)) > 0, repr(out)
    assert len(m.group(1)) + len(m.group(2)) == 17, repr(out)
    assert guest.run("echo after").strip() == "after"


def test_ctrl_c_runs_end(guest):
    guest.sendline("dtrace -q -n 'tick-10ms { n++; } END { printf(\"end %d\\n\", n > 0); }'")
    time.sleep(1.0)
    guest.send("\x03")
    guest.wait_prompt()
    assert "end 1\n" in guest.before.replace("\r\n", "\n"), repr(guest.before)


def test_ctrl_c_twice_still_returns_to_the_prompt(guest):
    guest.sendline("dtrace -q -n 'tick-10ms { @ = count(); }'")
    time.sleep(0.5)
    guest.send("\x03")
    guest.send("\x03")
    guest.wait_prompt()
    assert guest.run("echo ok").strip() == "ok"


@pytest.mark.parametrize("line,status", [
    ("dtrace -q -n 'BEGIN { exit(3); }'", 3),                      # exit()'s argument
    ("dtrace -q -n 'BEGIN { exit(3); } END { exit(0); }'", 0),     # END's exit() replaces it
    ("dtrace -n 'BEGIN { x = ; }'", 1),                            # a compile error
], ids=["exit_argument", "end_exit_replaces", "compile_error"])
def test_exit_status_from_cmdline(boot, line, status):
    g = boot(append="cmd=\"%s\"" % line)
    out, got = g.output_until_exit(timeout=BOOT_TIMEOUT)
    assert got == exit_code_for(status), (got, out)


def test_ctrl_c_status_is_0(boot):
    g = boot(append="cmd=\"dtrace -q -n 'tick-10ms { @ = count(); }'\"")
    time.sleep(1.0)
    g.send("\x03")
    out, status = g.output_until_exit(timeout=BOOT_TIMEOUT)
    assert status == exit_code_for(0), (status, out)


# ---- Ctrl-C while a flood is printing, on 1, 2 and 4 CPUs ----
# The only time limit is a generous liveness timeout (FLOOD_LIVENESS).

FLOOD_LIVENESS = 90


def flood_guest(boot, cpus, workloads=False):
    g = boot(extra=("-smp", str(cpus)))
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    for w in ("run churn", "run pingpong", "run spin") if workloads else ():
        g.run(w)
    return g


def start_flood(g, line):
    g.sendline(line)
    g.expect_exact("matched", timeout=FLOOD_LIVENESS)
    g.expect(r":(entry|return)", timeout=FLOOD_LIVENESS)    # printing has begun
    time.sleep(0.5)


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ctrl_c_ends_a_flood_at_the_prompt(boot, cpus):
    # The consumer is not traced by its own enablings, so it no longer
    # feeds the flood with its own printing and Ctrl-C is heard at once.
    g = flood_guest(boot, cpus)
    start_flood(g, "dtrace -n 'fbt:::'")
    g.send("\x03")
    g.wait_prompt(timeout=FLOOD_LIVENESS)
    assert g.run("echo alive").strip() == "alive"


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_a_second_ctrl_c_stops_the_printing(boot, cpus):
    # With workloads, what one drain took can take minutes to print; the
    # first Ctrl-C stops tracing, the second the printing (as DTrace's).
    g = flood_guest(boot, cpus, workloads=True)
    # A third Ctrl-C: under heavy host load a Ctrl-C byte is now and then
    # lost on its way in (test_ctrl_c_status_is_0 shows it on main too).
    start_flood(g, "dtrace -n 'fbt::: { trace(timestamp); }'")
    for _ in range(3):
        g.send("\x03")
        time.sleep(0.5)
    g.wait_prompt(timeout=FLOOD_LIVENESS)
    g.resync("alive-after-flood", timeout=FLOOD_LIVENESS)   # a late ^C may cancel a line


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ctrl_c_in_a_flood_exits_0(boot, cpus):
    g = boot(append="cmd=\"dtrace -n 'fbt:::'\"", extra=("-smp", str(cpus)))
    g.expect_exact("matched", timeout=BOOT_TIMEOUT)
    g.expect(r":(entry|return)", timeout=FLOOD_LIVENESS)
    time.sleep(1.0)
    g.send("\x03")
    out, status = g.output_until_exit(timeout=FLOOD_LIVENESS)
    assert status == exit_code_for(0), (status, out[-2000:])


@pytest.mark.parametrize("cpus", [1, 2, 4])
def test_ctrl_c_stops_the_c_command(boot, cpus):
    # dtrace -c's command is stopped and reaped when dtrace ends (reproducer 6).
    g = boot(extra=("-smp", str(cpus)))
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    g.sendline("dtrace -q -n 'profile-97 { @ = count(); }' -c spin")
    time.sleep(1.5)
    g.send("\x03")
    g.wait_prompt(timeout=FLOOD_LIVENESS)
    assert "dtrace -c" not in g.run("ps")
