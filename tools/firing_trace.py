#!/usr/bin/python3
"""firing_trace.py - where the instructions of one probe firing go.

bench_probe_effect.py says how many guest instructions a firing costs; this
says which.  It boots build/kernel.elf under QEMU's gdb stub (-icount, so
nothing else moves), stops at a probe site with a hardware breakpoint, skips
a few warm-up firings, then single-steps one firing from the trap
instruction until the probed code resumes: execution is back outside the
notrace region (linker.ld) with the trap's frame popped.  Every step is one guest instruction.

    python3 tools/firing_trace.py 'fbt::bench_fbt:entry { @ = count(); }'
    python3 tools/firing_trace.py --listing 'fbt::bench_fbt:return { }'
    python3 tools/firing_trace.py --at bench_sdt --cmd 'bench_calls sdt 10' \\
        'sdt:::bench-site { @ = count(); }'
    python3 tools/firing_trace.py --append nofbtjump 'fbt::bench_fbt:entry { }'

Prints the count, the instructions spent in each function (in order of
first arrival) and the path through them; --listing adds every instruction.
Needs gdb.  A firing of a few hundred instructions takes about two seconds;
--max bounds a long one.  Figures agree with bench_probe_effect.py's to the
instruction or two: the trace also counts the displaced instruction the
replay runs, which the plain function runs as well.
"""
import argparse
import bisect
import os
import re
import socket
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def symbols(kernel):
    """Sorted (address, name) of the kernel's text symbols, and all symbols by name."""
    out = subprocess.run(["nm", "-n", kernel], capture_output=True, text=True, check=True).stdout
    text, byname = [], {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) != 3:
            continue
        addr = int(parts[0], 16)
        byname[parts[2]] = addr
        if parts[1] in "tTwW":
            text.append((addr, parts[2]))
    return text, byname


def resolve(spec, byname):
    """SYMBOL, SYMBOL+OFF or a hex address."""
    m = re.fullmatch(r"([A-Za-z_][\w.]*)(?:\+(0x[0-9a-fA-F]+|\d+))?", spec)
    if m:
        if m.group(1) not in byname:
            sys.exit("firing_trace: no symbol %s" % m.group(1))
        return byname[m.group(1)] + (int(m.group(2), 0) if m.group(2) else 0)
    return int(spec, 16)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gdb_script(port, at, skip, lo, hi, limit, log):
    """Stop at the site skip+1 times, then step until the probed code resumes."""
    return "\n".join([
        "set pagination off", "set confirm off",
        "target remote 127.0.0.1:%d" % port,
        "hbreak *0x%x" % at,
    ] + ["continue"] * (skip + 1) + [
        "delete",
        "set $sp0 = $sp",
        "set logging file %s" % log, "set logging overwrite on",
        "set logging redirect on", "set logging enabled on",
        "set $n = 0",
        "while $n < %d" % limit,
        "  stepi",
        "  set $n = $n + 1",
        '  printf "PC %lx\\n", $pc',
        # Back in the probed code: outside the notrace region with the trap's
        # frame gone (probe context may call out of the region, deeper down).
        "  if ($pc < 0x%x || $pc >= 0x%x) && $sp >= $sp0 - 16" % (lo, hi),
        "    loop_break",
        "  end",
        "end",
        "set logging enabled off",
        "kill", "quit", ""])


def disassembly(kernel):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", kernel],
                         capture_output=True, text=True, check=True).stdout
    dis = {}
    for line in out.splitlines():
        m = re.match(r"\s*([0-9a-f]+):\s+(.*)", line)
        if m:
            dis[int(m.group(1), 16)] = m.group(2)
    return dis


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("program", help="the D program (dtrace -n)")
    ap.add_argument("--kernel", default=os.path.join(ROOT, "build", "kernel.elf"))
    ap.add_argument("--at", default="bench_fbt", help="the probe site: SYMBOL[+OFF] or address")
    ap.add_argument("--cmd", default="bench_calls fbt 10", help="what dtrace -c runs")
    ap.add_argument("--skip", type=int, default=3, help="warm-up firings not traced")
    ap.add_argument("--max", type=int, default=20000, help="most instructions stepped")
    ap.add_argument("--listing", action="store_true", help="print every instruction")
    ap.add_argument("--append", default="", help="more kernel options (nofbtjump: fbt entry traps)")
    args = ap.parse_args()

    text, byname = symbols(args.kernel)
    addrs = [a for a, _ in text]
    at = resolve(args.at, byname)
    lo, hi = byname["__notrace_start"], byname["__notrace_end"]
    port = free_port()
    cmd = "dtrace -q -n '%s' -c '%s'" % (args.program, args.cmd)
    qemu = subprocess.Popen(
        ["qemu-system-x86_64", "-display", "none", "-serial", "null", "-no-reboot",
         "-m", "256M", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
         "-icount", "shift=0,align=off,sleep=off", "-bios", "qboot.rom", "-kernel", args.kernel,
         "-append", ('quiet %s cmd="%s"' % (args.append, cmd)).replace("  ", " "), "-gdb", "tcp:127.0.0.1:%d" % port, "-S"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            log = os.path.join(tmp, "steps")
            script = os.path.join(tmp, "gdb")
            with open(script, "w") as f:
                f.write(gdb_script(port, at, args.skip, lo, hi, args.max, log))
            subprocess.run(["gdb", "-nx", "-batch", "-x", script, args.kernel],
                           capture_output=True, timeout=3600)
            pcs = [int(l.split()[1], 16) for l in open(log) if l.startswith("PC ")] \
                if os.path.exists(log) else []
    finally:
        qemu.kill()
        qemu.wait()
    if not pcs:
        sys.exit("firing_trace: the site at 0x%x was never reached (is the probe enabled "
                 "and does --cmd run it?)" % at)
    # The last step is the first instruction of the resumed code: not the firing's.
    # The first instruction, the trap itself, was executed by the first step.
    pcs = [at] + pcs[:-1]
    done = len(pcs) < args.max

    def func(pc):
        i = bisect.bisect_right(addrs, pc) - 1
        return text[i][1] if i >= 0 else "?"

    names = [func(pc) for pc in pcs]
    per, order = {}, []
    for n in names:
        if n not in per:
            order.append(n)
            per[n] = 0
        per[n] += 1
    print("%s%d instructions from the trap at %s to the resumed code"
          % ("" if done else "more than ", len(pcs), args.at))
    for n in sorted(order, key=lambda n: -per[n]):
        print("  %6d  %s" % (per[n], n))
    path = [names[0]]
    for n in names[1:]:
        if n != path[-1]:
            path.append(n)
    print("path: " + " > ".join(path))
    if args.listing:
        dis = disassembly(args.kernel)
        for pc, n in zip(pcs, names):
            print("  %016x  %-24s %s" % (pc, n, dis.get(pc, "?")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
