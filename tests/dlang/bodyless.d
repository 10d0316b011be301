/* Pins the DIF for: descriptions alone on their lines are clauses without a body (dtrace -n BEGIN -n END). */
BEGIN
END
fbt::foo:entry
/pid/
{ trace(1); }
ERROR
