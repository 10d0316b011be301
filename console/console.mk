# console/console.mk - the ring-0 code the console runs: the shell and the
# built-in workloads (and the consumer, console/dtrace/, built by mk/kernel.mk).
#
# Included by the top-level Makefile.  CONSOLE_SRCS are compiled into the
# kernel by mk/kernel.mk; their host unit tests are tests/unit/shell_*_test.c
# (mk/unit.mk): the line editor, the tokenizer, and the commands.

CONSOLE_SRCS := $(sort $(wildcard console/shell/*.c console/workloads/*.c))

# Host tests (tests/unit/shell_*_test.c) are built by mk/unit.mk, against
# a pretend kernel (tests/unit/shell_fake_kernel.c), as the fuzzer below is.
CONSOLE_HOST_DIR := $(BUILD)/host/console
CONSOLE_HOST_CFLAGS := -DSONDE_HOST -include tests/unit/shell_fake_kernel.h

# The console-byte fuzzer (tests/fuzz/shell_fuzz.c, libFuzzer, clang): the
# shell's editor, tokenizer and commands on the pretend kernel.
#   shell-fuzz-smoke  a short run (SHELL_FUZZ_SMOKE seconds, default 10), in
#                     make check (LIB_CHECKS) when clang is there
#   shell-fuzz        a run of FUZZ_SECONDS (default 600), part of make fuzz
SHELL_FUZZ_SRCS := tests/fuzz/shell_fuzz.c console/shell/ledit.c console/shell/shell_tok.c \
	console/shell/shell.c console/shell/shell_cmds.c console/shell/shell_files.c \
	console/workloads/workload.c tests/unit/shell_fake_kernel.c kernel/printf.c \
	kernel/string.c kernel/kfile_tar.c
SHELL_FUZZ := $(CONSOLE_HOST_DIR)/shell_fuzz
SHELL_CLANG ?= $(shell command -v clang 2>/dev/null)
SHELL_FUZZ_SMOKE ?= 10
FUZZ_SECONDS ?= 600
FUZZ_RUNS    ?= -1
SHELL_FUZZ_RUN = $(SHELL_FUZZ) -print_final_stats=1 -max_len=8192 -dict=tests/fuzz/shell.dict \
	-artifact_prefix=$(CONSOLE_HOST_DIR)/ $(CONSOLE_HOST_DIR)/corpus

LIB_CHECKS += shell-fuzz-smoke
LIB_FUZZ   += shell-fuzz
.PHONY: shell-fuzz-smoke shell-fuzz

$(SHELL_FUZZ): $(SHELL_FUZZ_SRCS) tests/unit/shell_fake_kernel.h
	@mkdir -p $(@D)
	$(SHELL_CLANG) -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE $(CONSOLE_HOST_CFLAGS) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -Wl,--wrap=kmalloc,--wrap=kzalloc,--wrap=kfree -o $@ $(SHELL_FUZZ_SRCS)

shell-fuzz-smoke:
	$(call fuzz_smoke,shell,$(SHELL_CLANG),$(SHELL_FUZZ),$(SHELL_FUZZ_SMOKE),\
	  -max_len=8192 -dict=tests/fuzz/shell.dict -artifact_prefix=$(CONSOLE_HOST_DIR)/ \
	  $(CONSOLE_HOST_DIR)/corpus,mkdir -p $(CONSOLE_HOST_DIR)/corpus;)

shell-fuzz:
	@if [ -z "$(SHELL_CLANG)" ]; then echo "shell: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(SHELL_FUZZ)
	@mkdir -p $(CONSOLE_HOST_DIR)/corpus
	$(SHELL_FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS) -runs=$(FUZZ_RUNS)
