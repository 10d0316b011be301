#!/bin/sh
# check_deps.sh - enforce the include directions between the subsystems:
#
#   dif/       dif/ only (freestanding)
#   dlang/     dlang/, dif/, kernel/ctf.h (the freestanding CTF reader)
#   kernel/    kernel/, arch/arch.h
#   arch/ISA/  arch/, kernel/, boot/efi/handoff.h (the UEFI loader's hand-off),
#              dif/dif_jit.h (the DIF JIT's translator: dif/dif.h through it)
#   trace/     trace/, dif/, dlang/dt_prog.h (the compiler's public face: the
#              program object, never the compiler's internals), kernel/, arch/arch.h
#   console/   ring 0, what the console runs (the shell, the consumer, the workloads):
#              console/, trace/ (public headers), dlang/, dif/, kernel/, arch/arch.h
#   userland/  ring 3, the programs and their C library: userland/, kernel/ (the
#              system call numbers and the link frame layout they share with the
#              kernel), the C library's machine headers sys6.h and usdt_isa.h (found
#              in userland/libc/<machine>/, which the build puts on the include
#              path), and NAME_provider.h, the header dtrace -h makes of userland/bin/
#              NAME_provider.d (build/user/usdt/, mk/user.mk)
#
# and that portable code never names the architecture (__x86_64__).
# Prints each violation as FILE:LINE: TEXT and fails if there is any.
set -u
bad=0

check() { # DIR ALLOWED-REGEX
	dir=$1 allowed=$2
	[ -d "$dir" ] || return 0
	out=$(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$dir" --include='*.[ch]' |
		grep -vE "#[[:space:]]*include[[:space:]]*\"($allowed)" || true)
	if [ -n "$out" ]; then
		echo "check-deps: $dir/ may include only $allowed:"
		echo "$out"
		bad=1
	fi
}

check dif      'dif/'
check dlang    'dlang/|dif/|kernel/ctf\.h'
check kernel   'kernel/|arch/arch\.h'
check arch     'arch/|kernel/|boot/efi/handoff\.h|dif/dif_jit\.h'
check trace    'trace/|dif/|dlang/dt_prog\.h|kernel/|arch/arch\.h'
check console  'console/|trace/|dlang/|dif/|kernel/|arch/arch\.h'
check userland 'userland/|kernel/|sys6\.h"|usdt_isa\.h"|[a-z0-9_]*_provider\.h"'

for dir in dif dlang kernel trace console userland; do
	[ -d "$dir" ] || continue
	out=$(grep -rn '__x86_64__\|__amd64__\|__sparc' "$dir" --include='*.[ch]' || true)
	if [ -n "$out" ]; then
		echo "check-deps: portable code names the architecture:"
		echo "$out"
		bad=1
	fi
done

[ $bad -eq 0 ] && echo "check-deps: include directions ok"
exit $bad
