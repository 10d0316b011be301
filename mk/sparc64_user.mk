# mk/sparc64_user.mk - newlib and the user programs for sparc64 (docs/sparc64.md).
#
# The same Debian newlib-source tarball as mk/newlib.mk, configured for
# sparc64-elf with the cross compiler (sparc64-linux-gnu-gcc, freestanding:
# newlib brings its own headers), into build/sparc64/newlib; then
# userland/libc and userland/bin for sparc64 into build/sparc64/bin, linked
# static at ld's usual address for SPARC V9 (0x100000) with 8 KiB pages
# (the MMU's smallest).  The machine's own pieces of the C library are
# userland/libc/sparc64/ (crt0.S, the system call instruction); the
# x86_64 ones are userland/libc/x86_64/.  mk/sparc64.mk puts the programs
# into the sparc64 image's /bin.  Only libc is built (as on x86_64).
#
# newlib's own sparc64 configuration brings a SunOS-style system layer
# (libc/sys/sparc64) that GCC 12 does not compile, and asks for reentrant
# system calls that layer provides; the unpack step takes both out of
# configure.host and names the system calls as the other bare machines do
# (MISSING_SYSCALL_NAMES: read, not _read), so sparc64-elf is built as
# x86_64-elf is.  The SPARC V9 ABI's long double is 128 bits, done in
# software by _Qp_* routines that glibc has and libgcc has not: newlib's
# printf needs one, _Qp_qtod (userland/libc/sparc64/qp.c).
#
#   make ARCH=sparc64 sparc64-user    newlib (once per build/) and the programs

S64U_NEWLIB_DIR  := $(S64)/newlib
S64U_NEWLIB_SRC  := $(S64U_NEWLIB_DIR)/src
S64U_NEWLIB_OBJ  := $(S64U_NEWLIB_DIR)/obj
S64U_NEWLIB_LIBC := $(S64U_NEWLIB_OBJ)/sparc64-elf/newlib/libc/libc.a
S64U_TARGET_CFLAGS := -O2 -g -mcpu=ultrasparc -mcmodel=medlow -fno-pie -fno-stack-protector \
                      -fno-omit-frame-pointer
S64U_TOOLS := CC_FOR_TARGET=$(S64_CROSS)gcc AR_FOR_TARGET=$(S64_CROSS)ar AS_FOR_TARGET=$(S64_CROSS)as \
              LD_FOR_TARGET=$(S64_CROSS)ld RANLIB_FOR_TARGET=$(S64_CROSS)ranlib NM_FOR_TARGET=$(S64_CROSS)nm
S64U_NEWLIB_CFLAGS := -nostdinc -isystem $(S64U_NEWLIB_SRC)/newlib/libc/include \
                      -isystem $(S64U_NEWLIB_OBJ)/sparc64-elf/newlib \
                      -isystem $(shell $(S64_CC) -print-file-name=include 2>/dev/null)

$(S64U_NEWLIB_DIR)/.unpacked:
	@if [ -z "$(NEWLIB_TAR)" ]; then \
	  echo "newlib: /usr/src/newlib/newlib-*.tar.xz missing (make deps: newlib-source)"; exit 1; fi
	@echo "  UNPACK  $(NEWLIB_TAR) (sparc64)"
	$(Q)rm -rf $(S64U_NEWLIB_SRC) && mkdir -p $(S64U_NEWLIB_SRC)
	$(Q)tar -xJf $(NEWLIB_TAR) -C $(S64U_NEWLIB_SRC) --strip-components=1
	$(Q)sed -i -e '/^  sparc64\*)$$/{N;N;N;/sys_dir=sparc64/d}' \
	  -e 's/ -DREENTRANT_SYSCALLS_PROVIDED -DHAVE_BLKSIZE/ -DMISSING_SYSCALL_NAMES -DHAVE_BLKSIZE/' \
	  $(S64U_NEWLIB_SRC)/newlib/configure.host
	$(Q)! grep -q 'sys_dir=sparc64' $(S64U_NEWLIB_SRC)/newlib/configure.host
	$(Q)touch $@

$(S64U_NEWLIB_DIR)/.configured: $(S64U_NEWLIB_DIR)/.unpacked
	@echo "  CONFIG  newlib (sparc64-elf, $(S64_CROSS)gcc)"
	$(Q)rm -rf $(S64U_NEWLIB_OBJ) && mkdir -p $(S64U_NEWLIB_OBJ)
	$(Q)cd $(S64U_NEWLIB_OBJ) && ../src/configure --target=sparc64-elf --prefix=/nonexistent \
	  --disable-multilib --disable-nls --disable-newlib-supplied-syscalls \
	  --enable-newlib-nano-malloc --disable-newlib-multithread $(S64U_TOOLS) \
	  CFLAGS_FOR_TARGET="$(S64U_TARGET_CFLAGS)" > ../configure.log 2>&1 && \
	  $(MAKE) configure-target-newlib >> ../configure.log 2>&1 || \
	  { tail -30 ../configure.log; exit 1; }
	$(Q)touch $@

$(S64U_NEWLIB_LIBC): $(S64U_NEWLIB_DIR)/.configured
	@echo "  MAKE    newlib libc.a, sparc64 (log: $(S64U_NEWLIB_DIR)/build.log)"
	$(Q)$(MAKE) -C $(S64U_NEWLIB_OBJ)/sparc64-elf/newlib/libc AR_FLAGS=rc > $(S64U_NEWLIB_DIR)/build.log 2>&1 || \
	  { tail -30 $(S64U_NEWLIB_DIR)/build.log; exit 1; }
	$(Q)touch $@

