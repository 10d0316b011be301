/*
 * Asserts D_NOREG: a tuple whose keys all have to be held in registers
 * before they are pushed cannot be compiled when it needs more than the
 * seven registers and a key has a side effect (here x++), which the
 * generator neither reorders nor spills.
 */
BEGIN
{
	a[1, 2, 3, 4, 5, 6, x++] = 1;
}
