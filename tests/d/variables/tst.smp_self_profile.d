/*
 * ASSERTION: a thread-local set and cleared by two clauses of a busy
 * profile probe, and an associative array keyed on cpu set and cleared
 * the same way, end cleanly on any number of CPUs: no hang (every CPU
 * creates and deletes entries in the one shared space at once), no
 * dynamic variable drops (the cleaner recycles the deleted entries), and
 * the survivors read back exactly.
 */
#pragma D option quiet

profile-997
{
	self->x = 1;
	a[cpu] = 1;
	b[cpu, "kept"] = 7;
}

profile-997
{
	self->x = 0;
	a[cpu] = 0;
}

tick-2s
{
	printf("b[0] = %d, a[0] = %d\n", b[0, "kept"], a[0]);
	exit(0);
}
