"""UEFI boot on OVMF: Sonde's own loader and GRUB-EFI (docs/boot.md).

On the firmware:
  - the loader (build/efi/BOOTX64.EFI) boots kernel.elf from an ESP folder
    served as a read-only FAT drive, with cmdline.txt and a module listed
    in modules.txt, to the prompt; a D one-liner runs; halt powers off;
  - the GRUB ISO boots the same way through GRUB-EFI (multiboot2);
  - a missing kernel.elf and a truncated one are reported with their EFI
    status, and the loader gives control back to the firmware, which says
    so (BdsDxe: failed to start ...) and never runs the kernel.
On the host, without QEMU:
  - `make sonde-efi.img` holds the loader and the kernel, byte for byte;
  - the loader's ELF checks (boot/efi/elf.c, built with boot/efi/elf_host.c
    in place of the firmware) reject each kind of corrupt kernel with its
    own message, load a good one byte for byte at its physical addresses,
    and survive a few hundred random corruptions.

OVMF needs 3-4 s of CPU under TCG before the loader runs (more on a loaded
machine), so every wait for the firmware is bounded by EFI_TIMEOUT.
"""

import os
import random
import struct
import subprocess

import pytest

from conftest import EXIT_HALT, QEMU, ROOT, Guest

OVMF = "/usr/share/ovmf/OVMF.fd"
KERNEL = os.path.join(ROOT, "build", "kernel.elf")
ISO = os.path.join(ROOT, "build", "sonde.iso")
LOADER = os.path.join(ROOT, "build", "efi", "BOOTX64.EFI")
EFI_TIMEOUT = 90           # firmware start-up to the loader or the prompt
RETURN_TIMEOUT = 30        # the loader's 10 s pause at most, then the firmware
ONE_LINER = "dtrace -n 'BEGIN { printf(\"hi\\n\"); exit(0); }'"
LOAD_ERROR = ": EFI_LOAD_ERROR"
FUZZ_N = int(os.environ.get("SONDE_EFI_FUZZ", "300"))   # corrupt kernels on the host


# --- on OVMF --------------------------------------------------------------------

@pytest.fixture(scope="module")
def efi_built():
    """The loader, built now (make all does not); the kernel and ISO must exist."""
    if not os.path.isfile(OVMF):
        pytest.fail(f"{OVMF} is missing: apt-get install ovmf (or make deps)")
    r = subprocess.run(["make", "--no-print-directory", "-s", "build/efi/BOOTX64.EFI"],
                       cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, "building the loader failed:\n" + r.stdout
    for path in (KERNEL, ISO):
        if not os.path.isfile(path):
            pytest.fail(f"{os.path.relpath(path, ROOT)} is missing: run `make` first")


@pytest.fixture
def uefi(efi_built):
    """Factory: uefi(qemu boot arguments) -> Guest on OVMF, killed at teardown."""
    guests = []

    def start(boot_args):
        argv = [QEMU, "-display", "none", "-no-reboot", "-m", "256M",
                "-serial", "stdio", "-monitor", "none",
                "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04",
                "-bios", OVMF, "-net", "none"] + boot_args
        g = Guest(argv)
        guests.append(g)
        return g

    yield start
    for g in guests:
        g.close()


def make_esp(root, kernel=None, files=None):
    """An ESP folder: the loader, kernel.elf (bytes; None for none), other files."""
    os.makedirs(os.path.join(root, "EFI", "BOOT"))
    with open(LOADER, "rb") as f:
        loader = f.read()
    with open(os.path.join(root, "EFI", "BOOT", "BOOTX64.EFI"), "wb") as f:
        f.write(loader)
    for name, data in dict(files or {}, **({"kernel.elf": kernel} if kernel else {})).items():
        path = os.path.join(root, *name.split("/"))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data if isinstance(data, bytes) else data.encode())
    return ["-drive", "if=none,id=esp,format=raw,file=fat:%s,readonly=on" % root,
            "-device", "virtio-blk-pci,drive=esp,bootindex=0"]


def kernel_bytes():
    with open(KERNEL, "rb") as f:
        return f.read()


def assert_one_liner(g):
    """The D one-liner prints hi from BEGIN (dtrace's default CPU/ID/PROBE columns)."""
    lines = g.run(ONE_LINER).splitlines()
    assert "dtrace: description 'BEGIN ' matched 1 probe" in lines
    assert any(line.split()[-2:] == [":BEGIN", "hi"] for line in lines if line.strip()), lines


def test_loader_boots_to_the_prompt_and_runs_d(uefi, tmp_path):
    g = uefi(make_esp(str(tmp_path), kernel_bytes(), {
        "cmdline.txt": "bootstat\n",
        "modules.txt": "# one plain file\nnotes/hello.txt\n",
        "notes/hello.txt": "hello from the ESP\n"}))
    g.expect_exact("sonde-efi: command line: bootstat", timeout=EFI_TIMEOUT)
    g.expect_exact("sonde-efi: module notes/hello.txt: 19 bytes")
    g.expect_exact("sonde-efi: starting the kernel")
    g.expect(r"booted by uefi: (\d+) MiB of memory")
    # 256 MiB less OVMF's runtime, ACPI and NVS regions (about 6 MiB): boot
    # services and loader memory must have been counted as usable.
    assert 240 <= int(g.child.match.group(1)) <= 256
    g.expect_exact("bootstat: ")               # cmdline.txt reached the kernel
    g.wait_prompt()
    assert_one_liner(g)
    assert "hello from the ESP" in g.run("cat notes/hello.txt")
    g.sendline("halt")
    assert g.wait_exit() == EXIT_HALT


