"""The dtrace command line as dtrace(1M) defines it: probe descriptions for
-n/-P/-m/-f/-i, options (-x and their errors), flags, operands and macro
arguments, interpreter files, flowindent.

Each test boots one guest through tools/dtrace and runs several command
lines in it (--shell), then checks standard output and standard error
exactly: the messages are DTrace's (libdtrace's wording, no "line 1:" for
command-line programs, descriptions filled out as the flag says).
"""

import os

from test_dtrace_host import dtrace, shell

TIMEOUT = 90


def lines(text):
    return text.splitlines()


def test_probe_descriptions():
    status, out, err = shell(
        "dtrace -m nosuchmod; dtrace -f 12; dtrace -P a:b; dtrace -n 'int x;';"
        " dtrace -i 99999; dtrace -n nosuch:::; dtrace -P nosuch;"
        " dtrace -qf 'spin_round{ exit(0); }' -c 'spin 1'; dtrace -i 1 -n 'BEGIN{exit(0)}';"
        " dtrace -Z -f nosuchfunc'{ trace(1); }' -n 'BEGIN{ exit(0); }'",
        timeout=TIMEOUT)
    assert lines(err)[:7] == [
        "dtrace: invalid probe specifier nosuchmod: probe description :nosuchmod:: does not match any probes",
        "dtrace: invalid probe specifier 12: probe identifier 12 not permitted when specifying functions",
        "dtrace: invalid probe specifier a:b: invalid probe description \"a:b\": Overspecified probe description",
        "dtrace: invalid probe specifier int x;: syntax error near \"x;\"",
        "dtrace: invalid probe specifier 99999: invalid probe identifier 99999: No such process",
        "dtrace: invalid probe specifier nosuch:::: probe description nosuch::: does not match any probes",
        "dtrace: invalid probe specifier nosuch: probe description nosuch::: does not match any probes",
    ]
    # -i 1 is dtrace:::BEGIN with the default action
    assert "dtrace: description '1' matched 1 probe" in err
    assert "dtrace: description 'nosuchfunc' matched 0 probes" in err     # -Z
    assert "  0      1                           :BEGIN \n" in out


def test_surplus_operand_and_macros():
    status, out, err = shell(
        "dtrace -n 'BEGIN{exit(0)}' surplus;"
        " dtrace -q -n 'BEGIN{printf(\"%s %d\\n\", $$1, $2); exit(0)}' hello -x quiet 41;"
        " dtrace -x defaultargs -qn 'BEGIN{printf(\"[%s] %d\\n\", $$3, $4); exit(0)}';"
        " dtrace -qn 'BEGIN{trace($5)}';"
        " dtrace -x argref -qn 'BEGIN{exit(0)}' unused;"
        " dtrace -c 'spin 1' -qn 'BEGIN{printf(\"%d\\n\", $target > 0); exit(0)}';"
        " dtrace -qn 'BEGIN{trace($target)}'",
        timeout=TIMEOUT)
    assert lines(err) == [
        "dtrace: invalid probe specifier BEGIN{exit(0)}: extraneous argument 'surplus' ($1 is not referenced)",
        "dtrace: invalid probe specifier BEGIN{trace($5)}: macro argument $5 is not defined",
        "dtrace: invalid probe specifier BEGIN{trace($target)}: macro variable $target is not defined",
    ]
    assert lines(out) == ["hello 41", "", "[] 0", "", "", "1", ""]


