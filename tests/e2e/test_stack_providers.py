"""stack() of every provider: the probed code's frames, none of DTrace's own.

One guest per CPU count (x86_64: 1, 2, 4, and 2 with fbt's trap path;
sparc64: 1, when it is built) runs two dtrace programs (the munmap workload, then a
spinning one) whose clauses, one per provider, each print stack() and add
@s[tag, stack()].  For every tag the printed stacks must be exactly the
aggregation's keys (stack() and a stack() key are one walk), no frame may
name a function of the firing path (stack_record, ecb_fire,
dtrace_probe, a provider's stub...), the first of a probe fired by the
kernel's own code (not a profile sample or a lock) may not lie in the framework's
text (dif/, trace/: the symbols between __dtrace_text_start and
__dtrace_text_end), and no frame may be a bare address.  Each provider's
stack must also start where DTrace's does: fbt and lockstat at the probed function's caller;
syscall, sysinfo, sdt, sched, proc at the code that fired the probe; a kernel
stack reached from a system call ends at its entry (syscall_entry;
sparc64: trap_generic_kernel), with no user address.  A profile sample of
user code and a pid probe have an empty kernel stack; ERROR's stack is the
faulting probe's.  The paper's sysinfo:::xcalls { @[stack()] = count(); }
shows the munmap path (2 CPUs or more: one CPU sends no cross-call).
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")

CLAUSE = '%s { printf("@T %s\\n"); stack(); @s["%s", stack()] = count(); }'
MUNMAP_PROBES = [
    ("BEGIN", "BEGIN"),
    ("xcalls", "sysinfo:::xcalls /pid == $target/"),
    ("fbt-entry", "fbt::proc_munmap:entry /pid == $target/"),
    ("fbt-return", "fbt::proc_munmap:return /pid == $target/"),
    ("cyclic-fire", "sdt:::cyclic-fire"),
    # the target's own switches: another thread's (the buffer cache's flusher wakes each
    # second) may fire only between the aggregation's snapshot and the last trace record
    ("on-cpu", "sched:::on-cpu /pid == $target/"),
    ("spin-acquire", "lockstat:::spin-acquire /pid == $target/"),
    ("proc-exit", "proc:::exit /pid == $target/"),
    ("pid-main", "pid$target::main:entry"),
    ("ERROR", "ERROR"),
    ("END", "END"),
]
# Apart: an enabled syscall probe routes munmap through the provider's stub,
# a real frame in every other probe's stack below it (DTrace shows its own).
SYSCALL_PROBES = [
    ("syscall-entry", "syscall::munmap:entry /pid == $target/"),
    ("syscall-return", "syscall::munmap:return /pid == $target/"),
]
SPIN_PROBES = [
    ("profile-user", "profile-997 /arg1 != 0/"),
    ("profile-kernel", "profile-997 /arg0 != 0/"),
]
FAULT = "fbt::proc_munmap:entry /pid == $target/ { trace(*(int *)8); }"
# The firing path's own functions, which no stack may show above a trap
# entry (below one, an interrupt may have found a stub running); other
# framework code may appear below the probe site when it is the traced code
# (the pid provider's exit hook taking a lock; the syscall stub under fbt).
FIRING = {"stack_walk", "stack_walk_here", "stack_record", "agg_key", "ecb_fire", "dtrace_probe",
          "dtrace_probe_frame", "dtrace_probe_user", "probe_fire_more", "dtrace_fire_rest",
          "si_xcall_fire", "ls_fire", "pr_fire", "sc_stub", "dif_interp", "dtrace_builtin"}
# Probes whose stack starts outside the framework's text whatever the workload
# does (a profile sample or a lock may be taken in the consumer's own code).
OUTSIDE = {"BEGIN", "END", "xcalls", "fbt-entry", "fbt-return", "cyclic-fire", "proc-exit",
           "syscall-entry", "syscall-return"}
FRAME = re.compile(r"^\s{8,}(\S+`\S+|0x[0-9a-f]+)$")


def program(probes, extra=""):
    return "\n".join([CLAUSE % (p, t, t) for t, p in probes] + [extra,
                     'END { printf("@A\\n"); printa(@s); }']) + "\n"


S64_KERNEL = os.path.join(ROOT, "build", "sparc64", "kernel.elf")


def framework_names(kernel, nm):
    out = subprocess.run([nm, kernel], stdout=subprocess.PIPE, check=True).stdout.decode()
    syms = [(int(a, 16), n) for a, _, n in (l.split()[:3] for l in out.splitlines() if len(l.split()) >= 3)]
    addr = {n: a for a, n in syms}
    lo, hi = addr["__dtrace_text_start"], addr["__dtrace_text_end"]
    return {n for a, n in syms if lo <= a < hi and not n.startswith("__")}


def parse(out, tags):
    """{tag: [printed stacks]}, {tag: [aggregation key stacks]} of one program's output."""
    traced, keyed = {}, {}
    body, _, agg = out.partition("@A\n")
    cur = None
    for line in body.splitlines():
        if line.startswith("@T "):
            cur = traced.setdefault(line[3:].strip(), [])
            cur.append([])
        elif cur is not None and FRAME.match(line):
            cur[-1].append(line.strip())
    entry = None
    for line in agg.splitlines():
        s = line.strip()
        if entry is None and s in tags:
            entry = (s, [])
        elif entry is not None and s.isdigit():
            keyed.setdefault(entry[0], []).append(entry[1])
            entry = None
        elif entry is not None and FRAME.match(line):
            entry[1].append(s)
    return traced, keyed


