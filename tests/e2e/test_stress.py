"""The SMP stress campaign through real dtrace command lines, on 4 CPUs.

What the in-kernel stress self-tests (tests/kernel/stress_selftest.c) do
through the consumer interface, done here through `dtrace` at the shell, with
the workloads (spin, churn, pingpong) running: many consumers of every probe
kind one after another, each of which must finish; exact totals where they
are knowable (a workload fires sdt:::queue-put once per message, so records
+ drops = messages); the heap back to where it was once every consumer has
closed and the workloads are killed.  Also the destructive actions' bounds
a chill() flood leaves the kernel responsive and
reports illegal operations; panic() and breakpoint() stop the kernel with
DTrace's message.

Counts here depend on timing (TCG on a shared host), so only what must hold
is asserted; there are no wall-clock thresholds, only generous timeouts.

Environment: SONDE_STRESS_SECONDS (default 0: one round, and the two
longest tests skipped, for `make check`) makes the storms repeat for about
that long (`make stress`); SONDE_STRESS_SKIP=fbt,dynvar,... leaves areas out
(as the self-tests' stress.skip).
"""
import os
import re
import shlex
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KERNEL = os.path.join(ROOT, "build", "kernel.elf")
DTRACE = os.path.join(ROOT, "tools", "dtrace")
CPUS = 4
SECONDS = int(os.environ.get("SONDE_STRESS_SECONDS", "0") or "0")
SKIP = set(filter(None, os.environ.get("SONDE_STRESS_SKIP", "").split(",")))


def guest(cmdline, cpus=CPUS, timeout=240):
    """Run one shell command line in a fresh guest with `cpus` CPUs."""
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_KERNEL=KERNEL, SONDE_TIMEOUT=str(timeout))
    return subprocess.run(["/usr/bin/python3", DTRACE, "--shell", cmdline], env=env,
                          capture_output=True, text=True, errors="replace", timeout=timeout + 60)


def dtrace(args, cpus=CPUS, timeout=120):
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_KERNEL=KERNEL, SONDE_TIMEOUT=str(timeout))
    return subprocess.run(["/usr/bin/python3", DTRACE] + args, env=env,
                          capture_output=True, text=True, errors="replace", timeout=timeout + 60)


def dtrace_line(prog, opts="-q"):
    """A `dtrace` command for the guest's shell (its words quoted as sh does)."""
    return "dtrace %s -n %s" % (opts, shlex.quote(prog))


# Each program ends itself (tick or a bounded workload) and says it finished.
STORM = [
    ("begin-end", 'BEGIN { printf("begin\\n"); } END { printf("end\\n"); } tick-50ms { exit(0); }'),
    ("sdt", "sdt:::kmem-alloc { @a = count(); } sdt:::kmem-free { @f = count(); } tick-100ms { exit(0); }"),
    ("sched", "sched:::on-cpu { @[cpu] = count(); } sched:::off-cpu { @o = count(); } tick-100ms { exit(0); }"),
    ("profile", "profile-997 { @[cpu] = count(); } tick-100ms { exit(0); }"),
    ("tick", "tick-1000hz { @t = count(); } tick-100ms { exit(0); }"),
    ("lockstat", "lockstat:::spin-acquire { @s = count(); } lockstat:::adaptive-acquire { @m = count(); } "
                 "tick-100ms { exit(0); }"),
    ("sysinfo", "sysinfo:::xcalls { @x = count(); } tick-100ms { exit(0); }"),
    ("agg", "sdt:::kmem-alloc { @q = quantize(arg1); @k[arg1 & 63] = count(); } tick-100ms { exit(0); }"),
    ("dynvar", "sched:::on-cpu { self->t = timestamp; } sched:::off-cpu /self->t/ "
               "{ @[cpu] = sum(timestamp - self->t); self->t = 0; } tick-100ms { exit(0); }"),
    ("dynvar", "profile-997 { self->x = 1; } profile-997 { self->x = 0; } tick-500ms { exit(0); }"),
    ("dynvar", "profile-997 { a[cpu] = 1; } profile-997 { a[cpu] = 0; } tick-500ms { exit(0); }"),
    ("spec", "sdt:::kmem-alloc { this->s = speculation(); speculate(this->s); trace(arg1); } "
             "sdt:::kmem-alloc /this->s && (arg1 & 1)/ { commit(this->s); } "
             "sdt:::kmem-alloc /this->s/ { discard(this->s); } tick-100ms { exit(0); }"),
    ("fbt", "fbt::kmalloc:entry { @e = count(); } fbt::kfree:return { @r = count(); } tick-100ms { exit(0); }"),
    ("fbt", "fbt::: { @[cpu] = count(); } tick-100ms { exit(0); }"),      # reproducer 4: twice,
    ("fbt", "fbt::: { @[cpu] = count(); } tick-100ms { exit(0); }"),      # back to back, under load
]


def storm_programs():
    return [(area, prog) for area, prog in STORM if area not in SKIP]


def heap_in_use(text):
    return [int(m) for m in re.findall(r"^heap:\s+(\d+) bytes in use", text, re.M)]


