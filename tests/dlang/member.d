/* Pins the DIF for: p->m adds the member offset then loads with the member's size. */
struct s { char c; short h; long l; };
struct s *p;
BEGIN
{
	trace(p->h + p->l);
}
