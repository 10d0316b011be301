#!/usr/bin/python3
"""bench_smp.py - aggregation throughput with 1, 2 and 4 CPUs.

One spinner thread per CPU calls spin_mix() in a loop; dtrace counts
`fbt::spin_mix:entry { @[cpu] = count(); }` for 2 seconds, keyed by CPU so
that each CPU updates only its own aggregation buffer (nothing shared is
written in probe context).  The figure is firings per second per CPU, and
the ratio of the total to the one-CPU total.  The host has 2 cores and QEMU's
TCG runs a vCPU per host thread: 4 vCPUs cannot show more than about 2x,
and wall-clock rates move with the host's load; quote them as measured.
Writes build/bench/smp.json.  Reproduce: make bench (or tools/bench_smp.py).
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DTRACE = os.path.join(ROOT, "tools", "dtrace")
SECONDS = 2


def run(cpus):
    spinners = "; ".join(["run spin %d" % ((SECONDS + 3) * 1000)] * cpus)
    line = ("%s; dtrace -qn 'fbt::spin_mix:entry { @[cpu] = count(); } tick-%ds { exit(0); }'"
            % (spinners, SECONDS))
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_TIMEOUT="120")
    r = subprocess.run(["/usr/bin/python3", DTRACE, "--shell", line], env=env,
                       capture_output=True, text=True, timeout=180)
    per_cpu = {}
    for m in re.finditer(r"^\s*(\d+)\s+(\d+)\s*$", r.stdout, re.M):
        per_cpu[int(m.group(1))] = int(m.group(2)) / SECONDS
    if not per_cpu:
        raise RuntimeError("no counts from the guest: %r %r" % (r.stdout[-300:], r.stderr[-300:]))
    return per_cpu


def main():
    figures = {}
    base = None
    for cpus in (1, 2, 4):
        per_cpu = run(cpus)
        total = sum(per_cpu.values())
        base = base or total
        figures["cpus_%d" % cpus] = {
            "firings_per_s_total": round(total),
            "firings_per_s_per_cpu": {str(k): round(v) for k, v in sorted(per_cpu.items())},
            "ratio_to_1_cpu": round(total / base, 2),
        }
        print("%d CPU(s): %8.0f firings/s in all, %s per CPU, %.2fx one CPU"
              % (cpus, total, ", ".join("%.0f" % v for _, v in sorted(per_cpu.items())), total / base))
    out = os.path.join(ROOT, "build", "bench", "smp.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump({"aggregation_throughput": figures,
                   "note": "2 host cores: 4 vCPUs cannot scale past ~2x"}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