def run(arch, cpus, append, cmdline, files):
    env = dict(os.environ, SONDE_CPUS=str(cpus), SONDE_TIMEOUT="200", SONDE_APPEND=append)
    env.pop("SONDE_BOOT", None)
    if arch == "sparc64":
        env["SONDE_ARCH"] = "sparc64"
    args = [TOOL]
    for f in files:
        args += ["--file", f]
    r = subprocess.run(args + ["--shell", cmdline], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    assert r.returncode == 0, r.stdout.decode("latin-1") + r.stderr.decode("latin-1")
    return r.stdout.decode("latin-1")


def func(frame):
    return frame.split("`", 1)[1].split("+", 1)[0] if "`" in frame else frame


def above_trap(stack):
    """The frames above the first trap or interrupt entry (below it, a stub may be interrupted)."""
    for i, f in enumerate(stack):
        if func(f).startswith("trap_common") or func(f) == "trap_generic_kernel":
            return stack[:i]
    return stack


def check_common(traced, keyed, framework, out):
    for tag, stacks in traced.items():
        assert sorted(set(map(tuple, stacks))) == sorted(set(map(tuple, keyed.get(tag, [])))), \
            "%s: stack() differs from @[stack()]\n%s" % (tag, out)
        for s in stacks:
            for f in s:
                assert not f.startswith("0x"), "%s: bare address %s\n%s" % (tag, f, out)
            for f in above_trap(s):
                assert func(f) not in FIRING, "%s: DTrace's own frame %s\n%s" % (tag, f, out)
            if tag in OUTSIDE:
                assert not s or func(s[0]) not in framework, "%s: starts in DTrace %s\n%s" % (tag, s, out)


def firsts(stacks):
    return {func(s[0]) for s in stacks if s}


def check_munmap(traced, cpus, entry, out):
    need = [t for t, _ in MUNMAP_PROBES if t != "xcalls" or cpus > 1]
    for t in need:
        assert t in traced, "%s never fired\n%s" % (t, out)
    if cpus > 1:           # the paper's example: the munmap path, and it alone
        for s in traced["xcalls"]:
            fs = [func(f) for f in s]
            assert fs[0] == "xcall" and "proc_munmap" in fs and fs[-1] == entry, out
    for t in ("fbt-entry", "fbt-return"):
        for s in traced[t]:
            assert func(s[0]) == "sys_munmap" and func(s[-1]) == entry, out
    assert firsts(traced["cyclic-fire"]) == {"timer_interrupt"}, out
    assert firsts(traced["on-cpu"]) <= {"sched_switch", "thread_start"}, out
    assert "spin_lock" not in firsts(traced["spin-acquire"]), out
    assert all(traced["proc-exit"]) and all(traced["BEGIN"]) and all(traced["END"]), out
    assert all(s == [] for s in traced["pid-main"]), out
    assert set(map(tuple, traced["ERROR"])) <= set(map(tuple, traced["fbt-entry"])), out


@pytest.mark.parametrize("arch,cpus,append", [("x86_64", 1, ""), ("x86_64", 2, ""), ("x86_64", 4, ""),
                                               ("x86_64", 2, "nofbtjump"), ("sparc64", 1, "")])
def test_every_provider_stack(arch, cpus, append, tmp_path):
    kernel, nm, entry = KERNEL, "nm", "syscall_entry"      # where a system call enters the kernel
    if arch == "sparc64":                  # one CPU (sun4u); fbt and sdt sites trap
        kernel, nm, entry = S64_KERNEL, "sparc64-linux-gnu-nm", "trap_generic_kernel"
        if not os.path.exists(kernel):
            pytest.skip("no sparc64 kernel (make ARCH=sparc64)")
    if not os.path.exists(kernel):
        pytest.fail("%s missing: run make" % kernel)
    a = os.path.relpath(str(tmp_path / "munmap.d"), ROOT)
    b = os.path.relpath(str(tmp_path / "spin.d"), ROOT)
    c = os.path.relpath(str(tmp_path / "syscall.d"), ROOT)
    with open(os.path.join(ROOT, a), "w") as f:
        f.write(program(MUNMAP_PROBES, FAULT))
    with open(os.path.join(ROOT, b), "w") as f:
        f.write(program(SPIN_PROBES))
    with open(os.path.join(ROOT, c), "w") as f:
        f.write(program(SYSCALL_PROBES))
    out = run(arch, cpus, append, "dtrace -q -s %s -c '/bin/munmapbench 3'; echo @@; "
              "dtrace -q -s %s -c '/bin/spin 10'; echo @@; "
              "dtrace -q -s %s -c '/bin/munmapbench 1'" % (a, b, c), [a, b, c])
    first, second, third = out.split("@@\n")
    framework = framework_names(kernel, nm)
    traced, keyed = parse(first, [t for t, _ in MUNMAP_PROBES])
    check_common(traced, keyed, framework, first)
    check_munmap(traced, cpus, entry, first)
    traced, keyed = parse(second, [t for t, _ in SPIN_PROBES])
    check_common(traced, keyed, framework, second)
    assert traced.get("profile-user"), second
    assert all(s == [] for s in traced["profile-user"]), second
    traced, keyed = parse(third, [t for t, _ in SYSCALL_PROBES])
    check_common(traced, keyed, framework, third)
    for t, _ in SYSCALL_PROBES:
        assert traced.get(t), "%s never fired\n%s" % (t, third)
        for s in traced[t]:
            assert func(s[0]) == "syscall_dispatch" and func(s[-1]) == entry, third
