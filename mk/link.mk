# mk/link.mk - the link between two machines (kernel/link.c, docs/causal.md):
# the fuzzer of its frame decoder (tests/fuzz/link_fuzz.c, libFuzzer, clang).
#
#   link-fuzz-smoke   a short run (LINK_FUZZ_SMOKE seconds, default 3), in
#                     make check (LIB_CHECKS) when clang is there
#   link-fuzz         a run of FUZZ_SECONDS (default 600), part of make fuzz
#
# The decoder's unit tests are tests/unit/kernel_link_frame_test.c (mk/unit.mk);
# the two-machine test is tests/e2e/test_link.py.

LINK_OUT   := $(BUILD)/host/link
LINK_FUZZ  := $(LINK_OUT)/link_fuzz
LINK_CLANG ?= $(shell command -v clang 2>/dev/null)
LINK_FUZZ_SMOKE ?= 3
FUZZ_SECONDS ?= 600
FUZZ_RUNS    ?= -1
LINK_FUZZ_RUN = $(LINK_FUZZ) -print_final_stats=1 -max_len=4096 -dict=tests/fuzz/link.dict \
	-artifact_prefix=$(LINK_OUT)/ $(LINK_OUT)/corpus

LIB_CHECKS += link-fuzz-smoke
LIB_FUZZ   += link-fuzz
.PHONY: link-fuzz-smoke link-fuzz

$(LINK_FUZZ): tests/fuzz/link_fuzz.c kernel/link_frame.c kernel/link_frame.h
	@mkdir -p $(@D)
	$(LINK_CLANG) -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE -DSONDE_HOST \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -o $@ tests/fuzz/link_fuzz.c kernel/link_frame.c

link-fuzz-smoke:
	$(call fuzz_smoke,link,$(LINK_CLANG),$(LINK_FUZZ),$(LINK_FUZZ_SMOKE),\
	  -max_len=4096 -dict=tests/fuzz/link.dict -artifact_prefix=$(LINK_OUT)/ $(LINK_OUT)/corpus,\
	  mkdir -p $(LINK_OUT)/corpus;)

link-fuzz:
	@if [ -z "$(LINK_CLANG)" ]; then echo "link: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(LINK_FUZZ)
	@mkdir -p $(LINK_OUT)/corpus
	$(LINK_FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS)
