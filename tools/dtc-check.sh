#!/bin/sh
# tools/dtc-check.sh: the D compiler's file-based tests, run through dtc.
#
#   sh tools/dtc-check.sh DTC [--update]
#
#   1. Golden snippets: for each tests/dlang/NAME.d, "dtc -S NAME.d" must
#      print exactly tests/dlang/NAME.S (the DIF of every clause, in the
#      spirit of Lua's code tests).  --update rewrites the .S files.
#   2. Rejection tests: each tests/d/**/err.D_TAG.NAME.d must fail to compile
#      and "dtc -x errtags" must report [D_TAG].
#   3. Every other D program under tests/d/ (the programs of the other
#      issues, tst.*.d in subdirectories) must compile.  err.*.d files
#      without a D_ tag fail at run time in the guest: they must compile
#      (with -w when their @@options give it).
#      Rejections by D_PDESC_ZERO in subdirectories need the guest's probe
#      table and are left to the guest's test runner.
# Exit status 0 only if everything passes.
DTC=$1
UPDATE=$2
fail=0; nsnip=0; nerr=0; nok=0
tmp=${TMPDIR:-/tmp}/dtc-check.$$
trap 'rm -f $tmp' EXIT

for d in tests/dlang/*.d; do
	[ -e "$d" ] || continue
	golden=${d%.d}.S
	args=""
	# a snippet may ask for flags on its first line: "/* dtc: -w */"
	first=$(head -1 "$d")
	case $first in "/* dtc: "*) args=$(echo "$first" | sed 's|/\* dtc: \(.*\) \*/|\1|');; esac
	if ! $DTC -S -s "$d" $args > $tmp 2>&1; then
		echo "FAIL snippet $d: does not compile:"; cat $tmp; fail=1; continue
	fi
	if [ "$UPDATE" = "--update" ]; then
		cp $tmp "$golden"
	elif ! cmp -s $tmp "$golden"; then
		echo "FAIL snippet $d: DIF differs from $golden:"
		diff -u "$golden" $tmp | head -40; fail=1; continue
	fi
	nsnip=$((nsnip + 1))
done

# operands: a program's @@options when they are all operands (macro
# arguments, "@@options: hello 42"), passed after it as dtrace would.
operands() {
	o=$(sed -n 's/.*@@options:[[:space:]]*\(.*\)/\1/p' "$1" | sed 's/[[:space:]]*\*\/.*//' | head -1)
	case " $o" in *" -"*) return;; esac
	echo $o
}

tags=""
for d in $(find tests/d -name 'err.D_*.d' | sort); do
	[ -e "$d" ] || continue
	base=$(basename "$d")
	tag=$(echo "$base" | sed 's/^err\.\(D_[A-Z0-9_]*\)\..*/\1/')
	# the host has no probe table: "matches no probes" is the guest's call
	case $tag:$d in D_PDESC_ZERO:tests/d/*/*) continue;; esac
	# a -x libdir= (the D library's directory) and a -x version= (the D
	# version bound) of its @@options too
	lib=$(sed -n 's/.*@@options:.*-x \(libdir=[^ *]*\).*/-x \1/p' "$d" | head -1)
	lib="$lib $(sed -n 's/.*@@options:.*-x \(version=[^ *]*\).*/-x \1/p' "$d" | head -1)"
	if $DTC -x errtags $lib "$d" $(operands "$d") > $tmp 2>&1; then
		echo "FAIL $d: compiled, expected $tag"; fail=1; continue
	fi
	if ! grep -q "\[$tag\]" $tmp; then
		echo "FAIL $d: expected [$tag], got:"; cat $tmp; fail=1; continue
	fi
	nerr=$((nerr + 1))
	tags="$tags $tag"
done

# the library files other programs bring along (@@options: --file PATH): not programs
libfiles=$(grep -rhos -- '--file [^ *]*' tests/d | sed 's/^--file //' | sort -u)
for d in $(find tests/d -name '*.d' ! -name 'err.D_*' | sort); do
	# -C programs need the guest's preprocessor run first (tools/dtest.py runs
	# them; tests/unit/dt_cpp.c tests the preprocessor on the host)
	grep -q '@@options:.*-C\b' "$d" && continue
	# a library file of another program's, and a program that needs files
	# copied into the guest beside it (--file), are the guest's to run
	case " $(echo $libfiles) " in *" $d "*) continue;; esac
	grep -q '@@options:.*--file ' "$d" && continue
	# another machine's own programs (tests/d/sparc64/): this dtc has x86_64's D library
	case $d in tests/d/sparc64/*) continue;; esac
	# a program that the runner gives -w (its @@options) is compiled with it
	w=""
	grep -q '@@options:.*-w\b' "$d" && w=-w
	# and one that the runner gives -c has a $target
	grep -q '@@options:.*-c ' "$d" && w="$w -c cmd"
	if ! $DTC -e $w "$d" $(operands "$d") > $tmp 2>&1; then
		echo "FAIL $d: does not compile:"; cat $tmp; fail=1; continue
	fi
	nok=$((nok + 1))
done

ntags=$(for t in $tags; do echo $t; done | sort -u | wc -l)
echo "dlang: $nsnip golden snippets, $nerr rejection tests ($ntags distinct tags), $nok other programs compile"
[ $fail -eq 0 ] || { echo "dlang: FAILURES"; exit 1; }
