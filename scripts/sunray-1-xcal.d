/*
 * sunray-1-xcal.d - the SunRay replay, step 1 in D (docs/labs/sunray.md):
 * cross-calls sent, by CPU: what mpstat's xcal column counts, here summed
 * over the time traced.  Run until Ctrl-C.
 *
 *   sonde# /bin/sunray
 *   sonde# dtrace -s /scripts/sunray-1-xcal.d
 */
sysinfo:::xcalls
{
	@[cpu] = count();
}
