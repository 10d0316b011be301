/* Task 3: the distribution of kmalloc's requested sizes (sdt:::kmem-alloc, arg1). */
sdt:::kmem-alloc
{
	@["bytes"] = quantize(arg1);
}

tick-1s
{
	exit(0);
}
