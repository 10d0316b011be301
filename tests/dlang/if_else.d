/* Pins the DIF for: if/else splits the clause; branches test this->__ifN; a constant condition compiles only its live branch. */
BEGIN
/pid/
{
	x = 1;
	if (arg0 > 10) {
		trace("big");
		if (arg1)
			trace("both");
	} else if (arg0 == 3)
		trace("three");
	else {
	}
	trace("after");
	if (1)
		trace("const");
	else
		trace("dead");
}
