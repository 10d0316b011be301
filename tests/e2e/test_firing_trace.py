"""tools/firing_trace.py: one probe firing, single-stepped under gdb.

The tool's numbers feed docs/providers.md, so check that it traces what it
says: a whole firing from the trap to the resumed code, through the probe
path, with every instruction attributed to one function.
"""
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
TOOL = os.path.join(ROOT, "tools", "firing_trace.py")

pytestmark = pytest.mark.skipif(shutil.which("gdb") is None, reason="needs gdb (make deps)")


def trace(*args):
    p = subprocess.run([sys.executable, TOOL] + list(args), cwd=ROOT, capture_output=True,
                       text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    m = re.match(r"(\d+) instructions from the trap at (\S+) to the resumed code", lines[0])
    assert m, p.stdout
    per = {}
    for line in lines[1:]:
        f = re.match(r"\s+(\d+)\s+(\S+)$", line)
        if f:
            per[f.group(2)] = int(f.group(1))
    path = next(l for l in lines if l.startswith("path: "))[6:].split(" > ")
    return int(m.group(1)), per, path, lines


def test_fbt_entry_count_is_one_whole_firing():
    # Jump-optimised (the default): bench_fbt's jmp, its stub, the trampoline,
    # the framework, and back through the stub's copy of the prologue; no trap.
    total, per, path, _ = trace("fbt::bench_fbt:entry { @ = count(); }")
    assert sum(per.values()) == total
    assert path[0] == "bench_fbt" and path[1] == "fbt_jstub" and path[2] == "fbt_jump_tramp"
    for f in ("fbt_fire_entry", "dtrace_probe_frame"):
        assert f in per, path
    # The lean clause machine (trace/lean.c): a keyless count() without a
    # predicate is one add to the cached value, with no clause walk and no
    # hash lookup; a predicate or a key takes the lean count path instead.
    for f in ("ecb_fire", "ecb_fire_lean", "ecb_fire_lean_count", "dtrace_agg_find"):
        assert f not in per, path
    # ... done in dtrace_probe_frame's fast loop itself (trace/probe.c), no call further.
    for f in ("probe_fire_more", "probe_fire_count", "dtrace_fire_rest"):
        assert f not in per, path
    assert "prov_isa_trap" not in per and not any(f.startswith("trap_stub") for f in per), path
    assert path[-1] == "fbt_jstub"        # the displaced instructions, then the jump back
    assert per["bench_fbt"] == 1          # only the jmp: the function's own body is not counted
    assert 50 < total < 2000


def test_fbt_entry_trap_path():
    # Booted with nofbtjump: from the trap (the int3 at bench_fbt) through the framework and back.
    total, per, path, _ = trace("--append", "nofbtjump", "fbt::bench_fbt:entry { @ = count(); }")
    assert sum(per.values()) == total
    assert path[0] == "bench_fbt" and path[1].startswith("trap_stub_3")
    for f in ("prov_isa_trap", "fbt_invop", "dtrace_probe_frame"):
        assert f in per, path
    assert path[-1] == "fbt_ool"          # the replayed first instruction, then the jump back
    assert per["bench_fbt"] == 1
    jtotal, _, _, _ = trace("fbt::bench_fbt:entry { @ = count(); }")
    assert jtotal < total                 # the jump path costs less, even counted in instructions
    _, kper, kpath, _ = trace("fbt::bench_fbt:entry { @[arg0 % 7] = count(); }")
    # one native key: the fast loop's probe_fire_keyed, no firing state, no key buffer
    assert "probe_fire_keyed" in kper and "dtrace_agg_word" in kper, kpath
    assert "dtrace_fire_rest" not in kper and "ecb_fire_lean_count" not in kper, kpath
    assert "ecb_fire" not in kper and "dtrace_agg_find" not in kper, kpath


def test_predicate_costs_more_and_calls_out_of_the_region():
    # A predicate interpreted (jit=0) runs DIF in dif_emulate: the trace must
    # not stop there, only when bench_fbt resumes.  Through the JIT (the
    # default) the same predicate runs in the JIT's code area instead, and
    # costs less than the interpreter.  `argN OP constant` alone is compared
    # by the fast loop itself (probe_fire_cmp): no native code called.
    base, _, _, _ = trace("fbt::bench_fbt:entry { @ = count(); }")
    pred = "fbt::bench_fbt:entry /arg0 + 1 == 123456789/ { @ = count(); }"
    total, per, path, _ = trace("#pragma D option jit=0\n" + pred)
    assert "dif_emulate" in per and "ecb_fire" in per       # no JIT: the general clause machine
    assert path[-1] == "fbt_jstub"
    assert total > base
    jtotal, jper, jpath, _ = trace(pred)
    assert "dif_emulate" not in jper and "dif_jit_area" in jper
    assert "probe_fire_count" in jper and "dtrace_fire_rest" not in jper, jpath   # the fast loop
    assert jpath[-1] == "fbt_jstub"
    assert jtotal < total
    ctotal, cper, cpath, _ = trace("fbt::bench_fbt:entry /arg0 == 123456789/ { @ = count(); }")
    assert "probe_fire_cmp" in cper and "dif_jit_area" not in cper, cpath
    assert ctotal < jtotal


def bench_fbt_ret():
    """The address (hex) of bench_fbt's ret, its return probe's site, from the disassembly."""
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", os.path.join(ROOT, "build", "kernel.elf")],
                         capture_output=True, text=True, check=True).stdout
    body = out[out.index("<bench_fbt>:"):]
    body = body[:body.index("\n\n")]
    return re.search(r"([0-9a-f]+):\s+ret", body).group(1)


