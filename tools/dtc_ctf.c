/*
 * tools/dtc_ctf.c: the kernel's types for the host compiler (dtc).
 *
 * dtc has no kernel to ask, so it reads the kernel's CTF dict from a file
 * (build/kernel.ctf, the dict the image carries; "-x ctf=FILE" for another,
 * "-x ctf=none" for none) with the kernel's own reader (kernel/ctf.c), and
 * gives the compiler:
 *   o_ctf        the dict
 *   o_symlookup  a kernel variable or function CTF knows "resolves" to
 *                address 0 (the host has no image loaded; -S shows it)
 *   o_argtype    fbt's argument types from the function's prototype
 *                (the guest's fbt provider gives the same names); sdt's
 *                and sched's, sysinfo's, vminfo's, io's, fsinfo's and proc's from trace/sdt_argtypes.h, the guest's table
 * A missing file is no error: the compile goes on without kernel types.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt.h"
#include "kernel/ctf.h"
#include "tools/dtc_ctf.h"
#include "trace/sdt_argtypes.h"

static int
host_symlookup(void *arg, const char *name, uint64_t *addr, uint64_t *size)
{
	const ctf_dict_t *d = arg;
	uint32_t t = ctf_var(d, name);
	ctf_typeinfo_t ti;
	if (t == 0)
		return (-1);
	*addr = 0;
	*size = 8;
	t = ctf_resolve(d, t);
	if (t != 0 && ctf_type(d, t, &ti) == 0 && ti.ti_size > 0 &&
	    ti.ti_size <= 8)
		*size = ti.ti_size;
	return (0);
}

/* sdt and sched probes named exactly: trace/sdt_argtypes.h's table. */
static int
host_sdt_argtype(const dt_probedesc *pd, int argno, char *buf, char *xlate,
    int *map)
{
	bool sched = strcmp(pd->pd_prov, "sched") == 0;
	if (strpbrk(pd->pd_name, "*?[") || pd->pd_name[0] == '\0' ||
	    argno < 0 || argno > 9)
		return (-1);
	for (size_t i = 0; sched && i < sizeof (sched_typed) /
	    sizeof (sched_typed[0]); i++) {
		if (strcmp(pd->pd_name, sched_typed[i].sa_name) != 0)
			continue;
		if (argno >= sched_typed[i].sa_nargs)
			return (DT_ARGTYPE_NOARG);	/* typed, as the guest */
		snprintf(buf, DT_ARGTYPELEN, "%s", SCHED_NATIVE);
		snprintf(xlate, DT_ARGTYPELEN, "%s", sched_xlate[argno]);
		*map = 0;
		return (0);
	}
	for (size_t i = 0; !sched && argno < 2 && i < sizeof (sdt_argdescs) /
	    sizeof (sdt_argdescs[0]); i++) {
		const char *t = sdt_argdescs[i].sa_types[argno];
		if (strcmp(pd->pd_name, sdt_argdescs[i].sa_name) == 0 && t) {
			snprintf(buf, DT_ARGTYPELEN, "%s", t);
			return (0);
		}
	}
	return (-1);
}

/* sysinfo and vminfo probes: all typed alike (trace/sdt_argtypes.h). */
static int
host_stat_argtype(int argno, char *buf)
{
	if (argno < 0 || argno >= 3)
		return (-1);
	snprintf(buf, DT_ARGTYPELEN, "%s", cpu_stat_argtypes[argno]);
	return (0);
}

/* proc probes named exactly: the same header's table, as prov_proc.c reads it. */
static int
host_proc_argtype(const dt_probedesc *pd, int argno, char *buf, char *xlate)
{
	if (argno < 0 || argno >= 3)
		return (-1);
	for (size_t i = 0; i < sizeof (proc_argdescs) /
	    sizeof (proc_argdescs[0]); i++) {
		const struct proc_argdesc *pa = &proc_argdescs[i];
		if (strcmp(pd->pd_name, pa->pa_name) != 0 ||
		    pa->pa_native[argno] == NULL)
			continue;
		snprintf(buf, DT_ARGTYPELEN, "%s", pa->pa_native[argno]);
		if (pa->pa_xlate[argno] != NULL)
			snprintf(xlate, DT_ARGTYPELEN, "%s", pa->pa_xlate[argno]);
		return (0);
	}
	return (-1);
}

static int
host_argtype(void *arg, const dt_probedesc *pd, int argno, char *buf,
    char *xlate, int *map)
{
	size_t len = DT_ARGTYPELEN;
	xlate[0] = '\0';
	*map = argno;
	if (strcmp(pd->pd_prov, "sdt") == 0 || strcmp(pd->pd_prov, "sched") == 0)
		return (host_sdt_argtype(pd, argno, buf, xlate, map));
	if (strcmp(pd->pd_prov, "proc") == 0)
		return (host_proc_argtype(pd, argno, buf, xlate));
	if (strcmp(pd->pd_prov, "sysinfo") == 0 || strcmp(pd->pd_prov, "vminfo") == 0)
		return (host_stat_argtype(argno, buf));
	if (strcmp(pd->pd_prov, "fsinfo") == 0) {
		if (argno < 0 || argno >= 2)
			return (-1);
		snprintf(buf, DT_ARGTYPELEN, "%s", fsinfo_native[argno]);
		if (fsinfo_xlate[argno] != NULL)
			snprintf(xlate, DT_ARGTYPELEN, "%s", fsinfo_xlate[argno]);
		*map = argno;
		return (0);
	}
	if (strcmp(pd->pd_prov, "io") == 0) {
		if (argno < 0 || argno >= 3)
			return (-1);
		snprintf(buf, DT_ARGTYPELEN, "%s", IO_NATIVE);
		snprintf(xlate, DT_ARGTYPELEN, "%s", io_xlate[argno]);
		*map = 0;
		return (0);
	}
	bool ret = strcmp(pd->pd_name, "return") == 0;
	if (strcmp(pd->pd_prov, "fbt") != 0 || strpbrk(pd->pd_func, "*?[") ||
	    pd->pd_func[0] == '\0' || (!ret && strcmp(pd->pd_name, "entry")))
		return (-1);
	const ctf_dict_t *d = arg;
	if (ctf_func_argname(d, pd->pd_func, ret, argno, buf, len) == 0)
		return (0);
	if (ctf_var(d, pd->pd_func) != 0 && strchr(pd->pd_func, '.') == NULL)
		return (DT_ARGTYPE_NOARG);	/* typed, no such argument */
	return (-1);
}

void
dtc_ctf_load(dt_opts *o, const char *path)
{
	static ctf_dict_t dict;
	if (path == NULL || strcmp(path, "none") == 0)
		return;
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	void *buf = malloc(n > 0 ? (size_t)n : 1);
	if (buf == NULL || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		return;
	}
	fclose(f);
	if (ctf_open(&dict, buf, (size_t)n, malloc) != 0) {
		fprintf(stderr, "dtc: %s: kernel types unusable: %s\n", path,
		    dict.cd_err);
		return;
	}
	o->o_ctf = &dict;
	o->o_symlookup = host_symlookup;
	o->o_symlookup_arg = &dict;
	o->o_argtype = host_argtype;
	o->o_argtype_arg = &dict;
}
