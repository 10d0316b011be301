# mk/run.mk - boot Sonde in QEMU.
#
#   make run                 the GRUB ISO (BOOT=iso, the default)
#   make run BOOT=direct     the kernel straight from QEMU (-kernel, PVH, from
#                            qboot; FIRMWARE=seabios: QEMU's default firmware)
#   make run BOOT=efi        OVMF firmware and Sonde's UEFI loader, from
#                            build/esp/ served as a read-only FAT drive
#                            (APPEND goes into build/esp/cmdline.txt)
#   make run BOOT=iso-efi    OVMF firmware and the GRUB ISO (GRUB-EFI)
#   make run CPUS=4 MEM=512M APPEND='cmd="ps"'
#   make debug               QEMU stopped at the first instruction, waiting
#                            for gdb; then: gdb -x build/gdbinit
#
# Every boot but sparc64's attaches build/disk.img (mk/disk.mk) as a
# virtio disk, written in place (DISK=path: another image; DISK=none: none);
# with BOOT=efi it comes before the ESP's drive, so it is vioblk0.
#
# The serial console is the terminal.  Ctrl-C goes to Sonde (signal=off);
# leave with `halt` at the prompt, or Ctrl-A x.  QEMU's exit status 33 means
# a clean power-off; 3 a crash.

QEMU_COMMON := $(QEMU) -display none -no-reboot -m $(MEM) -smp $(CPUS) \
               -device isa-debug-exit,iobase=0xf4,iosize=0x04
QEMU_SERIAL := -chardev stdio,id=con0,mux=on,signal=off -serial chardev:con0 \
               -mon chardev=con0,mode=readline
# The disk: build/disk.img is made if missing; another DISK must exist.
DISK      ?= $(BUILD)/disk.img
ifeq ($(DISK),none)
QEMU_DISK :=
else
QEMU_DISK := -drive file=$(DISK),if=none,id=disk0,format=raw -device virtio-blk-pci,drive=disk0
endif
# OVMF with its variables in RAM (nothing persists between runs); no NIC, so
# that a failed disk boot does not wait for a network boot.
OVMF      := /usr/share/ovmf/OVMF.fd
QEMU_UEFI := -bios $(OVMF) -net none
ifeq ($(BOOT),direct)
QEMU_BOOT := $(DIRECT_FW) -kernel $(BUILD)/kernel.elf $(if $(APPEND),-append '$(APPEND)')
RUN_DEPS  := $(BUILD)/kernel.elf
else ifeq ($(BOOT),efi)
QEMU_BOOT := $(QEMU_UEFI) -drive if=none,id=esp,format=raw,file=fat:$(BUILD)/esp,readonly=on \
             -device virtio-blk-pci,drive=esp,bootindex=0
RUN_DEPS  := esp
else ifeq ($(BOOT),iso-efi)
QEMU_BOOT := $(QEMU_UEFI) -cdrom $(BUILD)/sonde.iso
RUN_DEPS  := $(BUILD)/sonde.iso
else ifneq ($(BOOT),iso)
QEMU_BOOT :=
RUN_DEPS  := boot-unknown
else
QEMU_BOOT := -cdrom $(BUILD)/sonde.iso
RUN_DEPS  := $(BUILD)/sonde.iso
endif
RUN_DEPS  += $(filter $(BUILD)/disk.img,$(DISK))

.PHONY: run debug deps boot-unknown
boot-unknown:
	@echo "sonde: BOOT=$(BOOT): unknown (iso, direct, efi, iso-efi)"; exit 2

deps:
	@sh tools/deps.sh

ifeq ($(ARCH),sparc64)
run: sparc64-run
else
run: deps
	@$(MAKE) --no-print-directory $(RUN_DEPS)
	@$(QEMU_COMMON) $(QEMU_SERIAL) $(QEMU_DISK) $(QEMU_BOOT); s=$$?; \
	case $$s in 33) exit 0;; 3) echo "sonde: the kernel crashed (QEMU status 3)"; exit 1;; \
	*) echo "sonde: QEMU exited with status $$s"; [ $$s -gt 33 ] && exit 0; exit 1;; esac
endif

$(BUILD)/gdbinit: mk/run.mk
	@mkdir -p $(@D)
	printf '%s\n' 'file $(BUILD)/kernel.elf' 'target remote localhost:1234' \
		'set disassembly-flavor intel' 'echo Sonde: use hbreak (e.g. hbreak kmain), then continue\n' > $@

debug: deps $(BUILD)/kernel.elf $(BUILD)/gdbinit
	@echo "QEMU waits for gdb on :1234; in another terminal: gdb -x $(BUILD)/gdbinit"
	@$(QEMU_COMMON) $(QEMU_SERIAL) -kernel $(BUILD)/kernel.elf -s -S; true
