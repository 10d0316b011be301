/* Pins the DIF for: speculate, commit and discard take an id expression. */
BEGIN
{
	self->spec = speculation();
}
fbt::foo:entry
/self->spec/
{
	speculate(self->spec);
	trace(arg0);
}
fbt::foo:return
/self->spec/
{
	commit(self->spec);
}
END
{
	discard(1);
}
