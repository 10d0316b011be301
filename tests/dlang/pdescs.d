/* Pins the DIF for: probe descriptions: globs, short forms, lists. */
fbt::vfs_*:entry, fbt:kernel:k?alloc:return,
profile:::tick-1s, ERROR
{
	trace(probefunc);
}
