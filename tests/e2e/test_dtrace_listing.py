"""dtrace -l and -lv as dtrace(1M) prints them: the header and probe lines,
the stability block of each provider's probes (the tables of the Dynamic
Tracing Guide), argument types, descriptions that match nothing.

Each test runs tools/dtrace (one guest) and checks standard output and the
exit status exactly; probe ids come from the listing itself, so adding a
kernel function does not break them.
"""

import re

from test_dtrace_host import dtrace

HEADER = "   ID   PROVIDER            MODULE                          FUNCTION NAME\n"


def block(desc, args, types=()):
    """The -lv block under a probe line: two attribute triples, then the types (None if none)."""
    def triple(title, t):
        name, data, cls = t.split("/")
        return ("\n\t%s\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n"
                "\t\tDependency Class: %s\n" % (title, name, data, cls))
    return (triple("Probe Description Attributes", desc) + triple("Argument Attributes", args)
            + "\n\tArgument Types\n"
            + "".join("\t\targs[%d]: %s\n" % (i, t) for i, t in enumerate(types))
            + ("" if types else "\t\tNone\n") + "\n")


def line(pid, prov, mod, func, name):
    return "%5s %10s %17s %33s %s\n" % (pid, prov, mod, func, name)


# The Guide's tables, as -lv computes them for one probe: the description's
# attributes are the lowest of the provider's and of the parts the probe's
# name has (module and function only when not empty).
STABILITY = {
    "dtrace": ("Stable/Stable/Common", "Stable/Stable/Common"),
    "fbt": ("Private/Private/Unknown", "Private/Private/ISA"),
    "sdt": ("Private/Private/Unknown", "Private/Private/ISA"),
    "sched": ("Private/Private/Unknown", "Evolving/Evolving/ISA"),
    "profile": ("Evolving/Evolving/Common", "Evolving/Evolving/Common"),
    "lockstat": ("Private/Private/Unknown", "Evolving/Evolving/Common"),
    "sysinfo": ("Private/Private/Unknown", "Private/Private/ISA"),
    "vminfo": ("Private/Private/Unknown", "Private/Private/ISA"),
    "proc": ("Evolving/Evolving/ISA", "Evolving/Evolving/ISA"),
    "syscall": ("Unstable/Unstable/ISA", "Unstable/Unstable/ISA"),
    "io": ("Private/Private/Unknown", "Evolving/Evolving/ISA"),
    "fsinfo": ("Private/Private/Unknown", "Evolving/Evolving/ISA"),
}


# Argument types of the probes listed there: fbt's from kmalloc's prototype
# (the kernel's CTF), sdt's as its table declares them (trace/prov_sdt.c),
# proc:::exit's reason (trace/prov_proc.c), sysinfo's and vminfo's increment,
# counter and CPU (trace/sdt_argtypes.h); the others' are not declared.
STAT_TYPES = ("uint64_t", "uint64_t *", "struct cpu *")
TYPES = {"fbt": ("size_t",), "sdt": ("void *", "size_t"), "proc": ("int",),
         "sysinfo": STAT_TYPES, "vminfo": STAT_TYPES,
         "io": ("bufinfo_t *", "devinfo_t *", "fileinfo_t *"), "fsinfo": ("fileinfo_t *", "int64_t")}


def test_lv_stability_of_every_provider():
    descs = ["dtrace:::BEGIN", "fbt::kmalloc:entry", "sdt:::kmem-alloc", "sched::sched_switch:on-cpu",
             "profile:::tick-1", "lockstat::spin_lock:spin-acquire", "sysinfo:::xcalls", "vminfo:::cow_fault", "proc:::exit",
             "syscall::read:entry", "io:::start", "fsinfo::sys_read:read"]
    args = ["-lv"]
    for d in descs:
        args += ["-n", d]
    status, out, err = dtrace(*args)
    assert (status, err) == (0, "")
    lines = out.split("\n")
    assert out.startswith(HEADER)
    probes = [l for l in lines if re.match(r"^ {0,4}\d+ ", l)]
    assert len(probes) == len(descs)
    expect = HEADER
    for p in probes:
        pid, prov = p.split()[0], p.split()[1]
        expect += p + "\n" + block(*STABILITY[prov], types=TYPES.get(prov, ()))
    assert out == expect


def test_lv_fbt_argument_types_from_ctf():
    # Entry: the parameters, as C names them; return: args[0] is the return
    # site's offset (an int), args[1] the return value; a void function's
    # return probe has only args[0].
    status, out, err = dtrace("-lv", "-n", "fbt::thread_create:entry", "-n", "fbt::kmalloc:return",
                              "-n", "fbt::kfree:return")
    assert (status, err) == (0, "")
    blocks = re.findall(r"\tArgument Types\n((?:\t\t.*\n)+)", out)
    assert blocks == ["\t\targs[0]: const char *\n\t\targs[1]: void (*)(void *)\n"
                      "\t\targs[2]: void *\n",
                      "\t\targs[0]: int\n\t\targs[1]: void *\n",
                      "\t\targs[0]: int\n"], out


