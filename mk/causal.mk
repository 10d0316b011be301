# mk/causal.mk - causal baggage (docs/causal.md): its fuzzer and its bench.
#
#   baggage-fuzz-smoke  a short libFuzzer run of tests/fuzz/baggage_fuzz.c
#                       (BAGGAGE_FUZZ_SMOKE seconds, default 3), in make
#                       check (LIB_CHECKS) when clang is there
#   baggage-fuzz        a run of FUZZ_SECONDS (default 600), part of make fuzz
#   causal-bench        the costs under -icount (tools/bench_causal.py), part
#                       of make bench (LIB_BENCHES): build/bench/causal.json

BAGGAGE_FUZZ := $(BUILD)/host/kernel/baggage_fuzz
BAGGAGE_CLANG ?= $(shell command -v clang 2>/dev/null)
BAGGAGE_FUZZ_SMOKE ?= 3
FUZZ_SECONDS ?= 600
FUZZ_RUNS    ?= -1
BAGGAGE_FUZZ_RUN = $(BAGGAGE_FUZZ) -print_final_stats=1 -max_len=512 \
	-artifact_prefix=$(BUILD)/host/kernel/ $(BUILD)/host/kernel/baggage-corpus

LIB_CHECKS  += baggage-fuzz-smoke
LIB_FUZZ    += baggage-fuzz
LIB_BENCHES += causal-bench
.PHONY: baggage-fuzz-smoke baggage-fuzz causal-bench

$(BAGGAGE_FUZZ): tests/fuzz/baggage_fuzz.c kernel/baggage.c kernel/baggage_fmt.c kernel/baggage.h \
		kernel/baggage_site.h
	@mkdir -p $(@D)
	$(BAGGAGE_CLANG) -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE -DSONDE_HOST \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/fuzz/baggage_fuzz.c kernel/baggage.c kernel/baggage_fmt.c

baggage-fuzz-smoke:
	$(call fuzz_smoke,baggage,$(BAGGAGE_CLANG),$(BAGGAGE_FUZZ),$(BAGGAGE_FUZZ_SMOKE),\
	  -max_len=512 -artifact_prefix=$(BUILD)/host/kernel/ $(BUILD)/host/kernel/baggage-corpus,\
	  mkdir -p $(BUILD)/host/kernel/baggage-corpus;)

baggage-fuzz:
	@if [ -z "$(BAGGAGE_CLANG)" ]; then echo "baggage: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(BAGGAGE_FUZZ)
	@mkdir -p $(BUILD)/host/kernel/baggage-corpus
	$(BAGGAGE_FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS)

causal-bench: $(BUILD)/kernel.elf
	@mkdir -p $(BUILD)/bench
	$(PYTHON) tools/bench_causal.py
