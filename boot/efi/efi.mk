# boot/efi/efi.mk - Sonde's UEFI loader and what boots it (included by mk/kernel.mk).
#
#   build/efi/BOOTX64.EFI   the loader, built with Debian's gnu-efi (package gnu-efi)
#   build/esp/              a folder laid out as an EFI system partition:
#                           EFI/BOOT/BOOTX64.EFI, kernel.elf, and cmdline.txt
#                           when APPEND is set; `make run BOOT=efi` serves it
#                           to OVMF as a read-only FAT drive
#   build/sonde-efi.img     the same as a FAT32 disk image (no partition table)
#                           to write to a USB stick: dd if=build/sonde-efi.img
#                           of=/dev/sdX; `make sonde-efi.img` builds it
#
# gnu-efi's crt0 calls efi_main with the SysV ABI; GNU_EFI_USE_MS_ABI makes
# the firmware's function pointers ms_abi so that C calls them directly.

EFI_INC     := /usr/include/efi
EFI_LIB     := /usr/lib
EFI_SRCS    := boot/efi/loader.c boot/efi/volume.c boot/efi/elf.c
EFI_OBJS    := $(patsubst %.c,$(BUILD)/efi/%.o,$(EFI_SRCS))
EFI_CFLAGS  := -std=gnu11 $(WARN) -I. -I$(EFI_INC) -I$(EFI_INC)/x86_64 \
               -DGNU_EFI_USE_MS_ABI -ffreestanding -fpic -fshort-wchar -mno-red-zone \
               -fno-stack-protector -fno-strict-aliasing -fcf-protection=none \
               -fno-asynchronous-unwind-tables -O2 -g -MMD -MP
EFI_SECTIONS := -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym \
                -j .rel -j .rela -j .rel.* -j .rela.* -j .reloc
EFI_IMG_MB  := 34

# `make all` builds the loader too where gnu-efi is installed (tools/deps.sh
# installs it), so that the UEFI tests and SONDE_BOOT=efi find it.
ifneq ($(wildcard $(EFI_LIB)/crt0-efi-x86_64.o),)
all: $(BUILD)/efi/BOOTX64.EFI
endif

$(BUILD)/efi/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC/EFI  $<"
	$(Q)$(CC) $(EFI_CFLAGS) -c $< -o $@

$(BUILD)/efi/BOOTX64.so: $(EFI_OBJS)
	$(Q)$(LD) -nostdlib -znocombreloc -shared -Bsymbolic -T $(EFI_LIB)/elf_x86_64_efi.lds \
		$(EFI_LIB)/crt0-efi-x86_64.o $(EFI_OBJS) -L$(EFI_LIB) -lefi -lgnuefi -o $@

$(BUILD)/efi/BOOTX64.EFI: $(BUILD)/efi/BOOTX64.so
	@echo "  EFI     $@"
	$(Q)objcopy $(EFI_SECTIONS) --target efi-app-x86_64 --subsystem=10 $< $@

# The ESP folder; cmdline.txt follows APPEND (removed when APPEND is empty).
.PHONY: esp sonde-efi.img
esp: $(BUILD)/efi/BOOTX64.EFI $(BUILD)/kernel.elf
	@mkdir -p $(BUILD)/esp/EFI/BOOT
	$(Q)cp $(BUILD)/efi/BOOTX64.EFI $(BUILD)/esp/EFI/BOOT/BOOTX64.EFI
	$(Q)cp $(BUILD)/kernel.elf $(BUILD)/esp/kernel.elf
	$(Q)if [ -n '$(APPEND)' ]; then printf '%s\n' '$(APPEND)' > $(BUILD)/esp/cmdline.txt; \
		else rm -f $(BUILD)/esp/cmdline.txt; fi

# Rebuilt every time (a second or so), so that a new APPEND is never missed.
sonde-efi.img: $(BUILD)/efi/BOOTX64.EFI $(BUILD)/kernel.elf
	$(Q)rm -f $(BUILD)/sonde-efi.img
	$(Q)$(MAKE) --no-print-directory $(BUILD)/sonde-efi.img

$(BUILD)/sonde-efi.img: $(BUILD)/efi/BOOTX64.EFI $(BUILD)/kernel.elf
	@echo "  MFORMAT $@"
	$(Q)rm -f $@.tmp && truncate -s $(EFI_IMG_MB)M $@.tmp
	$(Q)mformat -i $@.tmp -F -v SONDE ::
	$(Q)mmd -i $@.tmp ::/EFI ::/EFI/BOOT
	$(Q)mcopy -i $@.tmp $(BUILD)/efi/BOOTX64.EFI ::/EFI/BOOT/BOOTX64.EFI
	$(Q)mcopy -i $@.tmp $(BUILD)/kernel.elf ::/kernel.elf
	$(Q)if [ -n '$(APPEND)' ]; then printf '%s\n' '$(APPEND)' > $(BUILD)/efi/cmdline.txt && \
		mcopy -i $@.tmp $(BUILD)/efi/cmdline.txt ::/cmdline.txt; fi
	$(Q)mv $@.tmp $@
