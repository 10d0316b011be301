"""bench_guest.py - what the guest-figure scripts (bench_proc.py, bench_pid.py) share.

measure() boots the guest once through tools/dtrace under -icount
(`-icount shift=0,align=off,sleep=off`: 1 ns of guest time = 1 instruction)
and reads one figure, the first group of a regular expression, from what it
printed; save() writes a script's figures to build/bench/NAME.json (make
bench merges them into build/bench.json) and prints them; until() runs a
guest (any QEMU command line) until what it printed says enough.
"""

import json
import os
import re
import select
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
DTRACE = os.path.join(ROOT, "tools", "dtrace")


def measure(args, pattern, cpus=1, append=""):
    env = dict(os.environ, SONDE_ICOUNT="1", SONDE_TIMEOUT="300", SONDE_CPUS=str(cpus),
               SONDE_APPEND=append)
    r = subprocess.run([DTRACE] + args, capture_output=True, text=True, timeout=330, env=env)
    m = re.search(pattern, r.stdout)
    if m is None:
        raise RuntimeError("%s: no %r in %r %r" % (args, pattern, r.stdout[-300:], r.stderr[-300:]))
    return int(m.group(1))


def save(name, figures, unit, note):
    os.makedirs(os.path.join(ROOT, "build", "bench"), exist_ok=True)
    with open(os.path.join(ROOT, "build", "bench", name + ".json"), "w") as f:
        json.dump({"value": figures, "unit": unit, "note": note}, f, indent=2, sort_keys=True)
    for k, v in figures.items():
        print("%-28s %d" % (k, v))


def until(argv, found, timeout, what=None):
    """Run argv until found(output so far) is not None; kill it.

    Returns (that value, wall seconds since the start); raises RuntimeError,
    naming what (or the program), if nothing came within timeout seconds."""
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    seen = b""
    try:
        while time.monotonic() - t0 < timeout:
            r, _, _ = select.select([p.stdout], [], [], 0.5)
            if r:
                chunk = os.read(p.stdout.fileno(), 4096)
                if not chunk:
                    break
                seen += chunk
                value = found(seen)
                if value is not None:
                    return value, time.monotonic() - t0
        raise RuntimeError("%s: nothing within %d s: %r" % (what or argv[0], timeout, seen[-300:]))
    finally:
        p.kill()
        p.wait()
