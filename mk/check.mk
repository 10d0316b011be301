# mk/check.mk - every test, and the benchmarks.
#
#   make check      host unit tests (cmocka), each library's checks (DIF
#                   vectors, compiler tests, fuzz smoke runs), the include
#                   rules, the in-kernel self-tests (TAP), the sparc64 share
#                   (mk/sparc64.mk: unit tests big-endian, its self-tests, a
#                   D subset), then the end-to-end console tests (pytest +
#                   pexpect), whose summary line ends the run.
#   make bench      the figures: build/bench.json and a table.
#   make fuzz       each library's fuzzer for FUZZ_SECONDS (default 600),
#                   then `make difffuzz` (DIFFFUZZ_N programs, 1 vs 4 CPUs).
#   make stress     the SMP stress campaign, long: the stress_* self-tests on
#                   STRESS_CPUS (4) CPUs for STRESS_SECONDS (60) each, then the
#                   e2e stress test for as long; STRESS_AREAS / STRESS_SKIP
#                   choose areas (exact storm fbt dynvar agg spec close).
#                   `make check` runs the short version (stress-check).

KUNIT_DIR   := $(BUILD)/host/kernel
KUNIT_TESTS := test_printf test_string test_cmdline test_ksym test_pmem test_kheap test_kfile \
               test_dtc_float test_elf test_ctf test_byteorder
KUNIT_test_printf_SRCS  := kernel/printf.c kernel/string.c
KUNIT_test_string_SRCS  := kernel/string.c
KUNIT_test_cmdline_SRCS := kernel/cmdline.c kernel/string.c
KUNIT_test_ksym_SRCS    := kernel/ksym.c kernel/printf.c kernel/string.c
KUNIT_test_pmem_SRCS    := kernel/pmem.c kernel/string.c
KUNIT_test_kheap_SRCS   := kernel/kheap.c kernel/string.c
KUNIT_test_kfile_SRCS   := kernel/kfile_tar.c kernel/printf.c kernel/string.c
KUNIT_test_dtc_float_SRCS := userland/dtrace/dtc_float.c
KUNIT_test_elf_SRCS     := kernel/elf.c kernel/printf.c kernel/string.c
KUNIT_test_ctf_SRCS     := kernel/ctf.c
# test_byteorder is plain C: mk/sparc64.mk also runs it big-endian (kunit-be-check)
KUNIT_test_byteorder_SRCS := userland/dtrace/dtc_format.c userland/dtrace/dtc_typeprint.c \
                             userland/dtrace/dtc_float.c kernel/printf.c kernel/string.c
# test_ctf also reads the kernel's own dict, built with the kernel
$(KUNIT_DIR)/tests/unit/test_ctf.o: HOSTCFLAGS += -DTEST_CTF_PATH='"$(abspath $(BUILD))/kernel.ctf"'
KUNIT_BINS  := $(KUNIT_TESTS:%=$(KUNIT_DIR)/%)

# Tests and benchmarks never take an anonymous enabling that tools/dtrace -A
# left in build/anon.tar (docs/tracing.md): their boots must be plain.
export SONDE_ANON := $(CURDIR)/$(BUILD)/no-anonymous-enabling.tar

.PHONY: check kunit-check check-deps selftest-check dtest-check dtest-smp-check e2e-check \
        bench fuzz stress-check stress stress-selftest difffuzz-check difffuzz

check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory kunit-check check-deps $(LIB_CHECKS) selftest-check \
		stress-check dtest-check dtest-smp-check difffuzz-check
	@$(MAKE) --no-print-directory kunit-be-check sparc64-check sparc64-dtest-check
	@$(MAKE) --no-print-directory e2e-check

$(KUNIT_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) -DSONDE_HOST -c -o $@ $<

# test_pmem places the kernel image at [1 MiB, 4 MiB) physical.
KUNIT_test_pmem_LDFLAGS := -no-pie -Wl,--defsym,_boot_start=0x100000 \
                           -Wl,--defsym,_kernel_end=0xffffffff80400000
$(KUNIT_DIR)/kernel/pmem.o: HOSTCFLAGS += -mcmodel=large -fno-pie
define kunit_link
$(KUNIT_DIR)/$(1): $(KUNIT_DIR)/tests/unit/$(1).o $(addprefix $(KUNIT_DIR)/,$(KUNIT_$(1)_SRCS:.c=.o))
	$$(CC) $$(KUNIT_$(1)_LDFLAGS) -o $$@ $$^ -lcmocka
endef
$(foreach t,$(KUNIT_TESTS),$(eval $(call kunit_link,$(t))))

kunit-check: $(KUNIT_BINS)
	@set -e; for t in $(KUNIT_BINS); do echo "== $$t"; $$t; done

# The include rules (userland -> dlang -> dif; kernel -> arch.h), checked by grep.
check-deps:
	@sh tools/check_deps.sh
	@$(PYTHON) tools/check_tree.py
	@$(PYTHON) tools/fbt_check_notrace.py

SELFTEST_QEMU := $(QEMU) -display none -serial stdio -no-reboot -m $(MEM) \
                 -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel $(BUILD)/kernel.elf

