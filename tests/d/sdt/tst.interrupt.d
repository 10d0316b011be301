/*
 * ASSERTION: sdt:::interrupt-start and interrupt-complete exist (a clause
 * naming them compiles and enables; its predicate keeps it silent), and
 * their arg0's type, struct dev_info, has the members D programs read by
 * Solaris's names: devi_major a 32-bit major_t indexing devnamesp[].
 */
#pragma D option quiet

sdt:::interrupt-start,
sdt:::interrupt-complete
/0/
{
	this->d = (struct dev_info *)arg0;
	trace(stringof(`devnamesp[this->d->devi_major].dn_name));
	trace(this->d->devi_instance);
	trace(stringof(this->d->devi_node_name));
}

BEGIN
{
	printf("%d %d %d\n", sizeof (major_t), offsetof(struct dev_info, devi_major),
	    sizeof (`devnamesp) / sizeof (`devnamesp[0]));
	exit(0);
}
