"""/disk: the ext2 file system (kernel/ext2.c) a guest mounts from its disk.

Each test boots a guest with its own copy of build/disk.img (or a broken
one) as its virtio disk, works at the prompt, and afterwards the host's
e2fsprogs look at the image: `e2fsck -fn` must find it clean once the guest
has synced, and `debugfs -R "cat PATH"` must print what the guest wrote.

test_motd: cat /disk/etc/motd prints the tree's disk/etc/motd.
test_write_sync_fsck: a file written at the prompt, /bin/diskcheck's system
calls (fsync, rename, mkdir, ...), then sync: e2fsck clean, contents right.
test_two_processes_two_cpus: two diskchecks at once on two CPUs, in two
directories: both pass, and e2fsck finds the image clean.
test_no_disk: without a disk, one boot line says so and /disk is absent.
test_not_ext2: a disk without an ext2 superblock: a boot line, no /disk, the
shell runs.
test_corrupt_image: an ext2 superblock over a broken group descriptor: the
reason at boot, no /disk, the shell runs.

The tests that need the guest's disk skip, saying so, when the kernel has no
disk driver (no "disk: /disk is ext2" line at boot).
"""

import inspect
import os
import shutil
import struct
import subprocess

import pytest

from conftest import BOOT_TIMEOUT, ROOT

DISK = os.path.join(ROOT, "build", "disk.img")
E2FSCK = "/usr/sbin/e2fsck"
DEBUGFS = "/usr/sbin/debugfs"


def disk_args(image):
    return ["-drive", "file=%s,if=none,id=disk0,format=raw" % image.replace(",", ",,"),
            "-device", "virtio-blk-pci,drive=disk0"]


def boot_with(boot, image, append=None):
    """A guest at its prompt with image as its only disk (None: no disk)."""
    if "disk" in inspect.signature(boot).parameters:     # the fixture attaches disks itself
        g = boot(append=append, disk=image)
    else:
        g = boot(append=append, extra=disk_args(image) if image else ())
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    return g


def fresh_image(tmp_path):
    if not os.path.exists(DISK):
        pytest.fail("build/disk.img is missing: run `make` first")
    image = str(tmp_path / "disk.img")
    shutil.copyfile(DISK, image)
    return image


def need_disk(g):
    if "disk: /disk is ext2" not in g.before:
        pytest.skip("the guest has no /disk (no disk driver in this kernel?): " +
                    " ".join(l for l in g.before.splitlines() if l.startswith("disk:")))


def need_tools():
    for tool in (E2FSCK, DEBUGFS):
        if not os.access(tool, os.X_OK):
            pytest.skip("%s is missing (Debian's e2fsprogs)" % tool)


def debugfs_cat(image, path):
    r = subprocess.run([DEBUGFS, "-R", "cat " + path, image], capture_output=True, timeout=60)
    return r.stdout


def test_motd(boot, tmp_path):
    g = boot_with(boot, fresh_image(tmp_path))
    need_disk(g)
    with open(os.path.join(ROOT, "disk", "etc", "motd")) as f:
        motd = f.read()
    assert g.run("cat /disk/etc/motd") == motd
    out = g.run("ls /disk")
    assert "etc/" in out and "lost+found/" in out, out


def test_write_sync_fsck(boot, tmp_path):
    need_tools()
    image = fresh_image(tmp_path)
    g = boot_with(boot, image)
    need_disk(g)
    g.run("echo hello disk > /disk/hello.txt")
    assert g.run("cat /disk/hello.txt") == "hello disk\n"
    out = g.run("/bin/diskcheck", timeout=60)
    assert "0 failed" in out, out
    assert g.run("sync") == ""
    r = subprocess.run([E2FSCK, "-fn", image], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert debugfs_cat(image, "/hello.txt") == b"hello disk\n"
    assert debugfs_cat(image, "/diskcheck.out") == b"diskcheck wrote this\n"
    assert debugfs_cat(image, "/diskcheck.big") == bytes((i * 7 + 3) & 0xFF for i in range(65536))
    out = g.run("df")
    assert "/disk:" in out, out


def test_two_processes_two_cpus(boot, tmp_path):
    need_tools()
    image = fresh_image(tmp_path)
    if "disk" in inspect.signature(boot).parameters:
        g = boot(disk=image, extra=["-smp", "2"])
    else:
        g = boot(extra=disk_args(image) + ["-smp", "2"])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    need_disk(g)
    g.run("/bin/mkdir /disk/a /disk/b")
    out = g.run("/bin/diskcheck /disk/a > /tmp/a.out & /bin/diskcheck /disk/b > /tmp/b.out & wait",
                timeout=120)
    for d in ("a", "b"):
        out = g.run("cat /tmp/%s.out" % d)
        assert "0 failed" in out, out
    assert g.run("sync") == ""
    r = subprocess.run([E2FSCK, "-fn", image], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    for d in ("a", "b"):
        assert debugfs_cat(image, "/%s/diskcheck.out" % d) == b"diskcheck wrote this\n"


def test_no_disk(boot):
    g = boot_with(boot, None)
    assert "disk: no disk: /disk not mounted" in g.before, g.before
    assert "no such file" in g.run("cat /disk/etc/motd")


def test_not_ext2(boot, tmp_path):
    image = str(tmp_path / "zeros.img")
    with open(image, "wb") as f:
        f.truncate(1 << 20)
    g = boot_with(boot, image)
    if "disk: no disk:" in g.before:
        pytest.skip("the guest sees no disk (no disk driver in this kernel?)")
    assert "disk: no disk holds an ext2 file system: /disk not mounted" in g.before, g.before
    assert g.run("echo alive") == "alive\n"


def test_corrupt_image(boot, tmp_path):
    image = fresh_image(tmp_path)
    with open(image, "r+b") as f:             # group 0's inode table: past the end
        f.seek(2048 + 8)
        f.write(struct.pack("<I", 0x7FFFFFFF))
    g = boot_with(boot, image)
    if "disk: no disk:" in g.before:
        pytest.skip("the guest sees no disk (no disk driver in this kernel?)")
    assert "group 0's descriptor is corrupt: not mounted" in g.before, g.before
    assert "/disk not mounted" in g.before, g.before
    assert g.run("echo alive") == "alive\n"
    assert "no such file" in g.run("cat /disk/etc/motd")
