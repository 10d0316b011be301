#!/usr/bin/python3
"""bench_pred.py - host instructions for one predicate evaluation, as Sonde compiles it.

Runs build/host/dlang/pred_ir (tools/pred_ir.c) under callgrind: it compiles
`fbt::f:entry /arg0 > 100 && arg1 != 0/ { }` with Sonde's D compiler and
evaluates the predicate N times through the DIF interpreter (both
comparisons taken).  The figure is dif_emulate's inclusive Ir divided by N:
host instructions per evaluation, the call included; and the same for the
predicate translated by the DIF JIT (pred_jit_run's inclusive Ir / N).  The target:
<= 80 Ir (2x uBPF's JIT).  Writes build/bench/pred.json.

Reproduce: make pred-bench  (or python3 tools/bench_pred.py)
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
N = 100000
PRED = "arg0 > 100 && arg1 != 0"


def measure(exe, func, extra):
    """Inclusive Ir of func over N evaluations, divided by N; and pred_ir's line."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        run = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out,
                              exe, str(N), PRED] + extra, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("bench_pred: pred_ir failed:\n" + run.stdout + run.stderr)
        ann = subprocess.run(["callgrind_annotate", "--inclusive=yes", out],
                             capture_output=True, text=True, check=True).stdout
    m = re.search(r"^\s*([\d,]+)\s.*\b%s\b" % func, ann, re.M)
    if not m:
        sys.exit("bench_pred: no %s line in callgrind's output" % func)
    return int(m.group(1).replace(",", "")) / N, run.stdout.strip()


def main():
    exe = os.path.join(ROOT, "build", "host", "dlang", "pred_ir")
    ir, info = measure(exe, "dif_emulate", [])
    jit_ir, _ = measure(exe, "pred_jit_run", ["jit"])
    ninsns = int(re.search(r": (\d+) DIF instructions", info).group(1))
    result = {"command": "python3 tools/bench_pred.py", "predicate": PRED,
              "dif_instructions": ninsns, "host_ir_per_evaluation": round(ir, 1),
              "host_ir_per_evaluation_jit": round(jit_ir, 1), "target_ir_max": 80}
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", "pred.json"), "w") as f:
        json.dump(result, f, indent=2)
        f.write("\n")
    print("predicate /%s/ on the host (callgrind): %d DIF instructions, "
          "%.1f Ir per evaluation interpreted, %.1f Ir translated by the JIT"
          % (PRED, ninsns, ir, jit_ir))
    return 0


if __name__ == "__main__":
    sys.exit(main())
