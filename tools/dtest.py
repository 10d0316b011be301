#!/usr/bin/python3
"""tools/dtest.py: run the D test programs in a booted guest and check them.

    tools/dtest.py [-j N] [-v] [PATH...]        (default PATH: tests/d)

Every tests/d/**/tst.*.d, err.*.d and drp.*.d under the PATHs (files or directories)
is run as `tools/dtrace [OPTIONS] -s FILE`, from the top of the tree and
with FILE relative to it (so messages name it "tests/d/topic/tst.x.d").
The naming is illumos DTrace's test suite's:

    tst.NAME.d       must exit with status 0;
    err.D_TAG.NAME.d must fail to compile: it runs with -x errtags, must
                     exit with status 1 and must print "[D_TAG]" on
                     standard error;
    err.NAME.d       (no D_ tag) must exit with a non-zero status;
    drp.DTRACEDROP_KIND.NAME.d
                     must lose data of that kind: it runs with -x
                     droptags, must exit with status 0 and must print
                     "[DTRACEDROP_KIND]" on standard error;
    FILE.out         if present, standard output must be exactly this;
    FILE.err         if present, standard error must be exactly this.

Comments anywhere in the program may say more:

    /* @@options: -q -x bufsize=64 */   more dtrace options (sh-style words;
                                         leading --file PATH pairs go first)
    /* @@exit: 3 */                      the exit status expected instead
    /* @@timeout: 20 */                  seconds for this test (default 30)
    /* @@skip: why */                    do not run it; counted as skipped

Each test prints one line, PASS or FAIL (with why, and a diff of the
output), SKIP; then the summary line "N passed, M failed" (", K skipped"
if any).  Exit status 0 only when nothing failed.  Tests run -j at a time
(default 2, the cores here).

--jit=0 runs every program with -x jit=0 (all DIF on the interpreter): with
the default run (the JIT on) it is the DIF JIT's differential test over the
D suite, the same goldens both ways.

On sparc64 (SONDE_ARCH=sparc64, or --arch sparc64) some programs cannot
pass, and are skipped, each with its reason on its SKIP line:

    - those listed in tests/d/sparc64.skip (a path, or a directory ending in
      "/", then the reason: user processes, kernel CTF, x86_64 addresses);
    - those that name a kernel function the x86_64 kernel has and the
      sparc64 kernel does not (the two kernels' symbol tables, by nm: every
      identifier of the program is looked up), or a name that only x86_64's
      part of the D library defines (arch/x86_64/dlib/*.d: R_GS, ...);
    - all of them with --multi-cpu or SONDE_CPUS above 1: sun4u in QEMU
      7.2 has one CPU.

A machine's own programs live in a folder named for it, topic folders
below: tests/d/x86_64/ (goldens that hold x86_64's registers, offsets,
addresses or byte order) and tests/d/sparc64/ (its register names, its long
double). Such a folder's programs run only on that machine; on any other
they are skipped as "another machine's own".  tests/d/x86_64.skip, if it
exists, is read on x86_64 as sparc64.skip is on sparc64.

Each program boots a guest of its own, exactly as `tools/dtrace ARGS` would:
the runner loads tools/dtrace as a module and calls its run_captured from
its threads (the same code, streams and status, without starting a Python
for each program: about 0.07 s of CPU each); --subprocess runs the command
itself for each program instead, with the same results.

Environment: DTEST_DTRACE=PATH runs PATH as a command instead of
tools/dtrace (for trying the runner itself; implies --subprocess);
SONDE_* variables pass through to tools/dtrace.
"""

import argparse
import concurrent.futures
import fnmatch
import difflib
import os
import re
import shlex
import subprocess
import sys
import threading
import time
import traceback

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
DEFAULT_TIMEOUT = 30
DIRECTIVE = re.compile(r"@@(options|exit|timeout|skip):\s*(.*?)\s*(?:\*/|$)", re.M)


