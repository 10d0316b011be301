/* Pins the DIF for: an associative array load pushes its tuple then ldgaa. */
BEGIN
{
	a[pid, "k"] = 1;
	trace(a[pid, "k"]);
}
