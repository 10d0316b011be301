# dif/dif.mk: DIF's fragment of the top-level build (included by Makefile).
#
# The top-level Makefile defines BUILD, CC, HOSTCFLAGS, KCFLAGS and PYTHON
# and compiles $(DIF_SRCS) into the kernel itself. This fragment builds the
# host side under $(BUILD)/host/dif/ and defines:
#
#   dif-check   the tests/dif/*.dift vectors, the difasm
#               binary round trip, a kernel-flags compile of dif/, and a
#               short libFuzzer run (DIF_FUZZ_SMOKE seconds, default 15)
#   dif-bench   ns per DIF instruction and the typical predicate; writes
#               $(BUILD)/bench/dif.json
#   dif-fuzz    the fuzzer for FUZZ_SECONDS (default 600)

DIF_SRCS := $(sort $(wildcard dif/*.c))

LIB_CHECKS  += dif-check
LIB_BENCHES += dif-bench
LIB_FUZZ    += dif-fuzz

DIF_OUT      := $(BUILD)/host/dif
DIF_HOSTOBJS := $(DIF_SRCS:%.c=$(DIF_OUT)/%.o)
DIF_KOBJS    := $(DIF_SRCS:%.c=$(DIF_OUT)/kernel/%.o)
DIF_ENVOBJ   := $(DIF_OUT)/tests/dif/dif_hostenv.o
DIF_VECTORS  := $(wildcard tests/dif/*.dift)
DIF_CLANG    ?= $(shell command -v clang 2>/dev/null)
DIF_FUZZ_SMOKE ?= 15
FUZZ_SECONDS ?= 600
FUZZ_RUNS    ?= -1
DIF_FUZZFLAGS := -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE \
                 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

.PHONY: dif-check dif-bench dif-fuzz dif-vectors dif-roundtrip \
        dif-kcheck dif-fuzz-smoke

$(DIF_OUT)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) -c -o $@ $<

# dif/ must also build with the kernel's flags; the kernel links its own.
$(DIF_OUT)/kernel/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c -o $@ $<

$(DIF_OUT)/dift: $(DIF_OUT)/tests/dif/dift.o $(DIF_ENVOBJ) $(DIF_HOSTOBJS) $(DIF_OUT)/arch/x86_64/dif_jit.o
	$(CC) -o $@ $^

$(DIF_OUT)/difasm: $(DIF_OUT)/tools/difasm.o $(DIF_HOSTOBJS)
	$(CC) -o $@ $^

$(DIF_OUT)/dif_bench: $(DIF_OUT)/tests/dif/dif_bench.o $(DIF_ENVOBJ) $(DIF_HOSTOBJS)
	$(CC) -o $@ $^

# The text form (asm/disasm) is fuzzed through the round trip, but without
# comparison tracing: its character loops would otherwise dominate the run.
DIF_FUZZ_TEXT := dif/dif_asm.c dif/dif_disasm.c
DIF_FUZZ_TEXTOBJS := $(DIF_FUZZ_TEXT:%.c=$(DIF_OUT)/fuzz/%.o)
$(DIF_OUT)/fuzz/%.o: %.c
	@mkdir -p $(@D)
	$(DIF_CLANG) $(subst fuzzer,fuzzer-no-link,$(DIF_FUZZFLAGS)) \
	  -fno-sanitize-coverage=trace-cmp -c -o $@ $<
$(DIF_OUT)/dif_fuzz: tests/fuzz/dif_fuzz.c tests/dif/dif_hostenv.c arch/x86_64/dif_jit.c \
                     $(filter-out $(DIF_FUZZ_TEXT),$(DIF_SRCS)) $(DIF_FUZZ_TEXTOBJS)
	@mkdir -p $(@D)
	$(DIF_CLANG) $(DIF_FUZZFLAGS) -o $@ $^

# The fuzzer's seeds (tests/fuzz/dif_seed.c): every DIFO of the tree in the
# fuzzer's input layout, generated here into build/ (never committed). The
# tool compiles D too, so it links the D compiler (dlang/ is built after
# dif/ but has no other tie to this fragment), with the CTF reader it reads
# kernel types through.
DIF_SEED_OBJS := $(patsubst %.c,$(DIF_OUT)/%.o,tests/fuzz/dif_seed.c $(wildcard dlang/dt_*.c) kernel/ctf.c)
$(DIF_OUT)/dif_seed: $(DIF_SEED_OBJS) $(DIF_HOSTOBJS)
	$(CC) -o $@ $^
DIF_SEEDDIR := $(DIF_OUT)/seeds
DIF_SEED = rm -rf $(DIF_SEEDDIR); mkdir -p $(DIF_SEEDDIR) $(DIF_OUT)/corpus; \
	$(DIF_OUT)/dif_seed $(DIF_SEEDDIR) $(DIF_VECTORS) \
	  $$(find tests/d scripts -name '*.d') >/dev/null;

dif-kcheck: $(DIF_KOBJS)
	@echo "dif: kernel-flags build OK ($(words $(DIF_KOBJS)) files)"

dif-vectors: $(DIF_OUT)/dift
	@echo "$(DIF_OUT)/dift -cover -jit tests/dif/*.dift"
	@$(DIF_OUT)/dift -cover -jit $(DIF_VECTORS)

# Binary round trip through the tool: asm -> .difo -> text -> .difo, cmp.
dif-roundtrip: $(DIF_OUT)/difasm
	@set -e; d=$(DIF_OUT)/rt; mkdir -p $$d; n=0; \
	for v in $(DIF_VECTORS); do \
	  b=$$d/$$(basename $$v .dift); \
	  $(DIF_OUT)/difasm -o $$b.1.difo $$v; \
	  $(DIF_OUT)/difasm -d $$b.1.difo > $$b.s; \
	  $(DIF_OUT)/difasm -o $$b.2.difo $$b.s; \
	  cmp -s $$b.1.difo $$b.2.difo || { echo "round trip differs: $$v"; exit 1; }; \
	  $(DIF_OUT)/difasm -c $$v; n=$$((n+1)); \
	done; echo "difasm: $$n round trips exact"

dif-fuzz-smoke:
	$(call fuzz_smoke,dif,$(DIF_CLANG),$(DIF_OUT)/dif_fuzz,$(DIF_FUZZ_SMOKE),\
	  -max_len=2048 -artifact_prefix=$(DIF_OUT)/ $(DIF_OUT)/corpus $(DIF_SEEDDIR),\
	  $(MAKE) --no-print-directory $(DIF_OUT)/dif_seed && $(DIF_SEED))

dif-check: dif-kcheck dif-vectors dif-roundtrip dif-fuzz-smoke

dif-bench: $(DIF_OUT)/dif_bench
	@mkdir -p $(BUILD)/bench
	$(DIF_OUT)/dif_bench $(BUILD)/bench/dif.json

dif-fuzz:
	@if [ -z "$(DIF_CLANG)" ]; then echo "dif: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(DIF_OUT)/dif_fuzz $(DIF_OUT)/dif_seed
	@$(DIF_SEED)
	$(DIF_OUT)/dif_fuzz -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -print_final_stats=1 \
	  -max_len=2048 -artifact_prefix=$(DIF_OUT)/ $(DIF_OUT)/corpus $(DIF_SEEDDIR)
