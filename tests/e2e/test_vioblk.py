"""The virtio disk driver (kernel/virtio_blk.c) as guests meet it.

test_guest_has_a_disk: the boot fixture's fresh copy of build/disk.img is
vioblk0 (the `devices` command lists it).
test_pci_command: `pci` lists the disk's PCI function and the disk.
test_firmware_bars[qboot|seabios]: `pci -v` under each direct-boot firmware:
qboot leaves the I/O BARs for the kernel to place (kernel/pci.c), SeaBIOS
places them itself; either way the disk's BAR0 is an I/O BAR with an
address, and the disk works (the motd reads back).
test_selftest_smp4: the blk_virtio self-tests on four CPUs, through the fixture's disk.
test_two_disks_one_read_only: two disks are vioblk0 and vioblk1, the second read-only.
test_empty_disk_is_refused: a disk of 0 sectors gets a clear message at boot
and is not attached; the guest runs on.
test_dtrace_disk_option: tools/dtrace --disk none attaches no disk; --disk
IMAGE uses IMAGE itself; by default a copy of build/disk.img.
"""

import os
import re
import shutil
import subprocess

import pytest

from conftest import BOOT_TIMEOUT, DISK, EXIT_HALT, ROOT, disk_argv


def test_guest_has_a_disk(guest):
    out = guest.run("devices")
    assert re.search(r"^vioblk\s+0\s+disk\s+\d+$", out, re.M), out
    assert not re.search(r"^vioblk\s+1\s", out, re.M), out


def test_pci_command(guest):
    out = guest.run("pci")
    assert out.startswith("BDF      VENDOR:DEV CLASS IRQ\n"), out
    m = re.search(r"^00:([0-9a-f]{2})\.0  1af4:1001  0100 +(\d+)$", out, re.M)
    assert m, out
    slot = int(m.group(1), 16)
    assert re.search(r"^vioblk0  32768 +rw   /devices/pci@0,0/pci1af4,2@%x:a$" % slot, out, re.M), out


@pytest.mark.parametrize("firmware", ["qboot", "seabios"])
def test_firmware_bars(firmware):
    env = dict(os.environ, SONDE_FIRMWARE=firmware)
    r = subprocess.run([os.path.join(ROOT, "tools", "dtrace"), "--shell",
                        "pci -v; cat /disk/etc/motd"], env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    m = re.search(r"^00:[0-9a-f]{2}\.0  1af4:1001  0100 +\d+\n(( {9}BAR.*\n)+)", r.stdout, re.M)
    assert m, r.stdout
    bar0 = re.search(r"BAR0 io   0x([0-9a-f]+) (\d+)$", m.group(1), re.M)
    assert bar0 and int(bar0.group(1), 16) != 0 and int(bar0.group(2)) >= 32, m.group(1)
    assert "Welcome to Sonde." in r.stdout, r.stdout


def test_selftest_smp4(boot):
    g = boot(append="selftest=blk_virtio*", extra=["-smp", "4"])
    out, status = g.output_until_exit(timeout=120)
    assert status == EXIT_HALT, out
    assert re.search(r"^ok \d+ - blk_virtio$", out, re.M), out
    assert re.search(r"^ok \d+ - blk_virtio_bad_input$", out, re.M), out
    assert "read-write" in out and "skipped" not in out, out


def test_two_disks_one_read_only(boot, tmp_path):
    second = str(tmp_path / "second.img")
    shutil.copyfile(DISK, second)
    extra = ["-drive", "file=%s,if=none,id=disk1,format=raw,readonly=on" % second,
             "-device", "virtio-blk-pci,drive=disk1"]
    g = boot(append="selftest=blk_virtio", extra=extra)
    out, status = g.output_until_exit(timeout=120)
    assert status == EXIT_HALT, out
    assert re.search(r"# blk_virtio: vioblk0 at \S+: 32768 sectors, read-write", out), out
    assert re.search(r"# blk_virtio: vioblk1 at \S+: 32768 sectors, read-only", out), out


def test_empty_disk_is_refused(boot, tmp_path):
    empty = tmp_path / "empty.img"
    empty.write_bytes(b"")
    g = boot(disk=str(empty))
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    assert "capacity is 0 sectors: not attached" in g.before, g.before
    out = g.run("devices")
    assert "vioblk" not in out, out


def run_dtrace(*args):
    return subprocess.run([os.path.join(ROOT, "tools", "dtrace")] + list(args),
                          capture_output=True, text=True, timeout=120)


def test_dtrace_disk_option(tmp_path):
    r = run_dtrace("--disk", "none", "--shell", "devices")
    assert r.returncode == 0, r.stderr
    assert "vioblk" not in r.stdout, r.stdout
    r = run_dtrace("--shell", "devices")
    assert r.returncode == 0, r.stderr
    assert re.search(r"^vioblk\s+0\s+disk", r.stdout, re.M), r.stdout
    r = run_dtrace("--disk", str(tmp_path / "missing.img"), "--shell", "devices")
    assert r.returncode == 2 and "no such file" in r.stderr, r.stderr
