/*
 * linkbulk [-k] [-s SIZE] [N] - linkclient under another name, its requests
 * 200 bytes long by default: a second client program on the client's
 * machine, so that a D program on the server's machine can tell by the
 * baggage which program's requests cost it more (docs/causal.md).
 */
#define LINKCLIENT_NAME "linkbulk"
#define LINKCLIENT_SIZE 200
#include "userland/bin/linkclient.c"
