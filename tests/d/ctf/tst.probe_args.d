/*
 * ASSERTION: fbt's args[] are typed from the function's prototype:
 * churn_round(struct churn *, uint8_t) gives args[1] as a uint8_t (no
 * cast needed) and args[0] as a struct churn * whose members read;
 * kmalloc's args[0] is a size_t (unsigned, 8 bytes) and its return
 * probe's args[0] an int (the return site's offset) and args[1] a void *;
 * sdt:::kmem-alloc's arguments are typed as the site passes them (a void *
 * and a size_t), between kmalloc's entry and return.
 * @@options: -q -c 'churn 2'
 */
fbt::churn_round:entry
{
	printf("round %d, sizeof (args[1]) %d, ch == args[0]: %d\n", args[1],
	    sizeof (args[1]), (uintptr_t)args[0] == arg0);
	printf("sizeof (*args[0]) == sizeof (struct churn): %d\n",
	    sizeof (*args[0]) == sizeof (struct churn));
	self->in = 1;
}

fbt::kmalloc:entry
/self->in && n++ < 1/
{
	printf("size_t unsigned: %d, sizeof (args[0]): %d\n",
	    args[0] - args[0] - 1 > 0, sizeof (args[0]));
}

sdt:::kmem-alloc
/self->in && a++ < 1/
{
	printf("kmem-alloc: sizeof (args[0]) %d, size_t unsigned: %d\n",
	    sizeof (args[0]), args[1] - args[1] - 1 > 0);
}

fbt::kmalloc:return
/self->in && r++ < 1/
{
	printf("return: sizeof (args[0]) %d, sizeof (args[1]) %d\n",
	    sizeof (args[0]), sizeof (args[1]));
}
