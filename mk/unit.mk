# mk/unit.mk - the host unit tests (cmocka) and the fuzz smoke runs, one way each.
#
# A unit test is tests/unit/LIB_WHAT_test.c: LIB is the library it tests,
# one of UNIT_LIBS below, and WHAT the part of it.  One rule builds every
# such file into $(UNIT_DIR)/LIB_WHAT_test and `make unit-check` (part of
# `make check`) runs them all.  Adding a test is adding the file; a test
# that needs sources besides its library's names them in UNIT_SRCS_<test>
# below.  What a test links:
#
#   UNIT_LIB_<LIB>      objects every test of LIB links (the library's own
#                       host build: dif/dif.mk, dlang/dlang.mk)
#   UNIT_SRCS_<test>    sources this test links, compiled here with
#                       UNIT_CFLAGS_<LIB> into $(UNIT_DIR)/LIB/
#   UNIT_LDFLAGS_<test> extra link flags
#
# Included last by the Makefile, after the libraries' fragments.
#
# Fuzz smoke runs: $(call fuzz_smoke,NAME,CLANG,FUZZER,SECONDS,ARGS,PREP) is
# the one recipe every library's *-fuzz-smoke target uses: build FUZZER, run
# the shell commands PREP (seeding; each ends in `;`), then a libFuzzer run
# of SECONDS with ARGS whose log is kept beside the fuzzer; skipped with a
# message when CLANG is empty.  The long runs are `make fuzz`
# (docs/fuzzing.md).

