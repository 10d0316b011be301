/*
 * client_tag.d - on the client's machine: pack the name of the program
 * that sends each request, and the request's id, into its baggage
 * (docs/causal.md).  The kernel exports the baggage into the frame right
 * after this probe (kernel/link.c).  Request 0 is linkclient's knock and
 * its "quit": left untagged.
 */
sdt:::link-send
/arg0 == 1 && arg1 != 0/
{
	bag->client = execname;
	bag->req = arg1;
}
