/* Task 6: every program started, by path (proc:::exec's arg0 is a kernel string). */
#pragma D option quiet

proc:::exec
{
	printf("%s\n", stringof(arg0));
}
