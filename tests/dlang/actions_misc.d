/* Pins the DIF for: stack, tracemem, sym, exit, clear, trunc, normalize. */
BEGIN
{
	@a[1] = count();
	stack(5);
	tracemem(arg0, 16);
	sym(caller);
	mod(caller);
	clear(@a);
	trunc(@a, 3);
	normalize(@a, 10);
	denormalize(@a);
	setopt("quiet");
	exit(0);
}
