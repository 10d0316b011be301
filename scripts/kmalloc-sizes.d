/*
 * kmalloc-sizes.d - the distribution of kernel heap request sizes, as a
 * power-of-two histogram, until Ctrl-C or the end of the -c command.
 *
 *   sonde# dtrace -s /scripts/kmalloc-sizes.d -c 'run churn 1000; sleep 2'
 */
fbt::kmalloc:entry
{
	@["kmalloc request size (bytes)"] = quantize(arg0);
}
