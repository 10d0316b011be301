/*
 * ASSERTION: with -c 'pingpong 10', pp_send is entered exactly 10 times;
 * pp_receive returns true 10 times and false once (the queue closed);
 * a bool is returned in the low byte only.
 * @@options: -q -c 'pingpong 10'
 */
fbt::pp_send:entry
{
	@sends = count();
}

fbt::pp_receive:return
{
	@receives[arg1 & 0xff] = count();
}