class Test:
    """One D program and what is expected of it."""

    def __init__(self, path):
        self.path = path                             # relative to ROOT
        self.name = os.path.basename(path)
        self.options = []
        self.timeout = DEFAULT_TIMEOUT
        self.skip = None
        self.tag = None
        self.error = None                            # a problem with the test itself
        parts = self.name.split(".")
        self.is_err = parts[0] == "err"
        if self.is_err and len(parts) > 2 and parts[1].startswith("D_"):
            self.tag = parts[1]
        self.droptag = None                          # drp.DTRACEDROP_KIND.NAME.d
        if parts[0] == "drp" and len(parts) > 2 and parts[1].startswith("DTRACEDROP_"):
            self.droptag = parts[1]
        elif parts[0] == "drp":
            self.error = "a drp test is named drp.DTRACEDROP_KIND.NAME.d"
        self.status = 1 if self.tag else None        # None: any non-zero (err) or 0 (tst)
        if not self.is_err:
            self.status = 0
        self._read_directives()

    def _read_directives(self):
        try:
            with open(os.path.join(ROOT, self.path), encoding="latin-1") as f:
                text = f.read()
        except OSError as e:
            self.error = "cannot read: %s" % e.strerror
            return
        for key, value in DIRECTIVE.findall(text):
            try:
                if key == "options":
                    self.options += shlex.split(value)
                elif key == "exit":
                    self.status = int(value)
                elif key == "timeout":
                    self.timeout = float(value)
                else:
                    self.skip = value or "skipped"
            except ValueError as e:
                self.error = "bad @@%s: %s (%s)" % (key, value, e)

    def expected(self, suffix):
        """The golden file's bytes (FILE.out, FILE.err), or None."""
        try:
            with open(os.path.join(ROOT, self.path + suffix), "rb") as f:
                return f.read()
        except FileNotFoundError:
            return None

    def argv(self, dtrace):
        extra = ["-x", "errtags"] if self.tag else []
        extra += ["-x", "droptags"] if self.droptag else []
        extra += JIT_OFF
        lead, opts = [], list(self.options)
        while len(opts) >= 2 and opts[0] == "--file":   # tools/dtrace's own: first
            lead, opts = lead + opts[:2], opts[2:]
        return [dtrace] + lead + extra + opts + ["-s", self.path]


JIT_OFF = []                 # --jit=0: ["-x", "jit=0"], every DIFO on the interpreter


def show(data):
    return data.decode("utf-8", "replace").splitlines(keepends=True)


def diff(label, want, got):
    lines = difflib.unified_diff(show(want), show(got), "expected " + label, "actual " + label)
    return "".join(l if l.endswith("\n") else l + "\n\\ no newline at end\n" for l in lines)


class Ran:
    """What one run of tools/dtrace gave: its status and its two streams."""

    def __init__(self, returncode, stdout, stderr):
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


def run_process(test, dtrace):
    """tools/dtrace as a command of its own (--subprocess, DTEST_DTRACE): a Ran, or a FAIL report."""
    env = dict(os.environ, SONDE_TIMEOUT=str(test.timeout))
    try:
        r = subprocess.run(test.argv(dtrace), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=test.timeout + 15)
    except subprocess.TimeoutExpired:
        return "tools/dtrace did not return within %g s" % (test.timeout + 15)
    except OSError as e:
        return "cannot run %s: %s" % (dtrace, e.strerror)
    return Ran(r.returncode, r.stdout, r.stderr)


def run_in_process(test, dtrace):
    """tools/dtrace's run_captured in this process: the same guest, the same streams and
    status, without a Python started for each program.  The guest's stdin is not ours."""
    try:
        return Ran(*DTRACE_TOOL[0].run_captured(test.argv(dtrace)[1:], test.timeout))
    except Exception:                                # what the command would die of, with its traceback
        return "tools/dtrace failed:\n" + traceback.format_exc().rstrip("\n")


DTRACE_TOOL = []             # tools/dtrace loaded as a module, unless --subprocess


def load_dtrace_tool(path):
    from importlib.machinery import SourceFileLoader
    DTRACE_TOOL.append(SourceFileLoader("sonde_dtrace_tool", path).load_module())


def run(test, dtrace):
    """Run one test; returns (verdict, report) with verdict PASS, FAIL or SKIP."""
    if test.error:
        return "FAIL", test.error
    if test.skip:
        return "SKIP", test.skip
    start = time.monotonic()
    r = run_in_process(test, dtrace) if DTRACE_TOOL else run_process(test, dtrace)
    if isinstance(r, str):
        return "FAIL", r
    took = time.monotonic() - start
    problems = check(test, r.returncode, r.stdout, r.stderr)
    if not problems:
        return "PASS", "%.2fs" % took
    report = "; ".join(p for p in problems if not p.startswith("---"))
    report += "\n  command: %s" % " ".join(shlex.quote(a) for a in test.argv("tools/dtrace"))
    report += "".join("\n" + p for p in problems if p.startswith("---"))
    if r.stderr and not any(p.startswith("--- expected stderr") for p in problems):
        report += "\n  stderr:\n" + "".join("    " + l for l in show(r.stderr))
    if r.returncode == 125 and not any(p.startswith("--- expected stdout") for p in problems):
        tail = r.stdout.splitlines(True)[-60:]          # the crash report (tools/dtrace: 125)
        report += "\n  stdout (last 60 lines: the crash report):\n" + "".join(
            "    " + l for l in show(b"".join(tail)))
    return "FAIL", report.rstrip("\n")


