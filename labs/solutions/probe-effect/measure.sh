#!/bin/sh
# Reference solution of docs/labs/02-probe-effect.md, task 1-3: measure the
# probe effect of fbt and sdt in guest instructions per call, from scratch.
#
# Under SONDE_ICOUNT=1 (-icount shift=0,align=off,sleep=off) the guest's
# time-stamp counter counts retired instructions, so "ticks" are exact
# instruction counts; bench_calls FN N calls bench_FN N times and prints
# the ticks (and the traps) the loop took.  Run from the tree's top.
set -e
N=10000
out=$(SONDE_ICOUNT=1 tools/dtrace --shell "bench_calls plain $N; bench_calls fbt $N; \
bench_calls sdt $N; \
dtrace -q -n 'fbt::bench_fbt:entry { @ = count(); }' -c 'bench_calls fbt $N'; \
dtrace -q -n 'fbt::bench_fbt:return { @ = count(); }' -c 'bench_calls fbt $N'")
# The five bench lines in order: ticks (field 5) and traps (field 7).
echo "$out" | awk -v n=$N '
/^bench_calls:/ { t[++i] = $5; traps[i] = $7 }
END {
	plain = t[1] / n
	printf "plain = %g\n", plain
	printf "fbt_disabled = %g\n", t[2] / n - plain
	printf "sdt_disabled = %g\n", t[3] / n - plain
	printf "fbt_entry_count = %g\n", t[4] / n - plain
	printf "fbt_return_count = %g\n", t[5] / n - plain
	printf "fbt_entry_traps = %g\n", traps[4] / n
}'
