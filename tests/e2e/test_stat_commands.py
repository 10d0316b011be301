"""vmstat (console/shell/shell_stats.c): the machine's counters in the
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

HEADER = (" kthr     memory  page  disk            faults       cpu\n"
          " r         free    mf v0    in    sy    cs  us sy id\n")   # the fixture's one disk
HEADER_NO_DISK = (" kthr     memory  page            faults       cpu\n"
                  " r         free    mf    in    sy    cs  us sy id\n")


def rows(out, header=HEADER):
    """The rows, without the disk column (checked: v0's requests per second)."""
    body = out[len(header):] if out.startswith(header) else None
    assert body is not None, out
    parsed = [list(map(int, line.split())) for line in body.splitlines()]
    width = 10 if header == HEADER else 9
    assert all(len(r) == width for r in parsed), out
    return [r[:3] + r[4:] for r in parsed] if width == 10 else parsed


def test_vmstat_disk_column(guest, boot):
    """v0 counts vioblk0's requests per second (the report since boot has the
    mount's and cat's reads); a guest without a disk has no disk column."""
    out = guest.run("/bin/cat /disk/data/lines.txt > /dev/null; vmstat 1 2")
    body = [list(map(int, line.split())) for line in out[len(HEADER):].splitlines()]
    assert out.startswith(HEADER) and len(body) == 2, out
    assert body[0][3] > 0, out              # since boot: the mount's reads and cat's
    g = boot(disk=None)
    g.wait_prompt(timeout=60)
    assert len(rows(g.run("vmstat"), HEADER_NO_DISK)) == 1


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


IOSTAT_X = re.compile(r"^vioblk0 +(\d+\.\d) +(\d+\.\d) +(\d+\.\d) +(\d+\.\d) +0\.0 +(\d+\.\d) "
                      r"+(\d+\.\d) +0 +(\d+)$", re.M)


def test_iostat_counts_the_disk(guest):
    """iostat (shell_stats.c): the plain layout (vioblk0's kps/tps/serv, then
    the cpu columns), and -x's extended statistics: a second of reading
    /disk/data/lines.txt (300 KB, not yet cached) shows reads and KiB read
    per second, and nothing written."""
    out = guest.run("iostat")
    lines = out.splitlines()
    assert re.match(r"^ +vioblk0 +cpu$", lines[0]), out
    assert lines[1].split() == ["kps", "tps", "serv", "us", "sy", "wt", "id"], out
    assert len(lines[2].split()) == 7, out
    assert guest.run("iostat -x 0") .startswith("usage: iostat")
    out = guest.run("/bin/cat /disk/data/lines.txt > /dev/null; iostat -x 1 2")
    tables = out.split("                    extended device statistics\n")
    assert len(tables) == 3, out                  # since boot, then the last second
    m = IOSTAT_X.search(tables[1])
    assert m, out
    rs, ws, krs, kws = (float(m.group(i)) for i in range(1, 5))
    assert rs > 0 and krs >= 300 / 60, m.group(0)   # lines.txt's blocks were read since boot
    m2 = IOSTAT_X.search(tables[2])
    assert m2 and float(m2.group(2)) == 0.0, tables[2]   # the idle second writes nothing