def check(test, status, out, err):
    """What is wrong with a run (empty when it passed); diffs start with '---'."""
    problems = []
    if test.status is None:
        if status == 0:
            problems.append("exit status 0, expected non-zero")
    elif status != test.status:
        problems.append("exit status %d, expected %d" % (status, test.status))
    if test.tag and ("[%s]" % test.tag).encode() not in err:
        problems.append("no [%s] on stderr" % test.tag)
    if test.droptag and ("[%s]" % test.droptag).encode() not in err:
        problems.append("no [%s] on stderr" % test.droptag)
    for suffix, got in ((".out", out), (".err", err)):
        want = test.expected(suffix)
        if want is not None and want != got:
            problems.append("std%s differs from %s" % (suffix[1:], test.name + suffix))
            problems.append(diff("std" + suffix[1:], want, got))
    return problems


# What can fire on a CPU other than the one BEGIN, END and ERROR fire on: a
# probe of another provider (or any description with a ':' -- a ternary
# counts too, erring towards running), or -c, -Z.
OTHER_PROBES = re.compile(r"\b(profile|tick|fbt|sdt|sched|lockstat|sysinfo|syscall|proc|io)\b|:")


def may_use_cpus(path):
    """Can the program at path fire on more than one CPU?  (Else the CPU count cannot matter.)"""
    try:
        with open(os.path.join(ROOT, path), encoding="latin-1") as f:
            text = f.read()
    except OSError:
        return True
    opts = " ".join(v for k, v in DIRECTIVE.findall(text) if k == "options").split()
    body = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    body = re.sub(r'"(\\.|[^"\\])*"', '""', body)
    body = re.sub(r"\bdtrace:::(BEGIN|END|ERROR)\b", "", body)
    return "-c" in opts or "-Z" in opts or OTHER_PROBES.search(body) is not None


class MachineSkips:
    """Why a program cannot pass on a machine other than x86_64 (None: it can)."""

    def __init__(self, arch, multi_cpu=False):
        self.arch = arch
        self.one_cpu = multi_cpu or int(os.environ.get("SONDE_CPUS", "1") or 1) > 1
        self.listed = self._read_list(os.path.join(ROOT, "tests", "d", arch + ".skip"))
        self.only_x86 = self._x86_only_functions()
        self.only_x86_dlib = self._dlib_names("x86_64") - self._dlib_names(arch)

    @staticmethod
    def _read_list(path):
        """[(pattern, reason)] from a skip list: `PATH REASON...` lines, # comments."""
        entries = []
        try:
            with open(path, encoding="utf-8") as f:
                for line in f:
                    line = line.strip()
                    if line and not line.startswith("#"):
                        pat, _, reason = line.partition(" ")
                        entries.append((pat, reason.strip() or "listed in " + os.path.relpath(path, ROOT)))
        except FileNotFoundError:
            pass
        return entries

    def _x86_only_functions(self):
        """Functions of build/kernel.elf that build/<arch>/kernel.elf has no symbol for (empty if either is missing)."""
        def symbols(nm, elf, kinds):
            try:
                out = subprocess.run([nm, elf], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     check=True).stdout.decode("latin-1")
            except (OSError, subprocess.CalledProcessError):
                return None
            return {w[2] for w in (l.split() for l in out.splitlines())
                    if len(w) == 3 and w[1] in kinds}
        x86 = symbols("nm", os.path.join(ROOT, "build", "kernel.elf"), "tTwW")
        other = symbols(self.arch + "-linux-gnu-nm",
                        os.path.join(ROOT, "build", self.arch, "kernel.elf"), "".join(map(chr, range(33, 127))))
        return x86 - other if x86 and other else set()

    @staticmethod
    def _dlib_names(arch):
        """The names the machine's part of the D library (arch/<arch>/dlib/*.d) defines."""
        names = set()
        d = os.path.join(ROOT, "arch", arch, "dlib")
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            with open(os.path.join(d, f), encoding="latin-1") as fh:
                names |= set(re.findall(r"^\s*inline\s+[^=;]*?\b([A-Za-z_]\w*)\s*=", fh.read(), re.M))
        return names

    def reason(self, path):
        if self.one_cpu:
            return "%s: one CPU only (sun4u in QEMU 7.2)" % self.arch
        for pat, why in self.listed:
            if path == pat or (pat.endswith("/") and path.startswith(pat)) or fnmatch.fnmatch(path, pat):
                return "%s: %s" % (self.arch, why)
        try:
            with open(os.path.join(ROOT, path), encoding="latin-1") as f:
                words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", f.read()))
        except OSError:
            return None
        named = sorted(words & self.only_x86)
        if named:
            return "%s: names x86_64-only function%s %s" % (
                self.arch, "s" if len(named) > 1 else "", ", ".join(named))
        named = sorted(words & self.only_x86_dlib)
        if named:
            return "%s: names x86_64's D library (arch/x86_64/dlib): %s" % (
                self.arch, ", ".join(named[:4]) + (", ..." if len(named) > 4 else ""))
        return None


