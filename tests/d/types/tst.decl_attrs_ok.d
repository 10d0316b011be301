/*
 * Asserts that a parameter declared register is accepted, as DTrace
 * accepts it; and long double, unsigned long long, short int, signed char.
 */
int f(register int a);
long double ld;
unsigned long long ull;
short int si;
signed char sc;
long long int lli;

BEGIN
{
	exit(0);
}