def test_grub_efi_boots_the_iso_and_runs_d(uefi):
    g = uefi(["-cdrom", ISO])
    g.expect_exact("booted by multiboot2", timeout=EFI_TIMEOUT)
    g.wait_prompt()
    assert_one_liner(g)
    g.sendline("halt")
    assert g.wait_exit() == EXIT_HALT


def expect_return_to_firmware(g, status_name):
    """The loader says it fails and why, pauses, and the firmware takes over again."""
    g.expect_exact("sonde-efi: boot failed (%s); returning to the firmware" % status_name)
    g.expect_exact("press a key")
    g.send("\r")                               # skip the 10 s pause
    g.expect_exact("BdsDxe: failed to start", timeout=RETURN_TIMEOUT)
    assert "starting the kernel" not in g.before


def test_loader_reports_a_missing_kernel_and_returns(uefi, tmp_path):
    g = uefi(make_esp(str(tmp_path)))
    g.expect_exact("sonde-efi: error: kernel.elf: not found at the root of the loader's "
                   "volume: EFI_NOT_FOUND", timeout=EFI_TIMEOUT)
    expect_return_to_firmware(g, "EFI_NOT_FOUND")


def test_loader_rejects_a_truncated_kernel_and_returns(uefi, tmp_path):
    g = uefi(make_esp(str(tmp_path), kernel_bytes()[:100000]))
    g.expect_exact("sonde-efi: error: kernel.elf: bad ELF: a segment runs past the end of "
                   "the file" + LOAD_ERROR, timeout=EFI_TIMEOUT)
    expect_return_to_firmware(g, "EFI_LOAD_ERROR")


