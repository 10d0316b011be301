"""tools/dtrace on the host: exit statuses, the two output streams, files
passed into the guest, crash and timeout reports; boot files (ls, cat, bad
archives).

Each test runs tools/dtrace (or QEMU itself, for hand-made boot modules) as
a subprocess and checks its standard output, standard error and exit status
exactly.  tools/dtrace reports the guest's status as its own, 124 for a
timeout and 125 for a crash; QEMU exits 33 + 2 * status for a clean power-off.
"""

import io
import os
import signal
import subprocess
import tarfile
import time

import pytest

from conftest import KERNEL, ROOT, qemu_argv

TOOL = os.path.join(ROOT, "tools", "dtrace")
EXIT_TIMEOUT = 124
EXIT_CRASH = 125
HEADER = "CPU     ID                    FUNCTION:NAME\n"


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def dtrace(*args, env=None, cwd=ROOT, timeout=30):
    """Run tools/dtrace; returns (status, stdout, stderr) as text."""
    full_env = dict(os.environ)
    for k in ("SONDE_BOOT", "SONDE_CPUS", "SONDE_TIMEOUT", "SONDE_ICOUNT", "SONDE_KERNEL",
              "SONDE_EFI_LOADER"):
        full_env.pop(k, None)
    full_env.update(env or {})
    r = subprocess.run([TOOL] + list(args), cwd=cwd, env=full_env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def shell(line, **kw):
    return dtrace("--shell", line, **kw)


# --- streams and statuses -----------------------------------------------------

def test_stdout_carries_only_the_output():
    assert shell("echo hi") == (0, "hi\n", "")       # no banner, no CR


def test_errors_go_to_stderr():
    status, out, err = shell("echo out; cat /no/such/file")
    assert (status, out, err) == (1, "out\n", "cat: /no/such/file: no such file\n")


@pytest.mark.parametrize("line,status", [
    ("echo ok", 0),
    ("sym no_such_symbol_anywhere", 1),
    ("sleep", 2),                       # usage
    ("no-such-command", 111),           # 127, capped by the power-off path at 111
])
def test_shell_statuses(line, status):
    assert shell(line)[0] == status


def test_dtrace_version():
    status, out, err = dtrace("-V")
    assert status == 0 and out.startswith("dtrace: Sun D ") and err == ""


def test_dtrace_hello_exact():
    status, out, err = dtrace("-n", 'BEGIN { printf("hello\\n"); exit(0); }')
    assert status == 0
    # the record's printf output, the record's end, the end-of-run newline
    assert out == HEADER + "  0      1                           :BEGIN hello\n\n\n"
    assert err == "dtrace: description 'BEGIN ' matched 1 probe\n"


def test_dtrace_exit_status_passed_through():
    assert dtrace("-q", "-n", "BEGIN { exit(7); }") == (7, "\n", "")


def test_quoting_survives_the_trip():
    prog = "BEGIN\n{\n\tprintf(\"it's a \\\"test\\\"; #1 $x\\n\");\n\texit(0);\n}"
    assert dtrace("-q", "-n", prog) == (0, "it's a \"test\"; #1 $x\n\n", "")


# --- files passed into the guest ----------------------------------------------

def test_script_path_kept_relative(tmp_path):
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "y.d").write_text("BEGIN { exit(0); }\nBEGIN { }\n")
    status, out, err = dtrace("-s", "x/y.d", cwd=tmp_path)
    assert status == 0
    assert err == "dtrace: script 'x/y.d' matched 2 probes\n"


def test_script_path_kept_absolute(tmp_path):
    script = tmp_path / "abs.d"
    script.write_text("BEGIN { exit(0); }\n")
    status, out, err = dtrace("-s", str(script))
    assert status == 0 and err == "dtrace: script '%s' matched 1 probe\n" % script


