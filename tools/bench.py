#!/usr/bin/python3
"""bench.py - Sonde's figures: boot times, plus what each library's bench wrote.

  boot_direct_wall_s   wall seconds from starting QEMU (-kernel, PVH, qboot) to the
                       first `sonde# ` prompt on the serial console; median of 5
  boot_iso_wall_s      the same through GRUB from build/sonde.iso; median of 5
  boot_efi_wall_s      wall seconds from starting QEMU on OVMF firmware to the
                       prompt through Sonde's UEFI loader (build/efi/BOOTX64.EFI,
                       from an ESP folder served as a FAT drive); median of 3
  boot_iso_efi_wall_s  the same through GRUB-EFI from build/sonde.iso; median of 3
  boot_icount_cycles   guest time stamp counter at the moment the shell starts,
                       under -icount shift=0,align=off,sleep=off: the guest's
                       instruction count since reset (firmware included, plus
                       any halted time, which sleep=off skips over); run twice
                       and checked equal

Library benchmarks (dif-bench, dlang-bench, ...) write build/bench/<lib>.json
first; this script merges everything into build/bench.json and prints a table.
Reproduce with: make bench
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

from bench_guest import until

QEMU = ["qemu-system-x86_64", "-display", "none", "-serial", "stdio", "-no-reboot",
        "-m", "256M", "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04"]
PROMPT = b"sonde# "


def qemu_until(args, found, timeout, what):
    """Start QEMU; wait until found(output so far) returns non-None; kill QEMU.

    Returns (that value, wall seconds since the start)."""
    return until(QEMU + args, found, timeout, what)


def time_to_prompt(args, timeout=30.0):
    """Start QEMU, return wall seconds until the prompt appears; kill QEMU."""
    return qemu_until(args, lambda seen: PROMPT in seen or None, timeout,
                      "no prompt within %.0f s" % timeout)[1]


def bootstat_ns(seen):
    """The figure of the bootstat line in seen, or None before it arrives."""
    for line in seen.decode(errors="replace").splitlines():
        if line.startswith("bootstat:") and "ns since reset" in line:
            return int(line.split()[1])
    return None


def icount_cycles(kernel):
    args = ["-icount", "shift=0,align=off,sleep=off", "-bios", "qboot.rom", "-kernel", kernel,
            "-append", "bootstat"]
    return qemu_until(args, bootstat_ns, 60, "no bootstat line")[0]


OVMF = "/usr/share/ovmf/OVMF.fd"


def uefi_figures(build, runs=3):
    """Boot times on OVMF (firmware start-up included): the loader, GRUB-EFI."""
    import shutil
    import tempfile
    loader = os.path.join(build, "efi", "BOOTX64.EFI")
    subprocess.run(["make", "--no-print-directory", "-s", loader], check=True)
    uefi = ["-bios", OVMF, "-net", "none"]
    figures = {}
    with tempfile.TemporaryDirectory(prefix="sonde-bench-esp-") as esp:
        os.makedirs(os.path.join(esp, "EFI", "BOOT"))
        shutil.copy(loader, os.path.join(esp, "EFI", "BOOT", "BOOTX64.EFI"))
        shutil.copy(os.path.join(build, "kernel.elf"), os.path.join(esp, "kernel.elf"))
        drive = ["-drive", "if=none,id=esp,format=raw,file=fat:%s,readonly=on" % esp,
                 "-device", "virtio-blk-pci,drive=esp,bootindex=0"]
        for name, args in (("boot_efi_wall_s", drive),
                           ("boot_iso_efi_wall_s", ["-cdrom", os.path.join(build, "sonde.iso")])):
            t = [time_to_prompt(uefi + args, timeout=120) for _ in range(runs)]
            figures[name] = {"value": round(statistics.median(t), 3),
                             "runs": [round(x, 3) for x in t]}
    return figures


def guest_compile_cycles(kernel, script):
    """Guest instructions for `dtrace -e -s SCRIPT` (compile only) under icount."""
    args = QEMU + ["-icount", "shift=0,align=off,sleep=off", "-bios", "qboot.rom", "-kernel", kernel,
                   "-append", 'quiet bootstat cmd="dtrace -e -s %s"' % script]
    r = subprocess.run(args, stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    for line in r.stdout.decode(errors="replace").splitlines():
        if line.startswith("bootstat:") and "in the command" in line:
            return int(line.split()[1])
    raise RuntimeError("no bootstat line: %r" % r.stdout[-300:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=5)
    opts = ap.parse_args()
    kernel = os.path.join(opts.build, "kernel.elf")
    iso = os.path.join(opts.build, "sonde.iso")

    figures = {}
    direct = [time_to_prompt(["-bios", "qboot.rom", "-kernel", kernel]) for _ in range(opts.runs)]
    figures["boot_direct_wall_s"] = {"value": round(statistics.median(direct), 3),
                                     "runs": [round(x, 3) for x in direct],
                                     "target": "< 0.5"}
    isos = [time_to_prompt(["-cdrom", iso]) for _ in range(opts.runs)]
    figures["boot_iso_wall_s"] = {"value": round(statistics.median(isos), 3),
                                  "runs": [round(x, 3) for x in isos], "target": "< 2"}
    figures.update(uefi_figures(opts.build))
    c1, c2 = icount_cycles(kernel), icount_cycles(kernel)
    figures["boot_icount_cycles"] = {"value": c1, "deterministic": c1 == c2,
                                     "runs": [c1, c2]}

    script = "/scripts/oncpu.d"             # 32 lines, 20 of D
    g1, g2 = guest_compile_cycles(kernel, script), guest_compile_cycles(kernel, script)
    figures["guest_compile_cycles"] = {"value": g1, "deterministic": g1 == g2, "script": script,
                                       "note": "dtrace -e -s (option parsing, compile, "
                                               "no enabling) in guest instructions under icount"}

    bench_dir = os.path.join(opts.build, "bench")
    for name in sorted(os.listdir(bench_dir)) if os.path.isdir(bench_dir) else []:
        if name.endswith(".json"):
            with open(os.path.join(bench_dir, name)) as f:
                try:
                    figures[name[:-5]] = json.load(f)
                except json.JSONDecodeError as e:
                    figures[name[:-5]] = {"error": str(e)}

    out = os.path.join(opts.build, "bench.json")
    with open(out, "w") as f:
        json.dump(figures, f, indent=2, sort_keys=True)
    print("%-28s %s" % ("figure", "value"))
    for k, v in figures.items():
        shown = v.get("value", v) if isinstance(v, dict) else v
        if isinstance(shown, dict):
            shown = json.dumps(shown, sort_keys=True)
        print("%-28s %s" % (k, shown))
    print("(written to %s)" % out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
