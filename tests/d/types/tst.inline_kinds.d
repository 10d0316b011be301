/*
 * ASSERTION: inline of every kind (the Guide's "Inlines"): integer, char,
 * string, enum, 64-bit and negative constants, inlines naming inlines,
 * sizeof and offsetof (a string member is char[strsize]: byte-aligned),
 * a subroutine call, a translation to a pointer and to a struct (used
 * with -> and .), an inline with parameters, and a value cut to the
 * inline's narrower type.
 */
/* @@options: -q */

struct out { int v; string s; };
translator struct out < int x > { v = x * 2; s = "t"; };
enum color { RED, GREEN = 4, BLUE };
inline int I = 3;
inline string S = "str";
inline int J = I * 2 + 1;
inline char C = 'a';
inline enum color E = BLUE;
inline uint64_t BIG = 0xffffffffffffffffULL;
inline int64_t NEG = -5;
inline int SZ = sizeof (struct out) + offsetof(struct out, s);
inline string JOIN = strjoin(S, "x");
inline struct out *XP = xlate<struct out *>(21);
inline struct out XS = xlate<struct out>(4);
inline int TIMES[int a, int b] = a * b;
inline uint16_t NARROW = 65537;
BEGIN
{
	printf("%d %s %d %c %d %u %d\n", I, S, J, C, E, BIG, NEG);
	printf("%d %s %d %s %d %s\n", SZ, JOIN, XP->v, XP->s, XS.v, XS.s);
	printf("%d %d\n", TIMES[3, 4], NARROW);
	exit(0);
}
