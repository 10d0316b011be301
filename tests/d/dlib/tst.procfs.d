/*
 * ASSERTION: curpsinfo and curlwpsinfo (the D library's psinfo_t and
 * lwpsinfo_t translations of curthread) describe the running thread as
 * the built-in variables do; pset, chip and lgrp are curcpu's.
 */
#pragma D option quiet

BEGIN
{
	printf("ps %d %d %d %d %d\n", curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_fname == execname,
	    curpsinfo->pr_psargs == execname,
	    curpsinfo->pr_dmodel == PR_MODEL_LP64);
	printf("lwp %d %d %d %c\n", curlwpsinfo->pr_lwpid == tid,
	    curlwpsinfo->pr_onpro == cpu, curlwpsinfo->pr_state == SONPROC,
	    curlwpsinfo->pr_sname);
	printf("cpu %d %d %d\n", pset, chip, lgrp);
	exit(0);
}
