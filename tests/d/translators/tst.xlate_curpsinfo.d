/*
 * ASSERTION: the library's translators may be used whole: *curpsinfo and
 * *curlwpsinfo copy every member into a psinfo_t / lwpsinfo_t variable,
 * a string filling the char array pr_fname; sizeof of a translation is
 * its output type's size and evaluates nothing.
 */
/* @@options: -q */

psinfo_t p;

BEGIN
{
	p = *curpsinfo;
	printf("%s %d %d\n", p.pr_fname, p.pr_pid == pid,
	    sizeof (xlate<psinfo_t>(curthread)) == sizeof (psinfo_t));
	lw = *curlwpsinfo;
	printf("%d\n", lw.pr_lwpid == tid);
	exit(0);
}
