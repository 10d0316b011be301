# mk/vmem.mk - the kernel's address-space arena (kernel/vmem.c) under libFuzzer
# on the host (tests/fuzz/vmem_fuzz.c checks it against a model).
#
#   vmem-fuzz-smoke  a short run (VMEM_FUZZ_SMOKE seconds, default 3), in make
#                    check (LIB_CHECKS) when clang is there
#   vmem-fuzz        a run of FUZZ_SECONDS (default 600) or FUZZ_RUNS
#                    executions, part of make fuzz

VMEM_FUZZ       := $(BUILD)/host/kernel/vmem_fuzz
VMEM_CLANG      ?= $(shell command -v clang 2>/dev/null)
VMEM_FUZZ_SMOKE ?= 3
FUZZ_SECONDS    ?= 600
FUZZ_RUNS       ?= -1
VMEM_FUZZ_ARGS   = -max_len=1024 -artifact_prefix=$(BUILD)/host/kernel/vmem- \
	$(BUILD)/host/kernel/vmem-corpus

LIB_CHECKS += vmem-fuzz-smoke
LIB_FUZZ   += vmem-fuzz
.PHONY: vmem-fuzz-smoke vmem-fuzz

$(VMEM_FUZZ): tests/fuzz/vmem_fuzz.c kernel/vmem.c kernel/vmem.h
	@mkdir -p $(@D)
	$(VMEM_CLANG) -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE -DSONDE_HOST \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/fuzz/vmem_fuzz.c kernel/vmem.c

vmem-fuzz-smoke:
	$(call fuzz_smoke,vmem,$(VMEM_CLANG),$(VMEM_FUZZ),$(VMEM_FUZZ_SMOKE),$(VMEM_FUZZ_ARGS),\
	  mkdir -p $(BUILD)/host/kernel/vmem-corpus;)

vmem-fuzz:
	@if [ -z "$(VMEM_CLANG)" ]; then echo "vmem: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(VMEM_FUZZ)
	@mkdir -p $(BUILD)/host/kernel/vmem-corpus
	$(VMEM_FUZZ) -print_final_stats=1 $(VMEM_FUZZ_ARGS) -max_total_time=$(FUZZ_SECONDS) \
	  -runs=$(FUZZ_RUNS)
