"""The long campaigns in one 4-CPU guest: sysfuzz eight at once, and the stress mix.

What these show, for as long as asked: eight /bin/sysfuzz processes with
different seeds, run together for SONDE_SYSFUZZ_SECONDS, leave the kernel
alive and every page they held free again (`pmem` exact), and free memory
where it was but for what the kernel heap is known to keep (below); and
the stress mix, for SONDE_MIX_SECONDS: sysfuzz processes, the pingpong and
churn workloads, SunRay users and a pidloop, all running under one dtrace
consumer that enables every provider (fbt:::, sdt:::, sched:::, proc:::,
syscall:::, lockstat:::, sysinfo:::, profile, tick, pid) into aggregations,
ends by itself and prints them; then, everything stopped, the kernel
answers, another consumer runs, and memory is back to its baseline.

Both are opt-in (`make sysfuzz-long`, `make stress-mix`, docs/fuzzing.md);
with the variables unset (as in `make check`) they are skipped.  Each
writes its figures to build/campaign/NAME.txt.  Only what must hold is
asserted: no rates, generous timeouts.

What the heap may keep (kernel/kheap.c): slab pages and page tables
(`mem`'s heap pages count both), and page tables for heap address space
that grew (a page per 2 MiB of `kheap_totals.hs_va_used`, read through
dtrace, if it grew: freed ranges are reused).  Free memory may drop by
those and nothing else; the baseline is taken after a warm-up of the same
load, so most of the slabs already exist.  The
heap's bytes in use must come back exactly after sysfuzz; not after the
mix, whose pid provider never frees a traced process's sites and probe
data (trace/prov_pid.c, "Memory"): about 18 KiB per pidloop traced.
"""
import io
import os
import re
import sys
import time

import pytest

from conftest import BOOT_TIMEOUT, ROOT

SYSFUZZ_SECONDS = int(os.environ.get("SONDE_SYSFUZZ_SECONDS", "0") or "0")
MIX_SECONDS = int(os.environ.get("SONDE_MIX_SECONDS", "0") or "0")
SEED = int(os.environ.get("SONDE_CAMPAIGN_SEED", "1") or "1")
CPUS = 4
NO_PAGES = "processes: 0 (0 zombies), 0 pages held"
HEAP_TABLE_KIB = 2048                      # the heap addresses one page table maps
HEAP_DIR_KIB = 1024 * 1024                 # and one page directory
PAGE_KIB = 4
WARMUP_SECONDS = 10


def mem_figures(text):
    """`mem`'s free KiB, heap bytes in use and heap pages."""
    free = re.search(r"physical: \d+ KiB total, (\d+) KiB free", text)
    heap = re.search(r"heap: +(\d+) bytes in use, (\d+) pages", text)
    assert free and heap, text
    return {"free_kib": int(free.group(1)), "heap_inuse": int(heap.group(1)),
            "heap_pages": int(heap.group(2))}


def last_pid(g):
    """The pid the next process would be near: that of a /bin/true started now."""
    out = g.run("/bin/true &")
    pid = int(re.search(r"\[\d+\] (\d+)", out).group(1))
    g.run("wait", timeout=60)
    return pid


def settle(g, tries=300):
    """Wait until no process holds a page (orphans and zombies gone); `pmem`'s last answer."""
    for _ in range(tries):
        pmem = g.run("pmem", timeout=60).strip()
        if pmem.endswith(NO_PAGES):
            return pmem
        time.sleep(1)
    return pmem


def heap_va_kib(g):
    """The heap's address space in use (kernel/kheap.c's kheap_totals), or None."""
    out = g.run("dtrace -q -n 'BEGIN { printf(\"va %d\\n\", `kheap_totals.hs_va_used); exit(0); }'",
                timeout=120)
    m = re.search(r"^va (\d+)$", out.replace("\r", ""), re.M)
    return int(m.group(1)) // 1024 if m else None


def memory_kept_kib(before, after):
    """The KiB of free memory the heap may keep: new slab pages and page tables."""
    slabs = max(0, after["heap_pages"] - before["heap_pages"])
    if before["heap_va_kib"] is None or after["heap_va_kib"] is None:
        return slabs * PAGE_KIB                   # a heap that reuses its addresses
    grown = max(0, after["heap_va_kib"] - before["heap_va_kib"])
    tables = grown // HEAP_TABLE_KIB + grown // HEAP_DIR_KIB + 2
    return (slabs + tables) * PAGE_KIB


def memory(g):
    figures = dict(heap_va_kib=heap_va_kib(g))
    figures.update(mem_figures(g.run("mem")))
    return figures


