/* tools/dtc_ctf.h: dtc's kernel types (tools/dtc_ctf.c). */
#ifndef TOOLS_DTC_CTF_H
#define TOOLS_DTC_CTF_H
#include "dlang/dt.h"
/* dtc_ctf_load: read the CTF dict at path ("none": none) into o. */
void dtc_ctf_load(dt_opts *o, const char *path);
#endif
