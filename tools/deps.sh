#!/bin/sh
# deps.sh - make sure the Debian packages Sonde's build and tests need are
# installed.  As root, installs only the missing ones; otherwise prints the
# exact command to run and fails.  chromium and chromium-driver are only for
# the flame graph's browser test (tests/e2e/test_flamegraph.py, skipped
# without them); installing them takes about a minute.  The sparc64 port
# (docs/sparc64.md) needs the cross compiler, QEMU's sun4u, and, for the host
# unit tests run big-endian, the cross C library and qemu-user.
set -eu
PKGS="build-essential zlib1g-dev nasm grub-pc-bin grub-common grub-efi-amd64-bin xorriso mtools qemu-system-x86
ovmf gnu-efi
python3 python3-pytest python3-pytest-xdist python3-pexpect libcmocka-dev clang libclang-rt-14-dev gdb valgrind
newlib-source
chromium chromium-driver
gcc-sparc64-linux-gnu binutils-sparc64-linux-gnu qemu-system-sparc
libc6-dev-sparc64-cross qemu-user"

missing=""
for p in $PKGS; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
		missing="$missing $p"
	fi
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "sonde: missing Debian packages:$missing"
	echo "sonde: run as root:  apt-get update && $cmd"
	exit 1
fi
echo "sonde: installing missing Debian packages:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq || true
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