def test_usb_image_holds_the_loader_and_the_kernel(efi_built):
    # make sonde-efi.img: a FAT image for a USB stick (booted by hand on OVMF
    # as usb-storage; here only its contents are checked, no firmware run).
    r = subprocess.run(["make", "--no-print-directory", "-s", "sonde-efi.img"], cwd=ROOT,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, r.stdout
    img = os.path.join(ROOT, "build", "sonde-efi.img")
    for path, local in (("::/EFI/BOOT/BOOTX64.EFI", LOADER), ("::/kernel.elf", KERNEL)):
        r = subprocess.run(["mtype", "-i", img, path], stdout=subprocess.PIPE)
        with open(local, "rb") as f:
            assert r.returncode == 0 and r.stdout == f.read(), path


# --- the ELF checks on the host ---------------------------------------------------

@pytest.fixture(scope="module")
def elf_host(tmp_path_factory):
    """boot/efi/elf.c with the host stand-ins of boot/efi/elf_host.c."""
    exe = str(tmp_path_factory.mktemp("elf_host") / "elf_host")
    r = subprocess.run(["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-I" + ROOT,
                        "-I/usr/include/efi", "-I/usr/include/efi/x86_64",
                        "-DGNU_EFI_USE_MS_ABI", "-fshort-wchar", "-O1", "-g", "-o", exe,
                        os.path.join(ROOT, "boot/efi/elf_host.c"),
                        os.path.join(ROOT, "boot/efi/elf.c")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert r.returncode == 0, "building elf_host failed:\n" + r.stdout
    return exe


def run_elf_host(exe, tmp_path, images, refuse=None):
    """Run the checks on each image (bytes); returns the output per image."""
    paths = []
    for i, data in enumerate(images):
        paths.append(str(tmp_path / ("k%d.elf" % i)))
        with open(paths[-1], "wb") as f:
            f.write(data)
    argv = [exe] + (["-r", hex(refuse)] if refuse is not None else []) + paths
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    assert r.returncode in (0, 1), "elf_host died (status %d):\n%s" % (r.returncode, r.stdout)
    outs = r.stdout.decode("latin-1").split("== ")[1:]
    assert len(outs) == len(images), r.stdout
    return outs


class Elf:
    """kernel.elf's bytes with its headers at hand, for making it wrong."""

    def __init__(self):
        self.b = bytearray(kernel_bytes())
        self.phoff, = struct.unpack_from("<Q", self.b, 32)
        self.phnum, = struct.unpack_from("<H", self.b, 56)

    def ph(self, kind, n=0):
        """Offset of the n-th program header of type kind (1 = PT_LOAD, 4 = PT_NOTE)."""
        offs = [self.phoff + 56 * i for i in range(self.phnum)
                if struct.unpack_from("<I", self.b, self.phoff + 56 * i)[0] == kind]
        return offs[n]

    def put(self, fmt, off, *values):
        struct.pack_into(fmt, self.b, off, *values)
        return self

    def get(self, fmt, off):
        return struct.unpack_from(fmt, self.b, off)[0]

    def note_desc(self):
        """Offset of the entry in the "Sonde" note (after the 20-byte Xen note)."""
        base = self.get("<Q", self.ph(4) + 8)
        assert bytes(self.b[base + 20 + 12:base + 20 + 17]) == b"Sonde"
        return base + 20


def seg_field(n, field):                       # p_offset 8, p_paddr 24, p_filesz 32, p_memsz 40
    return lambda e: e.ph(1, n) + field


CORRUPTIONS = [
    ("bad_magic", lambda e: e.put("<B", 1, ord("X")), "bad ELF: not an ELF file"),
    ("elf32", lambda e: e.put("<B", 4, 1), "not a little-endian 64-bit x86-64 file"),
    ("wrong_machine", lambda e: e.put("<H", 18, 3), "not a little-endian 64-bit x86-64 file"),
    ("shared_object", lambda e: e.put("<H", 16, 3), "bad ELF: not an executable"),
    ("phoff_past_end", lambda e: e.put("<Q", 32, len(e.b) - 8),
     "program headers missing or outside the file"),
    ("phoff_wraps", lambda e: e.put("<Q", 32, 2**64 - 56), "program headers missing or outside"),
    ("no_phdrs", lambda e: e.put("<H", 56, 0), "program headers missing or outside the file"),
    ("segment_past_end", lambda e: e.put("<Q", seg_field(1, 32)(e), len(e.b)),
     "a segment runs past the end of the file"),
    ("offset_wraps", lambda e: e.put("<Q", seg_field(1, 8)(e), 2**64 - 16),
     "a segment runs past the end of the file"),
    ("filesz_over_memsz", lambda e: e.put("<Q", seg_field(2, 40)(e), 16),
     "a segment is larger in the file than in memory"),
    ("above_1gib", lambda e: e.put("<Q", seg_field(1, 24)(e), 0x40000000 - 0x1000),
     "is not inside the first GiB"),
    ("paddr_wraps", lambda e: e.put("<Q", seg_field(1, 24)(e), 2**64 - 0x1000),
     "is not inside the first GiB"),
    ("overlap", lambda e: e.put("<Q", seg_field(2, 24)(e), e.get("<Q", seg_field(1, 24)(e)) + 0x10),
     "overlap"),
    ("no_entry_note", lambda e: e.put("<I", e.note_desc() + 8, 0x1234),
     "no \"Sonde\" entry note"),
    ("entry_in_data", lambda e: e.put("<Q", e.note_desc() + 20, e.get("<Q", seg_field(3, 24)(e))),
     "is not in an identity-linked executable segment"),
    ("note_size_huge", lambda e: e.put("<I", e.note_desc(), 0xfffffff0),
     "no \"Sonde\" entry note"),
]


@pytest.mark.parametrize("name,corrupt,message", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_elf_check_rejects(elf_host, tmp_path, name, corrupt, message):
    out, = run_elf_host(elf_host, tmp_path, [bytes(corrupt(Elf()).b)])
    assert message in out and out.rstrip().endswith("status: EFI_LOAD_ERROR"), out


def test_elf_load_copies_the_segments_to_their_physical_addresses(elf_host, tmp_path):
    out, = run_elf_host(elf_host, tmp_path, [kernel_bytes()])
    assert "5 segments loaded" in out or "segments loaded" in out, out
    assert out.rstrip().endswith("status: EFI_SUCCESS"), out


def test_elf_load_with_program_headers_past_the_first_4k(elf_host, tmp_path):
    # The early reservation cannot see them; elf_load reserves instead.
    e = Elf()
    table = bytes(e.b[e.phoff:e.phoff + 56 * e.phnum])
    e.put("<Q", 32, len(e.b))
    e.b += table
    out, = run_elf_host(elf_host, tmp_path, [bytes(e.b)])
    assert out.rstrip().endswith("status: EFI_SUCCESS"), out


def test_elf_load_reports_memory_the_firmware_refuses(elf_host, tmp_path):
    out, = run_elf_host(elf_host, tmp_path, [kernel_bytes()], refuse=0x120000)
    assert "cannot reserve its memory" in out and out.rstrip().endswith("EFI_NOT_FOUND"), out


def test_elf_check_survives_random_corruption(elf_host, tmp_path):
    """FUZZ_N kernels with 1-8 random bytes of their headers changed: an answer for each."""
    rng = random.Random(9)
    good = kernel_bytes()
    e = Elf()
    hot = list(range(0, 64)) + list(range(e.phoff, e.phoff + 56 * e.phnum))
    note = e.get("<Q", e.ph(4) + 8)
    hot += list(range(note, note + 48))
    images = []
    for _ in range(FUZZ_N):
        b = bytearray(good)
        for _ in range(rng.randint(1, 8)):
            b[rng.choice(hot)] = rng.randrange(256)
        images.append(bytes(b))
    outs = run_elf_host(elf_host, tmp_path, images)
    for out in outs:
        assert "\nstatus: " in out, out