def test_compile_error_names_the_script(tmp_path):
    (tmp_path / "bad.d").write_text("BEGIN { trace(; }\n")
    status, out, err = dtrace("-s", "./bad.d", cwd=tmp_path)
    assert status == 1 and out == ""
    assert err.startswith("dtrace: failed to compile script ./bad.d: line 1: ")


def test_builtin_script_library():
    status, out, err = dtrace("-s", "/scripts/hello.d")
    assert status == 0 and out.startswith("hello, world\n") and err == ""


@pytest.mark.parametrize("name", sorted(f for f in os.listdir(os.path.join(ROOT, "scripts"))
                                         if f.endswith(".d")))
def test_library_script_compiles_in_the_guest(name):
    # a tool that traces one process (dtruss.d, procsystime.d) names $target: give it one
    with open(os.path.join(ROOT, "scripts", name)) as f:
        target = ["-c", "/bin/true"] if "$target" in f.read() else []
    status, out, err = dtrace("-e", *target, "-s", "/scripts/" + name)
    assert status == 0 and "failed" not in err, err


def test_ls_and_cat_scripts():
    status, out, err = shell("ls /scripts")
    names = sorted(f for f in os.listdir(os.path.join(ROOT, "scripts")) if f.endswith(".d"))
    assert (status, out.split(), err) == (0, names, "")
    with open(os.path.join(ROOT, "scripts", "hello.d")) as f:
        assert shell("cat /scripts/hello.d") == (0, f.read(), "")


def test_extra_file_and_hidden_cmdline(tmp_path):
    (tmp_path / "notes.txt").write_text("some notes\n")
    status, out, err = dtrace("--file", "notes.txt", "--shell", "cat notes.txt; ls; ls -a",
                              cwd=tmp_path)
    assert err == "" and status == 0
    assert out == "some notes\nbin/\nnotes.txt\nscripts/\nusr/\n.sonde/\nbin/\nnotes.txt\nscripts/\nusr/\n"


def test_output_file_appended_on_the_host(tmp_path):
    out = tmp_path / "o.txt"
    out.write_text("before\n")
    prog = 'BEGIN { printf("traced\\n"); exit(0); }'
    assert dtrace("-qo", str(out), "-n", prog) == (0, "", "")
    assert dtrace("-q", "-o", str(out), "-n", prog) == (0, "", "")
    assert out.read_text() == "before\ntraced\n\ntraced\n\n"
    status, _, err = dtrace("-o", str(tmp_path / "no" / "dir"), "-n", prog)
    assert status == 1 and err.startswith("dtrace: failed to open output file '")


# --- failures are reported, never silent -----------------------------------------

def test_crash_reported():
    status, out, err = shell("crash pagefault")
    assert status == EXIT_CRASH
    assert "page fault" in out
    assert "tools/dtrace: the guest kernel crashed" in err


def test_timeout_reported():
    start = time.monotonic()
    status, out, err = shell("sleep 30", env={"SONDE_TIMEOUT": "1"})
    assert status == EXIT_TIMEOUT and time.monotonic() - start < 10
    assert "timed out after 1 s" in err


def test_ctrl_c_reaches_the_guest():
    p = subprocess.Popen([TOOL, "-q", "-n", 'BEGIN { printf("started\\n"); } END { printf("ended\\n"); }'],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         env=dict(os.environ, SONDE_TIMEOUT="20"))
    try:
        assert p.stdout.readline() == b"started\n"
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        if p.poll() is None:
            p.kill()
    assert (p.returncode, out, err) == (0, b"ended\n\n", b"")


@pytest.mark.parametrize("env,message", [
    ({"SONDE_BOOT": "efi", "SONDE_EFI_LOADER": "/no/such/BOOTX64.EFI"},
     "tools/dtrace: SONDE_BOOT=efi: /no/such/BOOTX64.EFI missing (make esp)"),
    ({"SONDE_BOOT": "floppy"}, "tools/dtrace: SONDE_BOOT=floppy: unknown"),
    ({"SONDE_KERNEL": "/no/such/kernel.elf"}, "tools/dtrace: /no/such/kernel.elf: no such kernel"),
    ({"SONDE_CPUS": "many"}, "tools/dtrace: SONDE_CPUS=many: not a number"),
])
def test_bad_environment(env, message):
    status, out, err = shell("echo hi", env=env)
    assert status == 2 and out == "" and err.startswith(message)


