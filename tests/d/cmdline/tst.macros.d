#!/usr/sbin/dtrace -s
/*
 * ASSERTION: a leading "#!" line is ignored; operands after the script
 * are $1, $2...: $$1 is a string, $2 an integer; with defaultargs a
 * missing $$3 is "" and $4 is 0; $0 is the script; the consumer's $uid,
 * $gid and $cwd are defined.
 * @@options: hello 42
 */
#pragma D option quiet
#pragma D option defaultargs

BEGIN
{
	printf("[%s] %d [%s] %d\n", $$1, $2 + 1, $$3, $4);
	printf("%s\n", $$0);
	printf("%d %d %s\n", $uid, $gid, $cwd);
	exit(0);
}