S64U_DIR     := $(S64)/user
S64U_BINDIR  := $(S64)/bin
S64U_CFLAGS  := -std=gnu11 $(WARN) -I. -Iuserland/libc/sparc64 $(S64U_NEWLIB_CFLAGS) -O2 -g \
                -mcpu=ultrasparc -mcmodel=medlow -fno-omit-frame-pointer -fno-pie \
                -fno-stack-protector -MMD -MP
S64U_LDFLAGS := -static -nostdlib -z max-page-size=0x2000 -z common-page-size=0x2000 \
                -z noexecstack -e _start
S64U_LIBC    := $(S64U_DIR)/libsonde.a
S64U_CRT0    := $(S64U_DIR)/userland/libc/sparc64/crt0.o
# Left out: the pid provider's x86_64 instruction tests (their own assembly; pidloop is C),
# and the disk's programs (sparc64 has no disk driver yet; the image must stay within the
# 4 MiB OpenBIOS maps, mk/sparc64.mk), and credcheck (the ids are portable code; room).
S64U_SKIP    := insns pidbench diskbench diskcheck fsstress fsyncer credcheck
S64U_PROGS   := $(filter-out $(S64U_SKIP),$(USER_PROGS))
S64U_BINS    := $(S64U_PROGS:%=$(S64U_BINDIR)/%)

$(S64U_DIR)/%.o: %.c $(S64U_NEWLIB_LIBC)
	@mkdir -p $(@D)
	@echo "  UCC64   $<"
	$(Q)$(S64_CC) $(S64U_CFLAGS) -c $< -o $@

$(S64U_DIR)/%.o: %.S
	@mkdir -p $(@D)
	$(Q)$(S64_CC) $(S64U_CFLAGS) -c $< -o $@

$(S64U_DIR)/userland/bin/shop.o: $(USER_USDT_DIR)/shop_provider.h
$(S64U_DIR)/userland/bin/shop.o: S64U_CFLAGS += -I$(USER_USDT_DIR)

S64U_LIBC_SRCS := $(USER_LIBC_SRCS) userland/libc/sparc64/qp.c
$(S64U_LIBC): $(S64U_LIBC_SRCS:%.c=$(S64U_DIR)/%.o)
	$(Q)rm -f $@ && $(S64_CROSS)ar rcs $@ $^

$(S64U_BINDIR)/%: $(S64U_DIR)/userland/bin/%.o $(S64U_CRT0) $(S64U_LIBC) $(S64U_NEWLIB_LIBC)
	@mkdir -p $(@D)
	@echo "  ULD64   $@"
	$(Q)$(S64_LD) $(S64U_LDFLAGS) -o $@ $(S64U_CRT0) $< --start-group $(S64U_LIBC) \
	  $(S64U_NEWLIB_LIBC) $(S64_LIBGCC) --end-group

# sparc64's own programs (userland/bin/sparc64/): s64insns, the pid provider's instruction test.
S64U_OWN     := s64insns
S64U_BINS    += $(S64U_OWN:%=$(S64U_BINDIR)/%)
$(S64U_BINDIR)/%: $(S64U_DIR)/userland/bin/sparc64/%.o $(S64U_CRT0) $(S64U_LIBC) $(S64U_NEWLIB_LIBC)
	@mkdir -p $(@D)
	@echo "  ULD64   $@"
	$(Q)$(S64_LD) $(S64U_LDFLAGS) -o $@ $(S64U_CRT0) $< --start-group $(S64U_LIBC) \
	  $(S64U_NEWLIB_LIBC) $(S64_LIBGCC) --end-group

.SECONDARY: $(S64U_CRT0) $(S64U_PROGS:%=$(S64U_DIR)/userland/bin/%.o) \
            $(S64U_OWN:%=$(S64U_DIR)/userland/bin/sparc64/%.o)
.PHONY: sparc64-user sparc64-newlib
sparc64-newlib: $(S64U_NEWLIB_LIBC)
sparc64-user: $(S64U_BINS)

# The image's /bin (mk/sparc64.mk's kscripts.S): the programs without their
# debugging sections (the symbol table stays), as on x86_64.
S64_KBINS    := $(S64U_PROGS:%=$(S64)/kbin/bin/%) $(S64U_OWN:%=$(S64)/kbin/bin/%)
$(S64)/kbin/bin/%: $(S64U_BINDIR)/%
	@mkdir -p $(@D)
	$(Q)$(S64_CROSS)objcopy --strip-debug $< $@
$(S64)/kscripts.o: $(S64_KBINS)

# The user-process test on sparc64 (tests/e2e/test_sparc64_user.py): one
# guest, about 20 s; and a kernel stack overflow's report
# (tests/e2e/test_sparc64_crash.py, one more boot, about 3 s of CPU); not in
# make check by itself (mk/check.mk wires tests in).
.PHONY: sparc64-user-check
sparc64-user-check: $(S64)/kernel.elf $(S64)/prom.bin
	@echo "== user processes, sparc64 (tests/e2e/test_sparc64_user.py)"
	$(Q)$(PYTHON) -m pytest -q tests/e2e/test_sparc64_user.py tests/e2e/test_sparc64_crash.py
