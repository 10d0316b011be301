/* Pins the DIF for: an associative array store pushes its tuple then stgaa. */
BEGIN
{
	a[pid, "k"] = 1;
}
