# mk/sparc64.mk - the sparc64 port: build/sparc64/kernel.elf (docs/sparc64.md).
#
#   make ARCH=sparc64        the kernel, cross-built with Debian's
#                            gcc-sparc64-linux-gnu (freestanding, no libc)
#   make run ARCH=sparc64    boot it: qemu-system-sparc64 -M sun4u, Sonde's PROM
#                            (SONDE_FIRMWARE=openbios: through OpenBIOS)
#   make sparc64-check       the in-kernel self-tests on sparc64; the kernel
#                            prints "sonde-exit: N" before powering off (N as
#                            QEMU's x86 status: 33 = success) and
#                            tools/sparc64_run.sh exits with N
#   make sparc64-dtest-check every D program of tests/d on sparc64 (make check)
#   make sparc64-check-full  the self-tests and the D programs again, booted
#                            through OpenBIOS instead of Sonde's PROM
#
# The same portable sources as mk/kernel.mk (kernel/, trace/, dif/, dlang/,
# console/, tests/kernel/) and arch/sparc64/ in place of arch/x86_64/; the
# same two-pass symbol table.  tests/kernel/prov_fbt_selftest.c (x86's fbt:
# its decoder's vectors, leaf-function probes) is left out for
# tests/kernel/sparc64/.  -fomit-frame-pointer (gcc's default at -O2 on
# SPARC, where the frame pointer is the window's %i6 anyway) lets gcc make
# leaf functions, with no save, as Solaris's kernel has them; fbt probes
# them too (arch/sparc64/fbt_isa.c).  The user programs (mk/sparc64_user.mk: newlib
# and userland/ cross-built) are the image's /bin, as on x86_64.

S64          := $(BUILD)/sparc64
S64_CROSS    := sparc64-linux-gnu-
S64_CC       := $(S64_CROSS)gcc
S64_LD       := $(S64_CROSS)ld
S64_NM       := $(S64_CROSS)nm
S64_QEMU     := qemu-system-sparc64
S64_CFLAGS   := -std=c11 $(WARN) -I. -ffreestanding -fno-pic -fno-pie -m64 -mcmodel=medlow \
                -mcpu=ultrasparc -fno-stack-protector -fomit-frame-pointer \
                -fno-optimize-sibling-calls -fno-asynchronous-unwind-tables -fno-shrink-wrap \
                -fno-reorder-blocks-and-partition -fno-delete-null-pointer-checks -O2 -g -MMD -MP
S64_ASFLAGS  := -I. -fno-pic -fno-pie -m64 -mcpu=ultrasparc -D__ASSEMBLY__ -g -MMD -MP
# dof_selftest: the image is within pages of its 4 MiB ceiling; sparc64's D
# runs (big-endian DOF) exercise the same path.
S64_SKIP     := tests/kernel/prov_fbt_selftest.c tests/kernel/fbt_jump_selftest.c \
                tests/kernel/dof_selftest.c
