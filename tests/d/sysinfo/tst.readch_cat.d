/*
 * ASSERTION: sysinfo:::readch's and writech's arg0 are the bytes of each
 * successful read and write: summed for cat of /scripts/hello.d they are
 * the file's 202 bytes; arg1 points at the counter before it grows and
 * arg2 is the CPU whose counter it is.
 * @@options: -q -c '/bin/cat /scripts/hello.d'
 */
sysinfo:::readch, sysinfo:::writech
/pid == $target/
{
	@[probename] = sum(arg0);
}

sysinfo:::readch
/pid == $target && (*(uint64_t *)arg1 != args[2]->cpu_stats.sysinfo.readch ||
    args[2]->cpu_id != cpu)/
{
	bad++;
}

END
{
	printa("%s %@d\n", @);
	printf("bad %d\n", bad);
}
