/*
 * ASSERTION: string variables of every scope hold copies; built
 * strings survive into later clauses.
 */
#pragma D option quiet

BEGIN
{
	g = strjoin("glo", "bal");
	self->t = strjoin("thr", "ead");
	this->c = strjoin("cla", "use");
	a["k"] = strjoin("ar", "ray");
	printf("%s %s %s %s\n", g, self->t, this->c, a["k"]);
}

BEGIN
{
	printf("%s %s %s\n", g, self->t, a["k"]);
	exit(0);
}
