/*
 * server_latency.d - on the server's machine: how long linkserver takes
 * to answer each request, by request id (the id the frame carries).
 * Needs no baggage; tests/e2e/test_link.py runs it beside linkclient.
 */
sdt:::link-receive
/execname == "linkserver" && arg0 == 1 && arg1 != 0/
{
	self->ts = timestamp;
	self->req = arg1;
}

sdt:::link-send
/self->ts && arg0 == 2 && arg1 == self->req/
{
	@lat[arg1] = max(timestamp - self->ts);
	self->ts = 0;
	self->req = 0;
}

END
{
	printa("request %d answered in %@d ns\n", @lat);
}
