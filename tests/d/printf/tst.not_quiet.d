/*
 * ASSERTION: without quiet, printf output follows the probe prefix on
 * the same line, and the record's line ends with printf's own newline
 * plus the newline that ends every record.
 */
BEGIN
{
	printf("hello %s", "world");
}

BEGIN
{
	printf("with newline\n");
	exit(0);
}
