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

import sys

from bench_guest import measure, save


def main():
    per_call = r"getpid: (\d+) ns per call"
    figures = {
        "getpid_round_trip": measure(["--shell", "/bin/getpids"], per_call),
        "getpid_other_probe_enabled": measure(["-q", "-n", "syscall::write:entry { }", "-c",
                                             "/bin/getpids"], per_call),
        "getpid_entry_empty": measure(["-q", "-n", "syscall::getpid:entry { }", "-c", "/bin/getpids"],
                                    per_call),
        "getpid_entry_count": measure(["-q", "-n", "syscall::getpid:entry { @ = count(); }", "-c",
                                     "/bin/getpids"], per_call),
        "fork_exec_exit_wait": measure(["--shell", "/bin/spawnbench"],
                                     r"fork\+exec\+exit\+wait: (\d+) ns"),
        "fork_exec_exit_wait_nocow": measure(["--shell", "/bin/spawnbench"],
                                           r"fork\+exec\+exit\+wait: (\d+) ns", append="nocow"),
        "munmap_local": measure(["--shell", "/bin/munmapbench"],
                              r"munmap: (\d+) ns without a shootdown", cpus=2),
        "munmap_shootdown": measure(["--shell", "/bin/munmapbench"],
                                  r"munmap: (\d+) ns with a shootdown", cpus=2),
    }
    save("proc", figures, "guest instructions (-icount)",
         "getpid: per round trip; disabled syscall probes cost +0 when "
         "getpid_other_probe_enabled == getpid_round_trip")
    return 0


if __name__ == "__main__":
    sys.exit(main())
