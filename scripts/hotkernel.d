#!/usr/sbin/dtrace -s
/*
 * hotkernel.d - which kernel functions the CPUs are in: every CPU is
 * sampled 997 times a second, and each sample taken in the kernel is
 * charged to the function its program counter is in; at the end (Ctrl-C,
 * or when the -c command ends) the functions, hottest last, with their
 * share of the kernel samples.
 *
 * Columns:
 *   FUNCTION  module`function (func(arg0))
 *   COUNT     samples in it
 *   PCT       its share of all kernel samples, in whole percent (rounded
 *             down: a function with under 1% shows 0)
 *
 *   sonde# dtrace -s /scripts/hotkernel.d -c 'run spin 500'
 *   sonde# dtrace -s /scripts/hotkernel.d          (Ctrl-C to stop)
 *
 * An idle CPU is in arch_wait_for_interrupt.  The percentage is the
 * aggregation @pct, which adds 100 for each sample, normalized by the
 * number of kernel samples at the end.  Samples in user code (arg0 == 0,
 * arg1 the user PC) are counted but not charged to a function.
 *
 * Providers: profile (profile-997: arg0 the kernel PC, or 0).
 */
#pragma D option quiet

dtrace:::BEGIN
{
	ksamples = 0;
	usamples = 0;
	printf("Sampling... Ctrl-C or the command's end to stop.\n");
}

profile-997
/arg0 != 0/
{
	@count[func(arg0)] = count();
	@pct[func(arg0)] = sum(100);
	ksamples++;
}

profile-997
/arg0 == 0/
{
	usamples++;
}

dtrace:::END
/ksamples == 0/
{
	printf("no kernel samples (%d in user code)\n", usamples);
	exit(0);
}

dtrace:::END
/ksamples != 0/
{
	normalize(@pct, ksamples);
	printf("%d kernel samples, %d in user code\n", ksamples, usamples);
	printf("%-40s %8s %4s\n", "FUNCTION", "COUNT", "PCT");
	printa("%-40a %@8d %@3d%%\n", @count, @pct);
}
