#!/usr/bin/python3
"""bench_sparc64.py - sparc64's figures beside x86_64's: boot, and fbt's probe effect.

The paper's two ways into a probe, measured in one unit: FBT on x86_64
traps (an int3 over the function's first byte; the handler emulates the
displaced instruction) where it cannot jump (a return probe, a short
prologue; entry probes jump to a trampoline where that is safe,
arch/x86_64/fbt_jump.c), on sparc64 it never traps (a `ba,a` to a
per-probe trampoline that calls into the framework and then runs the
displaced instruction).  Both guests run under `-icount shift=0,align=off,sleep=off`,
where one guest instruction is one nanosecond of guest time, so each
figure is a count of guest instructions:

  x86_64: the TSC counts one a nanosecond: one tick is one instruction.
  sparc64: %tick counts at 100 MHz: one tick is 10 instructions (the
           loop's count over CALLS calls makes that 1/1000 of one per call).

The guest side is tests/kernel/prov_bench.c: `bench_calls plain|fbt|sdt N`
times N calls of x * 3 + 1 with interrupts off (plain: NOTRACE, no probe
site; fbt: probes on it; sdt: one SDT site in it).  Figures per call
("added" = minus plain):

  plain             the call, nothing compiled in
  fbt_disabled      fbt probes on the function, none enabled: +0 on both
  fbt_entry_count   fbt::bench_fbt:entry { @ = count(); }
  fbt_return_count  fbt::bench_fbt:return { @ = count(); }
  sdt_disabled      the disabled SDT site (a nop on both)
  sdt_count         sdt:::bench-site { @ = count(); }: a trap on both machines
  traps             probe traps per call (bench_calls counts them; sparc64's
                    fbt takes none)

Boot: boot_icount_insns, guest instructions from reset to the shell
(bootstat's "ns since reset" under shift=0: firmware included -- on sparc64
OpenBIOS runs about 1.1 billion of them before the kernel's first; two boots
differ by less than 0.1%, so both are kept); and
boot_wall_s, wall seconds from starting QEMU to the `sonde# ` prompt at the
default -icount shift=4 of tools/sparc64_run.sh (median of 3; depends on the
host and its load).

Writes build/bench/sparc64.json (make bench merges it into build/bench.json)
and prints the table.  Reproduce: make ARCH=sparc64 && python3 tools/bench_sparc64.py
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys

from bench_guest import until

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CALLS = 10000
S64_TICK_INSNS = 10          # %tick at 100 MHz, 1 instruction a ns at shift=0

CASES = [
    # name, bench_calls argument, D program (None: no consumer)
    ("plain", "plain", None),
    ("fbt_disabled", "fbt", None),
    ("fbt_entry_count", "fbt", "fbt::bench_fbt:entry { @ = count(); }"),
    ("fbt_return_count", "fbt", "fbt::bench_fbt:return { @ = count(); }"),
    ("sdt_disabled", "sdt", None),
    ("sdt_count", "sdt", "sdt:::bench-site { @ = count(); }"),
]
BENCH_LINE = re.compile(r"bench_calls: \w+ \d+ calls (\d+) ticks (\d+) traps")


def command_line(calls):
    parts = []
    for _, fn, prog in CASES:
        run = "bench_calls %s %d" % (fn, calls)
        parts.append(run if prog is None else "dtrace -q -n '%s' -c '%s'" % (prog, run))
    return "; ".join(parts)


def run_cases(arch, calls):
    """{case: (instructions per call, traps per call)} from one boot of arch."""
    env = dict(os.environ, SONDE_TIMEOUT="600")
    if arch == "sparc64":
        env.update(SONDE_ARCH="sparc64", SONDE_ICOUNT_SHIFT="0")
        scale = S64_TICK_INSNS
    else:
        env.update(SONDE_ARCH="", SONDE_ICOUNT="1")
        scale = 1
    p = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "dtrace"), "--shell",
                        command_line(calls)], cwd=ROOT, env=env, capture_output=True,
                       timeout=660)
    out = p.stdout.decode(errors="replace")
    found = BENCH_LINE.findall(out)
    if p.returncode != 0 or len(found) != len(CASES):
        raise RuntimeError("%s guest (status %d):\n%s%s" % (arch, p.returncode, out,
                                                             p.stderr.decode(errors="replace")))
    return {name: (round(int(t) * scale / calls, 2), round(int(n) / calls, 2))
            for (name, _, _), (t, n) in zip(CASES, found)}


def qemu_sparc64(kernel, shift, append):
    return ["qemu-system-sparc64", "-M", "sun4u", "-m", "256M", "-vga", "none", "-display", "none",
            "-no-reboot", "-icount", "shift=%d,align=off,sleep=off" % shift, "-serial", "stdio",
            "-monitor", "none", "-kernel", kernel, "-append", append]


def since_reset(seen):
    m = re.search(rb"bootstat: \d+ cycles, (\d+) ns since reset", seen)
    return int(m.group(1)) if m else None


def boot_figures(kernel, runs):
    i1 = until(qemu_sparc64(kernel, 0, "bootstat"), since_reset, 300)[0]
    i2 = until(qemu_sparc64(kernel, 0, "bootstat"), since_reset, 300)[0]
    walls = [until(qemu_sparc64(kernel, 4, ""), lambda s: b"sonde# " in s or None, 300)[1]
             for _ in range(runs)]
    return {"boot_icount_insns": {"value": i1, "repeatable": i1 == i2, "runs": [i1, i2]},
            "boot_wall_s": {"value": round(statistics.median(walls), 3),
                            "runs": [round(w, 3) for w in walls]}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--kernel", default=os.path.join(ROOT, "build", "sparc64", "kernel.elf"))
    ap.add_argument("--calls", type=int, default=CALLS)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()

    s64 = run_cases("sparc64", args.calls)
    x86 = run_cases("x86_64", args.calls)
    boot = boot_figures(args.kernel, args.runs)
    added = {arch: {k: round(v[0] - cases["plain"][0], 2) for k, v in cases.items() if k != "plain"}
             for arch, cases in (("x86_64", x86), ("sparc64", s64))}
    result = {
        "command": "python3 tools/bench_sparc64.py",
        "icount": "shift=0,align=off,sleep=off (1 guest instruction = 1 ns)",
        "calls": args.calls,
        "insns_per_call": {"x86_64": {k: v[0] for k, v in x86.items()},
                           "sparc64": {k: v[0] for k, v in s64.items()}},
        "added_insns_per_call": added,
        "traps_per_call": {"x86_64": {k: v[1] for k, v in x86.items()},
                           "sparc64": {k: v[1] for k, v in s64.items()}},
        "boot": boot,
        "value": {"sparc64_fbt_entry_count_added": added["sparc64"]["fbt_entry_count"],
                  "x86_64_fbt_entry_count_added": added["x86_64"]["fbt_entry_count"],
                  "sparc64_fbt_disabled_added": added["sparc64"]["fbt_disabled"],
                  "sparc64_boot_icount_insns": boot["boot_icount_insns"]["value"],
                  "sparc64_boot_wall_s": boot["boot_wall_s"]["value"]},
    }
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "sparc64.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("fbt, x86_64 (entry and return: a jump where safe, else int3) beside sparc64 (ba,a trampolines): guest instructions "
          "per call (-icount shift=0; %d calls)" % args.calls)
    print("  %-18s %24s %24s" % ("", "x86_64", "sparc64"))
    for name, _, _ in CASES:
        cell = []
        for arch, cases in (("x86_64", x86), ("sparc64", s64)):
            v, traps = cases[name]
            extra = "" if name == "plain" else " (%+g)" % added[arch][name]
            cell.append("%g%s, %g traps" % (v, extra, traps))
        print("  %-18s %24s %24s" % (name, cell[0], cell[1]))
    b = boot["boot_icount_insns"]
    print("  sparc64 boot, reset to the shell: %s guest instructions in two boots; %.2f s wall "
          "to the prompt (shift=4, median of %d)" % (" and ".join(str(r) for r in b["runs"]),
                                                     boot["boot_wall_s"]["value"], args.runs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
