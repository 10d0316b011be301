/*
 * Asserts D_PROV_PRDUP: a provider definition declares each probe once.
 */
provider shop {
	probe order(int);
	probe order(int, int);
};
