# mk/user.mk - Sonde's user programs: userland/libc on newlib, userland/bin.
#
# Each userland/bin/NAME.c is one program, linked static (no dynamic
# loader exists) at the linker's usual address with crt0.o, the system
# call stubs (build/user/libsonde.a) and newlib's libc.a, into
# build/bin/NAME.  -fno-omit-frame-pointer keeps user stacks walkable.
# The programs go into the kernel image as the boot archive's /bin
# (kernel/kfile.c, tools/gen_scripts.sh).

USER_DIR     := $(BUILD)/user
USER_BINDIR  := $(BUILD)/bin
USER_CFLAGS  := -std=gnu11 $(WARN) -I. -Iuserland/libc/x86_64 $(NEWLIB_CFLAGS) -O2 -g -fno-omit-frame-pointer \
                -fno-pie -fno-stack-protector -fcf-protection=none -MMD -MP
USER_LDFLAGS := -static -nostdlib -z max-page-size=0x1000 -z noexecstack -e _start
USER_LIBC_SRCS := userland/libc/syscalls.c userland/libc/ids.c
USER_LIBC    := $(USER_DIR)/libsonde.a
USER_CRT0    := $(USER_DIR)/userland/libc/crt0.o
USER_PROGS   := $(sort $(basename $(notdir $(wildcard userland/bin/*.c))))
USER_BINS    := $(USER_PROGS:%=$(USER_BINDIR)/%)

$(USER_DIR)/%.o: %.c $(NEWLIB_LIBC)
	@mkdir -p $(@D)
	@echo "  UCC     $<"
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

$(USER_DIR)/%.o: %.S
	@mkdir -p $(@D)
	$(Q)$(CC) $(USER_CFLAGS) -c $< -o $@

# The system call stubs keep their frame at the SYSCALL instruction (no
# shrink-wrapping), so that ustack() in a system call probe shows the
# stub's caller, not the caller's caller.
$(USER_DIR)/userland/libc/syscalls.o: USER_CFLAGS += -fno-shrink-wrap

$(USER_LIBC): $(USER_LIBC_SRCS:%.c=$(USER_DIR)/%.o)
	$(Q)rm -f $@ && ar rcs $@ $^

$(USER_BINDIR)/%: $(USER_DIR)/userland/bin/%.o $(USER_CRT0) $(USER_LIBC) $(NEWLIB_LIBC)
	@mkdir -p $(@D)
	@echo "  ULD     $@"
	$(Q)$(LD) $(USER_LDFLAGS) -o $@ $(USER_CRT0) $< --start-group $(USER_LIBC) $(NEWLIB_LIBC) \
	  $(LIBGCC) --end-group

# USDT probes declared in D (userland/bin/NAME_provider.d): the header
# dtrace -h makes of them, written by the host's dtc -h, included by
# userland/bin/NAME.c as "NAME_provider.h" (the same header serves sparc64).
USER_USDT_DIR := $(USER_DIR)/usdt
$(USER_USDT_DIR)/%_provider.h: userland/bin/%_provider.d $(BUILD)/host/dtc
	@mkdir -p $(@D)
	@echo "  DTRACE -h $@"
	$(Q)$(BUILD)/host/dtc -h -s $< -o $@
$(USER_DIR)/userland/bin/shop.o: $(USER_USDT_DIR)/shop_provider.h
$(USER_DIR)/userland/bin/shop.o: USER_CFLAGS += -I$(USER_USDT_DIR)

.SECONDARY: $(USER_CRT0) $(USER_PROGS:%=$(USER_DIR)/userland/bin/%.o)
.PHONY: user
user: $(USER_BINS)