# The self-tests run on one CPU and again on four.
selftest-check: $(BUILD)/kernel.elf
	@set -e; for n in 1 4; do \
	echo "== in-kernel self-tests, $$n CPU(s)"; \
	s=0; timeout 180 $(SELFTEST_QEMU) -smp $$n -append selftest > $(BUILD)/selftest.log 2>&1 || s=$$?; \
	grep -E '^(not )?ok |^#|^1\.\.' $(BUILD)/selftest.log | tr -d '\r'; \
	if [ $$s -ne 33 ]; then echo "selftest: QEMU exit status $$s (33 = all passed)"; \
		tail -30 $(BUILD)/selftest.log; exit 1; fi; done

# The stress campaign (tests/kernel/stress_selftest.c): its opt-in self-tests
# on STRESS_CPUS CPUs, each busy for STRESS_MS.  A hang is cut by timeout
# (status 124) and the log's last "# stress:" line says where it was.
STRESS_CPUS    ?= 4
STRESS_MS      ?= 300
STRESS_SECONDS ?= 60
STRESS_AREAS   ?=
STRESS_SKIP    ?=
STRESS_TIMEOUT ?= 300
STRESS_APPEND   = selftest=stress_* stress.ms=$(STRESS_MS) \
                  $(if $(STRESS_AREAS),stress.areas=$(STRESS_AREAS)) \
                  $(if $(STRESS_SKIP),stress.skip=$(STRESS_SKIP))

stress-selftest: $(BUILD)/kernel.elf
	@echo "== stress self-tests, $(STRESS_CPUS) CPUs, $(STRESS_MS) ms each"
	@s=0; timeout $(STRESS_TIMEOUT) $(SELFTEST_QEMU) -smp $(STRESS_CPUS) \
		-append '$(strip $(STRESS_APPEND))' > $(BUILD)/stress.log 2>&1 || s=$$?; \
	grep -E '^(not )?ok |^#|^1\.\.' $(BUILD)/stress.log | tr -d '\r'; \
	if [ $$s -ne 33 ]; then echo "stress: QEMU exit status $$s (33 = all passed, 124 = hung)"; \
		tail -30 $(BUILD)/stress.log; exit 1; fi

# Short: part of make check (a few seconds of guest time per test).
stress-check: $(BUILD)/kernel.elf
	@$(MAKE) --no-print-directory stress-selftest STRESS_MS=$(STRESS_MS) STRESS_TIMEOUT=150

# Long: STRESS_SECONDS per self-test, then the e2e stress test as long.
stress: deps all
	@$(MAKE) --no-print-directory stress-selftest STRESS_MS=$$(($(STRESS_SECONDS) * 1000)) \
		STRESS_TIMEOUT=$$(($(STRESS_SECONDS) * 20 + 300))
	SONDE_STRESS_SECONDS=$(STRESS_SECONDS) SONDE_STRESS_SKIP='$(STRESS_SKIP)' \
		$(PYTHON) -m pytest -q tests/e2e/test_stress.py

# The D programs of tests/d, each run in a booted guest by tools/dtrace
# (illumos naming: tst.*.d succeed, err.D_TAG.*.d fail with that tag, .out
# and .err golden output); two at a time.
dtest-check: $(BUILD)/kernel.elf
	@echo "== D programs (tests/d)"
	@$(PYTHON) tools/dtest.py tests/d

# The same programs on four CPUs: those that can fire on more than one
# (the compile-error ones, and those that only fire BEGIN/END/ERROR, run on
# one CPU whatever the machine has).
dtest-smp-check: $(BUILD)/kernel.elf
	@echo "== D programs (tests/d), 4 CPUs"
	@SONDE_CPUS=4 $(PYTHON) tools/dtest.py --runtime-only --multi-cpu tests/d

e2e-check: $(BUILD)/kernel.elf $(BUILD)/sonde.iso
	$(PYTHON) -m pytest -q tests/e2e

bench: deps all
	@mkdir -p $(BUILD)/bench
	@$(MAKE) --no-print-directory $(LIB_BENCHES)
	@$(PYTHON) tools/bench_probe_effect.py
	@$(PYTHON) tools/bench_smp.py
	@$(PYTHON) tools/bench_proc.py
	@$(PYTHON) tools/bench_pid.py
	@$(MAKE) --no-print-directory sparc64
	@$(PYTHON) tools/bench_sparc64.py
	@$(PYTHON) tools/bench.py --build $(BUILD)

fuzz:
	@$(MAKE) --no-print-directory $(LIB_FUZZ) difffuzz

# The differential fuzzer (tools/difffuzz.py): random D programs, 1 CPU vs 4.
DIFFFUZZ_N ?= 200
difffuzz-check: $(BUILD)/kernel.elf
	@$(PYTHON) tools/difffuzz.py -n 6 --seed 1 --batch 6
difffuzz: $(BUILD)/kernel.elf
	@$(PYTHON) tools/difffuzz.py -n $(DIFFFUZZ_N) --batch 8