def test_reader_going_away_stops_the_guest():
    p = subprocess.Popen([TOOL, "-l"], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout.readline().split() == [b"ID", b"PROVIDER", b"MODULE", b"FUNCTION", b"NAME"]
    p.stdout.close()                                 # as `tools/dtrace -l | head -1` does
    err = p.stderr.read()
    assert p.wait(timeout=30) in (0, 141) and b"Traceback" not in err


def test_iso_boot_and_smp():
    assert shell("echo via grub", env={"SONDE_BOOT": "iso"}) == (0, "via grub\n", "")
    assert shell("echo two", env={"SONDE_CPUS": "2"}) == (0, "two\n", "")


EFI_LOADER = os.path.join(ROOT, "build", "efi", "BOOTX64.EFI")


def test_efi_boot_keeps_firmware_messages_out():
    r = subprocess.run(["make", "--no-print-directory", "-s", "build/efi/BOOTX64.EFI"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0 and os.path.exists(EFI_LOADER), "building the loader:\n" + r.stdout
    # OVMF and the loader print on both serial ports before the kernel runs.
    status, out, err = shell("echo via uefi; cat /no/such/file",
                             env={"SONDE_BOOT": "efi", "SONDE_TIMEOUT": "60"}, timeout=90)
    assert (status, out, err) == (1, "via uefi\n", "cat: /no/such/file: no such file\n")


# --- boot modules made by hand ------------------------------------------------

def boot_with_module(path, line):
    argv = qemu_argv(append='cmd="%s"' % line, extra=["-initrd", str(path)])
    r = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    return r.returncode, r.stdout.decode("latin-1").replace("\r\n", "\n")


def test_cmdfile_missing_is_reported():
    argv = qemu_argv(append="quiet cmdfile=no/such/cmdline")
    r = subprocess.run(argv, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=30)
    assert r.returncode == 33 + 2 * 111                # 127, capped
    assert r.stdout.decode("latin-1") == "cmdfile: no/such/cmdline: no such file\r\n"


def good_tar(path):
    data = b"BEGIN { exit(0); }\n"
    with tarfile.open(path, "w", format=tarfile.USTAR_FORMAT) as tar:
        info = tarfile.TarInfo("m/ok.d")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return path.read_bytes()


@pytest.mark.parametrize("damage,reason", [
    (lambda b: b"Z" + b[1:], "bad header checksum at offset 0"),
    (lambda b: b[:600], "truncated"),
    (lambda b: b[:512 + 100], "truncated"),
])
def test_bad_tar_module_reported_and_skipped(tmp_path, damage, reason):
    bad = tmp_path / "bad.tar"
    bad.write_bytes(damage(good_tar(tmp_path / "good.tar")))
    code, out = boot_with_module(bad, "ls; cat m/ok.d")
    assert code == 33 + 2 * 1                          # booted; cat failed
    assert "kfile: boot module 0 (initrd, " in out and reason in out and "module skipped" in out
    assert "scripts/\n" in out and "cat: m/ok.d: no such file" in out


def test_good_tar_and_plain_modules(tmp_path):
    good_tar(tmp_path / "good.tar")
    code, out = boot_with_module(tmp_path / "good.tar", "cat m/ok.d")
    assert code == 33 and out.endswith("BEGIN { exit(0); }\n")
    plain = tmp_path / "plain.txt"
    plain.write_bytes(b"just bytes\n")
    code, out = boot_with_module(plain, "cat initrd")
    assert code == 33 and out.endswith("just bytes\n")
