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
 * number of kernel samples at the end.  The samples are counted per CPU
 * (ks[cpu], us[cpu]: each CPU adds only to its own element, as a plain
 * global incremented by every CPU at once would lose counts) and summed
 * at the end over Sonde's CPUs (kernel/cpu.h: MAX_CPUS, 8).  Samples in user code (arg0 == 0,
 * arg1 the user PC) are counted but not charged to a function.
 *
 * Providers: profile (profile-997: arg0 the kernel PC, or 0).
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Sampling... Ctrl-C or the command's end to stop.\n");
}

profile-997
/arg0 != 0/
{
	@count[func(arg0)] = count();
	@pct[func(arg0)] = sum(100);
	ks[cpu]++;
}

profile-997
/arg0 == 0/
{
	us[cpu]++;
}

dtrace:::END
{
	ksamples = ks[0] + ks[1] + ks[2] + ks[3] + ks[4] + ks[5] + ks[6] + ks[7];
	usamples = us[0] + us[1] + us[2] + us[3] + us[4] + us[5] + us[6] + us[7];
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