S64_C        := $(filter-out $(S64_SKIP),$(wildcard kernel/*.c arch/sparc64/*.c trace/*.c \
                console/dtrace/*.c tests/kernel/*.c tests/kernel/sparc64/*.c)) $(DIF_SRCS) $(DLANG_SRCS) $(CONSOLE_SRCS)
S64_ASM      := $(wildcard arch/sparc64/*.S)
S64_OBJ      := $(patsubst %.c,$(S64)/k/%.o,$(S64_C)) $(patsubst %.S,$(S64)/k/%.o,$(S64_ASM)) \
                $(S64)/kscripts.o
S64_DLIB     := $(sort $(wildcard dlang/lib/*.d arch/sparc64/dlib/*.d))
S64_LIBGCC   := $(shell $(S64_CC) -print-libgcc-file-name 2>/dev/null)
S64_LDFLAGS  := -n -nostdlib -T arch/sparc64/linker.ld -z max-page-size=0x2000 -z noexecstack \
                --no-warn-rwx-segments
# The kernel's types, as on x86_64 (mk/kernel.mk): -gctf objects, merged by
# the link (--ctf-variables), flattened by the host's ctf_flatten into the
# fixed little-endian dict kernel/ctf.c reads, carried in .kctf by pass 2.
S64_CFLAGS   += -gctf
S64_LDFLAGS  += --ctf-variables

.PHONY: sparc64 sparc64-check sparc64-run

sparc64: $(S64)/kernel.elf $(S64)/prom.bin

# Sonde's own boot PROM for sun4u (-bios), in place of OpenBIOS: a raw image
# whose power-on reset vector is at offset 0x20 (arch/sparc64/prom/prom.S).
$(S64)/prom.bin: arch/sparc64/prom/prom.S
	@mkdir -p $(S64)/prom
	@echo "  AS64    $<"
	$(Q)$(S64_CC) $(S64_ASFLAGS) -c $< -o $(S64)/prom/prom.o
	$(Q)$(S64_LD) -n -nostdlib -e prom_vectors -Ttext=0 -o $(S64)/prom/prom.elf $(S64)/prom/prom.o
	$(Q)$(S64_CROSS)objcopy -O binary $(S64)/prom/prom.elf $@

# The DOF writer and loader run once per enabling, never in probe context:
# small beats fast there, and the image has a 4 MiB ceiling.
$(S64)/k/trace/dof.o $(S64)/k/dlang/dt_dof.o: S64_CFLAGS += -Os

$(S64)/k/%.o: %.c
	@mkdir -p $(@D)
	@echo "  CC64    $<"
	$(Q)$(S64_CC) $(S64_CFLAGS) -c $< -o $@

$(S64)/k/%.o: %.S
	@mkdir -p $(@D)
	@echo "  AS64    $<"
	$(Q)$(S64_CC) $(S64_ASFLAGS) -c $< -o $@

$(S64)/kscripts.S: kscripts-list
	@mkdir -p $(@D)
	$(Q)sh tools/gen_scripts.sh $(KSCRIPTS) $(S64_KBINS) --dir=usr/lib/dtrace $(S64_DLIB) > $@.tmp
	$(Q)if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi

$(S64)/kscripts.o: $(S64)/kscripts.S $(KSCRIPTS) $(S64_DLIB)
	$(Q)$(S64_CC) $(S64_ASFLAGS) -c $< -o $@

$(S64)/ksyms0.S: tools/gen_ksyms.sh
	@mkdir -p $(@D)
	sh tools/gen_ksyms.sh > $@

$(S64)/ksyms%.o: $(S64)/ksyms%.S
	$(Q)$(S64_CC) $(S64_ASFLAGS) -c $< -o $@

$(S64)/kernel0.elf: $(S64_OBJ) $(S64)/ksyms0.o arch/sparc64/linker.ld
	$(Q)$(S64_LD) $(S64_LDFLAGS) -o $@ $(S64_OBJ) $(S64)/ksyms0.o $(S64_LIBGCC)

$(S64)/ksyms1.S: $(S64)/kernel0.elf tools/gen_ksyms.sh
	$(Q)NM=$(S64_NM) KSYMS_PREFIX=0000000040 sh tools/gen_ksyms.sh $< > $@

$(S64)/kernel.ctf: $(S64)/kernel0.elf $(CTF_FLATTEN)
	$(Q)$(S64_CROSS)objcopy --dump-section .ctf=$@.arc $< $@.junk && rm -f $@.junk
	$(Q)$(CTF_FLATTEN) $@.arc $@

$(S64)/kctf.S: $(S64)/kernel.ctf
	$(Q)printf '\t.section .kctf, "a"\n\t.incbin "%s"\n' $< > $@

$(S64)/kctf.o: $(S64)/kctf.S $(S64)/kernel.ctf
	$(Q)$(S64_CC) $(S64_ASFLAGS) -c $< -o $@

$(S64)/kernel.elf: $(S64_OBJ) $(S64)/ksyms1.o $(S64)/kctf.o arch/sparc64/linker.ld
	$(Q)$(S64_LD) $(S64_LDFLAGS) -o $@.tmp $(S64_OBJ) $(S64)/ksyms1.o $(S64)/kctf.o $(S64_LIBGCC)
	$(Q)NM=$(S64_NM) KSYMS_PREFIX=0000000040 sh tools/gen_ksyms.sh $@.tmp | \
		cmp -s - $(S64)/ksyms1.S || { echo "sparc64 kernel.elf: symbols moved between link passes"; exit 1; }
	@size=$$(( $$($(S64_NM) $@.tmp | awk '$$3 == "_kernel_end" { print "0x" $$1 }') - 0x40000000 )); \
	if [ $$size -gt 4194304 ]; then echo "sparc64 kernel.elf: image is $$size bytes, over 4 MiB"; \
		rm -f $@.tmp; exit 1; fi
	$(Q)mv $@.tmp $@

# The self-tests, then the shell: tools/sparc64_run.sh prints the console
# and exits with the status the kernel printed.
sparc64-check: deps $(S64)/kernel.elf $(S64)/prom.bin
	@echo "== in-kernel self-tests, sparc64 (sun4u, 1 CPU)"
	@sh tools/sparc64_run.sh $(S64)/kernel.elf selftest > $(S64)/selftest.log 2>&1; s=$$?; \
	grep -E '^(not )?ok |^#|^1\.\.' $(S64)/selftest.log | tr -d '\r'; \
	if [ $$s -ne 33 ]; then echo "sparc64 selftest: status $$s (33 = all passed)"; tail -30 $(S64)/selftest.log; exit 1; fi

sparc64-run: deps $(S64)/kernel.elf $(S64)/prom.bin
	@sh tools/sparc64_run.sh --interactive $(S64)/kernel.elf '$(APPEND)'

# make check's share of sparc64 (mk/check.mk): the host unit tests that are
# plain C, run big-endian; the self-tests above; and every D program of
# tests/d, each in a guest of its own, less those tools/dtest.py skips there
# (tests/d/sparc64.skip, x86_64-only functions; each SKIP line says why).
# This fits make check's 10 minutes because the guests boot through Sonde's
# own PROM ($(S64)/prom.bin): OpenBIOS alone ran about 1.1 billion
# instructions a boot (some 3 s of CPU; the whole suite took 40 minutes on 2
# cores), the PROM a few dozen.  Measured in docs/sparc64.md.  The x86_64
# kernel is a prerequisite: its symbols say which functions are x86_64's only.
.PHONY: sparc64-dtest-check sparc64-check-full

sparc64-dtest-check: $(S64)/kernel.elf $(S64)/prom.bin $(BUILD)/kernel.elf
	@echo "== D programs on sparc64 (tests/d; Sonde's PROM)"
	@$(PYTHON) tools/dtest.py --arch sparc64 tests/d

# The same through the real firmware: the self-tests and every D program,
# each guest booted by QEMU's OpenBIOS (SONDE_FIRMWARE=openbios), as before
# the PROM.  About 40 minutes on 2 cores.
sparc64-check-full: kunit-be-check $(BUILD)/kernel.elf $(S64)/kernel.elf
	@SONDE_FIRMWARE=openbios $(MAKE) --no-print-directory sparc64-check
	@echo "== D programs on sparc64 (tests/d; OpenBIOS)"
	@SONDE_FIRMWARE=openbios $(PYTHON) tools/dtest.py --arch sparc64 tests/d