UNIT_DIR   := $(BUILD)/host/unit
UNIT_LIBS  := kernel dif dlang dtc shell trace
UNIT_TESTS := $(patsubst tests/unit/%.c,%,$(wildcard tests/unit/*_test.c))
UNIT_BINS  := $(UNIT_TESTS:%=$(UNIT_DIR)/%)

# The library a test belongs to: the word before its first underscore.
unit_lib = $(firstword $(subst _, ,$(1)))

# kernel: portable kernel sources built for the host (-DSONDE_HOST).
UNIT_CFLAGS_kernel := -DSONDE_HOST
UNIT_SRCS_kernel_printf_test  := kernel/printf.c kernel/string.c
UNIT_SRCS_kernel_string_test  := kernel/string.c
UNIT_SRCS_kernel_cmdline_test := kernel/cmdline.c kernel/string.c
UNIT_SRCS_kernel_ksym_test    := kernel/ksym.c kernel/printf.c kernel/string.c
UNIT_SRCS_kernel_pmem_test    := kernel/pmem.c kernel/string.c
UNIT_SRCS_kernel_kheap_test   := kernel/kheap.c kernel/vmem.c kernel/string.c
UNIT_SRCS_kernel_vmem_test    := kernel/vmem.c
UNIT_SRCS_kernel_kfile_test   := kernel/kfile_tar.c kernel/printf.c kernel/string.c
UNIT_SRCS_kernel_elf_test     := kernel/elf.c kernel/printf.c kernel/string.c
UNIT_SRCS_kernel_ctf_test     := kernel/ctf.c
UNIT_SRCS_kernel_ctf_order_test := tools/ctf_order.c kernel/ctf.c
UNIT_SRCS_kernel_baggage_test := kernel/baggage_fmt.c
UNIT_SRCS_kernel_link_frame_test := kernel/link_frame.c
UNIT_SRCS_kernel_cred_test    := kernel/cred.c
UNIT_SRCS_kernel_ext2_test    := kernel/ext2.c kernel/ext2_blocks.c kernel/ext2_dir.c kernel/bcache.c \
                                 kernel/blkdev.c kernel/printf.c kernel/string.c
# kernel_pmem_test places the kernel image at [1 MiB, 4 MiB) physical.
UNIT_LDFLAGS_kernel_pmem_test := -no-pie -Wl,--defsym,_boot_start=0x100000 \
                                 -Wl,--defsym,_kernel_end=0xffffffff80400000
$(UNIT_DIR)/kernel/kernel/pmem.o: HOSTCFLAGS += -mcmodel=large -fno-pie
# kernel_ctf_test also reads the kernel's own dict, built with the kernel
$(UNIT_DIR)/kernel_ctf_test.o: HOSTCFLAGS += -DTEST_CTF_PATH='"$(abspath $(BUILD))/kernel.ctf"'

# dif, dlang: the library's host objects and DIF's host model of the kernel.
UNIT_LIB_dif   := $(DIF_ENVOBJ) $(DIF_HOSTOBJS)
UNIT_LIB_dlang := $(DLANG_OUT)/tests/dif/dif_hostenv.o $(DLANG_LIBOBJS)

# trace: the framework's pure parts, on the host; trace_dof_test compiles
# programs with the compiler (the dlang objects) to load their DOF.
UNIT_CFLAGS_trace := -DSONDE_HOST
UNIT_LIB_trace := $(UNIT_LIB_dlang)
UNIT_SRCS_trace_dof_test := trace/dof.c kernel/printf.c kernel/string.c

# dtc: the dtrace command's pure parts.
UNIT_CFLAGS_dtc := -DSONDE_HOST
UNIT_SRCS_dtc_float_test := console/dtrace/dtc_float.c
UNIT_SRCS_dtc_byteorder_test := console/dtrace/dtc_format.c console/dtrace/dtc_typeprint.c \
                                console/dtrace/dtc_float.c kernel/printf.c kernel/string.c

# shell: against a pretend kernel (tests/unit/shell_fake_kernel.c),
# force-included into every object (console/console.mk).
UNIT_CFLAGS_shell := $(CONSOLE_HOST_CFLAGS)
UNIT_SRCS_shell_ledit_test := console/shell/ledit.c
UNIT_SRCS_shell_tok_test   := console/shell/shell_tok.c
UNIT_SRCS_shell_cmds_test  := console/shell/shell.c console/shell/shell_cmds.c \
	console/shell/shell_tok.c console/shell/ledit.c console/workloads/workload.c \
	tests/unit/shell_fake_kernel.c kernel/printf.c kernel/string.c \
	console/shell/shell_files.c kernel/kfile_tar.c tests/unit/shell_fake_kfile.c

# Big-endian: the tests in UNIT_BE are plain C (no cmocka), so they are also
# cross-built for sparc64 and run under qemu-user, where byte order shows
# (make kunit-be-check, part of make check).
UNIT_BE      := dtc_byteorder_test kernel_ctf_order_test
UNIT_BE_BINS := $(UNIT_BE:%=$(S64)/unit/%)
$(S64)/unit/%: tests/unit/%.c $(foreach t,$(UNIT_BE),$(UNIT_SRCS_$(t)))
	@mkdir -p $(@D)
	$(Q)$(S64_CC) -static -std=c11 $(WARN) -I. -O2 -D_DEFAULT_SOURCE -DSONDE_HOST -o $@ \
		$< $(UNIT_SRCS_$*)
.PHONY: kunit-be-check
kunit-be-check: $(UNIT_BE_BINS)
	@set -e; for t in $(UNIT_BE_BINS); do echo "== $$t (big-endian, qemu-sparc64)"; qemu-sparc64 $$t; done

.PHONY: unit-check
unit-check: $(UNIT_BINS)
	@set -e; for t in $(UNIT_BINS); do echo "== $$t"; $$t; done

$(UNIT_DIR)/%_test.o: tests/unit/%_test.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) $(UNIT_CFLAGS_$(call unit_lib,$*)) -c -o $@ $<

define unit_lib_objs
$(UNIT_DIR)/$(1)/%.o: %.c
	@mkdir -p $$(@D)
	$$(CC) $$(HOSTCFLAGS) $$(UNIT_CFLAGS_$(1)) -c -o $$@ $$<
endef
$(foreach l,$(UNIT_LIBS),$(eval $(call unit_lib_objs,$(l))))

define unit_link
$(UNIT_DIR)/$(1): $(UNIT_DIR)/$(1).o $(UNIT_LIB_$(call unit_lib,$(1))) \
		$(addprefix $(UNIT_DIR)/$(call unit_lib,$(1))/,$(UNIT_SRCS_$(1):.c=.o))
	$$(CC) $$(UNIT_LDFLAGS_$(1)) -o $$@ $$^ -lcmocka
endef
$(foreach t,$(UNIT_TESTS),$(eval $(call unit_link,$(t))))

# A test of a library not in UNIT_LIBS is a mistake worth a clear message.
UNIT_STRAYS := $(filter-out $(addsuffix _%,$(UNIT_LIBS)),$(UNIT_TESTS))
ifneq ($(UNIT_STRAYS),)
$(error tests/unit: $(UNIT_STRAYS): name unit tests LIB_WHAT_test.c with LIB one of $(UNIT_LIBS) (mk/unit.mk))
endif

define fuzz_smoke
@if [ -z "$(2)" ]; then \
  echo "$(1): clang not found, skipping the fuzz smoke run"; \
else \
  $(MAKE) --no-print-directory $(3) && $(6) \
  if $(3) -max_total_time=$(4) -print_final_stats=1 $(5) \
      > $(dir $(3))fuzz-smoke.log 2>&1; then \
    grep -E "number_of_executed_units" $(dir $(3))fuzz-smoke.log; \
    echo "$(1): fuzz smoke run clean"; \
  else tail -40 $(dir $(3))fuzz-smoke.log; echo "$(1): FUZZER FOUND A PROBLEM"; exit 1; fi; \
fi
endef