MACHINES = ("x86_64", "sparc64")


def machine_folder(path):
    """The machine whose own program path is (tests/d/<machine>/...), or None."""
    parts = path.replace(os.sep, "/").split("/")
    return parts[2] if len(parts) > 3 and parts[:2] == ["tests", "d"] and parts[2] in MACHINES else None


def find_tests(paths, runtime_only=False):
    found = []
    for p in paths:
        full = os.path.join(ROOT, p) if not os.path.isabs(p) else p
        if os.path.isfile(full):
            found.append(os.path.relpath(full, ROOT))
            continue
        if not os.path.isdir(full):
            sys.exit("dtest: %s: no such file or directory" % p)
        for dirpath, dirnames, files in os.walk(full):
            dirnames.sort()
            for f in sorted(files):
                if f.endswith(".d") and (f.startswith("tst.") or f.startswith("drp.") or
                                         (f.startswith("err.") and not runtime_only)):
                    found.append(os.path.relpath(os.path.join(dirpath, f), ROOT))
    return found


def main():
    ap = argparse.ArgumentParser(description="Run D test programs in Sonde (tools/dtrace).")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="tests at a time (default 2)")
    ap.add_argument("-v", "--verbose", action="store_true", help="show each PASS's time too")
    ap.add_argument("--runtime-only", action="store_true",
                    help="only tst.* programs (err.* are compile-time: the CPU count cannot matter)")
    ap.add_argument("--multi-cpu", action="store_true",
                    help="only programs that can fire on more than one CPU (a probe other "
                         "than BEGIN/END/ERROR, or -c/-Z): for the run on several CPUs")
    ap.add_argument("--jit", choices=["0", "1"], default="1",
                    help="0: every program with -x jit=0, all DIF interpreted (the JIT's "
                         "differential run: the same goldens both ways)")
    ap.add_argument("--arch", default=os.environ.get("SONDE_ARCH") or "x86_64",
                    help="the guest's machine (default $SONDE_ARCH, else x86_64); on sparc64 "
                         "the programs that cannot pass there are skipped, each with why")
    ap.add_argument("--subprocess", action="store_true",
                    help="run each program as a tools/dtrace command of its own (a Python "
                         "each) instead of through tools/dtrace loaded here; the same guests")
    ap.add_argument("paths", nargs="*", default=["tests/d"])
    args = ap.parse_args()
    os.chdir(ROOT)                                   # the programs' paths are relative to the top
    os.environ["SONDE_ARCH"] = "" if args.arch == "x86_64" else args.arch
    if args.jit == "0":
        JIT_OFF.extend(["-x", "jit=0"])
    dtrace = os.environ.get("DTEST_DTRACE") or os.path.join(ROOT, "tools", "dtrace")
    if not args.subprocess and not os.environ.get("DTEST_DTRACE"):
        load_dtrace_tool(dtrace)
    tests = [Test(p) for p in find_tests(args.paths, args.runtime_only)
             if not args.multi_cpu or may_use_cpus(p)]
    for t in tests:                          # another machine's own programs (tests/d/<machine>/)
        owner = machine_folder(t.path)
        if owner is not None and owner != args.arch:
            t.skip = t.skip or "%s: %s's own program (tests/d/%s/)" % (args.arch, owner, owner)
    if args.arch != "x86_64":
        skips = MachineSkips(args.arch, args.multi_cpu)
        for t in tests:
            t.skip = t.skip or skips.reason(t.path)
    else:                                    # x86_64's missing pieces, if any (tests/d/x86_64.skip)
        for pat, why in MachineSkips._read_list(os.path.join(ROOT, "tests", "d", "x86_64.skip")):
            for t in tests:
                if t.path == pat or (pat.endswith("/") and t.path.startswith(pat)) or fnmatch.fnmatch(t.path, pat):
                    t.skip = t.skip or "x86_64: " + why
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    lock = threading.Lock()
    start = time.monotonic()

    def one(test):
        verdict, report = run(test, dtrace)
        with lock:
            counts[verdict] += 1
            if verdict == "FAIL" or args.verbose or verdict == "SKIP":
                print("%s %s: %s" % (verdict, test.path, report), flush=True)
            else:
                print("PASS %s" % test.path, flush=True)

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, tests))
    print("dtest: %d programs in %.1f s" % (len(tests), time.monotonic() - start))
    summary = "%d passed, %d failed" % (counts["PASS"], counts["FAIL"])
    if counts["SKIP"]:
        summary += ", %d skipped" % counts["SKIP"]
    print(summary)
    return 1 if counts["FAIL"] or not tests else 0


if __name__ == "__main__":
    sys.exit(main())
