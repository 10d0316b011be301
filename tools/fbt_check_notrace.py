#!/usr/bin/python3
"""fbt_check_notrace.py - is everything probe context calls out of fbt's reach?

    tools/fbt_check_notrace.py [build/kernel.elf]

The design rule: everything reachable from probe context is kept out of fbt's
reach, by the notrace region of linker.ld or by fbt_blocklist[] in
trace/prov_fbt.c.  This walks the direct calls and jumps in the kernel's
disassembly (objdump) from the probe-context roots (dtrace_probe,
dtrace_error, prov_isa_trap, profile_fire, and the sdt and fbt call and jump
trampolines sdt_isa_tramp, fbt_jump_tramp, fbt_jump_rtramp) and prints every function it
reaches that lies after __notrace_end and is not on the block list.  Exit
status 1 if there is any.  (Indirect calls are not followed: the DIF
interpreter's are all inside the notrace region.)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOTS = ["dtrace_probe", "dtrace_error", "prov_isa_trap", "profile_fire", "sdt_isa_tramp", "fbt_jump_tramp", "fbt_jump_rtramp"]


def blocklist():
    src = open(os.path.join(ROOT, "trace", "prov_fbt.c")).read()
    body = src[src.index("fbt_blocklist[] = {"):]
    body = body[:body.index("};")]
    return set(re.findall(r'"([^"]+)"', body))


def call_graph(elf):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", elf], capture_output=True,
                         text=True, check=True).stdout
    calls, addr, cur = {}, {}, None
    for line in out.splitlines():
        m = re.match(r"^([0-9a-f]+) <([^>]+)>:", line)
        if m:
            cur = m.group(2)
            addr[cur] = int(m.group(1), 16)
            calls.setdefault(cur, set())
            continue
        m = re.search(r"\s(call|jmp)\s+[0-9a-f]+ <([^>+]+)(\+0x[0-9a-f]+)?>", line)
        if m and cur and m.group(2) != cur:
            calls[cur].add(m.group(2))
    return calls, addr


def main():
    elf = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "kernel.elf")
    calls, addr = call_graph(elf)
    end = addr["__notrace_end"]
    seen, todo = set(), list(ROOTS)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee not in seen:
                seen.add(callee)
                todo.append(callee)
    bad = sorted(f for f in seen if addr.get(f, 0) >= end and f not in blocklist()
                 and not f.startswith("__"))
    for f in bad:
        print("fbt_check_notrace: %s is reachable from probe context but fbt may probe it" % f)
    if not bad:
        print("fbt_check_notrace: probe context stays inside the notrace region and the block list")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
