#!/usr/bin/env python3
"""bench_disk.py - the disk figures, in guest instructions under -icount.

Boots the guest under `-icount shift=0,align=off,sleep=off` (1 ns of guest
time = 1 instruction) with a fresh copy of build/disk.img, through
tools/dtrace, and reads what /bin/diskbench prints for reading
/disk/data/lines.txt (300 KB) 4 KiB at a time:

  disk_read_4k                the first pass: every block comes from the
                              virtio disk; the median of 3 boots, since the
                              figure includes the time the CPU idles waiting
                              for the device, which -icount advances by the
                              next timer's deadline and so varies (0.6 to 3
                              million seen)
  cached_read_4k              the fastest later pass: every block is in the
                              buffer cache

What io:::start { @ = count(); } adds per request is the sdt site's
cost with count() (bench_probe_effect.py's sdt_count): io:::start is an
sdt site of the block layer (kernel/blkdev.c) like bench-site, enabled
and fired the same way; a difference of disk_read_4k figures would be lost
in the device time's variation.

Writes build/bench/disk.json (make bench merges it into build/bench.json).
"""

import sys

from bench_guest import measure, save

DISK = r"diskbench: disk read 4KiB: (\d+) ns"
CACHED = r"diskbench: cached read 4KiB: (\d+) ns"


def main():
    disks = sorted(measure(["--shell", "/bin/diskbench"], DISK) for _ in range(3))
    figures = {
        "disk_read_4k": disks[1],
        "cached_read_4k": measure(["--shell", "/bin/diskbench"], CACHED),
    }
    save("disk", figures, "guest instructions (-icount)",
         "a 4 KiB read of an ext2 file: from the disk (median of 3 boots; includes device "
         "wait), from the buffer cache")
    return 0


if __name__ == "__main__":
    sys.exit(main())
