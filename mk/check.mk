# mk/check.mk - every test, and the benchmarks.
#
#   make check      host unit tests (cmocka, mk/unit.mk), each library's checks (DIF
#                   vectors, compiler tests, fuzz smoke runs), the include
#                   rules, the in-kernel self-tests (TAP), the sparc64 share
#                   (mk/sparc64.mk: unit tests big-endian, its self-tests, the
#                   D suite), then the end-to-end console tests (pytest +
#                   pexpect), whose summary line ends the run.
#   make bench      the figures: build/bench.json and a table.
#   make fuzz       each library's fuzzer for FUZZ_SECONDS (default 600) or
#                   FUZZ_RUNS executions (default -1: no bound), whichever ends first,
#                   then `make difffuzz` (DIFFFUZZ_N programs, 1 vs 4 CPUs).
#   make stress     the SMP stress campaign, long: the stress_* self-tests on
#                   STRESS_CPUS (4) CPUs for STRESS_SECONDS (60) each, then the
#                   e2e stress test for as long; STRESS_AREAS / STRESS_SKIP
#                   choose areas (exact storm fbt dynvar agg spec close).
#                   `make check` runs the short version (stress-check).
#   make sysfuzz-long  eight /bin/sysfuzz at once in one 4-CPU guest for
#                   SYSFUZZ_SECONDS (600), then memory back to its baseline
#   make stress-mix the stress mix for MIX_SECONDS (300): sysfuzz, workloads,
#                   SunRay users and one dtrace of every provider, 4 CPUs
#                   (both: tests/e2e/test_campaign.py, figures in build/campaign/)

# Tests and benchmarks never take an anonymous enabling that tools/dtrace -A
# left in build/anon.tar (docs/tracing.md): their boots must be plain.
export SONDE_ANON := $(CURDIR)/$(BUILD)/no-anonymous-enabling.tar

.PHONY: check check-deps deps-graph figures-check selftest-check dtest-check dtest-smp-check e2e-check \
        bench fuzz stress-check stress stress-selftest difffuzz-check difffuzz fbtjump-stress \
        dtest-nojump-check dtest-variants soak sysfuzz-long stress-mix

check: deps
	@$(MAKE) --no-print-directory all
	@$(MAKE) --no-print-directory unit-check check-deps $(LIB_CHECKS) selftest-check \
		stress-check dtest-check dtest-smp-check dtest-nojump-check difffuzz-check figures-check
	@$(MAKE) --no-print-directory kunit-be-check sparc64-check sparc64-dtest-check
	@$(MAKE) --no-print-directory e2e-check

# The include rules (userland -> dlang -> dif; kernel -> arch.h), checked by grep;
# the tree stands alone; the reading order reaches every source file; probe
# context calls nothing fbt patches.
check-deps:
	@sh tools/check_deps.sh
	@$(PYTHON) tools/check_tree.py
	@$(PYTHON) tools/deps_graph.py --check docs/architecture.md
	@$(PYTHON) tools/check_reading.py
	@$(PYTHON) tools/fbt_check_notrace.py

# The include rules as a picture (docs/architecture.md has them as text).
deps-graph:
	@mkdir -p $(BUILD)
	@$(PYTHON) tools/deps_graph.py --dot > $(BUILD)/deps.dot
	@if command -v dot > /dev/null; then dot -Tsvg $(BUILD)/deps.dot -o $(BUILD)/deps.svg && \
		echo "$(BUILD)/deps.svg"; else echo "$(BUILD)/deps.dot (install graphviz for the SVG)"; fi

# The probe-effect figures the docs quote, against a fresh measurement (exact
# under -icount, about 30 s): tools/check_figures.py says which may drift.
figures-check: $(BUILD)/kernel.elf
	@mkdir -p $(BUILD)/bench
	@$(PYTHON) tools/bench_probe_effect.py > $(BUILD)/figures-check.log 2>&1 || \
		{ tail -20 $(BUILD)/figures-check.log; exit 1; }
	@$(PYTHON) tools/check_figures.py

SELFTEST_QEMU := $(QEMU) -display none -serial stdio -no-reboot -m $(MEM) \
                 -device isa-debug-exit,iobase=0xf4,iosize=0x04 -kernel $(BUILD)/kernel.elf

# The self-tests run on one CPU and again on four, each time with a fresh
# copy of build/disk.img as a virtio disk (blk_virtio writes to it).
SELFTEST_DISK := -drive file=$(BUILD)/selftest-disk.img,if=none,id=disk0,format=raw \
                 -device virtio-blk-pci,drive=disk0
