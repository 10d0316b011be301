/*
 * ASSERTION: tst.jit.d with the JIT off (#pragma D option jit=0): every
 * DIFO on the interpreter gives the same output, faults and offsets as
 * the translated code (the two goldens are the same).
 * @@options: -q -c 'bench_calls -q fbt 1000'
 */
#pragma D option jit=0

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