def test_options():
    status, out, err = shell(
        "dtrace -x nosuchopt=1 -n BEGIN; dtrace -x bufsize=4q -n BEGIN; dtrace -b 1x -n BEGIN;"
        " dtrace -x version=9.9 -n BEGIN; dtrace -x defaultargs=1 -n BEGIN;"
        " dtrace -X q -n BEGIN; dtrace -x cpu=7 -n BEGIN;"
        " dtrace -x switchrate=10hz -x aggrate=1ms -b 64k -x quiet=yes -x quiet=no"
        " -x version=1.0 -x bufpolicy=fill -n 'BEGIN{exit(0)}'",
        timeout=TIMEOUT)
    assert lines(err) == [
        "dtrace: failed to set -x nosuchopt: Invalid option name",
        "dtrace: failed to set -x bufsize: Invalid value for specified option",
        "dtrace: failed to set -b 1x: Invalid value for specified option",
        "dtrace: failed to set -x version: Requested version is not supported by compiler",
        "dtrace: failed to set -x defaultargs: Invalid value for specified option",
        "dtrace: failed to set -X q: Invalid value for specified option",
        "dtrace: could not enable tracing: cpu 7 is not online (CPUs 0 to 0)",
        "dtrace: description 'BEGIN' matched 1 probe",
    ]


def test_rawbytes_and_cpu():
    status, out, err = shell(
        "dtrace -x rawbytes -qn 'BEGIN{trace(\"hi\"); exit(0)}' -x strsize=16;"
        " dtrace -x cpu=0 -qn 'profile-97{@[cpu] = count();} tick-1{exit(0)}'"
        " -x aggsortkey; echo ok; dtrace -x stackindent=3 -qn 'BEGIN{stack(1); exit(0)}'",
        env={"SONDE_CPUS": "2"}, timeout=TIMEOUT)
    assert lines(out)[:4] == [
        "",
        "             0  1  2  3  4  5  6  7  8  9  a  b  c  d  e  f  0123456789abcdef",
        "         0: 68 69 00 00 00 00 00 00 00 00 00 00 00 00 00 00  hi..............",
        "",
    ]
    # only CPU 0's profile probe fired: one aggregation key, 0
    body = lines(out)
    ok = body.index("ok")
    agg = [l.split() for l in body[4:ok] if l.strip()]
    assert [k for k, v in agg] == ["0"]
    # stackindent: the frame starts after 3 blanks, not 14
    frame = body[ok + 2]
    assert frame.startswith("   kernel`") and not frame.startswith("    "), body


def test_flags():
    status, out, err = shell(
        "dtrace -y; dtrace -n; dtrace -p 12345 -n BEGIN; dtrace -A; dtrace -a; dtrace -32 -n BEGIN;"
        " dtrace -h; dtrace -G -s /scripts/hello.d; dtrace -V; dtrace",
        timeout=TIMEOUT)
    e = lines(err)
    assert e[0] == "dtrace: illegal option -- y"
    assert e[1].startswith("Usage: dtrace [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz]")
    assert "dtrace: option requires an argument -- n" in e
    for msg in ["dtrace: failed to grab pid 12345: No such process",
                "dtrace: failed to save anonymous enabling: Sonde has no persistent storage "
                "(tools/dtrace -A saves it on the host)",
                "dtrace: could not enable tracing: No anonymous tracing state",
                "dtrace: failed to initialize dtrace: Module and program data models do not match",
                "dtrace: -h requires one or more scripts",
                "dtrace: -G makes no object file in Sonde: a program's probe table travels in "
                "the program (its sonde_usdt section); build it with the header of dtrace -h"]:
        assert msg in e
    assert out.startswith("dtrace: Sun D 1.13\n")     # -V: the newest version offered


def test_p_grabs_a_running_process():
    # -p PID: $target is that process, tracing ends when it exits, and it is
    # let go, not killed (the first process of a fresh guest is pid 1).
    status, out, err = shell(
        "/bin/sleep 2 & dtrace -q -p 1 -n 'proc:::exit /pid == $target/ "
        "{ printf(\"exit of %s %d\\n\", execname, pid == $target); } END { printf(\"end\\n\"); }'",
        timeout=TIMEOUT)
    assert (status, out, err) == (0, "[1] 1\nexit of sleep 1\nend\n\n", "")   # job 1, pid 1


