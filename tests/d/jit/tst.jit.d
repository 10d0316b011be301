/*
 * ASSERTION: predicates and aggregation keys and values that the DIF JIT
 * translates (the default) give exactly the interpreter's results
 * (tst.nojit.d is this program under -x jit=0, with the same golden):
 * comparisons signed and unsigned, && || ! ^^ chains, masks, remainders,
 * and a division by zero in a predicate reported with the same DIF offset
 * (bench_fbt is called with 0..999).
 * @@options: -q -c 'bench_calls -q fbt 1000'
 */
fbt::bench_fbt:entry /arg0 > 100 && arg0 != 500/ { @a = count(); }
fbt::bench_fbt:entry /arg0 % 7 == 3 || arg0 < 5/ { @b = count(); }
fbt::bench_fbt:entry /!(arg0 >= 10)/ { @c = count(); }
fbt::bench_fbt:entry /(arg0 & 0xff) == 0x7f/ { @d = count(); }
fbt::bench_fbt:entry /arg0 ^^ 0/ { @e = count(); }
fbt::bench_fbt:entry /(int)arg0 - 500 < 0/ { @f = count(); }
fbt::bench_fbt:entry /arg0 / (arg0 - 999) == 0/ { @g = count(); }
fbt::bench_fbt:entry { @k[arg0 % 3] = count(); @s = sum(arg0 * 2); }
fbt::bench_fbt:entry { @m = max(arg0 >> 2); }

ERROR
{
	printf("error offset %d fault %d\n", arg3, arg4);
}

END
{
	printa("a %@d\n", @a);
	printa("b %@d\n", @b);
	printa("c %@d\n", @c);
	printa("d %@d\n", @d);
	printa("e %@d\n", @e);
	printa("f %@d\n", @f);
	printa("g %@d\n", @g);
	printa("k %d %@d\n", @k);
	printa("s %@d\n", @s);
	printa("m %@d\n", @m);
}
