# Sonde: top-level build.
#
#   make            build/kernel.elf, build/sonde.iso and the user programs (as `make all`)
#   make run        boot the GRUB ISO (BOOT=direct for -kernel, CPUS=N for -smp N)
#   make check      every test: host units, DIF vectors, kernel self-tests, e2e
#   make bench      the figures (table on stdout, JSON in build/bench.json)
#   make debug      QEMU waiting for gdb (see build/gdbinit)
#   make deps       install the Debian packages the build needs (as root)
#   make user       newlib (build/newlib) and the user programs (build/bin)
#   make ARCH=sparc64   the sparc64 port (mk/sparc64.mk, docs/sparc64.md)
#   make grade LAB=name grade a lab of docs/labs/ (mk/labs.mk)
#
# Library directories contribute a fragment (dif/dif.mk, dlang/dlang.mk, ...).
# A fragment defines <LIB>_SRCS (freestanding .c files built into the kernel
# and into host libraries) and the phony targets <lib>-check, <lib>-bench and
# <lib>-fuzz, which the top-level check, bench and fuzz targets call.

BUILD    := build
CC       := gcc
NASM     := nasm
LD       := ld
QEMU     := qemu-system-x86_64
# Direct boots (-kernel) start from qboot, QEMU's minimal firmware: 70
# thousand instructions to the kernel's entry where SeaBIOS takes 8.7 million
# (kernel/pci.c assigns the I/O BARs qboot leaves unassigned).  FIRMWARE=seabios
# boots QEMU's default instead.
FIRMWARE ?= qboot
DIRECT_FW := $(if $(filter seabios,$(FIRMWARE)),,-bios qboot.rom)
PYTHON   := /usr/bin/python3
BOOT     ?= iso
CPUS     ?= 1
MEM      ?= 256M
V        ?= 0
Q        := $(if $(filter 1,$(V)),,@)

WARN     := -Wall -Wextra -Werror
KCFLAGS  := -std=c11 $(WARN) -I. -ffreestanding -fno-pic -fno-pie -mno-red-zone \
            -mcmodel=kernel -mgeneral-regs-only -fno-stack-protector \
            -fno-omit-frame-pointer -fno-optimize-sibling-calls -fcf-protection=none \
            -fno-asynchronous-unwind-tables -fno-shrink-wrap \
            -fno-reorder-blocks-and-partition -O2 -g -gctf -MMD -MP
HOSTCFLAGS := -std=c11 $(WARN) -I. -O2 -g -MMD -MP -D_DEFAULT_SOURCE

# Fragments (each optional until its library exists).
LIB_CHECKS :=
LIB_BENCHES :=
LIB_FUZZ :=
# The fragments below define targets of their own first: `make` alone is `make all`.
.DEFAULT_GOAL := all
-include dif/dif.mk
-include dlang/dlang.mk
-include console/console.mk

# ARCH=sparc64: the sparc64 port (mk/sparc64.mk) is what make builds and runs.
ARCH     ?= x86_64
ifeq ($(ARCH),sparc64)
.DEFAULT_GOAL := sparc64
endif

all: $(BUILD)/kernel.elf $(BUILD)/sonde.iso user $(BUILD)/disk.img

include mk/newlib.mk
include mk/user.mk
include mk/kernel.mk
include mk/run.mk
include mk/check.mk
include mk/causal.mk
include mk/sparc64.mk
include mk/labs.mk
include mk/sparc64_user.mk
include mk/link.mk
include mk/vmem.mk
include mk/fuzz.mk
include mk/unit.mk
include mk/disk.mk

.PHONY: all clean
clean:
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
