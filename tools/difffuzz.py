#!/usr/bin/python3
"""tools/difffuzz.py: differential fuzzing of tracing, 1 CPU against 4 CPUs.

    tools/difffuzz.py [-n PROGRAMS] [--seed S] [--batch B] [--cpus 1,4]
                      [--dynvars] [--spec] [--exit] [--keep DIR] [--print]

Theory.  A D program whose probes fire a known, CPU-independent set of
times with CPU-independent arguments must print the same aggregations on
one CPU and on four: only the order of rows may differ.  This tool makes
such programs at random, runs each on SONDE_CPUS=1 and SONDE_CPUS=4 through
tools/dtrace, sorts the printed lines and compares them.  A difference, a
hang (tools/dtrace status 124), a crash (125), or any output on standard
error (compile errors, drops, run-time errors: the generator makes none of
those on purpose) is a finding; the program is printed so it can be rerun
by hand.

The probe source is the pingpong workload (`-c 'pingpong N'`): its
producer thread sends the messages 1..N, each once and in order, and its
consumer thread receives them.  The probes used, and the argument that
carries the message number:
    sdt:::queue-put, sdt:::queue-get        arg1          (producer, consumer)
    fbt::pp_send:entry                      arg1          (producer)
    fbt::pp_receive:return                  arg1 & 0xff   (consumer; 1 or 0)
The firing set (which probe, with which value, how many times) does not
depend on the number of CPUs or on scheduling; only the interleaving of the
two threads does, and nothing the programs compute depends on it: keys and
values are functions of the message number, of probe names and of
constants; clause-locals (this->) carry values within a clause; global
scalars are written and read by one thread's probes only (each thread has
its own names), so their values follow that thread's program order.  Not
used: cpu, tid, timestamp and the like, and division by anything but a
nonzero constant.

Switches add the features that today hang or corrupt on 2+ CPUs (issue
13); they are off by default and off in `make check`:
    --dynvars  thread-locals (self->) and associative arrays (per thread)
    --spec     speculation()/speculate()/commit() in producer clauses
    --exit     an exit() flood: every message from N-F on calls exit(); the
               aggregations then only count messages below N-F-2*CAP, which
               both threads have passed before the first exit()

Several programs run in one boot (a --shell line of `echo @@K; dtrace ...`
commands), B per boot; when a boot fails (hang, crash, stderr), its
programs are rerun one per boot to tell which one did it, and a program
whose aggregations differ is rerun alone once, to tell whether the earlier
consumers of the same boot played a part.

Exit status: 0 if every program agreed, 1 if any finding, 2 on bad use.
Host only, Python standard library only; needs build/kernel.elf.
"""

import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DTRACE = os.path.join(ROOT, "tools", "dtrace")
QUEUE_CAP = 8       # WL_QUEUE_CAP, console/workloads/wl_queue.h

# (probe description, thread, expression of the message number, is it one)
PROBES = [
    ("sdt:::queue-put", "p", "arg1", True),
    ("sdt:::queue-get", "c", "arg1", True),
    ("fbt::pp_send:entry", "p", "arg1", True),
    ("fbt::pp_receive:return", "c", "(arg1 & 0xff)", False),
]


