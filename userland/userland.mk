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
	tests/unit/shell_fake_kernel.c kernel/printf.c kernel/string.c
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
