/* Pins the DIF for: string subroutines return strings. */
BEGIN
{
	trace(toupper(basename("/a/b")));
	trace(index(execname, "x"));
	trace(lltostr(pid));
}
