#!/usr/bin/python3
"""tools/mem_soak.py: do N dtrace runs in one boot give all their memory back?

    tools/mem_soak.py [--runs N] [--cpus C] [--arch sparc64] [--slack PCT]

Boots one guest (tools/dtrace --shell) and runs `dtrace -q -n 'BEGIN {
exit(0); }'` N times (default 300).  One run first warms the caches that stay
(the D library, CTF), then `mem` gives the baseline; after each hundred runs
a `sleep 1` lets freed heap ranges through their TLB epoch (kernel/kheap.c)
and `mem` reads free memory again.  Prints one line per hundred:

    runs  free KiB  vs baseline

and exits 1 if any reading is more than PCT percent (default 1) below the
baseline, 2 if the guest did not print every reading.  `make check` runs 300
(tests/e2e/test_mem.py); `make soak` runs 10,000 on 4 CPUs and 1,000 on
sparc64.  Host only; Python 3 standard library only.
"""

import argparse
import os
import re
import sys
from importlib.machinery import SourceFileLoader

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
RUN = "dtrace -q -n 'BEGIN { exit(0); }' > /dev/null"
FREE = re.compile(r"^physical: \d+ KiB total, (\d+) KiB free", re.M)


def command_line(runs):
    """The guest's shell line: warm-up, baseline, then each hundred and a reading."""
    parts = [RUN, "sleep 1", "mem"]
    done = 0
    while done < runs:
        n = min(100, runs - done)
        parts += [RUN] * n + ["sleep 1", "mem"]
        done += n
    return "; ".join(parts)


def soak(runs, cpus, arch, timeout):
    """tools/dtrace --shell LINE, loaded as a module (LINE is too long for an argv):
    the free KiB readings and (status, output)."""
    os.environ["SONDE_CPUS"] = str(cpus)
    if arch:
        os.environ["SONDE_ARCH"] = arch
    tool = SourceFileLoader("sonde_dtrace_tool", os.path.join(ROOT, "tools", "dtrace")).load_module()
    status, out, err = tool.run_captured(["--shell", command_line(runs)], timeout)
    text = (out + err).decode("latin-1") if isinstance(out, bytes) else out + err
    return [int(m) for m in FREE.findall(text)], (status, text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=300)
    ap.add_argument("--cpus", type=int, default=1)
    ap.add_argument("--arch", default="")
    ap.add_argument("--slack", type=float, default=1.0, help="percent of the baseline")
    args = ap.parse_args()
    timeout = 120 + args.runs * (2 if args.arch else 1)
    free, r = soak(args.runs, args.cpus, args.arch, timeout)
    want = 1 + (args.runs + 99) // 100
    print("%d runs on %d CPU(s)%s; baseline %s KiB free" %
          (args.runs, args.cpus, " (%s)" % args.arch if args.arch else "",
           free[0] if free else "?"))
    worst = 0.0
    for i, f in enumerate(free[1:], 1):
        drop = 100.0 * (free[0] - f) / free[0]
        worst = max(worst, drop)
        print("%6d  %8d KiB  %+8d KiB (%.3f %%)" % (min(i * 100, args.runs), f, f - free[0], -drop))
    if len(free) != want:
        print("mem_soak: %d of %d readings (guest status %d)\n%s" %
              (len(free), want, r[0], r[1][-2000:]))
        return 2
    if worst > args.slack:
        print("mem_soak: free memory fell %.3f %% below the baseline (at most %.2f %%)" %
              (worst, args.slack))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
