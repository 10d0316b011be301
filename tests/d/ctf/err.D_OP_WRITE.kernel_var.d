/*
 * Asserts D_OP_WRITE: kernel variables are not writable from D.
 */
BEGIN
{
	`ncpus = 2;
}
