/*
 * ASSERTION: an inline may take parameters, written like an array's keys
 * (the D library's fds[int fd] is one): each use name[args] is the body
 * with every parameter bound to its argument, converted to the
 * parameter's type; the body may be a translation whose members are taken
 * with ".".
 */
#pragma D option quiet

inline int sq[int x] = x * x;
inline int64_t lin[int a, int64_t b] = a * 10 + b;
inline cpuinfo_t cpuof[cpu_t *c] = xlate <cpuinfo_t> (c);

BEGIN
{
	i = 7;
	printf("%d %d %d %d\n", sq[3], sq[i], sq[sq[2]], lin[i, -2]);
	printf("%d\n", cpuof[(cpu_t *)0].cpu_pset);
	exit(0);
}
