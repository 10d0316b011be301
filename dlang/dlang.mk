# dlang/dlang.mk: the D compiler's fragment of the top-level build.
#
# The top-level Makefile defines BUILD, CC, HOSTCFLAGS, KCFLAGS and PYTHON,
# includes dif/dif.mk first (DIF_SRCS) and compiles $(DLANG_SRCS) into the
# kernel.  This fragment builds the host side under $(BUILD)/host/dlang/
# and the driver $(BUILD)/host/dtc, and defines:
#
#   dlang-check   kernel-flags compile of dlang/, the exact-DIF golden snippets
#                 (tests/dlang/*.d against *.S), the rejection tests
#                 (tests/d/err.D_TAG.*.d must fail with D_TAG), every other
#                 tests/d/*.d must compile, and a libFuzzer smoke run
#                 (DLANG_FUZZ_SMOKE seconds, default 15)
#   dlang-bench   host compile throughput on a generated 1,000-line script;
#                 writes $(BUILD)/bench/dlang.json
#   dlang-fuzz    the fuzzer for FUZZ_SECONDS (default 600)
#   dlang-golden  regenerate tests/dlang/*.S (review the diff!)

DLANG_SRCS := $(sort $(wildcard dlang/*.c))

LIB_CHECKS  += dlang-check
LIB_BENCHES += dlang-bench
LIB_FUZZ    += dlang-fuzz

DLANG_OUT      := $(BUILD)/host/dlang
# the kernel's CTF reader (kernel/ctf.c), which dt_ctf.c reads types with
DLANG_CTFOBJ   := $(DLANG_OUT)/ctfreader/ctf.o
DLANG_LIBOBJS  := $(DLANG_SRCS:%.c=$(DLANG_OUT)/%.o) $(DIF_SRCS:%.c=$(DLANG_OUT)/%.o) \
                  $(DLANG_CTFOBJ)
DLANG_KOBJS    := $(DLANG_SRCS:%.c=$(DLANG_OUT)/kernel/%.o)
DTC            := $(BUILD)/host/dtc
DLANG_CLANG    ?= $(shell command -v clang 2>/dev/null)
DLANG_FUZZ_SMOKE ?= 15
FUZZ_SECONDS   ?= 600
FUZZ_RUNS      ?= -1
DLANG_FUZZFLAGS := -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE \
                   -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all

.PHONY: dlang-check dlang-bench dlang-fuzz dlang-kcheck \
        dlang-tests dlang-fuzz-smoke dlang-golden

$(DLANG_OUT)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) -c -o $@ $<

$(DLANG_CTFOBJ): kernel/ctf.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) -c -o $@ $<

$(DLANG_OUT)/kernel/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(KCFLAGS) -c -o $@ $<

# dtc reads the D library from the source tree (tools/dtc.c)
$(DLANG_OUT)/tools/dtc.o: HOSTCFLAGS += \
    -DDTC_LIBDIR='"$(CURDIR)/dlang/lib:$(CURDIR)/arch/x86_64/dlib"' \
    -DDTC_CTF='"$(abspath $(BUILD))/kernel.ctf"'

$(DTC): $(DLANG_OUT)/tools/dtc.o $(DLANG_OUT)/tools/dtc_ctf.o $(DLANG_LIBOBJS)
	$(CC) -o $@ $^

$(DLANG_OUT)/dtc_bench: $(DLANG_OUT)/tools/dtc_bench.o $(DLANG_LIBOBJS)
	$(CC) -o $@ $^

# pred-bench: host Ir of one compiled predicate under callgrind (tools/bench_pred.py)
$(DLANG_OUT)/pred_ir: $(DLANG_OUT)/tools/pred_ir.o $(DLANG_OUT)/tests/dif/dif_hostenv.o \
                      $(DLANG_OUT)/arch/x86_64/dif_jit.o $(DLANG_LIBOBJS)
	$(CC) -o $@ $^
LIB_BENCHES += pred-bench
.PHONY: pred-bench
pred-bench: $(DLANG_OUT)/pred_ir
	@$(PYTHON) tools/bench_pred.py

$(DLANG_OUT)/dt_fuzz: tests/fuzz/dt_fuzz.c tests/dif/dif_hostenv.c $(DLANG_SRCS) $(DIF_SRCS) kernel/ctf.c
	@mkdir -p $(@D)
	$(DLANG_CLANG) $(DLANG_FUZZFLAGS) -o $@ $^

dlang-kcheck: $(DLANG_KOBJS)
	@echo "dlang: kernel-flags build OK ($(words $(DLANG_KOBJS)) files)"

# dtc reads the kernel's types (tests/d/ctf) from $(BUILD)/kernel.ctf
dlang-tests: $(DTC) $(BUILD)/kernel.ctf
	@sh tools/dtc-check.sh $(DTC)

dlang-golden: $(DTC) $(BUILD)/kernel.ctf
	@sh tools/dtc-check.sh $(DTC) --update

# The fuzzer's seed corpus: every D file of the tree (tests/d and its
# subdirectories, tests/dlang, scripts), renamed so that no *.d file lands
# under $(BUILD) (the top-level Makefile includes those).
DLANG_SEED = mkdir -p $(DLANG_OUT)/corpus; for f in $$(find tests/dlang tests/d scripts -name '*.d'); do \
	  cp "$$f" $(DLANG_OUT)/corpus/$$(echo $$f | tr / _).seed; done;
DLANG_FUZZBIN := $(if $(DLANG_CLANG),$(DLANG_OUT)/dt_fuzz)

dlang-fuzz-smoke:
	$(call fuzz_smoke,dlang,$(DLANG_CLANG),$(DLANG_OUT)/dt_fuzz,$(DLANG_FUZZ_SMOKE),\
	  -max_len=4096 -dict=tests/fuzz/d.dict -artifact_prefix=$(DLANG_OUT)/ $(DLANG_OUT)/corpus,\
	  $(DLANG_SEED))

dlang-check: dlang-kcheck dlang-tests dlang-fuzz-smoke

dlang-bench: $(DLANG_OUT)/dtc_bench
	@mkdir -p $(BUILD)/bench
	$(DLANG_OUT)/dtc_bench $(BUILD)/bench/dlang.json

dlang-fuzz: $(DLANG_FUZZBIN)
	@if [ -z "$(DLANG_CLANG)" ]; then echo "dlang: clang not found"; exit 1; fi
	@$(DLANG_SEED)
	$(DLANG_OUT)/dt_fuzz -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS) -print_final_stats=1 \
	  -max_len=4096 -dict=tests/fuzz/d.dict -artifact_prefix=$(DLANG_OUT)/ $(DLANG_OUT)/corpus
