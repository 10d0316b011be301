"""The kernel's types (kernel/ctf_kernel.c): a corrupt CTF section is
reported at boot and the kernel keeps running without types.

ctf=corrupt opens a copy of the section with bytes of it overwritten;
kernel/ctf.c must refuse it (never fault), the console says why, and D
still works, only without kernel types: `ncpus is then an integer read by
its size, and a kernel struct is an unknown type.
"""
import re

from conftest import BOOT_TIMEOUT, EXIT_HALT, exit_code_for


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
