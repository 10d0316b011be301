#!/usr/bin/env python3
"""bench_proc.py - the process figures, in guest instructions under -icount.

Boots the guest under `-icount shift=0,align=off,sleep=off` (1 ns of guest
time = 1 instruction) through tools/dtrace and reads what the timing
programs print (the fastest of their rounds):

  getpid_round_trip           /bin/getpids, no probe enabled
  getpid_other_probe_enabled  the same with syscall::write:entry enabled: a
                              call whose probes are disabled pays nothing
  getpid_entry_empty          syscall::getpid:entry { }
  getpid_entry_count          syscall::getpid:entry { @ = count(); }
  fork_exec_exit_wait         /bin/spawnbench: fork, exec /bin/true, exit, wait
                              (copy-on-write fork)
  fork_exec_exit_wait_nocow   the same booted with nocow: fork copies every page
  munmap_local                /bin/munmapbench on 2 CPUs: munmap of one touched
                              page that no other CPU has loaded
  munmap_shootdown            the same page when CPU 1 still has the process's
                              tables loaded: one cross-call (TLB shootdown)

Writes build/bench/proc.json (make bench merges it into build/bench.json).
"""

import json
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DTRACE = os.path.join(ROOT, "tools", "dtrace")


def run(args, pattern, cpus=1, append=""):
    env = dict(os.environ, SONDE_ICOUNT="1", SONDE_TIMEOUT="300", SONDE_CPUS=str(cpus),
               SONDE_APPEND=append)
    r = subprocess.run([DTRACE] + args, capture_output=True, text=True, timeout=330, env=env)
    m = re.search(pattern, r.stdout)
    if m is None:
        raise RuntimeError("%s: no %r in %r %r" % (args, pattern, r.stdout[-300:], r.stderr[-300:]))
    return int(m.group(1))


def main():
    per_call = r"getpid: (\d+) ns per call"
    figures = {
        "getpid_round_trip": run(["--shell", "/bin/getpids"], per_call),
        "getpid_other_probe_enabled": run(["-q", "-n", "syscall::write:entry { }", "-c",
                                           "/bin/getpids"], per_call),
        "getpid_entry_empty": run(["-q", "-n", "syscall::getpid:entry { }", "-c", "/bin/getpids"],
                                  per_call),
        "getpid_entry_count": run(["-q", "-n", "syscall::getpid:entry { @ = count(); }", "-c",
                                   "/bin/getpids"], per_call),
        "fork_exec_exit_wait": run(["--shell", "/bin/spawnbench"],
                                   r"fork\+exec\+exit\+wait: (\d+) ns"),
        "fork_exec_exit_wait_nocow": run(["--shell", "/bin/spawnbench"],
                                         r"fork\+exec\+exit\+wait: (\d+) ns", append="nocow"),
        "munmap_local": run(["--shell", "/bin/munmapbench"],
                            r"munmap: (\d+) ns without a shootdown", cpus=2),
        "munmap_shootdown": run(["--shell", "/bin/munmapbench"],
                                r"munmap: (\d+) ns with a shootdown", cpus=2),
    }
    out = {"value": figures, "unit": "guest instructions (-icount)",
           "note": "getpid: per round trip; disabled syscall probes cost +0 when "
                   "getpid_other_probe_enabled == getpid_round_trip"}
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "proc.json"), "w") as f:
        json.dump(out, f, indent=2, sort_keys=True)
    for k, v in figures.items():
        print("%-28s %d" % (k, v))
    return 0


if __name__ == "__main__":
    sys.exit(main())