def storm_words(rounds):
    words = []
    for r in range(rounds):
        for i, (area, prog) in enumerate(storm_programs()):
            words.append(dtrace_line(prog))
            words.append("echo finished %d.%d" % (r, i))
    return words


def assert_all_finished(r, rounds):
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    finished = re.findall(r"^finished (\d+)\.(\d+)", r.stdout, re.M)
    assert len(finished) == rounds * len(storm_programs()), r.stdout[-3000:]
    if "begin-end" not in SKIP:
        assert "begin\n" in r.stdout and "end\n" in r.stdout, r.stdout[-3000:]


def test_storm_every_probe_kind_with_workloads():
    # Liveness: with the workloads running (until killed, so all through the
    # storm), every consumer of every probe kind finishes.
    rounds = max(1, SECONDS // 20)
    words = ["run spin", "run churn", "run pingpong"] + storm_words(rounds)
    r = guest("; ".join(words), timeout=240 + 60 * rounds * len(storm_programs()))
    assert_all_finished(r, rounds)


LONG_ONLY = pytest.mark.skipif(SECONDS == 0, reason="make stress only (SONDE_STRESS_SECONDS); "
                               "make check's stress-check covers it in the kernel")


@LONG_ONLY
def test_storm_leaves_no_leak():
    # The heap in use is back to its value once every consumer has closed
    # (no workloads here: their own allocations would move it).  The first
    # consumer is a warm-up (the probes it creates stay).
    rounds = max(1, SECONDS // 40)
    words = storm_words(1) + ["mem"] + storm_words(rounds) + ["mem"]
    r = guest("; ".join(words), timeout=240 + 60 * (rounds + 1) * len(storm_programs()))
    assert_all_finished(r, rounds + 1)
    heap = heap_in_use(r.stdout)
    assert len(heap) == 2, r.stdout[-3000:]
    assert heap[1] == heap[0], "heap in use %d before the storm, %d after" % (heap[0], heap[1])


def test_records_plus_drops_equal_firings():
    # pingpong N sends N messages: sdt:::queue-put fires exactly N times.
    n = 20000
    r = dtrace(["-q", "-x", "bufsize=4k", "-x", "switchrate=100hz",
                "-n", 'sdt:::queue-put { printf("%d\\n", arg1); } sdt:::queue-put { @c = count(); }',
                "-n", 'END { printa("count %@d\\n", @c); }',
                "-c", "run pingpong %d" % n])
    assert r.returncode == 0, r.stderr[-2000:]
    records = len(re.findall(r"^\d+$", r.stdout, re.M))
    drops = sum(int(m) for m in re.findall(r"(\d+) drops? on CPU", r.stderr))
    counted = re.findall(r"^count (\d+)$", r.stdout, re.M)
    assert counted == [str(n)], r.stdout[-500:]
    assert records + drops == n, "%d records + %d drops != %d firings" % (records, drops, n)


@LONG_ONLY
def test_back_to_back_consumers_all_finish():
    # Open/close races from the consumer's side: many short consumers of the
    # same busy probes, one after another, while pingpong keeps them firing.
    k = 8 if SECONDS == 0 else max(8, SECONDS)
    words = ["run pingpong 200000"]
    for i in range(k):
        words.append(dtrace_line("sdt:::queue-put, sdt:::queue-get { @[cpu] = count(); } "
                                 "tick-10ms { exit(0); }"))
        words.append("echo closed %d" % i)
    r = guest("; ".join(words), timeout=240 + 30 * k)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    assert len(re.findall(r"^closed \d+", r.stdout, re.M)) == k, r.stdout[-2000:]


# ---- destructive actions ----

def test_chill_flood_leaves_kernel_responsive():
    r = guest(dtrace_line("profile-4999 { chill(500000000); } tick-2s { exit(0); }", "-w -q")
              + "; " + dtrace_line('BEGIN { printf("alive\\n"); exit(0); }'), timeout=180)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "alive" in r.stdout, r.stdout[-2000:]
    assert re.search(r"error on enabled probe ID 1 \(ID \d+: profile:::profile-4999\): "
                     r"illegal operation in action #1", r.stderr), r.stderr[-2000:]


@pytest.mark.parametrize("action,message", [
    ("panic", r"panic: dtrace: panic action at probe dtrace:::BEGIN \(ecb 0x[0-9a-f]+\)"),
    ("breakpoint", r"dtrace: breakpoint action at probe dtrace:::BEGIN \(ecb 0x[0-9a-f]+\)"),
])
def test_panic_and_breakpoint_stop_the_kernel(action, message):
    r = dtrace(["-w", "-n", "BEGIN { %s(); }" % action], timeout=60)
    assert r.returncode != 0
    assert re.search(message, r.stdout), r.stdout[-2000:]
    assert "the guest kernel crashed" in r.stderr, r.stderr[-2000:]


def test_destructive_needs_w():
    r = dtrace(["-n", "BEGIN { chill(1); }"], timeout=60)
    assert r.returncode == 1
    assert "Destructive actions not allowed" in r.stderr, r.stderr
