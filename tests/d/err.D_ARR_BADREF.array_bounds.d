/*
 * Asserts D_ARR_BADREF: a constant index outside a declared array is rejected.
 */
int arr[4];
BEGIN
{
	arr[4] = 1;
}
