/*
 * ASSERTION: -x aggpack and -x agghist are refused as unknown options, as
 * DTrace refuses a name it does not have (Sonde prints neither form), with
 * status 1 and nothing run.
 */
/* @@options: -x aggpack -x agghist */
/* @@exit: 1 */

BEGIN
{
	printf("not reached\n");
	exit(0);
}
