"""USDT from a D provider definition: dtrace -h, -G, and listing a process's probes.

What these show: the host's `dtc -h` and the guest's `dtrace -h -o` write the
same header for userland/bin/shop_provider.d, the one the build compiled
/bin/shop with (build/user/usdt/shop_provider.h), with DTrace's macro names
(SHOP_ORDER_START(arg0, arg1), SHOP_ORDER_DONE_ENABLED()); /bin/shop, built
from that header, fires its probes with the right arguments and its
is-enabled test says yes when the probe is enabled, on 1 and 4 CPUs and on
sparc64; `dtrace -l -m shop` and `-l -P 'shop*'` list the probes of a -c
process and of a background one, in dtrace -l's format; without -o, -h names
its file after the script (read-only outside /tmp: DTrace's message); -G is
refused, saying why.
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")
DTC = os.path.join(ROOT, "build", "host", "dtc")
PROVIDER = os.path.join("userland", "bin", "shop_provider.d")
BUILT_HEADER = os.path.join(ROOT, "build", "user", "usdt", "shop_provider.h")


def host_dtrace(*args, cpus=1, arch=""):
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)
    if arch and not os.path.exists(os.path.join(ROOT, "build", arch, "kernel.elf")):
        pytest.skip("build/%s/kernel.elf missing: make ARCH=%s" % (arch, arch))
    r = subprocess.run([TOOL] + list(args), cwd=ROOT, capture_output=True, text=True,
                       timeout=150, env=dict(os.environ, SONDE_TIMEOUT="120",
                                             SONDE_CPUS=str(cpus), SONDE_ARCH=arch))
    return r.returncode, r.stdout, r.stderr


def test_header_host_guest_and_build_agree(tmp_path):
    out = tmp_path / "shop_provider.h"
    r = subprocess.run([DTC, "-h", "-s", PROVIDER, "-o", str(out)], cwd=ROOT,
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    host = out.read_text()
    status, guest, err = host_dtrace("--file", PROVIDER, "--shell",
                                     "dtrace -h -s %s -o /tmp/shop_provider.h; "
                                     "cat /tmp/shop_provider.h" % PROVIDER)
    assert status == 0, err
    assert guest == host
    with open(BUILT_HEADER) as f:
        assert f.read() == host
    assert "#define SHOP_ORDER_START(arg0, arg1) \\\n" \
           "\tDTRACE_PROBE2(shop, order__start, (arg0), (arg1))\n" in host
    assert "#define SHOP_ORDER_DONE_ENABLED() \\\n" \
           "\tDTRACE_IS_ENABLED(shop, order__done)\n" in host
    assert "#define SHOP_CLOSED(arg0) \\\n" in host
    assert '#include "userland/libc/usdt.h"\n' in host


def test_header_default_name_and_G():
    status, out, err = host_dtrace("--file", PROVIDER, "--shell",
                                   "dtrace -h -s %s; dtrace -G -s %s" % (PROVIDER, PROVIDER))
    assert "dtrace: failed to open header file 'userland/bin/shop_provider.h': " \
           "Read-only file system\n" in err
    assert "dtrace: -G makes no object file in Sonde" in err
    assert status == 1


def test_data_model_flags_and_G_output():
    """-32 and -64 change nothing in -h's header (DTrace opens no device for
    -h, so -32 is allowed there); -G with -o refuses and leaves no file
    behind, since -o is -G's object, not the output."""
    status, out, err = host_dtrace("--file", PROVIDER, "--shell",
                                   "dtrace -h -s %s -o /tmp/a.h; cat /tmp/a.h; echo ==; "
                                   "dtrace -32 -h -s %s -o /tmp/a.h; cat /tmp/a.h; echo ==; "
                                   "dtrace -64 -h -s %s -o /tmp/a.h; cat /tmp/a.h; echo ==; "
                                   "dtrace -G -s %s -o /tmp/p.o; ls /tmp"
                                   % (PROVIDER, PROVIDER, PROVIDER, PROVIDER))
    a, b, c, rest = out.split("==\n")
    assert a == b == c and "#define SHOP_CLOSED(arg0)" in a
    assert "p.o" not in rest and "a.h" in rest
    assert "dtrace: -G makes no object file in Sonde" in err


FIRE = ('shop$target:::order-start { printf("start %s:%s %d %s\\n", probemod, probefunc, '
        'arg0, copyinstr(arg1)); } '
        'shop$target:::order-done { printf("done %d %d\\n", arg0, arg1); } '
        'shop$target:::closed { printf("closed %d\\n", arg0); } '
        'syscall::exit_group:entry /pid == $target/ { printf("status %d\\n", arg0); }')


@pytest.mark.parametrize("cpus,arch", [(1, ""), (4, ""), (1, "sparc64")])
def test_program_built_from_header_fires(cpus, arch):
    status, out, err = host_dtrace("-q", "-n", FIRE, "-c", "/bin/shop 3", cpus=cpus, arch=arch)
    assert status == 0, err
    lines = [l for l in out.splitlines() if l]
    expect = ["start shop:take 0 tea", "done 0 3", "start shop:take 1 bread", "done 1 8",
              "start shop:take 2 lamp", "done 2 10", "closed 3"]
    if arch == "":                       # sparc64 has no exit_group probe by that name
        expect.append("status 3")        # the is-enabled test said yes 3 times
    assert lines[:len(expect)] == expect, out


def test_untraced_is_enabled_says_no():
    status, out, err = host_dtrace("-q", "-n", "shop$target:::closed { printf(\"closed %d\\n\", arg0); } "
                                   "syscall::exit_group:entry /pid == $target/ "
                                   "{ printf(\"status %d\\n\", arg0); }", "-c", "/bin/shop 5")
    assert status == 0, err
    assert [l for l in out.splitlines() if l] == ["closed 5", "status 0"], out


ROW = re.compile(r"^ *\d+ +shop(\d+) +shop +(\S+) (\S+)$")


def listed(out):
    rows = [ROW.match(l) for l in out.splitlines()[1:] if l.strip()]
    assert all(rows), out
    assert len({m.group(1) for m in rows}) == 1, out
    return sorted((m.group(2), m.group(3)) for m in rows)


PROBES = [("main", "closed"), ("take", "order-done"), ("take", "order-start")]


@pytest.mark.parametrize("cpus,arch", [(1, ""), (4, ""), (1, "sparc64")])
def test_list_by_module_of_a_c_process(cpus, arch):
    status, out, err = host_dtrace("-l", "-m", "shop", "-c", "/bin/shop", cpus=cpus, arch=arch)
    assert status == 0, err
    assert out.splitlines()[0].split() == ["ID", "PROVIDER", "MODULE", "FUNCTION", "NAME"]
    assert listed(out) == PROBES


def test_list_by_provider_glob_of_a_running_process():
    status, out, err = host_dtrace("--shell", "/bin/shop 100000000 & dtrace -l -P 'shop*'; "
                                   "dtrace -l -m 'sh?p'; kill -9 1")
    assert status == 0, err
    listings = out.split("   ID")
    assert len(listings) == 3, out
    assert listed("   ID" + listings[1]) == PROBES
    assert listed("   ID" + listings[2]) == PROBES
