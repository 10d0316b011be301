"""sdt:::interrupt-start and interrupt-complete (kernel/devinfo.c): the DTrace
Guide's probes around each device's interrupt handler, arg0 its struct
dev_info.

test_console_interrupts_named_as_in_the_guide: bytes typed at the console
while dtrace runs are the console UART's receive interrupts; the device is
named the Guide's way (devnamesp[devi_major].dn_name, devi_instance), each
start has its complete on the same CPU with the handler's time between, and
the clock's interrupts (hundreds a second) are not among them.
test_devices_command: the `devices` command lists what attached.
"""

import re


PROG = ("sdt:::interrupt-start { this->d = (struct dev_info *)arg0; "
        "self->ts = timestamp; "
        "@n[stringof(`devnamesp[this->d->devi_major].dn_name), this->d->devi_instance, "
        "stringof(this->d->devi_node_name)] = count(); } "
        "sdt:::interrupt-complete /self->ts/ { @t = count(); @ok = min(timestamp - self->ts); self->ts = 0; }")


def test_console_interrupts_named_as_in_the_guide(guest):
    guest.sendline("dtrace -q -n '%s'" % PROG)
    guest.expect(r"\r\n", timeout=30)
    guest.drain(1.0)                          # enabled (no matched line under -q)
    for ch in "abcdefghij":                   # one receive interrupt per byte at least
        guest.send(ch)
        guest.drain(0.05)
    guest.send("\x03")
    guest.wait_prompt(timeout=60)
    out = guest.before.replace("\r\n", "\n")
    m = re.search(r"^\s*uart\s+0\s+serial\s+(\d+)$", out, re.M)
    assert m, out
    started = int(m.group(1))
    assert 10 <= started < 100, out           # the typed bytes, not the clock
    counts = [int(x) for x in re.findall(r"^\s+(\d+)$", out, re.M)]
    assert started in counts, out              # every start completed on its CPU
    assert not re.search(r"^\s*uart\s+1\s", out, re.M), out   # the link was silent


def test_devices_command(guest):
    out = guest.run("devices")
    assert out.startswith("DRIVER   INST NODE          INTERRUPTS\n"), out
    assert re.search(r"^uart\s+0\s+serial\s+\d+$", out, re.M), out
