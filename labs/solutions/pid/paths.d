/*
 * Task 4: the path each request asks for: request_path returns a pointer
 * into the process's memory, which copyinstr() copies into the kernel.
 */
#pragma D option quiet

pid$target::request_path:return
{
	@[copyinstr(arg1)] = count();
}
