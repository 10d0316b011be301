"""dtrace -o FILE and the freopen() action (console/dtrace/dtc_ofile.c).

-o appends the consumer's standard output to FILE, creating it; freopen()
sends what follows to another file and freopen("") brings it back; errors
stay on standard error; system()'s command keeps dtrace's own standard
output.  One guest for the console checks, tools/dtrace for the statuses.
"""

import os
import subprocess

from conftest import ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
AGG = "BEGIN { @c[\"a\"] = count(); @c[\"b\"] = count(); @c[\"b\"] = count(); exit(0); }"


MATCHED = "dtrace: description 'BEGIN ' matched 1 probe\n"


def test_o_file_gets_what_the_console_would(guest):
    console = guest.run("dtrace -n '%s'" % AGG)
    assert console.startswith(MATCHED) and "  b  " in console, console
    console = console[len(MATCHED):]
    # only the error stream reaches the console; the file holds the rest, appended
    assert guest.run("dtrace -o /tmp/agg -n '%s'" % AGG) == MATCHED
    assert guest.run("cat /tmp/agg") == console
    assert guest.run("dtrace -o /tmp/agg -n '%s'" % AGG) == MATCHED
    assert guest.run("cat /tmp/agg") == console + console
    # -l's listing too
    listing = guest.run("dtrace -l -n 'syscall::write:entry'")
    assert guest.run("dtrace -o /tmp/list -l -n 'syscall::write:entry'") == ""
    assert guest.run("cat /tmp/list") == listing
    # system() keeps dtrace's standard output, not -o's file
    out = guest.run("dtrace -qw -o /tmp/sys -n 'BEGIN { system(\"echo from-system\"); "
                    "printf(\"traced\\n\"); exit(0); }'")
    assert out.strip() == "from-system", out
    assert guest.run("cat /tmp/sys").strip() == "traced"
    assert guest.run("df").startswith("/tmp: 3 files")


def test_freopen_switches_and_comes_back(guest):
    out = guest.run("dtrace -qw -n 'BEGIN { printf(\"one\\n\"); freopen(\"/tmp/f%d\", 7); "
                    "printf(\"two\\n\"); system(\"echo sys\"); freopen(\"\"); printf(\"three\\n\"); "
                    "freopen(\"/tmp\"); printf(\"four\\n\"); exit(0); }'")
    assert out.splitlines() == ["one", "three", "dtrace: failed to freopen to /tmp: Is a directory",
                                "four", ""], out
    # freopen's file is appended to, and a freopen()'d system() writes there too
    assert guest.run("cat /tmp/f7") == "two\nsys\n"
    # under -o, freopen("") comes back to -o's file
    assert guest.run("dtrace -qw -o /tmp/base -n 'BEGIN { printf(\"a\\n\"); freopen(\"/tmp/other\"); "
                     "printf(\"b\\n\"); freopen(\"\"); printf(\"c\\n\"); exit(0); }'") == ""
    assert guest.run("cat /tmp/base") == "a\nc\n\n"
    assert guest.run("cat /tmp/other") == "b\n"
    # ftruncate() empties the output file and writes on from its start; on the console it does nothing
    assert guest.run("dtrace -q -o /tmp/t -n 'BEGIN { printf(\"gone\\n\"); ftruncate(); "
                     "printf(\"kept\\n\"); exit(0); }'") == ""
    assert guest.run("cat /tmp/t") == "kept\n\n"
    assert guest.run("dtrace -q -n 'BEGIN { printf(\"a\\n\"); ftruncate(); printf(\"b\\n\"); "
                     "exit(0); }' > /tmp/t2; cat /tmp/t2") == "b\n\n"
    assert guest.run("dtrace -q -n 'BEGIN { printf(\"a\\n\"); ftruncate(); exit(0); }'") == "a\n\n"
    # freopen is destructive
    out = guest.run("dtrace -q -n 'BEGIN { freopen(\"/tmp/x\"); exit(0); }'")
    assert out.strip() == "dtrace: could not enable tracing: Destructive actions not allowed", out


def test_o_full_tmp_stops_with_a_message(guest):
    out = guest.run("dtrace -q -o /tmp/big -n 'profile-1000hz { printf(\"%0800d\\n\", 1); }'",
                    timeout=120)
    assert "dtrace: failed to write to /tmp/big: No space left on device" in out, out
    df = guest.run("/bin/rm /tmp/big; df")
    assert df.splitlines()[0] == "/tmp: 0 files, 0 of 256 pages held", df    # a /disk line may follow


def _shell(line):
    env = {k: v for k, v in os.environ.items() if not k.startswith("SONDE_")}
    r = subprocess.run([TOOL, "--shell", line], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def test_o_unopenable_is_fatal():
    # in the guest (tools/dtrace's own -o writes a host file instead): status 1, nothing run
    assert _shell("dtrace -o /tmp -n 'BEGIN { trace(1); }'") == \
        (1, "", "dtrace: failed to open output file '/tmp': Is a directory\n")
    assert _shell("dtrace -o /bin/x -n 'BEGIN { trace(1); }'") == \
        (1, "", "dtrace: failed to open output file '/bin/x': Read-only file system\n")
