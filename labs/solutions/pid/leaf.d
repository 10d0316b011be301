/*
 * Task 5: the user stack at request_path's return, for the failing
 * request only (the path it returns is the missing file's).
 */
#pragma D option quiet

pid$target::request_path:return
/copyinstr(arg1) == "/scripts/missing.d"/
{
	ustack();
}
