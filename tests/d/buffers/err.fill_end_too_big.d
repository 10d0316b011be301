/*
 * ASSERTION: under the fill policy DTrace keeps room for END's records in
 * every principal buffer; when they do not fit in the buffer at all,
 * tracing does not start ("END enablings exceed size of principal buffer").
 */
#pragma D option bufpolicy=fill
#pragma D option bufsize=128

BEGIN
{
	exit(0);
}

END
{
	printf("%s\n", "END's record alone is bigger than the whole buffer");
	trace(probename);
}