def test_l_without_v_has_no_block_and_lists_each_probe_once():
    status, out, err = dtrace("-l", "-n", "dtrace:::BEGIN", "-n", "BEGIN", "-n", "dtrace:::END")
    assert (status, err) == (0, "")
    assert out == HEADER + line(1, "dtrace", "", "", "BEGIN") + line(2, "dtrace", "", "", "END")


def test_l_description_matching_nothing():
    status, out, err = dtrace("-l", "-n", "BEGIN", "-n", "nosuch", "-P", "nosuchprov")
    assert status == 1
    assert out == HEADER + line(1, "dtrace", "", "", "BEGIN")
    assert err == ("dtrace: failed to match :::nosuch: No probe matches description\n"
                   "dtrace: failed to match nosuchprov:::: No probe matches description\n")


def test_S_prints_each_difo_as_illumos_does(tmp_path):
    # On standard error: each DIFO's header, its instructions with what each
    # table index stands for, and its variable table.  (The instructions are
    # the code generator's: a change there may change this listing.)
    # (A declaration needs a script: -n takes probe descriptions only.)
    script = tmp_path / "listing.d"
    script.write_text("int x; BEGIN { trace(x); trace(strlen(probename)); }\n")
    status, out, err = dtrace("-S", "-e", "-s", str(script))
    assert (status, out) == (0, "")
    difos = re.sub(r"DIFO 0x[0-9a-f]+ ", "DIFO 0xADDR ", err)
    assert difos == (
        "\nDIFO 0xADDR returns D type (integer) (size 4)\n"
        "OFF OPCODE      INSTRUCTION\n"
        "00: 33050001    ldgs DT_VAR(1280), %r1\t\t! DT_VAR(1280) = \"x\"\n"
        "01: 45000001    ret  %r1\n"
        "\n"
        "NAME             ID   KND SCP FLAG TYPE\n"
        "x                500  scl glb r    D type (integer) (size 4)\n"
        "\n"
        "\nDIFO 0xADDR returns D type (integer) (size 8)\n"
        "OFF OPCODE      INSTRUCTION\n"
        "00: 33010d01    ldgs DT_VAR(269), %r1\t\t! DT_VAR(269) = \"probename\"\n"
        "01: 3d010001    pushtr DT_TYPE(1), %r0, %r1\t! DT_TYPE(1) = string\n"
        "02: 41000001    call DIF_SUBR(0), %r1\t\t! strlen\n"
        "03: 45000001    ret  %r1\n"
        "\n")


def test_e_compiles_without_tracing():
    assert dtrace("-e", "-n", "BEGIN { trace(1); }") == (0, "", "")


def report(kind, name, desc, stmt):
    """-v's report for one description or script."""
    def triple(title, t):
        n, d, c = t.split("/")
        return ("\n\t%s\n\t\tIdentifier Names: %s\n\t\tData Semantics:   %s\n"
                "\t\tDependency Class: %s\n" % (title, n, d, c))
    return ("\nStability attributes for %s %s:\n" % (kind, name)
            + triple("Minimum Probe Description Attributes", desc)
            + triple("Minimum Statement Attributes", stmt))


def test_v_reports_the_programs_stability():
    # The Guide's example (Stability Computations and Reports), then the
    # probe line: the report is on standard output, after the notice.
    status, out, err = dtrace("-v", "-n", "dtrace:::BEGIN{exit(0);}")
    assert (status, err) == (0, "dtrace: description 'dtrace:::BEGIN' matched 1 probe\n")
    assert out == (report("description", "dtrace:::BEGIN", "Stable/Stable/Common",
                          "Stable/Stable/Common")
                   + "\n" + "CPU     ID                    FUNCTION:NAME\n"
                   + "  0      1                           :BEGIN \n\n")


def test_ev_lowers_for_what_the_program_uses():
    # curthread has Private data; a provider the description does not name
    # is Unstable; with -e each probe description follows with its own block.
    status, out, err = dtrace("-e", "-v", "-n", "BEGIN{trace(curthread);}")
    assert (status, err) == (0, "")
    assert out == (report("description", "BEGIN", "Unstable/Unstable/Common",
                          "Stable/Private/Common")
                   + "\n:::BEGIN\n" + block("Unstable/Unstable/Common", "Unstable/Unstable/Common"))


def test_lv_proc_argument_types():
    # The Guide's proc provider: psinfo_t * and lwpsinfo_t * (translated),
    # the path a char *, errno, reason and signal ints; the others none.
    status, out, err = dtrace("-lv", "-n", "proc:::create", "-n", "proc:::exec", "-n",
                              "proc:::exec-failure", "-n", "proc:::exit", "-n",
                              "proc:::signal-send", "-n", "proc:::start")
    assert (status, err) == (0, "")
    blocks = re.findall(r"\tArgument Types\n((?:\t\t.*\n)+)", out)
    assert blocks == ["\t\targs[0]: psinfo_t *\n", "\t\targs[0]: char *\n", "\t\targs[0]: int\n",
                      "\t\targs[0]: int\n",
                      "\t\targs[0]: lwpsinfo_t *\n\t\targs[1]: psinfo_t *\n\t\targs[2]: int\n",
                      "\t\tNone\n"], out