class Gen:
    """One random program; its text is .text, its workload size .n."""

    def __init__(self, rng, opts):
        self.rng = rng
        self.opts = opts
        self.n = rng.choice([20, 50, 100, 300, 1000, 2000])
        self.flood = rng.randint(1, 20) if opts.exit else 0
        self.limit = self.n - self.flood - 2 * QUEUE_CAP
        self.aggs = {}              # name -> (function, number of keys)
        self.globals = {"p": [], "c": []}
        self.locals = []
        self.text = self.program()

    # --- expressions -------------------------------------------------------

    def int_expr(self, depth, val, thread):
        r = self.rng
        atoms = [val, str(r.randint(0, 100)), val, "strlen(probename)"]
        atoms += self.locals
        atoms += ["%s" % g for g in self.globals[thread]]
        if self.opts.dynvars:
            atoms += ["self->t%s" % thread]
        if depth <= 0 or r.random() < 0.3:
            return r.choice(atoms)
        k = r.randint(0, 9)
        a = self.int_expr(depth - 1, val, thread)
        b = self.int_expr(depth - 1, val, thread)
        if k <= 3:
            return "(%s %s %s)" % (a, r.choice(["+", "-", "*", "&", "|", "^"]), b)
        if k == 4:
            return "(%s %s %d)" % (a, r.choice(["/", "%"]), r.randint(1, 17))
        if k == 5:
            return "(%s %s %d)" % (a, r.choice(["<<", ">>"]), r.randint(0, 8))
        if k == 6:
            return "(%s %s %s ? %s : %s)" % (a, r.choice(["<", "==", ">=", "!="]), b,
                                           self.int_expr(depth - 1, val, thread),
                                           self.int_expr(depth - 1, val, thread))
        if k == 7:
            return "(-%s)" % a
        if k == 8:
            return "(%s %s %s)" % (a, r.choice(["&&", "||", "^^"]), b)
        return "(%s %% %d + %s)" % (a, r.randint(1, 9), b)

    def key_expr(self, val, thread):
        r = self.rng
        k = r.randint(0, 5)
        if k <= 1:
            return "%s %% %d" % (self.int_expr(2, val, thread), r.randint(1, 16)), "int"
        if k == 2:
            return "probename", "string"
        if k == 3:
            return "probefunc", "string"
        if k == 4:
            return "lltostr(%s %% %d)" % (val, r.randint(1, 10)), "string"
        return ('strjoin(probename, "%s")' % r.choice(["-a", "-b", ""])), "string"

    # --- aggregations -----------------------------------------------------

    def agg_call(self, val, thread):
        r = self.rng
        e = self.int_expr(2, val, thread)
        f = r.choice(["count", "sum", "avg", "min", "max", "stddev", "quantize",
                      "lquantize", "llquantize"])
        if f == "count":
            return f, "count()"
        if f == "lquantize":
            lo = r.randint(-10, 10)
            return f, "lquantize(%s, %d, %d, %d)" % (e, lo, lo + r.randint(10, 200),
                                                   r.randint(1, 10))
        if f == "llquantize":
            return f, "llquantize(%s, 10, 0, 4, 10)" % e
        return f, "%s(%s)" % (f, e)

    def agg_stmt(self, val, thread):
        r = self.rng
        f, call = self.agg_call(val, thread)
        nkeys = r.choice([0, 0, 1, 1, 2])
        # an aggregation keeps one function and one key signature
        for name, (f2, nk2, kinds, call2) in self.aggs.items():
            if f2 == f and nk2 == nkeys and r.random() < 0.3:
                keys = self.keys_of(kinds, val, thread)
                if f == "lquantize":    # the same base, limit and step
                    call = "lquantize(%s, %s" % (self.int_expr(2, val, thread),
                                                 ", ".join(call2.rsplit(", ", 3)[1:]))
                return "@%s%s = %s;" % (name, keys, call)
        keys, kinds = [], []
        for _ in range(nkeys):
            k, kind = self.key_expr(val, thread)
            keys.append(k)
            kinds.append(kind)
        name = "a%d" % len(self.aggs)
        self.aggs[name] = (f, nkeys, kinds, call)
        return "@%s%s = %s;" % (name, "[%s]" % ", ".join(keys) if keys else "", call)

    def keys_of(self, kinds, val, thread):
        if not kinds:
            return ""
        ks = []
        for kind in kinds:
            while True:
                k, kd = self.key_expr(val, thread)
                if kd == kind:
                    break
            ks.append(k)
        return "[%s]" % ", ".join(ks)

    # --- clauses -------------------------------------------------------------

    def clause(self):
        r = self.rng
        probe, thread, val, is_seq = r.choice(
            [p for p in PROBES if p[3] or not self.opts.exit])
        self.locals = []
        # the predicate first: it may read only what earlier clauses wrote
        preds = []
        if r.random() < 0.4:
            preds.append("%s %s %s" % (self.int_expr(2, val, thread),
                                       r.choice(["<", ">", "==", "!=", "<=", ">="]),
                                       self.int_expr(1, val, thread)))
        if self.opts.exit:
            preds.append("%s < %d" % (val, self.limit))
        pred = " /%s/" % " && ".join("(%s)" % p for p in preds) if preds else ""
        body = []
        for i in range(r.randint(0, 2)):
            body.append("this->l%d = %s;" % (i, self.int_expr(2, val, thread)))
            self.locals.append("this->l%d" % i)
        for _ in range(r.randint(1, 3)):
            body.append(self.agg_stmt(val, thread))
        if r.random() < 0.3:
            g = "g%s%d" % (thread, len(self.globals[thread]))
            body.append("%s = %s;" % (g, self.int_expr(2, val, thread)))
            self.globals[thread].append(g)
        if self.opts.dynvars and r.random() < 0.5:
            body.append("self->t%s = %s;" % (thread, self.int_expr(2, val, thread)))
        if self.opts.dynvars and r.random() < 0.5:
            arr = "m" + thread
            body.append("%s[%s %% 8] = %s;" % (arr, val, self.int_expr(1, val, thread)))
            body.append("@a%s = sum(%s[%s %% 8]);" % (arr, arr, val))
        return "%s%s { %s }" % (probe, pred, " ".join(body))

    def spec_clause(self):
        # one speculation per producer firing, committed in the same clause
        k = self.rng.randint(2, 9)
        return ("sdt:::queue-put /arg1 %% %d == 0/ { this->s = speculation(); "
                "speculate(this->s); printf(\"spec %%d\\n\", arg1); } "
                "sdt:::queue-put /arg1 %% %d == 0/ { commit(this->s); }" % (k, k))

    def program(self):
        r = self.rng
        clauses = [self.clause() for _ in range(r.randint(1, 4))]
        if self.opts.dynvars:
            # the associative arrays' types, before any use
            clauses.insert(0, "BEGIN { mp[0] = 0; mc[0] = 0; self->tp = 0; self->tc = 0; }")
        if self.opts.spec:
            clauses.append(self.spec_clause())
        if self.opts.exit:
            clauses.append("sdt:::queue-put /arg1 >= %d/ { exit(0); }" %
                           (self.n - self.flood))
        return " ".join(clauses)