def test_interpreter_file(tmp_path):
    script = tmp_path / "interp.d"
    script.write_text("#!/usr/sbin/dtrace -qs\n"
                      "BEGIN { printf(\"%s %d\\n\", $$1, $2); exit(0); }\n")
    assert dtrace(str(script), "there", "7", timeout=TIMEOUT) == (0, "there 7\n\n", "")
    # through -s, the "#!" line is only a comment: -q does not apply
    status, out, err = dtrace("-s", str(script), "there", "7", timeout=TIMEOUT)
    assert status == 0 and "  0      1                           :BEGIN there 7\n" in out


def test_flowindent(tmp_path):
    script = tmp_path / "flow.d"
    script.write_text("int on, done;\n"
                      "fbt::spin_round:entry /!on && !done/ {}\n"
                      "fbt::spin_round:entry /!on && !done/ { on = 1; }\n"
                      "fbt::spin_block:entry, fbt::spin_block:return /on && !done/ {}\n"
                      "fbt::spin_round:return /on && !done/ { done = 1; exit(0); }\n")
    status, out, err = dtrace("-F", "-c", "spin 1", "-s", str(script), timeout=TIMEOUT)
    body = [l for l in lines(out) if l.strip()]
    assert status == 0
    assert body[0] == "CPU FUNCTION                                 "
    assert body[1] == "  0  -> spin_round                            "
    assert body[2] == "  0    -> spin_block                          "
    assert body[3] == "  0    <- spin_block                          "
    assert body[-1] == "  0  <- spin_round                            "


def test_c_kills_a_program_blocked_on_the_console():
    # dtrace ends first: the child it created is killed even while it sleeps
    # in a console read (it used to wait there until input came).
    status, out, err = shell(
        "dtrace -q -n 'tick-200ms { exit(0); }' -c /bin/cat; echo after",
        timeout=TIMEOUT)
    assert (status, out.splitlines()[-1:], err) == (0, ["after"], "")


def test_probe_ids():
    """-i: 0 and ids no probe has are invalid identifiers; one past 32 bits
    exceeds the maximum; one past 64 bits is the lexer's overflow; -l -i
    lists the probe of an id, once however often it is named."""
    status, out, err = shell(
        "dtrace -l -i 0; dtrace -l -i 4294967296; dtrace -l -i 99999999999999999999999;"
        " dtrace -l -i 1 -i 1; dtrace -qi '1 /1/ { printf(\"ok\\n\"); exit(0); }'",
        timeout=TIMEOUT)
    assert lines(err) == [
        "dtrace: invalid probe specifier 0: invalid probe identifier 0: No such process",
        "dtrace: invalid probe specifier 4294967296: identifier 4294967296 exceeds maximum probe id",
        "dtrace: invalid probe specifier 99999999999999999999999: constant 99999999999999999999999"
        " results in integer overflow",
    ]
    head = "   ID   PROVIDER            MODULE                          FUNCTION NAME"
    begin = "    1     dtrace                                                     BEGIN"
    assert lines(out) == [head, begin, "ok", ""]


def test_version_binding():
    """-V names the newest D version; -x version= binds a program to an
    older one, where later functions are undefined; bad versions are
    libdtrace's errors."""
    status, out, err = shell(
        "dtrace -V; dtrace -x version=1.0 -n 'BEGIN { trace(substr(\"ab\", 1)); }';"
        " dtrace -x version=1.1 -qn 'BEGIN { printf(\"%s\\n\", substr(\"ab\", 1)); exit(0); }';"
        " dtrace -x version=0.9 -n BEGIN; dtrace -x version=1.x -n BEGIN;"
        " dtrace -x version=1.0 -x version=1.1 -n BEGIN",
        timeout=TIMEOUT)
    assert lines(out) == ["dtrace: Sun D 1.13", "b", ""]
    assert lines(err) == [
        "dtrace: invalid probe specifier BEGIN { trace(substr(\"ab\", 1)); }:"
        " undefined function name: substr",
        "dtrace: failed to set -x version: Requested version is not supported by compiler",
        "dtrace: failed to set -x version: Version is not properly formatted or is too large",
        "dtrace: failed to set -x version: Requested version conflicts with earlier setting",
    ]
