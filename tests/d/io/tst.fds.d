/*
 * ASSERTION: fds[fd] is the current process's descriptor fd as a
 * fileinfo_t: cat's reads of /scripts/hello.d name the file, its name and
 * directory, the boot archive's file system mounted at /, the offset
 * before each read and O_RDONLY; its writes go to /dev/console; a
 * descriptor not open (15), or out of range (-1), reads as no file.
 * fds[] is an inline with a parameter, expanded with fd bound at each use.
 * @@options: -q -c '/bin/cat /scripts/hello.d'
 */
syscall::read:entry
/pid == $target && fds[arg0].fi_name == "hello.d"/
{
	@r[fds[arg0].fi_pathname, fds[arg0].fi_dirname, fds[arg0].fi_name,
	    fds[arg0].fi_fs, fds[arg0].fi_mount, fds[arg0].fi_offset,
	    fds[arg0].fi_oflags] = count();
}

syscall::write:entry
/pid == $target/
{
	@w[fds[arg0].fi_pathname, fds[arg0].fi_fs, fds[arg0].fi_mount] = count();
	this->fd = 15;
	@n[fds[this->fd].fi_pathname, fds[this->fd].fi_name, fds[this->fd].fi_offset] = count();
	this->fd = -1;
	@n[fds[this->fd].fi_pathname, fds[this->fd].fi_fs, 0] = count();
}

END
{
	printa("read %s %s %s %s %s off=%d oflags=%d: %@d\n", @r);
	printa("write %s %s %s: %@d\n", @w);
	printa("none %s %s %d: %@d\n", @n);
}
