"""Aggregation output that depends on the number of CPUs (so it cannot be a
tests/d golden, which runs on 1 and on 4 CPUs): aggpercpu.

With `-x aggpercpu` libdtrace prints, under each value, one line per CPU:
"\\n    [CPU n]" followed by that CPU's share printed as the value is.
"""

import re

from test_dtrace_host import dtrace


def test_aggpercpu_lists_every_cpu_under_each_value():
    prog = ("BEGIN { @a[\"k\"] = count(); @b = sum(5); exit(0); }")
    status, out, err = dtrace("-q", "-x", "aggpercpu", "-n", prog, env={"SONDE_CPUS": "2"},
                              timeout=60)
    assert (status, err) == (0, "")
    m = re.fullmatch(r"\n  k {49} {16}1\n    \[CPU 0\] +(\d+)\n    \[CPU 1\] +(\d+)\n"
                     r" {16}5\n    \[CPU 0\] +(\d+)\n    \[CPU 1\] +(\d+)\n", out)
    assert m, repr(out)
    assert int(m.group(1)) + int(m.group(2)) == 1
    assert int(m.group(3)) + int(m.group(4)) == 5


def test_no_percpu_lines_without_the_option():
    status, out, err = dtrace("-q", "-n", "BEGIN { @ = count(); exit(0); }",
                              env={"SONDE_CPUS": "2"}, timeout=60)
    assert (status, out, err) == (0, "\n" + " " * 16 + "1\n", "")
