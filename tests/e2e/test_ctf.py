"""The kernel's types (kernel/ctf_kernel.c): a corrupt CTF section is
reported at boot and the kernel keeps running without types.

ctf=corrupt opens a copy of the section with bytes of it overwritten;
kernel/ctf.c must refuse it (never fault), the console says why, and D
still works, only without kernel types: `ncpus is then an integer read by
its size, and a kernel struct is an unknown type.
"""
import re

from conftest import BOOT_TIMEOUT, EXIT_HALT, exit_code_for
from test_dtrace_host import dtrace


def test_corrupt_ctf_is_reported_and_the_kernel_runs_without_types(boot):
    g = boot(append='ctf=corrupt cmd="dtrace -q -n \'BEGIN { printf(\\"%d\\\\n\\", `ncpus); exit(0); }\'; '
                    'dtrace -n \'BEGIN { trace(sizeof (struct thread)); }\'"')
    out, status = g.output_until_exit(timeout=BOOT_TIMEOUT)
    assert re.search(r"^ctf: kernel types unusable: .+$", out, re.M), out
    assert re.search(r"^1$", out, re.M), out
    assert "cannot apply sizeof to an operand of unknown size" in out, out
    assert status == exit_code_for(1)      # the second dtrace's compile error


def test_bootstat_reports_the_types_opened(boot):
    g = boot(append='bootstat cmd="echo up"')
    out, status = g.output_until_exit(timeout=BOOT_TIMEOUT)
    m = re.search(r"^bootstat: ctf: (\d+) types, (\d+) bytes, opened in (\d+) cycles$", out, re.M)
    assert m, out
    assert int(m.group(1)) > 1000 and int(m.group(2)) > 50000
    assert status == EXIT_HALT


def test_args_of_an_unstable_set_of_probes_is_refused():
    # fbt::k*:entry matches functions whose first arguments differ: DTrace's
    # D_ARGS_MULTI (the host compiler cannot see which probes a glob
    # matches, so this is checked in the guest).
    status, out, err = dtrace("-x", "errtags", "-n", "fbt::k*:entry { trace(args[0]); }")
    assert status == 1
    assert err == ("dtrace: invalid probe specifier fbt::k*:entry { trace(args[0]); }: "
                   "[D_ARGS_MULTI] args[ ] may not be referenced because probe description "
                   "fbt::k*:entry matches an unstable set of probes\n")


def test_typed_args_key_an_aggregation():
    # What kernel types are for, first: kmalloc's args[0] (a size_t) as a key,
    # while the churn workload allocates.
    status, out, err = dtrace("-q", "-c", "churn 1", "-n", "fbt::kmalloc:entry { @[args[0]] = count(); }")
    assert status == 0, err
    assert re.search(r"^\s+\d+\s+\d+$", out, re.M), out


def test_a_symbol_without_a_type_is_d_sym_notypes():
    # __udivti3 (libgcc, no CTF) is in the kernel's symbol table but not in
    # its types: DTrace's D_SYM_NOTYPES (an unknown name is D_SYM_BADREF,
    # tests/d/ctf/err.D_SYM_BADREF.kernel.d).
    status, out, err = dtrace("-x", "errtags", "-n", "BEGIN { trace(`__udivti3); }")
    assert status == 1
    assert "[D_SYM_NOTYPES] no symbolic type information is available for `__udivti3" in err