def test_listing_and_return_site():
    # bench_fbt's ret: the return probe's site, found from the disassembly.
    ret = bench_fbt_ret()
    total, per, path, lines = trace("--append", "nofbtjump", "--listing", "--at", "0x" + ret,
                                    "fbt::bench_fbt:return { }")
    assert "fbt_invop" in per and "fbt_ool" not in per   # a return is replayed by the trap
    listed = [l for l in lines if re.match(r"\s+[0-9a-f]{16}\s", l)]
    assert len(listed) == total
    assert listed[0].split()[0] == ret.rjust(16, "0")


def test_fbt_return_jump_is_one_whole_firing():
    # Jumps on (the default), bench_fbt's return site (lea; ret, then padding)
    # is a jmp on the ret into its stub: the stub, the return trampoline,
    # the framework, and the trampoline's ret back into the caller; no trap.
    ret = bench_fbt_ret()
    total, per, path, _ = trace("--at", "0x" + ret,
                                "fbt::bench_fbt:return { @ = count(); }")
    assert sum(per.values()) == total
    assert path[0] == "bench_fbt" and path[1] == "fbt_jstub" and path[2] == "fbt_jump_rtramp", path
    for f in ("fbt_fire_return", "dtrace_probe_frame"):
        assert f in per, path
    assert "prov_isa_trap" not in per and "fbt_invop" not in per, path
    assert path[-1] == "fbt_jump_rtramp"  # its ret is the function's
    assert per["bench_fbt"] == 1          # only the jmp
    assert 50 < total < 2000


def test_sdt_without_arguments_takes_the_lean_call():
    # bench_sdt's site has no arguments: armed as a call to sdt_isa_tramp0
    # (no register file), then sdt_fire_noargs and the framework's fast loop.
    total, per, path, _ = trace("--at", "bench_sdt", "--cmd", "bench_calls sdt 10",
                                "sdt:::bench-site { @ = count(); }")
    assert sum(per.values()) == total
    assert path[:4] == ["bench_sdt", "sdt_isa_tramp0", "sdt_fire_noargs", "dtrace_probe_frame"], path
    assert "sdt_fire_regs" not in per and "sdt_isa_tramp" not in per, path
    assert not any(f.startswith("trap_stub") for f in per), path
