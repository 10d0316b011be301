#!/bin/sh
# sparc64_run.sh [--interactive] KERNEL.ELF [APPEND]
#
# Boots the sparc64 kernel under qemu-system-sparc64 -M sun4u (OpenBIOS)
# with APPEND as its command line, the console on stdout.  sun4u has no
# isa-debug-exit, so QEMU always exits 0; the kernel prints
# "sonde-exit: N" as it powers off (N is what QEMU's x86 exit status would
# be: 33 + 2 * a command's status, 3 for a crash) and this script exits
# with N, or with 124 if the guest ran longer than SONDE_TIMEOUT seconds
# (default 300), or 125 if it stopped without saying.
# --interactive: the console is the terminal (make run ARCH=sparc64).
# The guest runs under -icount shift=SONDE_ICOUNT_SHIFT (default 4: one
# instruction = 16 ns of guest time; sun4u has no halt, so the idle loop
# spins, and a second of guest time costs 62.5 million instructions):
# QEMU 7.2's sun4u delivers %tick_cmpr interrupts late without it
# (profile-997 fired about 200 times a second); SONDE_ICOUNT=0 runs on the
# host's clock instead.
# The firmware is Sonde's own PROM, prom.bin beside the kernel
# (arch/sparc64/prom/prom.S: a few dozen instructions where OpenBIOS runs
# about 1.1 billion); SONDE_FIRMWARE=openbios boots through OpenBIOS.
set -u
inter=0
[ "${1:-}" = --interactive ] && { inter=1; shift; }
kernel=$1
append=${2:-}
qemu="qemu-system-sparc64 -M sun4u -m ${SONDE_MEM:-256M} -vga none -display none -no-reboot"
[ "${SONDE_ICOUNT:-1}" = 1 ] && qemu="$qemu -icount shift=${SONDE_ICOUNT_SHIFT:-4},align=off,sleep=off"
case "${SONDE_FIRMWARE:-sonde}" in
openbios) ;;
sonde)	prom=$(dirname "$kernel")/prom.bin
	[ -f "$prom" ] || { echo "sparc64_run.sh: $prom missing (make ARCH=sparc64)" >&2; exit 2; }
	qemu="$qemu -bios $prom" ;;
*)	echo "sparc64_run.sh: SONDE_FIRMWARE=$SONDE_FIRMWARE: unknown (sonde, openbios)" >&2; exit 2 ;;
esac
if [ $inter = 1 ]; then
	qemu=$(echo "$qemu" | sed 's/sleep=off/sleep=on/')     # idle waits in real time at a prompt
	exec $qemu -chardev stdio,id=con0,mux=on,signal=off -serial chardev:con0 \
		-mon chardev=con0,mode=readline -kernel "$kernel" -append "$append"
fi
log=$(mktemp)
trap 'rm -f "$log"' EXIT
timeout "${SONDE_TIMEOUT:-300}" $qemu -serial stdio -monitor none -kernel "$kernel" \
	-append "$append" < /dev/null > "$log" 2>&1
s=$?
# The firmware's output (OpenBIOS's banner) precedes the kernel's first line: drop it.
tr -d '\r' < "$log" | sed -n '/^sonde-boot$/,$p' | sed '1d; /^sonde-exit: /d'
[ $s = 124 ] && exit 124
n=$(tr -d '\r' < "$log" | sed -n 's/^sonde-exit: \([0-9]*\)$/\1/p' | tail -1)
[ -n "$n" ] || { tail -20 "$log" >&2; exit 125; }
exit "$n"
