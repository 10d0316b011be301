"""Provoked CPU exceptions: the fault printer names the function and the
machine powers off with the crash status (QEMU exit 3), never 0."""

import re

import pytest

from conftest import BOOT_TIMEOUT, EXIT_CRASH


@pytest.mark.parametrize("kind", ["pagefault", "divide", "ud", "gp", "breakpoint"])
def test_crash_prints_symbolized_backtrace_and_exits_3(guest, kind):
    guest.sendline("crash " + kind)
    out, status = guest.output_until_exit(timeout=BOOT_TIMEOUT)
    assert "crash: provoking " + kind in out
    # The faulting function, then the shell command that called it.
    assert re.search(r"arch_fault_test\+0x[0-9a-f]+", out), out
    assert re.search(r"shell_do_crash\+0x[0-9a-f]+", out), out
    assert status == EXIT_CRASH, out


def test_pagefault_reports_the_address(guest):
    guest.sendline("crash pagefault")
    out, status = guest.output_until_exit(timeout=BOOT_TIMEOUT)
    assert re.search(r"0x0*deadbeef000", out), out
    assert status == EXIT_CRASH


def test_crash_from_cmdline_exits_3(boot):
    g = boot(append='cmd="crash pagefault"')
    out, status = g.output_until_exit(timeout=BOOT_TIMEOUT)
    assert re.search(r"arch_fault_test\+0x", out), out
    assert status == EXIT_CRASH


def test_stack_overflow_is_a_double_fault_not_a_reset(guest):
    guest.sendline("crash stack")
    out, status = guest.output_until_exit(timeout=BOOT_TIMEOUT)
    assert "double fault" in out, out
    assert re.search(r"arch_fault_test\+0x", out), out
    assert status == EXIT_CRASH     # a triple fault would exit 0
