# mk/newlib.mk - newlib, the C library of Sonde's user programs.
#
# Built from Debian's newlib-source (/usr/src/newlib/newlib-*.tar.xz, see
# tools/deps.sh) for x86_64-elf with the host gcc as the target compiler,
# into build/newlib (never committed).  Only the C library is built (not
# libm, libgloss or the docs), which keeps a clean build short: about 45 s
# on two cores (docs/userland.md).  Each step leaves a stamp, so the build
# is done once per build/ directory.
#
#   $(NEWLIB_LIBC)     libc.a
#   $(NEWLIB_CFLAGS)   the include flags a user program compiles with
#
# newlib's own stubs for system calls are left out
# (--disable-newlib-supplied-syscalls): userland/libc provides them.

NEWLIB_TAR   := $(firstword $(wildcard /usr/src/newlib/newlib-*.tar.xz))
NEWLIB_DIR   := $(BUILD)/newlib
NEWLIB_SRC   := $(NEWLIB_DIR)/src
NEWLIB_OBJ   := $(NEWLIB_DIR)/obj
NEWLIB_LIBC  := $(NEWLIB_OBJ)/x86_64-elf/newlib/libc/libc.a
NEWLIB_TARGET_CFLAGS := -O2 -g -fno-pie -fno-stack-protector -fno-omit-frame-pointer \
                        -fcf-protection=none
NEWLIB_TOOLS := CC_FOR_TARGET=$(CC) AR_FOR_TARGET=ar AS_FOR_TARGET=as LD_FOR_TARGET=ld \
                RANLIB_FOR_TARGET=ranlib NM_FOR_TARGET=nm
NEWLIB_CFLAGS := -nostdinc -isystem $(NEWLIB_SRC)/newlib/libc/include \
                 -isystem $(NEWLIB_OBJ)/x86_64-elf/newlib \
                 -isystem $(shell $(CC) -print-file-name=include)

$(NEWLIB_DIR)/.unpacked:
	@if [ -z "$(NEWLIB_TAR)" ]; then \
	  echo "newlib: /usr/src/newlib/newlib-*.tar.xz missing (make deps: newlib-source)"; exit 1; fi
	@echo "  UNPACK  $(NEWLIB_TAR)"
	$(Q)rm -rf $(NEWLIB_SRC) && mkdir -p $(NEWLIB_SRC)
	$(Q)tar -xJf $(NEWLIB_TAR) -C $(NEWLIB_SRC) --strip-components=1
	$(Q)touch $@

$(NEWLIB_DIR)/.configured: $(NEWLIB_DIR)/.unpacked
	@echo "  CONFIG  newlib (x86_64-elf, host gcc)"
	$(Q)rm -rf $(NEWLIB_OBJ) && mkdir -p $(NEWLIB_OBJ)
	$(Q)cd $(NEWLIB_OBJ) && ../src/configure --target=x86_64-elf --prefix=/nonexistent \
	  --disable-multilib --disable-nls --disable-newlib-supplied-syscalls \
	  --enable-newlib-nano-malloc --disable-newlib-multithread $(NEWLIB_TOOLS) \
	  CFLAGS_FOR_TARGET="$(NEWLIB_TARGET_CFLAGS)" > ../configure.log 2>&1 && \
	  $(MAKE) configure-target-newlib >> ../configure.log 2>&1 || \
	  { tail -30 ../configure.log; exit 1; }
	$(Q)touch $@

# Only libc/ (not libm, not doc): AR_FLAGS is what the top level would pass.
$(NEWLIB_LIBC): $(NEWLIB_DIR)/.configured
	@echo "  MAKE    newlib libc.a (log: $(NEWLIB_DIR)/build.log)"
	$(Q)$(MAKE) -C $(NEWLIB_OBJ)/x86_64-elf/newlib/libc AR_FLAGS=rc > $(NEWLIB_DIR)/build.log 2>&1 || \
	  { tail -30 $(NEWLIB_DIR)/build.log; exit 1; }
	$(Q)touch $@

.PHONY: newlib
newlib: $(NEWLIB_LIBC)
