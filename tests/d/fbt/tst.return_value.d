/*
 * ASSERTION: return probes give arg1 = the return value (bench_fbt(i) returns
 * 3 * i + 1: 145 for i = 0..9) and arg0 = the offset of the ret instruction
 * inside the function (past its first byte).
 */
/* @@options: -q -c 'bench_calls -q fbt 10' */
fbt::bench_fbt:return
{
	@rv = sum(arg1);
	@inside = sum(arg0 > 0 ? 1 : 0);
}

END
{
	printa("return values %@d\n", @rv);
	printa("offsets inside %@d\n", @inside);
}
