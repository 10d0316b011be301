#!/usr/bin/python3
"""tools/bench_stop.py: how long dtrace takes to end under load.

    tools/bench_stop.py [--cpus 1,4] [--runs 2] [--users 16] [--kernel PATH]

Boots a guest per CPU count, starts the SunRay replay (/bin/sunray USERS 3),
the kernel's pingpong and churn workloads and /bin/pingpong, /bin/churn in
the background, all running on, then times three ways of ending a run:

  exit      dtrace -n 'tick-3s { exit(0); }'
  fbtexit   the same with fbt::: { @[probefunc] = count(); } beside it
  ctrlc     Ctrl-C three seconds into fbt::: { @[probefunc] = count(); }

exit and fbtexit are measured in the guest: the tick clause prints its
timestamp and `uptime` runs right after dtrace on the same line, so the
figure is exit() to the prompt, with no host latency in it.  ctrlc is host
time from sending the Ctrl-C byte to the prompt (it includes the serial
line's way in).  Each figure is in seconds, RUNS of them per case.

Not part of make check (a loaded 2-core host spreads these figures by ten
times); docs/tracing.md ("Ending a run") has a table made with it.
Host only; pexpect (tests/e2e's Guest).
"""

import argparse
import os
import re
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests", "e2e"))
import conftest                                          # noqa: E402  (the Guest class)

EXIT = 'printf("exit at %d\\n", timestamp / 1000000); exit(0);'
FLOOD = "fbt::: { @[probefunc] = count(); }"
CASES = {
    "exit": ("tick-3s { %s }" % EXIT, "exit"),
    "fbtexit": ("%s tick-3s { %s }" % (FLOOD, EXIT), "exit"),
    "ctrlc": (FLOOD, "ctrlc"),
}
SETUP = 300                                              # seconds: boot, load, enable


def boot(kernel, cpus):
    g = conftest.Guest(conftest.qemu_argv(kernel=kernel, extra=["-smp", str(cpus)]))
    g.child.logfile_read = None
    g.wait_prompt(timeout=SETUP)
    return g


def load(g, users):
    g.run("/bin/sunray %d 3" % users, timeout=SETUP)
    for line in ("run pingpong", "run churn", "/bin/pingpong 1000000000 &",
                 "/bin/churn 1000000000 &"):
        g.run(line, timeout=SETUP)


def end_by_exit(g, prog):
    out = g.run("dtrace -n '%s'; uptime" % prog, timeout=SETUP)
    at = int(re.search(r"exit at (\d+)", out).group(1)) / 1000.0
    return float(re.search(r"up ([\d.]+) s", out).group(1)) - at


def end_by_ctrl_c(g, prog):
    g.sendline("dtrace -n '%s'" % prog)
    g.expect(r"matched \d+ probes?", timeout=SETUP)
    time.sleep(3)
    t0 = time.time()
    g.send("\x03")
    g.wait_prompt(timeout=SETUP)
    return time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cpus", default="1,4")
    ap.add_argument("--runs", type=int, default=2)
    ap.add_argument("--users", type=int, default=16)
    ap.add_argument("--kernel", default=conftest.KERNEL)
    ap.add_argument("--cases", default=",".join(CASES))
    a = ap.parse_args()
    print("%-9s %4s  %s" % ("case", "cpus", "seconds from exit()/Ctrl-C to the prompt"))
    for case in a.cases.split(","):
        prog, how = CASES[case]
        for cpus in map(int, a.cpus.split(",")):
            g = boot(a.kernel, cpus)
            try:
                load(g, a.users)
                runs = [end_by_exit(g, prog) if how == "exit" else end_by_ctrl_c(g, prog)
                        for _ in range(a.runs)]
            finally:
                g.close()
            print("%-9s %4d  %s" % (case, cpus, "  ".join("%.2f" % r for r in runs)), flush=True)


if __name__ == "__main__":
    main()
