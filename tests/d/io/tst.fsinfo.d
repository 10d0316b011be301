/*
 * ASSERTION: fsinfo's probes for calls on a path (lookup, mkdir) fire
 * with args[0] the fileinfo_t of the path as normalized ("//" and "."
 * gone), its file system and mount point; arg1 is 0.
 * @@options: -q -c '/bin/mkdir /tmp//fsinfo_dir/.'
 */
fsinfo:::
/pid == $target/
{
	@[probename, args[0]->fi_pathname, args[0]->fi_fs, args[0]->fi_mount, arg1] = count();
}

END
{
	printa("%-8s %-18s %-7s %-5s %d %@d\n", @);
}