selftest-check: $(BUILD)/kernel.elf $(BUILD)/disk.img
	@set -e; for n in 1 4; do \
	echo "== in-kernel self-tests, $$n CPU(s)"; \
	cp $(BUILD)/disk.img $(BUILD)/selftest-disk.img; \
	s=0; timeout 300 $(SELFTEST_QEMU) $(SELFTEST_DISK) -smp $$n -append selftest > $(BUILD)/selftest.log 2>&1 || s=$$?; \
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

# Jump-optimised fbt under load, long: every fbt probe enabled and disabled
# FBTJUMP_CYCLES times on FBTJUMP_CPUS CPUs while workloads run; the text
# must come back byte-identical each time; then mutexes hammered on every CPU
# while consumers of every entry probe come and go (FBTJUMP_HAMMER of them) and
# while the hot functions' entry probes flip FBTJUMP_FLIPS times
# (tests/kernel/fbt_jump_selftest.c; short versions run in selftest-check).
FBTJUMP_CPUS   ?= 4
FBTJUMP_CYCLES ?= 50
FBTJUMP_HAMMER ?= 10
FBTJUMP_FLIPS  ?= 40
fbtjump-stress: $(BUILD)/kernel.elf
	@echo "== fbt jump stress, $(FBTJUMP_CPUS) CPUs, $(FBTJUMP_CYCLES) cycles"
	@s=0; timeout 2400 $(SELFTEST_QEMU) -smp $(FBTJUMP_CPUS) \
		-append 'selftest=fbt_jump_stress,fbt_jump_mutex_hammer_long,fbt_jump_flip_hot fbtjump.cycles=$(FBTJUMP_CYCLES) fbtjump.hammer=$(FBTJUMP_HAMMER) fbtjump.flips=$(FBTJUMP_FLIPS)' > $(BUILD)/fbtjump.log 2>&1 || s=$$?; \
	grep -E '^(not )?ok |^#|^1\.\.' $(BUILD)/fbtjump.log | tr -d '\r'; \
	if [ $$s -ne 33 ]; then echo "fbtjump-stress: QEMU exit status $$s (33 = all passed)"; \
		tail -30 $(BUILD)/fbtjump.log; exit 1; fi

# Short: part of make check (a few seconds of guest time per test).
stress-check: $(BUILD)/kernel.elf
	@$(MAKE) --no-print-directory stress-selftest STRESS_MS=$(STRESS_MS) STRESS_TIMEOUT=150

# Long: memory that comes back.  10,000 dtrace runs in one boot on 4 CPUs
# and 1,000 on sparc64, free memory printed each hundred and held within 1 %
# of the baseline (tools/mem_soak.py; make check runs 300 on 2 CPUs).
SOAK_RUNS ?= 10000
SOAK_SPARC64_RUNS ?= 1000
soak: deps all sparc64
	$(PYTHON) tools/mem_soak.py --runs $(SOAK_RUNS) --cpus 4
	$(PYTHON) tools/mem_soak.py --runs $(SOAK_SPARC64_RUNS) --arch sparc64

# Long: STRESS_SECONDS per self-test, then the e2e stress test as long.
stress: deps all
	@$(MAKE) --no-print-directory stress-selftest STRESS_MS=$$(($(STRESS_SECONDS) * 1000)) \
		STRESS_TIMEOUT=$$(($(STRESS_SECONDS) * 20 + 300))
	SONDE_STRESS_SECONDS=$(STRESS_SECONDS) SONDE_STRESS_SKIP='$(STRESS_SKIP)' \
		$(PYTHON) -m pytest -q tests/e2e/test_stress.py

# The long campaigns in the guest (tests/e2e/test_campaign.py, docs/fuzzing.md):
# their figures go to build/campaign/sysfuzz-long.txt and stress-mix.txt.
SYSFUZZ_SECONDS ?= 600
MIX_SECONDS     ?= 300
CAMPAIGN_SEED   ?= 1
sysfuzz-long: all
	SONDE_SYSFUZZ_SECONDS=$(SYSFUZZ_SECONDS) SONDE_CAMPAIGN_SEED=$(CAMPAIGN_SEED) \
		$(PYTHON) -m pytest -q -s tests/e2e/test_campaign.py -k sysfuzz > $(BUILD)/sysfuzz-long.log 2>&1; \
		s=$$?; cat $(BUILD)/campaign/sysfuzz-long.txt 2>/dev/null; tail -3 $(BUILD)/sysfuzz-long.log; exit $$s
