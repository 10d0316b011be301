"""Every shell command, with good and bad arguments."""

import re


def test_help_lists_every_command(guest):
    out = guest.run("help")
    for cmd in ("crash", "echo", "halt", "help", "kill", "mem", "ps", "reboot",
                "run", "sleep", "sym", "uptime"):
        assert re.search(r"^  %s\b" % cmd, out, re.M), (cmd, out)


def test_help_is_sorted(guest):
    names = re.findall(r"^  (\S+)", guest.run("help"), re.M)
    assert names == sorted(names)


def test_help_for_one_command(guest):
    out = guest.run("help sym")
    assert "usage: sym ADDR|NAME" in out


def test_help_unknown_command(guest):
    assert "help: no such command: frob" in guest.run("help frob")


def test_unknown_command_is_one_line_error(guest):
    out = guest.run("frobnicate now")
    assert out.strip() == "sonde: frobnicate: command not found"


def test_empty_line_just_prompts_again(guest):
    assert guest.run("").strip() == ""
    assert guest.run("   ").strip() == ""


def test_echo_joins_words(guest):
    assert guest.run("echo hello   world").strip() == "hello world"


def test_echo_quoting(guest):
    out = guest.run("echo 'single  quoted' \"double \\\"q\\\"\" back\\ slash")
    assert out.strip() == 'single  quoted double "q" back slash'


def test_semicolons_separate_commands(guest):
    assert guest.run("echo a; echo b;echo c").split() == ["a", "b", "c"]


def test_unterminated_quote_is_a_syntax_error(guest):
    out = guest.run("echo 'oops; echo never")
    assert "syntax error: unterminated single quote" in out
    assert "never" not in out


def test_uptime(guest):
    out = guest.run("uptime")
    m = re.search(r"up (\d+)\.(\d{3}) s \(\d+:\d\d:\d\d\), (\d+) threads", out)
    assert m, out
    assert int(m.group(3)) >= 2


def test_uptime_advances(guest):
    first = float(re.search(r"up (\S+) s", guest.run("uptime")).group(1))
    guest.run("sleep 1")
    second = float(re.search(r"up (\S+) s", guest.run("uptime")).group(1))
    assert 0.9 <= second - first < 10


def test_uptime_rejects_arguments(guest):
    assert "usage: uptime" in guest.run("uptime now")


def test_ps_columns_and_shell_thread(guest):
    out = guest.run("ps")
    lines = out.strip().splitlines()
    assert lines[0].split() == ["UID", "PID", "PPID", "S", "TIME", "COMMAND"]   # no process: the header only
    assert lines[1] == "" and lines[2].split() == ["TID", "NAME", "STATE", "CPU", "TIME"]
    rows = [l.split() for l in lines[3:]]
    assert rows, out
    for row in rows:
        assert row[0].isdigit()
        assert row[-2].isdigit()                      # CPU
        assert re.fullmatch(r"\d+\.\d{3}", row[-1])   # cpu time
    # The thread running ps is running.
    assert any(r[-3] == "running" for r in rows), out


def test_mem_reports_physical_and_heap(guest):
    out = guest.run("mem")
    m = re.search(r"physical: (\d+) KiB total, (\d+) KiB free, (\d+) KiB kernel image", out)
    assert m, out
    total, free, kernel = map(int, m.groups())
    assert 200 * 1024 < total <= 256 * 1024      # -m 256M
    assert 0 < free < total
    assert 0 < kernel < total
    assert re.search(r"heap: +\d+ bytes in use, \d+ pages, \d+ allocs, \d+ frees, \d+ failures",
                     out), out


def test_sym_by_name_then_by_address(guest):
    out = guest.run("sym shell_run_line")
    m = re.search(r"shell_run_line = 0x([0-9a-f]+) \(function, size 0x([0-9a-f]+)\)", out)
    assert m, out
    addr, size = int(m.group(1), 16), int(m.group(2), 16)
    assert addr >= 0xffffffff80000000 and size > 0
    out = guest.run("sym 0x%x" % (addr + 4))
    assert "= shell_run_line+0x4" in out, out


def test_sym_unknown_name(guest):
    assert "sym: no_such_symbol_xyz: no such symbol" in guest.run("sym no_such_symbol_xyz")


def test_sym_unmapped_address(guest):
    assert "sym: no symbol at 0x10" in guest.run("sym 16")


def test_sym_usage(guest):
    assert "usage: sym ADDR|NAME" in guest.run("sym")


def test_kill_usage_and_unknown_tid(guest):
    assert "usage: kill [-SIG] PID" in guest.run("kill")
    assert "kill: abc: arguments must be process ids" in guest.run("kill abc")
    assert "kill: (424242) - No such process" in guest.run("kill 424242")
    assert "kill: 424242: no such thread" in guest.run("kill -t 424242")


def test_sleep_usage(guest):
    assert "usage: sleep SECONDS" in guest.run("sleep")
    assert "usage: sleep SECONDS" in guest.run("sleep soon")


def test_sleep_waits(guest):
    import time
    start = time.time()
    guest.run("sleep 1")
    assert time.time() - start >= 0.9


def test_crash_usage(guest):
    assert "usage: crash" in guest.run("crash")
    assert "usage: crash" in guest.run("crash gently")
