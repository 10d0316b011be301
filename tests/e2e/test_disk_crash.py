"""The ext2 disk under stress and when the guest dies mid-write, checked by the host's e2fsprogs.

test_stress_4cpus_fsck_clean: /bin/fsstress, 4 processes x 2,500 operations
(10,000 in all) on /disk on 4 CPUs, every byte checked in the guest; then
`sync` and a clean halt, and the host's `e2fsck -fn` finds nothing wrong.

test_killed_mid_write: /bin/fsyncer writes files one after another, each
fsync'ed before the next; the guest is killed (SIGKILL to QEMU) while it
writes.  ext2 has no journal, so as on any ext2 system the image may need
the boot-time check: `e2fsck -fp` (preen: it fixes only what is safe to fix
unattended, and exits above 1 if anything else is wrong) must succeed,
after which `e2fsck -fn` finds nothing; and every file the guest said was
durable holds exactly its bytes (read back with `debugfs`).
"""

import re
import shutil
import subprocess

import pytest

from conftest import BOOT_TIMEOUT, DISK

E2FSCK = "/usr/sbin/e2fsck"
DEBUGFS = "/usr/sbin/debugfs"
SIZE = 20 * 1024 + 123            # userland/bin/fsyncer.c


def fsck(image, *opts):
    r = subprocess.run([E2FSCK, *opts, image], capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def fsyncer_bytes(k):
    return bytes(((k * 7 + i + (i >> 8)) & 0xff) for i in range(SIZE))


@pytest.fixture
def image(tmp_path):
    path = str(tmp_path / "disk.img")
    shutil.copyfile(DISK, path)
    return path


def test_stress_4cpus_fsck_clean(boot, image):
    g = boot(disk=image, extra=["-smp", "4"])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    out = g.run("/bin/fsstress /disk 4 2500", timeout=600)
    assert "fsstress: 4 processes, 10000 ops, 0 errors" in out, out
    assert g.run("sync") == ""
    g.sendline("halt")
    g.wait_exit(timeout=60)
    rc, report = fsck(image, "-fn")
    assert rc == 0, report


def test_killed_mid_write(boot, image):
    g = boot(disk=image)
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    g.sendline("/bin/fsyncer /disk")
    g.expect(r"fsyncer: k12 durable", timeout=300)
    g.close()                                  # SIGKILL: mid-way through k13's write
    durable = [int(k) for k in re.findall(r"fsyncer: k(\d+) durable", g.before + g.child.after)]
    assert durable and max(durable) >= 12, durable
    rc, report = fsck(image, "-fp")
    assert rc in (0, 1), report                # 0 clean, 1 fixed safely
    rc, report = fsck(image, "-fn")
    assert rc == 0, report
    for k in range(max(durable) + 1):
        r = subprocess.run([DEBUGFS, "-R", "cat /k%d" % k, image], capture_output=True,
                           timeout=60)
        assert r.stdout == fsyncer_bytes(k), "k%d: %d bytes read back" % (k, len(r.stdout))
