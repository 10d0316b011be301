/*
 * ASSERTION: fsinfo's probes for calls on an open file fire with args[0]
 * the file's fileinfo_t: cat's open of /scripts/hello.d (arg1 open's
 * flags, O_RDONLY), its reads (arg1 the bytes asked for, the same for
 * both), its write to the console and the close of the file.
 * @@options: -q -c '/bin/cat /scripts/hello.d'
 */
fsinfo:::
/pid == $target && args[0]->fi_name != "<none>"/
{
	@n[probename, args[0]->fi_pathname, args[0]->fi_fs] = count();
}

fsinfo:::read
/pid == $target/
{
	@sz[args[0]->fi_name] = max(arg1);
	@szmin[args[0]->fi_name] = min(arg1);
}

END
{
	printa("%-8s %-18s %-7s %@d\n", @n);
	printa("%s %@d\n", @sz);
	printa("%s %@d\n", @szmin);
}
