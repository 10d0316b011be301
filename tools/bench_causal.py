#!/usr/bin/env python3
"""bench_causal.py - what causal baggage costs, in guest instructions under -icount.

Boots the guest under `-icount shift=0,align=off,sleep=off` (1 ns of guest
time = 1 instruction) through tools/dtrace (docs/causal.md explains each
figure):

  site_off, site_on      one hand-off site (BAGGAGE_TAKE) while no program
                         uses bag-> / while one does (`run bagbench`)
  wake_absent            a wake-up's hand-off, sites on, waker without baggage
  wake_present           the same with a typical 49-byte baggage (client,
                         request id, a sum) that the wakee already holds
  pipe_present           one pipe write's and one read's hand-offs with it
  queue_present          one work-queue put's and one get's hand-offs
  pack                   `bag->k = arg0` in a clause, beyond an empty clause
  unpack_first           `this->c = first(bag->client)` beyond
                         `this->c = "pingpong"` (the same string store)
  unpack_all             `this->c = bag->client` (all values: one here)
  msg_bytes_typical      bytes of baggage per pipe message (mean) under the
                         typical query below; the quantize is printed too
  msg_bytes_raw          per message when each write packs `bag->bytes = arg2`
                         (raw tuples: Pivot Tracing without pushed-down
                         aggregation; capped at 256 bytes, with drops)
  msg_bytes_sum          the same query with `bag->bytes += arg2` (the sum
                         kept in the baggage)
  pingpong_plain         /bin/pingpong 200 -t: instructions per round trip
  pingpong_self          with the typical query written with self-> (which
                         stays in one thread: what DTrace can do)
  pingpong_bag           with the typical query on bag->:
                           write:entry /first(bag->client) == ""/ { bag->client = execname; }
                           read:return { @[bag->client] = sum(arg0); }
  pingpong_sites_on      the self-> query plus an unfired clause using
                         bag->: the sites on, no baggage anywhere

Writes build/bench/causal.json (make bench merges it into build/bench.json).
"""

import json
import os
import re
import subprocess
import sys

from bench_guest import DTRACE, save

TYPICAL = ('syscall::write:entry /execname == "pingpong" && first(bag->client) == ""/ '
           '{ bag->client = execname; } '
           'syscall::read:return /execname == "pingpong"/ { @[bag->client] = sum(arg0); }')
SELF = ('self string client; '
        'syscall::write:entry /execname == "pingpong" && self->client == ""/ '
        '{ self->client = execname; } '
        'syscall::read:return /execname == "pingpong"/ { @[self->client] = sum(arg0); }')


def run(args, script=None):
    env = dict(os.environ, SONDE_ICOUNT="1", SONDE_TIMEOUT="300", SONDE_CPUS="1")
    path = None
    if script is not None:
        path = os.path.join(os.path.dirname(DTRACE), "..", "build", "bench", "causal-query.dscript")  # not .d: make includes build/*.d
        with open(path, "w") as f:
            f.write(script + "\n")
        args = ["-s", path] + args
    r = subprocess.run([DTRACE] + args, capture_output=True, text=True, timeout=330, env=env)
    return r.stdout


def grab(out, pattern):
    m = re.search(pattern, out)
    if m is None:
        raise RuntimeError("no %r in %r" % (pattern, out[-400:]))
    return int(m.group(1))


def bagbench(clause):
    out = run(["-q", "-n", "sdt:::bagbench-op { %s }" % clause, "-c", "bagbench"])
    return {k: grab(out, r"bagbench: %s (\d+) ns per op" % k)
            for k in ("site", "wake_absent", "wake_present", "pipe_present", "queue_present",
                      "probe")}


def msg_bytes(clauses):
    out = run(["-q", "-c", "/bin/pingpong 20"], clauses +
              " sdt:::baggage-message { @avg = avg(arg0); @q = quantize(arg0); }"
              " END { printa(\"mean %@d\\n\", @avg); printa(@q); }")
    hist = out[out.find("value"):].split("\n\n")[0] if "value" in out else ""
    return grab(out, r"mean (\d+)"), "           " + hist.rstrip()


def pingpong(script):
    return grab(run(["-q", "-c", "/bin/pingpong 200 -t"], script), r"(\d+) ns per round trip")


def main():
    empty = bagbench("")
    packed = bagbench("bag->k = arg0;")
    const = bagbench('this->c = "pingpong";')
    first = bagbench("this->c = first(bag->client);")
    every = bagbench("this->c = bag->client;")
    typical, hist = msg_bytes(TYPICAL)
    raw, _ = msg_bytes('syscall::write:entry /execname == "pingpong"/ { bag->bytes = arg2; }')
    summed, _ = msg_bytes('syscall::write:entry /execname == "pingpong"/ { bag->bytes += arg2; }')
    plain = grab(run(["--shell", "/bin/pingpong 200 -t"]), r"(\d+) ns per round trip")
    figures = {
        "site_off": empty["site"],
        "site_on": packed["site"],
        "wake_absent": packed["wake_absent"],
        "wake_present": packed["wake_present"],
        "pipe_present": packed["pipe_present"],
        "queue_present": packed["queue_present"],
        "pack": packed["probe"] - empty["probe"],
        "unpack_first": first["probe"] - const["probe"],
        "unpack_all": every["probe"] - const["probe"],
        "msg_bytes_typical": typical,
        "msg_bytes_raw": raw,
        "msg_bytes_sum": summed,
        "pingpong_plain": plain,
        "pingpong_self": pingpong(SELF),
        "pingpong_bag": pingpong(TYPICAL),
        "pingpong_sites_on": pingpong(SELF + " BEGIN /0/ { bag->unused = 1; }"),
    }
    save("causal", figures, "guest instructions (-icount); msg_bytes_* in bytes",
         "pack/unpack: per clause beyond the baseline clause; pingpong_*: per round trip")
    print("baggage bytes per message, typical query:\n" + hist)
    return 0


if __name__ == "__main__":
    sys.exit(main())
