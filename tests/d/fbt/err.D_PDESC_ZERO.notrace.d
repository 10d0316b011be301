/*
 * ASSERTION: functions that run in probe context have no fbt probes:
 * dtrace_probe (the framework, in the notrace region) and curcpu (on fbt's
 * block list) match nothing.
 */
fbt::dtrace_probe:entry,
fbt::curcpu:entry
{
}
