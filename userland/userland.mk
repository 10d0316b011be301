# userland/userland.mk - the shell and the built-in workloads.
#
# Included by the top-level Makefile.  USERLAND_SRCS are compiled into the
# kernel by mk/kernel.mk.  userland-check builds and runs the host unit tests
# (cmocka): the line editor, the tokenizer, and the commands.

USERLAND_SRCS := \
	userland/shell/ledit.c \
	userland/shell/shell_tok.c \
	userland/shell/shell.c \
	userland/shell/shell_cmds.c \
	userland/shell/shell_files.c \
	userland/shell/shell_proc.c \
	userland/shell/shell_pipe.c \
	userland/shell/shell_vfs.c \
	userland/shell/shell_jobs.c \
	userland/shell/shell_probes.c \
	userland/shell/shell_selftest.c \
	userland/workloads/workload.c \
	userland/workloads/wl_spin.c \
	userland/workloads/wl_churn.c \
	userland/workloads/wl_queue.c \
	userland/workloads/wl_pingpong.c \
	userland/workloads/wl_selftest.c

# Host tests: tests/unit/<name>.c linked with the sources it tests.
# test_shell_cmds runs the commands against a pretend kernel
# (tests/unit/shell_fake_kernel.c), force-included into every host object.
USERLAND_HOST_DIR := $(BUILD)/host/userland
USERLAND_TESTS := test_ledit test_shell_tok test_shell_cmds
USERLAND_test_ledit_SRCS := userland/shell/ledit.c
USERLAND_test_shell_tok_SRCS := userland/shell/shell_tok.c
USERLAND_test_shell_cmds_SRCS := userland/shell/shell.c userland/shell/shell_cmds.c \
	userland/shell/shell_tok.c userland/shell/ledit.c userland/workloads/workload.c \
	tests/unit/shell_fake_kernel.c kernel/printf.c kernel/string.c \
	userland/shell/shell_files.c kernel/kfile_tar.c tests/unit/shell_fake_kfile.c
USERLAND_HOST_CFLAGS := -DSONDE_HOST -include tests/unit/shell_fake_kernel.h
USERLAND_TEST_BINS := $(USERLAND_TESTS:%=$(USERLAND_HOST_DIR)/%)

LIB_CHECKS += userland-check

.PHONY: userland-check
userland-check: $(USERLAND_TEST_BINS)
	@set -e; for t in $(USERLAND_TEST_BINS); do echo "== $$t"; $$t; done

$(USERLAND_HOST_DIR)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(HOSTCFLAGS) $(USERLAND_HOST_CFLAGS) -c -o $@ $<

# userland_host_test: the link rule of one host test.
define userland_host_test
$(USERLAND_HOST_DIR)/$(1): $(USERLAND_HOST_DIR)/tests/unit/$(1).o \
		$(addprefix $(USERLAND_HOST_DIR)/,$(USERLAND_$(1)_SRCS:.c=.o))
	$$(CC) -o $$@ $$^ -lcmocka
endef
$(foreach t,$(USERLAND_TESTS),$(eval $(call userland_host_test,$(t))))

# The console-byte fuzzer (tests/fuzz/shell_fuzz.c, libFuzzer, clang): the
# shell's editor, tokenizer and commands on the pretend kernel.
#   shell-fuzz-smoke  a short run (SHELL_FUZZ_SMOKE seconds, default 10), in
#                     make check (LIB_CHECKS) when clang is there
#   shell-fuzz        a run of FUZZ_SECONDS (default 600), part of make fuzz
SHELL_FUZZ_SRCS := tests/fuzz/shell_fuzz.c userland/shell/ledit.c userland/shell/shell_tok.c \
	userland/shell/shell.c userland/shell/shell_cmds.c userland/shell/shell_files.c \
	userland/workloads/workload.c tests/unit/shell_fake_kernel.c kernel/printf.c \
	kernel/string.c kernel/kfile_tar.c
SHELL_FUZZ := $(USERLAND_HOST_DIR)/shell_fuzz
SHELL_CLANG ?= $(shell command -v clang 2>/dev/null)
SHELL_FUZZ_SMOKE ?= 10
FUZZ_SECONDS ?= 600
SHELL_FUZZ_RUN = $(SHELL_FUZZ) -print_final_stats=1 -max_len=8192 -dict=tests/fuzz/shell.dict \
	-artifact_prefix=$(USERLAND_HOST_DIR)/ $(USERLAND_HOST_DIR)/corpus

LIB_CHECKS += shell-fuzz-smoke
LIB_FUZZ   += shell-fuzz
.PHONY: shell-fuzz-smoke shell-fuzz

$(SHELL_FUZZ): $(SHELL_FUZZ_SRCS) tests/unit/shell_fake_kernel.h
	@mkdir -p $(@D)
	$(SHELL_CLANG) -std=c11 -I. -O1 -g -D_DEFAULT_SOURCE $(USERLAND_HOST_CFLAGS) \
	  -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	  -Wl,--wrap=kmalloc,--wrap=kzalloc,--wrap=kfree -o $@ $(SHELL_FUZZ_SRCS)

shell-fuzz-smoke:
	@if [ -z "$(SHELL_CLANG)" ]; then \
	  echo "shell: clang not found, skipping the fuzz smoke run"; \
	else \
	  $(MAKE) --no-print-directory $(SHELL_FUZZ) && mkdir -p $(USERLAND_HOST_DIR)/corpus && \
	  if $(SHELL_FUZZ_RUN) -max_total_time=$(SHELL_FUZZ_SMOKE) \
	      > $(USERLAND_HOST_DIR)/fuzz-smoke.log 2>&1; then \
	    grep -E "number_of_executed_units" $(USERLAND_HOST_DIR)/fuzz-smoke.log; \
	    echo "shell: fuzz smoke run clean"; \
	  else tail -40 $(USERLAND_HOST_DIR)/fuzz-smoke.log; echo "shell: FUZZER FOUND A PROBLEM"; exit 1; fi; \
	fi

shell-fuzz:
	@if [ -z "$(SHELL_CLANG)" ]; then echo "shell: clang not found"; exit 1; fi
	$(MAKE) --no-print-directory $(SHELL_FUZZ)
	@mkdir -p $(USERLAND_HOST_DIR)/corpus
	$(SHELL_FUZZ_RUN) -max_total_time=$(FUZZ_SECONDS)