stress-mix: all
	SONDE_MIX_SECONDS=$(MIX_SECONDS) SONDE_CAMPAIGN_SEED=$(CAMPAIGN_SEED) \
		$(PYTHON) -m pytest -q -s tests/e2e/test_campaign.py -k stress_mix > $(BUILD)/stress-mix.log 2>&1; \
		s=$$?; cat $(BUILD)/campaign/stress-mix.txt 2>/dev/null; tail -3 $(BUILD)/stress-mix.log; exit $$s

# The D programs of tests/d, each run in a booted guest by tools/dtrace
# (illumos naming: tst.*.d succeed, err.D_TAG.*.d fail with that tag, .out
# and .err golden output); two at a time.
dtest-check: $(BUILD)/kernel.elf $(BUILD)/disk.img
	@echo "== D programs (tests/d)"
	@$(PYTHON) tools/dtest.py tests/d

# The same programs on four CPUs: those that can fire on more than one
# (the compile-error ones, and those that only fire BEGIN/END/ERROR, run on
# one CPU whatever the machine has).
dtest-smp-check: $(BUILD)/kernel.elf $(BUILD)/disk.img
	@echo "== D programs (tests/d), 4 CPUs"
	@SONDE_CPUS=4 $(PYTHON) tools/dtest.py --runtime-only --multi-cpu tests/d

# The fbt programs again with every entry probe on the trap (booted
# nofbtjump): jump-optimised entry is the default, this keeps the trap path
# (and `nofbtjump` itself) covered.  A few seconds.
dtest-nojump-check: $(BUILD)/kernel.elf $(BUILD)/disk.img
	@echo "== D programs (tests/d/fbt), fbt entry probes trapping (nofbtjump)"
	@SONDE_APPEND=nofbtjump $(PYTHON) tools/dtest.py --runtime-only tests/d/fbt

# The whole D suite the other ways the firing path can go, with the same
# goldens (issue 19's "passes with the JIT on and off, jumps on and off"):
# every DIFO interpreted (-x jit=0, the JIT's differential run over the
# suite), and every fbt site on the trap (nofbtjump).  Outside make check:
# about 4 minutes each on 2 cores.
dtest-variants: $(BUILD)/kernel.elf
	@echo "== D programs (tests/d), every DIFO interpreted (-x jit=0)"
	@$(PYTHON) tools/dtest.py --jit=0 --runtime-only tests/d
	@echo "== D programs (tests/d), every fbt site trapping (nofbtjump)"
	@SONDE_APPEND=nofbtjump $(PYTHON) tools/dtest.py --runtime-only tests/d

# Two tests at a time (pytest-xdist, python3-pytest-xdist) where it is
# installed: the tests wait on their guests more than they compute, and each
# has guests and files of its own.  E2E_JOBS=1 runs them one at a time.
E2E_JOBS ?= $(shell $(PYTHON) -c 'import xdist' 2>/dev/null && echo 2 || echo 1)
e2e-check: $(BUILD)/kernel.elf $(BUILD)/sonde.iso $(BUILD)/disk.img
	$(PYTHON) -m pytest -q $(if $(filter-out 1,$(E2E_JOBS)),-n $(E2E_JOBS)) tests/e2e

# The SunRay replay at full size (docs/labs/sunray.md): 16 users, 3 applets,
# 2-second steps; make check runs it at 6 users and 2 (tests/e2e/test_sunray.py).
.PHONY: sunray-check
sunray-check: $(BUILD)/kernel.elf
	SUNRAY_USERS=16 SUNRAY_APPLETS=3 SUNRAY_SECONDS=2 $(PYTHON) -m pytest -q tests/e2e/test_sunray.py

bench: deps all
	@mkdir -p $(BUILD)/bench
	@$(MAKE) --no-print-directory $(LIB_BENCHES)
	@$(PYTHON) tools/bench_probe_effect.py
	-@$(PYTHON) tools/check_figures.py
	@$(PYTHON) tools/bench_smp.py
	@$(PYTHON) tools/bench_proc.py
	@$(PYTHON) tools/bench_pid.py
	@$(PYTHON) tools/bench_disk.py
	@$(MAKE) --no-print-directory sparc64
	@$(PYTHON) tools/bench_sparc64.py
	@$(PYTHON) tools/bench.py --build $(BUILD)

fuzz:
	@$(MAKE) --no-print-directory $(LIB_FUZZ) difffuzz

# The differential fuzzer (tools/difffuzz.py): random D programs, 1 CPU vs 4.
DIFFFUZZ_N ?= 200
difffuzz-check: $(BUILD)/kernel.elf $(BUILD)/disk.img
	@$(PYTHON) tools/difffuzz.py -n 6 --seed 1 --batch 6
difffuzz: $(BUILD)/kernel.elf
	@$(PYTHON) tools/difffuzz.py -n $(DIFFFUZZ_N) --batch 8
