/*
 * ASSERTION: on one thread, fbt entry and return probes nest: for
 * spin_round -> spin_block, the first spin_round:entry comes before
 * the first spin_block:entry, which returns before spin_round returns.
 * @@options: -q -c 'spin 5'
 */
int seq, ren, ben, bret, rret;

fbt::spin_round:entry /!ren/ { ren = ++seq; }
fbt::spin_block:entry /ren && !ben/ { ben = ++seq; }
fbt::spin_block:return /ben && !bret/ { bret = ++seq; }
fbt::spin_round:return /ren && !rret/ { rret = ++seq; }

END
{
	printf("spin_round:entry %d\nspin_block:entry %d\n", ren, ben);
	printf("spin_block:return %d\nspin_round:return %d\n", bret, rret);
}
