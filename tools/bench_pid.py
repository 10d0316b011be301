#!/usr/bin/env python3
"""bench_pid.py - the pid provider's figures, in guest instructions under -icount.

Boots the guest under -icount through tools/dtrace (1 ns of guest time = 1
instruction) and reads what /bin/pidbench prints (the fastest of its rounds,
per call of a three-instruction function):

  call_no_probe        pb_push and pb_step with no probe enabled
  entry_count_emulated pid$target::pb_push:entry { @ = count(); }: the
                       displaced `push %rbp` is emulated in the kernel
  entry_count_stepped  pid$target::pb_step:entry { @ = count(); }: the
                       displaced `lea` runs out of line from the scratch page
  step_no_probe        pb_step with no probe (lea; ret)
  usdt_disabled        pb_usdt with no probe: pb_step plus one disabled USDT
                       site (a 5-byte NOP): usdt_disabled - step_no_probe is
                       its cost
  usdt_enabled_count   pidbench$target:::tick { @ = count(); }
  deep_entry_count     pb_deep: 9 frames of recursion, then pb_push with
                       pid$target::pb_push:entry /arg1 == 2/ { @ = count(); }
  deep_entry_ustack    the same keyed by the user stack:
                       { @[ustack(10)] = count(); }: the difference is the
                       cost of ustack() of 10 frames as an aggregation key

Writes build/bench/pid.json (make bench merges it into build/bench.json).
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DTRACE = os.path.join(ROOT, "tools", "dtrace")


def run(args, func):
    env = dict(os.environ, SONDE_ICOUNT="1", SONDE_TIMEOUT="300")
    r = subprocess.run([DTRACE] + args, capture_output=True, text=True, timeout=330, env=env)
    m = re.search(r"%s: (\d+) ns per call" % func, r.stdout)
    if m is None:
        raise RuntimeError("%s: no %s in %r %r" % (args, func, r.stdout[-300:], r.stderr[-300:]))
    return int(m.group(1))


def main():
    probe = "pid$target::%s:entry { @ = count(); }"
    figures = {
        "call_no_probe": run(["--shell", "/bin/pidbench"], "pb_push"),
        "entry_count_emulated": run(["-q", "-n", probe % "pb_push", "-c", "/bin/pidbench"],
                                    "pb_push"),
        "entry_count_stepped": run(["-q", "-n", probe % "pb_step", "-c", "/bin/pidbench"],
                                   "pb_step"),
        "step_no_probe": run(["--shell", "/bin/pidbench"], "pb_step"),
        "usdt_disabled": run(["--shell", "/bin/pidbench"], "pb_usdt"),
        "usdt_enabled_count": run(["-q", "-n", "pidbench$target:::tick { @ = count(); }", "-c",
                                   "/bin/pidbench"], "pb_usdt"),
        "deep_entry_count": run(["-q", "-n", "pid$target::pb_push:entry /arg1 == 2/ "
                                 "{ @ = count(); }", "-c", "/bin/pidbench"], "pb_deep"),
        "deep_entry_ustack": run(["-q", "-n", "pid$target::pb_push:entry /arg1 == 2/ "
                                  "{ @[ustack(10)] = count(); }", "-c", "/bin/pidbench"], "pb_deep"),
    }
    out = {"value": figures, "unit": "guest instructions (-icount) per call",
           "note": "entry_count_* minus call_no_probe is the cost of one pid entry probe "
                   "with count()"}
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "pid.json"), "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
    for k, v in figures.items():
        print("%-28s %d" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
