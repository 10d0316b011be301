/*
 * ASSERTION: a probe description with * and ? globs matches by pattern:
 * fbt::spin_b?ock:entry and fbt::wl_spin_m*:return name one probe each
 * (max(1) so that the value does not depend on how long it spun).
 * @@options: -q -c 'spin 10'
 */
fbt::spin_b?ock:entry
{
	@[probefunc, probename] = max(1);
}

fbt::wl_spin_m*:return
{
	@[probefunc, probename] = max(1);
}
