/*
 * server_by_client.d - on the server's machine: the latency of each request
 * keyed by what the client's machine packed into its baggage: the client
 * program's name and the request id (client_tag.d), then the average per
 * client program.  The server never learns them from the payload: they
 * arrive as baggage in the frame's header and become the reading thread's
 * (kernel/link.c).  bag->req was packed as an integer on the client's
 * machine; this program never assigns it, so it reads as its text (%s).
 */
sdt:::link-receive
/arg0 == 1 && arg1 != 0/
{
	self->ts = timestamp;
}

sdt:::link-send
/self->ts && arg0 == 2/
{
	@lat[bag->client, bag->req] = max(timestamp - self->ts);
	@avg[bag->client] = avg(timestamp - self->ts);
	self->ts = 0;
}

END
{
	printa("%s request %s: %@d ns\n", @lat);
	printa("%s: %@d ns on average\n", @avg);
}
