"""The SunRay replay (docs/labs/sunray.md) on 4 CPUs: each step's conclusion.

Boots a 4-CPU guest, starts a small replay (`/bin/sunray 6 2`: 6 users, 2 of
them with the ticker applet) and runs the lab's steps as a student would:
mpstat, then each script of the library for a second, asserting what the
paper concluded at that step: the top execname of the cross-calls is the
server (xsrv); the top system call it is in when it sends them is munmap;
the top mmap descriptor is /dev/zero's (fd 3, as sunray says) and in a
server whose user runs the applet; the top user stack of those mmaps passes
through pixmap_create; the program most woken after an mmap is the ticker.
Then the fix: kill the applets, and mpstat's cross-calls fall by more than
half.  No wall-clock thresholds: only which key leads, and a ratio.

The full-size replay (16 users, 3 applets, 2-second steps) runs behind
`make sunray-check` (SUNRAY_USERS, SUNRAY_APPLETS, SUNRAY_SECONDS).
"""

import os
import re

CPUS = 4
USERS = int(os.environ.get("SUNRAY_USERS", "6"))
APPLETS = int(os.environ.get("SUNRAY_APPLETS", "2"))
SECONDS = int(os.environ.get("SUNRAY_SECONDS", "1"))
STEP_TIMEOUT = 90          # a loaded 2-core host runs 4 vCPUs slowly


def step(guest, script):
    """Run a library script for SECONDS; its aggregation's lines."""
    out = guest.run("dtrace -q -s /scripts/%s -n 'tick-%ds { exit(0); }'" % (script, SECONDS),
                    timeout=STEP_TIMEOUT)
    assert "dtrace:" not in out, out
    return [l for l in out.splitlines() if l.strip()]


def top_key(lines):
    """The key of the last (largest) row of a printed aggregation."""
    assert lines, "empty aggregation"
    return lines[-1].rsplit(None, 1)[0].split()


def top_stack(lines):
    """The frames of the stack with the largest count in a ustack() aggregation."""
    best, frames, count = None, [], -1
    for l in lines:
        if l.strip().isdigit():
            if int(l) > count:
                best, count = frames, int(l)
            frames = []
        else:
            frames.append(l.strip())
    assert best, lines
    return best


def xcalls_per_second(guest):
    """Cross-calls per second on all CPUs over one mpstat interval."""
    out = guest.run("mpstat %d 2" % SECONDS, timeout=STEP_TIMEOUT)
    tables = out.split("CPU  xcal")
    assert len(tables) == 3, out
    rows = [l.split() for l in tables[2].splitlines()[1:] if l.strip()]
    assert len(rows) == CPUS, out
    return sum(int(r[1]) for r in rows), out


def test_sunray_replay_reaches_the_papers_conclusion(boot):
    g = boot(extra=["-smp", str(CPUS)])
    g.wait_prompt(timeout=60)
    out = g.run("/bin/sunray %d %d" % (USERS, APPLETS), timeout=STEP_TIMEOUT)
    zero_fd = re.search(r"fd (\d+) /dev/zero", out).group(1)
    users = re.findall(r"user +\d+: xsrv pid (\d+), xclient pid \d+(?:, ticker pid (\d+))?", out)
    assert len(users) == USERS, out
    applet_servers = {s for s, t in users if t}
    tickers = [t for s, t in users if t]
    assert len(tickers) == APPLETS, out

    # Step 1: mpstat shows cross-calls.
    before, table = xcalls_per_second(g)
    assert before > 0, table
    # Step 2: the X server sends them.
    assert top_key(step(g, "sunray-2-execname.d")) == ["xsrv"]
    # Step 3: from munmap.
    assert top_key(step(g, "sunray-3-syscall.d")) == ["munmap"]
    # Step 4: mmaps of /dev/zero, most by a server whose user runs the applet.
    pid, fd = top_key(step(g, "sunray-4-mmap.d"))
    assert fd == zero_fd and pid in applet_servers, (pid, fd, applet_servers)
    # Step 5: on the pixmap path.
    stack = top_stack(step(g, "sunray-5-ustack.d"))
    assert "xsrv`pixmap_create" in " ".join(stack), stack
    # Step 6: and the program woken after the mmap is the applet.
    assert top_key(step(g, "sunray-6-wakeup.d")) == ["ticker"]

    # The fix: kill the applets; cross-calls fall by more than half.
    g.run("kill " + " ".join(tickers))
    after, table = xcalls_per_second(g)
    assert after * 2 < before, (before, after, table)
