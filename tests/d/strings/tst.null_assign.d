/*
 * ASSERTION: as in DTrace, assigning 0 or NULL to a string variable
 * clears it: a thread-local or an associative array element is freed, a
 * global or clause-local holds the NULL string; a string compared with
 * NULL or 0 (either order) tests its address; an unset thread-local
 * string is NULL; ?: takes a string and NULL or 0 as a string.
 */
#pragma D option quiet

self string other;
BEGIN
{
	self->name = execname;
	printf("set: %d %d\n", self->name == NULL, self->name != 0);
	self->name = 0;
	printf("freed: %d %d %d\n", self->name == NULL, 0 == self->name, NULL != self->name);
	g = "glob";
	printf("g: %d [%s]\n", g == NULL, g);
	g = 0;
	printf("g0: %d\n", g == NULL);
	g = "back";
	printf("g again: %d [%s]\n", g == NULL, g);
	this->s = "local";
	this->s = NULL;
	printf("this: %d\n", this->s == NULL);
	a["k"] = "elem";
	printf("a: %d [%s]\n", a["k"] == NULL, a["k"]);
	a["k"] = 0;
	printf("a0: %d\n", a["k"] == NULL);
	printf("unset self: %d\n", self->other == NULL);
	x = g != NULL ? g : NULL;
	y = g == NULL ? g : 0;
	printf("ternary: [%s] %d\n", x, y == NULL);
	printf("strchr: %d %d\n", strchr("abc", 'z') == NULL, strchr("abc", 'b') != NULL);
	exit(0);
}