def report(name, lines):
    os.makedirs(os.path.join(ROOT, "build", "campaign"), exist_ok=True)
    path = os.path.join(ROOT, "build", "campaign", name + ".txt")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


class Transcript(io.StringIO):
    """Everything the guest prints, kept (background jobs print in the middle of echoed lines)."""

    def write(self, text):
        sys.stdout.write(text)
        return super().write(text)


def booted(boot):
    g = boot(extra=["-smp", str(CPUS)])
    g.child.logfile_read = Transcript()
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    return g


def printed_since(g, mark):
    return g.child.logfile_read.getvalue()[mark:].replace("\r\n", "\n")


def jobs_wait(g, timeout):
    """Poll `jobs` until no job runs (each finished one is said once: Done, Exit N or a signal)."""
    deadline = time.time() + timeout
    while "Running" in g.run("jobs", timeout=120) and time.time() < deadline:
        time.sleep(5)


def sysfuzz_start(g, seeds, seconds):
    for s in seeds:
        g.run("/bin/sysfuzz %d 0 %d &" % (s, seconds))


def sysfuzz_all(g, seeds, seconds, timeout):
    """/bin/sysfuzz SEED 0 seconds for each seed, at once in the background; what they printed."""
    mark = len(g.child.logfile_read.getvalue())
    sysfuzz_start(g, seeds, seconds)
    jobs_wait(g, timeout)
    return printed_since(g, mark)


def sysfuzz_results(out):
    """Each sysfuzz's (calls, seconds) and whether every job ended Done (exit status 0)."""
    results = [(int(n), int(s)) for n, s in re.findall(r"sysfuzz: (\d+) calls in (\d+) s", out)]
    ended = re.findall(r"\[\d+\]\+  (\S+(?: \d+)?) +/bin/sysfuzz", out)
    return results, ended


def memory_line(name, m):
    return ("%s free %d KiB, heap %d bytes in use, %d pages, %s KiB of addresses"
            % (name, m["free_kib"], m["heap_inuse"], m["heap_pages"], m["heap_va_kib"]))


def check_memory(g, before, created, name, lines):
    assert settle(g) == NO_PAGES
    after = memory(g)
    kept = memory_kept_kib(before, after)
    lines += [memory_line("after: ", after),
              "free memory %+d KiB, heap in use %+d bytes, heap pages %+d; %d processes created; "
              "the heap may keep %d KiB" % (after["free_kib"] - before["free_kib"],
                                            after["heap_inuse"] - before["heap_inuse"],
                                            after["heap_pages"] - before["heap_pages"], created, kept)]
    report(name, lines)
    assert before["free_kib"] - kept <= after["free_kib"], lines[-1]
    return after


@pytest.mark.skipif(SYSFUZZ_SECONDS == 0, reason="make sysfuzz-long only (SONDE_SYSFUZZ_SECONDS)")
def test_eight_sysfuzz_for_long_leave_memory_as_found(boot):
    g = booted(boot)
    seeds = [SEED + i for i in range(8)]
    warm = sysfuzz_all(g, [1000 + s for s in seeds], WARMUP_SECONDS, 600)
    assert sysfuzz_results(warm)[1] == ["Done"] * 8, warm
    assert settle(g) == NO_PAGES
    before = memory(g)
    first = last_pid(g)

    start = time.time()
    out = sysfuzz_all(g, seeds, SYSFUZZ_SECONDS, SYSFUZZ_SECONDS * 4 + 600)
    took = time.time() - start
    results, ended = sysfuzz_results(out)
    calls = sum(n for n, s in results)
    lines = ["sysfuzz-long: %d processes (seeds %d..%d), %d CPUs, %d s each, %.0f s of wall time"
             % (len(seeds), seeds[0], seeds[-1], CPUS, SYSFUZZ_SECONDS, took),
             "calls: " + ", ".join(str(n) for n, s in results),
             "total %d calls, %.0f calls/s" % (calls, calls / max(took, 1)),
             memory_line("before:", before)]
    report("sysfuzz-long", lines)
    assert len(results) == 8 and ended == ["Done"] * 8, out[-3000:]
    assert all(s >= SYSFUZZ_SECONDS for n, s in results), results
    assert "0 failed" in g.run("/bin/proccheck", timeout=120)
    created = last_pid(g) - first
    after = check_memory(g, before, created, "sysfuzz-long", lines)
    assert after["heap_inuse"] == before["heap_inuse"], lines[-1]


