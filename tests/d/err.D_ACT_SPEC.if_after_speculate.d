/*
 * Asserts D_ACT_SPEC: Sonde splits clauses at if statements, so an if may not follow speculate().
 */
BEGIN
{
	speculate(1);
	if (pid)
		trace(1);
}
