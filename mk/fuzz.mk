# mk/fuzz.mk - the DOF loader's fuzzer (tests/fuzz/dof_fuzz.c).
#
#   dof-fuzz        the fuzzer for FUZZ_SECONDS (default 600), seeded with the
#                   DOF of every D program of tests/d that compiles on the host
#                   (tests/fuzz/dof_seed.c); prints inputs, accepted, and the
#                   refusals by reason
#   dof-fuzz-smoke  the same for DOF_FUZZ_SMOKE seconds (default 15)
#
# The fuzzer links the loader (trace/dof.c, host-built with -DSONDE_HOST),
# the kernel's printf for its messages, DIF (dif_validate) and the compiler's
# DOF writer (the reload check).  Skipped with a message without clang.

DOF_OUT        := $(BUILD)/host/dof
DOF_CLANG      ?= $(shell command -v clang 2>/dev/null)
DOF_FUZZ_SMOKE ?= 15
FUZZ_SECONDS   ?= 600
FUZZ_RUNS      ?= -1
DOF_FUZZFLAGS  := -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE -DSONDE_HOST \
                  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

LIB_FUZZ += dof-fuzz

$(DOF_OUT)/dof_fuzz: tests/fuzz/dof_fuzz.c trace/dof.c dlang/dt_dof.c kernel/printf.c \
                     kernel/string.c $(DIF_SRCS)
	@mkdir -p $(@D)
	$(DOF_CLANG) $(DOF_FUZZFLAGS) -o $@ $^

$(DOF_OUT)/dof_seed: $(DLANG_OUT)/tests/fuzz/dof_seed.o $(DLANG_LIBOBJS)
	@mkdir -p $(@D)
	$(CC) -o $@ $^

DOF_SEEDDIR := $(DOF_OUT)/seeds
DOF_SEED = rm -rf $(DOF_SEEDDIR); mkdir -p $(DOF_SEEDDIR) $(DOF_OUT)/corpus; \
	$(DOF_OUT)/dof_seed $(DOF_SEEDDIR) $$(find tests/d -name 'tst.*.d');

.PHONY: dof-fuzz dof-fuzz-smoke
dof-fuzz-smoke: $(DOF_OUT)/dof_seed
	$(call fuzz_smoke,dof,$(DOF_CLANG),$(DOF_OUT)/dof_fuzz,$(DOF_FUZZ_SMOKE),\
	  -max_len=65536 -artifact_prefix=$(DOF_OUT)/ $(DOF_OUT)/corpus $(DOF_SEEDDIR),$(DOF_SEED))

dof-fuzz: $(DOF_OUT)/dof_seed
	@if [ -z "$(DOF_CLANG)" ]; then echo "dof: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(DOF_OUT)/dof_fuzz
	@$(DOF_SEED)
	$(DOF_OUT)/dof_fuzz -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -print_final_stats=1 \
	  -max_len=65536 -artifact_prefix=$(DOF_OUT)/ $(DOF_OUT)/corpus $(DOF_SEEDDIR)
