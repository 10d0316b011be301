"""vmstat (userland/shell/shell_stats.c): the machine's counters in the
columns of Solaris's vmstat(1M) that Sonde counts, the header once, a row
since boot and one per interval.

- the layout: two header lines, then COUNT rows of nine numbers;
- r counts the threads waiting to run: two spinning workloads on one CPU
  keep at least one waiting;
- free is the free memory `mem` reports (KiB);
- mf counts the copy-on-write faults of fork (/bin/proccheck forks), in
  counts the interrupts, cs the switches; us+sy+id is 100;
- bad arguments get the usage line.
"""

import re

HEADER = (" kthr     memory  page            faults       cpu\n"
          " r         free    mf    in    sy    cs  us sy id\n")


def rows(out):
    body = out[len(HEADER):] if out.startswith(HEADER) else None
    assert body is not None, out
    parsed = [list(map(int, line.split())) for line in body.splitlines()]
    assert all(len(r) == 9 for r in parsed), out
    return parsed


def test_vmstat_rows(guest):
    r = rows(guest.run("vmstat"))
    assert len(r) == 1
    assert sum(r[0][6:]) in (99, 100, 101), r             # rounded percentages
    guest.run("run spin; run spin")
    r = rows(guest.run("vmstat 1 3"))
    assert len(r) == 3
    assert all(row[0] >= 1 for row in r[1:]), r          # a spinner always waits
    assert all(row[5] > 0 and row[3] > 0 for row in r[1:]), r   # switches, interrupts
    assert all(row[7] >= 90 for row in r[2:]), r          # the spinners are kernel threads


def test_vmstat_free_and_faults(guest):
    mem = guest.run("mem")
    free_kib = int(re.search(r"(\d+) KiB free", mem).group(1))
    boot = rows(guest.run("vmstat"))[0]
    assert abs(boot[1] - free_kib) <= 256, (boot, mem)
    for _ in range(3):                        # about 14 copy-on-write and other faults each
        assert guest.run("/bin/proccheck > /tmp/pc.out; /bin/grep failed /tmp/pc.out") == "0 failed\n"
    since_boot = rows(guest.run("vmstat"))[0]
    assert since_boot[2] >= 1 and since_boot[2] > boot[2], (boot, since_boot)
    assert since_boot[4] >= 1, since_boot     # proccheck's system calls


def test_vmstat_usage(guest):
    for bad in ("vmstat 0", "vmstat x", "vmstat 1 0", "vmstat 1 2 3"):
        assert guest.run(bad).strip() == "usage: vmstat [INTERVAL [COUNT]]", bad