def mix_program(seconds):
    """One consumer of every provider, into aggregations; ends itself after `seconds`."""
    return " ".join([
        "fbt::: { @fbt[probefunc] = count(); }",
        "sdt::: { @sdt[probename] = count(); }",
        "sdt:::kmem-alloc { @size = quantize(arg1); }",
        "sched::: { @sched[probename, cpu] = count(); }",
        "proc::: { @proc[probename] = count(); }",
        "syscall:::entry { self->ts = timestamp; @sys[execname, probefunc] = count(); }",
        "syscall:::return /self->ts/ { @lat[probefunc] = quantize(timestamp - self->ts); "
        "self->ts = 0; }",
        "lockstat::: { @lock[probename] = count(); }",
        "sysinfo::: { @xc[cpu] = count(); }",
        "profile-997 { @prof[cpu] = count(); }",
        "tick-100 { @ticks = count(); }",
        "pid$target:::entry { @pid[probefunc] = count(); }",
        "tick-%ds { exit(0); }" % seconds,
        'END { trunc(@fbt, 10); trunc(@sys, 10); trunc(@lat, 3); printf("mix: ended\\n"); }',
    ])


def mix_start(g, seeds, seconds):
    """The load: workloads, SunRay users, sysfuzz; (workload tids, user pids)."""
    tids = [re.search(r"tid (\d+)", g.run("run %s" % w)).group(1) for w in ("pingpong", "churn")]
    users = g.run("/bin/sunray 4 1", timeout=120)
    pids = re.findall(r"pid (\d+)", users)
    assert len(pids) == 9, users
    sysfuzz_start(g, seeds, seconds)
    return tids, pids


def mix_stop(g, tids, pids):
    jobs_wait(g, 900)
    g.run("kill -9 " + " ".join(pids))
    for t in tids:
        g.run("kill -t %s" % t)


def mix_run(g, seeds, seconds):
    """The whole mix once; (dtrace's output, sysfuzz's results, how their jobs ended)."""
    mark = len(g.child.logfile_read.getvalue())
    tids, pids = mix_start(g, seeds, seconds)
    prog = mix_program(seconds)
    g.run("dtrace -q -n '%s' -c '/bin/pidloop 1000000000'" % prog, timeout=seconds * 6 + 900)
    dt = printed_since(g, mark)
    mix_stop(g, tids, pids)
    return (dt,) + sysfuzz_results(printed_since(g, mark))


@pytest.mark.skipif(MIX_SECONDS == 0, reason="make stress-mix only (SONDE_MIX_SECONDS)")
def test_stress_mix_every_provider_with_everything_running(boot):
    g = booted(boot)
    seeds = [SEED + 100 + i for i in range(4)]
    warm, _, _ = mix_run(g, [1000 + s for s in seeds], WARMUP_SECONDS)
    assert "mix: ended" in warm, warm[-3000:]
    assert settle(g) == NO_PAGES
    before = memory(g)
    first = last_pid(g)

    start = time.time()
    dt, results, ended = mix_run(g, seeds, MIX_SECONDS)
    took = time.time() - start
    calls = sum(n for n, s in results)
    aggs = {name: len(re.findall(r"^\s+%s\s+\d+$" % name, dt, re.M))
            for name in ("kmem-alloc", "adaptive-acquire", "create", "inner")}
    lines = ["stress-mix: %d CPUs, %d s of tracing, %.0f s of wall time" % (CPUS, MIX_SECONDS, took),
             "sysfuzz: %d processes, calls %s, total %d" % (len(results),
                                                            ", ".join(str(n) for n, s in results),
                                                            calls),
             "dtrace: %d lines of output, rows seen %s" % (len(dt.splitlines()), aggs),
             "dtrace's messages: %s" % sorted(set(re.findall(r"^dtrace: .*$", dt, re.M)))[:8],
             memory_line("before:", before)]
    report("stress-mix", lines)
    assert "mix: ended" in dt, dt[-3000:]
    assert not re.search(r"^dtrace: (?!\d+ (aggregation |dynamic variable )?drops)", dt, re.M), \
        dt[-3000:]
    assert all(aggs.values()), aggs
    assert len(results) == len(seeds) and ended == ["Done"] * len(seeds), (results, ended)
    assert "alive" in g.run("dtrace -q -n 'BEGIN { printf(\"alive\\n\"); exit(0); }'", timeout=120)
    assert "0 failed" in g.run("/bin/proccheck", timeout=120)
    created = last_pid(g) - first
    check_memory(g, before, created, "stress-mix", lines)