def dtrace_cmd(prog):
    return "dtrace -q -n '%s' -c 'pingpong %d'" % (prog.text, prog.n)


def run_boot(progs, cpus, timeout):
    """Run progs in one boot on cpus CPUs; (status, [stdout per program], stderr)."""
    line = "; ".join("echo @@%d; %s" % (i, dtrace_cmd(p)) for i, p in enumerate(progs))
    line += "; echo @@end"
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_TIMEOUT=str(timeout))
    try:
        cp = subprocess.run([DTRACE, "--shell", line], env=env, capture_output=True,
                            text=True, errors="replace", timeout=timeout + 30)
        status, out, err = cp.returncode, cp.stdout, cp.stderr
    except subprocess.TimeoutExpired as e:
        status, out, err = 124, e.stdout or "", e.stderr or ""
        out = out.decode("latin-1") if isinstance(out, bytes) else out
        err = err.decode("latin-1") if isinstance(err, bytes) else err
    parts = [None] * len(progs)
    cur = None
    for ln in out.splitlines():
        if ln.startswith("@@"):
            tag = ln[2:].strip()
            cur = int(tag) if tag.isdigit() else None
            if cur is not None:
                parts[cur] = []
            continue
        if cur is not None:
            parts[cur].append(ln)
    ended = "@@end" in out
    return status, ended, [sorted(l for l in p if l.strip()) if p is not None else None
                           for p in parts], err


def check_batch(progs, opts):
    """Findings (list of strings) for progs run together; [] if all agreed."""
    results = {c: run_boot(progs, c, opts.timeout) for c in opts.cpus}
    findings = []
    ok_boot = all(st == 0 and ended and not err.strip()
                  for st, ended, _, err in results.values())
    if not ok_boot and len(progs) > 1:
        for p in progs:
            findings += check_batch([p], opts)
        return findings
    for c, (st, ended, _, err) in results.items():
        if st != 0 or not ended or err.strip():
            findings.append("%d CPU(s): status %d%s, stderr: %s\n  program: %s" % (
                c, st, "" if ended else " (did not finish)", err.strip()[-500:] or "-",
                dtrace_cmd(progs[0])))
    if findings:
        return findings
    base = opts.cpus[0]
    for i, p in enumerate(progs):
        for c in opts.cpus[1:]:
            a, b = results[base][2][i], results[c][2][i]
            if a != b:
                only_a = sorted(set(a or []) - set(b or []))[:10]
                only_b = sorted(set(b or []) - set(a or []))[:10]
                again = "" if len(progs) == 1 else "; alone in a boot: %s" % (
                    "differs again" if check_batch([p], opts) else "agrees")
                findings.append("aggregations differ, %d vs %d CPUs%s:\n  program: %s\n"
                                "  only on %d: %s\n  only on %d: %s" % (
                                    base, c, again, dtrace_cmd(p), base, only_a, c, only_b))
    return findings


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=8, help="programs (default 8)")
    ap.add_argument("--seed", type=int, default=None, help="random seed (default: time)")
    ap.add_argument("--batch", type=int, default=4, help="programs per boot (default 4)")
    ap.add_argument("--cpus", default="1,4", help="CPU counts to compare (default 1,4)")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per boot")
    ap.add_argument("--dynvars", action="store_true", help="self-> and associative arrays")
    ap.add_argument("--spec", action="store_true", help="speculations")
    ap.add_argument("--exit", action="store_true", help="an exit() flood")
    ap.add_argument("--print", action="store_true", help="print the programs, run nothing")
    opts = ap.parse_args()
    try:
        opts.cpus = [int(c) for c in opts.cpus.split(",")]
    except ValueError:
        ap.error("--cpus: a list like 1,4")
    if len(opts.cpus) < 2:
        ap.error("--cpus: at least two CPU counts")
    seed = opts.seed if opts.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    progs = [Gen(rng, opts) for _ in range(opts.n)]
    if opts.print:
        for p in progs:
            print(dtrace_cmd(p))
        return 0
    if not os.path.exists(os.path.join(ROOT, "build", "kernel.elf")):
        print("difffuzz: build/kernel.elf is missing (make all)", file=sys.stderr)
        return 2
    feats = [f for f in ("dynvars", "spec", "exit") if getattr(opts, f)]
    print("difffuzz: seed %d, %d programs, CPUs %s, features: %s" % (
        seed, opts.n, opts.cpus, ", ".join(feats) or "base"))
    nfind = 0
    for i in range(0, len(progs), opts.batch):
        for f in check_batch(progs[i:i + opts.batch], opts):
            nfind += 1
            print("FINDING: " + f)
        sys.stdout.flush()
    print("difffuzz: %d programs, %d finding(s) (seed %d)" % (opts.n, nfind, seed))
    return 1 if nfind else 0


if __name__ == "__main__":
    sys.exit(main())
