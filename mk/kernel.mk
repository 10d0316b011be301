# mk/kernel.mk - build/kernel.elf, in two link passes, and build/sonde.iso.
#
# Pass 1 links the kernel with an empty symbol table; tools/gen_ksyms.sh
# turns its symbols into build/ksyms1.S; pass 2 links that table into the
# .ksyms section, which is last in the image (linker.ld), so no other address
# moves.  The build then checks that the final image's own symbols give the
# very same table.

KERNEL_ASM := boot/boot.asm arch/x86_64/entry.asm arch/x86_64/switch.asm arch/x86_64/ap_blob.asm
KERNEL_C   := $(wildcard kernel/*.c arch/x86_64/*.c trace/*.c console/dtrace/*.c tests/kernel/*.c) \
              $(DIF_SRCS) $(DLANG_SRCS) $(CONSOLE_SRCS)
KOBJ       := $(patsubst %.c,$(BUILD)/k/%.o,$(KERNEL_C)) \
              $(patsubst %.asm,$(BUILD)/k/%.o,$(KERNEL_ASM))
# The built-in files (kernel/kfile.c): scripts/*.d, and the user programs
# (mk/user.mk) as /bin/NAME, without their debugging sections (the symbol
# table stays), as one table.
KSCRIPTS   := $(sort $(wildcard scripts/*.d))
# The D library (dlang/dt_lib.c), installed in the same table as
# usr/lib/dtrace/NAME.d: the portable files and the machine's own.
KDLIB      := $(sort $(wildcard dlang/lib/*.d arch/x86_64/dlib/*.d))
KBINS      := $(USER_PROGS:%=$(BUILD)/kbin/bin/%)
KOBJ       += $(BUILD)/kscripts.o
LIBGCC     := $(shell $(CC) -print-libgcc-file-name)
KLDFLAGS   := --ctf-variables -n -nostdlib -T linker.ld -z max-page-size=0x1000 -z noexecstack --no-warn-rwx-segments

# The notrace region (linker.ld) is never fbt-probed, so its functions need no
# standard prologue at their first byte: let gcc shrink-wrap them again, which
# shortens the probe path (a hit's fast paths make no calls and save nothing).
$(BUILD)/k/trace/%.o $(BUILD)/k/dif/%.o: KCFLAGS += -fshrink-wrap
# ... and tail calls (fbt never probes these, so a return probe misses none;
# stack() walks the probed code's frames, not the framework's): a firing's
# hand-offs (fbt_fire_entry -> dtrace_probe_frame -> probe_fire_more) jump.
$(BUILD)/k/trace/%.o $(BUILD)/k/dif/%.o: KCFLAGS += -foptimize-sibling-calls
$(addprefix $(BUILD)/k/arch/x86_64/,trap.o fbt_isa.o sdt_isa.o x86_decode.o): KCFLAGS += -fshrink-wrap

$(BUILD)/k/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

$(BUILD)/k/%.o: %.asm
	@mkdir -p $(@D)
	@echo "  NASM    $<"
	$(Q)$(NASM) $(NASMFLAGS) -f elf64 -g -F dwarf -MD $(@:.o=.d) -MT $@ -o $@ $<

# The AP start-up code runs at 0x8000 in real mode: assembled flat, then
# included as bytes by ap_blob.asm.
$(BUILD)/ap_tramp.bin: arch/x86_64/ap_tramp.asm
	@mkdir -p $(@D)
	$(Q)$(NASM) -f bin -o $@ $<

$(BUILD)/k/arch/x86_64/ap_blob.o: $(BUILD)/ap_tramp.bin
$(BUILD)/k/arch/x86_64/ap_blob.o: NASMFLAGS += -I$(BUILD)/

$(BUILD)/ksyms0.S: tools/gen_ksyms.sh
	@mkdir -p $(@D)
	sh tools/gen_ksyms.sh > $@

$(BUILD)/ksyms%.o: $(BUILD)/ksyms%.S
	$(CC) -c $< -o $@

# Regenerated on every make but replaced only when it changes, so that adding
# or removing a script (not just editing one) rebuilds the table.
$(BUILD)/kscripts.S: kscripts-list
	@mkdir -p $(@D)
	$(Q)sh tools/gen_scripts.sh $(KSCRIPTS) $(KBINS) --dir=usr/lib/dtrace $(KDLIB) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

.PHONY: kscripts-list

$(BUILD)/kscripts.o: $(BUILD)/kscripts.S $(KSCRIPTS) $(KBINS) $(KDLIB)
	$(Q)$(CC) -c $< -o $@

$(BUILD)/kbin/bin/%: $(USER_BINDIR)/%
	@mkdir -p $(@D)
	$(Q)objcopy --strip-debug $< $@

$(BUILD)/kernel0.elf: $(KOBJ) $(BUILD)/ksyms0.o linker.ld
	$(Q)$(LD) $(KLDFLAGS) -o $@ $(KOBJ) $(BUILD)/ksyms0.o $(LIBGCC)

# The kernel's types: pass 1's merged .ctf (ld --ctf-variables), flattened
# into one uncompressed dict (tools/ctf_flatten.c), carried in .kctf by
# pass 2 (kernel/ctf_kernel.c).  Types do not depend on addresses, so pass
# 1's are pass 2's.
CTF_FLATTEN := $(BUILD)/host/ctf_flatten
$(CTF_FLATTEN): tools/ctf_flatten.c tools/ctf_order.c tools/ctf_order.h
	@mkdir -p $(@D)
	$(Q)$(CC) $(HOSTCFLAGS) -o $@ $(filter %.c,$^) -lz

$(BUILD)/kernel.ctf: $(BUILD)/kernel0.elf $(CTF_FLATTEN)
	$(Q)objcopy --dump-section .ctf=$@.arc $< $@.junk && rm -f $@.junk
	$(Q)$(CTF_FLATTEN) $@.arc $@

$(BUILD)/kctf.S: $(BUILD)/kernel.ctf
	$(Q)printf '\t.section .kctf, "a"\n\t.incbin "%s"\n' $< > $@

$(BUILD)/kctf.o: $(BUILD)/kctf.S $(BUILD)/kernel.ctf
	$(Q)$(CC) -c $< -o $@

$(BUILD)/ksyms1.S: $(BUILD)/kernel0.elf tools/gen_ksyms.sh
	$(Q)sh tools/gen_ksyms.sh $< > $@

$(BUILD)/kernel.elf: $(KOBJ) $(BUILD)/ksyms1.o $(BUILD)/kctf.o linker.ld
	$(Q)$(LD) $(KLDFLAGS) -o $@.tmp $(KOBJ) $(BUILD)/ksyms1.o $(BUILD)/kctf.o $(LIBGCC)
	sh tools/gen_ksyms.sh $@.tmp | cmp -s - $(BUILD)/ksyms1.S || \
		{ echo "kernel.elf: symbols moved between link passes"; exit 1; }
	mv $@.tmp $@

$(BUILD)/iso/boot/grub/grub.cfg: boot/grub.cfg
	@mkdir -p $(@D)
	cp $< $@

$(BUILD)/sonde.iso: $(BUILD)/kernel.elf $(BUILD)/iso/boot/grub/grub.cfg
	cp $(BUILD)/kernel.elf $(BUILD)/iso/boot/kernel.elf
	grub-mkrescue -o $@ $(BUILD)/iso 2> $(BUILD)/grub-mkrescue.log || \
		{ cat $(BUILD)/grub-mkrescue.log; exit 1; }

# The UEFI loader, its ESP folder and disk image.
include boot/efi/efi.mk
