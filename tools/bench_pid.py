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

import sys

from bench_guest import measure, save


PER_CALL = r"%s: (\d+) ns per call"


def main():
    probe = "pid$target::%s:entry { @ = count(); }"
    deep = "pid$target::pb_push:entry /arg1 == 2/ { %s = count(); }"

    def under(d):
        return ["-q", "-n", d, "-c", "/bin/pidbench"]
    plain = ["--shell", "/bin/pidbench"]
    figures = {
        "call_no_probe": measure(plain, PER_CALL % "pb_push"),
        "entry_count_emulated": measure(under(probe % "pb_push"), PER_CALL % "pb_push"),
        "entry_count_stepped": measure(under(probe % "pb_step"), PER_CALL % "pb_step"),
        "step_no_probe": measure(plain, PER_CALL % "pb_step"),
        "usdt_disabled": measure(plain, PER_CALL % "pb_usdt"),
        "usdt_enabled_count": measure(under("pidbench$target:::tick { @ = count(); }"),
                                      PER_CALL % "pb_usdt"),
        "deep_entry_count": measure(under(deep % "@"), PER_CALL % "pb_deep"),
        "deep_entry_ustack": measure(under(deep % "@[ustack(10)]"), PER_CALL % "pb_deep"),
    }
    save("pid", figures, "guest instructions (-icount) per call",
         "entry_count_* minus call_no_probe is the cost of one pid entry probe with count()")
    return 0


if __name__ == "__main__":
    sys.exit(main())
