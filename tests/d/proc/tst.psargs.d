/*
 * ASSERTION: curpsinfo->pr_psargs is the start of the process's argument
 * list (argv joined by spaces, at most 79 bytes: psinfo_t's 80), not its
 * name, and pr_argc its count; pr_fname stays the name.
 * @@options: -q -c '/bin/echo one two three four five six seven eight nine ten eleven twelve thirteen'
 */
proc:::exec-success
/pid == $target/
{
	printf("[%s] %d %d [%s]\n", curpsinfo->pr_psargs, curpsinfo->pr_argc,
	    strlen(curpsinfo->pr_psargs), curpsinfo->pr_fname);
}
