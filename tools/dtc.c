/*
 * tools/dtc.c: the host driver of the D compiler.
 *
 *   dtc [-eSwZ] [-x errtags] [-x opt[=val]] [-s] script.d [arg...]
 *   dtc [-eSwZ] [-x errtags] -n 'probe-desc { ... }' [arg...]
 *   dtc -h -s provider.d [-o FILE.h]
 *
 * Compiles a D program with dlang/ exactly as the guest does and either
 * reports the first error the way dtrace(1M) does
 *
 *   dtrace: failed to compile script PATH: line N: MESSAGE
 *
 * (with "-x errtags" the message is prefixed by "[D_TAG] "), or with -S
 * prints every clause's DIF, disassembled by DIF's own disassembler.
 * Exit status: 0 compiled, 1 compile error, 2 usage.  Arguments after the
 * script are the macro arguments $1, $2, ...; "-c CMD" stands for dtrace's
 * -c: the host starts nothing, but $target is defined (as 1).
 *
 * The D library (dlang/dt_lib.c): every NAME.d file of the directories of
 * "-x libdir=DIR[:DIR...]" (by default the source tree's dlang/lib and
 * arch/x86_64/dlib, the files the image installs as usr/lib/dtrace), in
 * the order of their names, is compiled before the program.
 *
 * Kernel types (tools/dtc_ctf.c): the dict of build/kernel.ctf, or of
 * "-x ctf=FILE" ("-x ctf=none": none), when the file exists.
 *
 * "-x version=V" binds the program to D version V, as dtrace's does: the
 * functions introduced after V are not defined (dlang/dt_func.c).
 *
 * -h writes the C header of the script's provider definitions
 * (dt_header_write, dlang/dt_provider.c) to the -o file, or to the
 * script's name with .h for .d, as dtrace -h does: what a user program
 * includes to fire its USDT probes (console/console.mk builds
 * /bin/shop's header this way).
 *
 * Probe matching: the host has no probe table, so dtc knows only the
 * providers Sonde has (dtrace, fbt, sdt, profile, lockstat, sysinfo, vminfo,
 * syscall, proc, sched) and the per-process classes (pid<PID>, a USDT
 * <provider><PID>: a name ending in digits, which only the guest can
 * check); a description naming any other provider, or a dtrace probe
 * other than BEGIN/END/ERROR, matches nothing (D_PDESC_ZERO) unless -Z is
 * given.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dlang/dt.h"
#include "tools/dtc_ctf.h"

#define ARENA_SIZE (4u << 20)

static bool
has_glob(const char *s)
{
	return (strpbrk(s, "*?[") != NULL);
}

static int
host_match(void *arg, const dt_probedesc *pd)
{
	(void)arg;
	static const char *const provs[] = { "dtrace", "fbt", "sdt",
	    "profile", "lockstat", "sysinfo", "vminfo", "io", "fsinfo", "syscall", "proc", "sched" };
	size_t n = strlen(pd->pd_prov);
	if (pd->pd_prov[0] == '\0' || has_glob(pd->pd_prov))
		return (-1);
	if (n > 1 && pd->pd_prov[n - 1] >= '0' && pd->pd_prov[n - 1] <= '9' &&
	    !(pd->pd_prov[0] >= '0' && pd->pd_prov[0] <= '9'))
		return (-1);		/* pid123, or a program's USDT provider */
	for (size_t i = 0; i < sizeof (provs) / sizeof (provs[0]); i++) {
		if (strcmp(pd->pd_prov, provs[i]) != 0)
			continue;
		if (i == 0 && pd->pd_name[0] != '\0' &&
		    !has_glob(pd->pd_name) && strcmp(pd->pd_name, "BEGIN") &&
		    strcmp(pd->pd_name, "END") && strcmp(pd->pd_name, "ERROR"))
			return (0);
		return (-1);
	}
	return (0);
}

static char *
read_file(const char *path, size_t *len)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	if (f == NULL)
		return (NULL);
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	for (;;) {
		if (n == cap)
			buf = realloc(buf, cap *= 2);
		size_t r = fread(buf + n, 1, cap - n, f);
		if (r == 0)
			break;
		n += r;
	}
	if (f != stdin)
		fclose(f);
	*len = n;
	return (buf);
}

/* ---- the D library ---- */

#ifndef DTC_LIBDIR
#define DTC_LIBDIR "dlang/lib:arch/x86_64/dlib"
#endif

typedef struct libset {
	dt_libsrc *ls;
	uint32_t n, cap;
} libset;

static int
lib_cmp(const void *a, const void *b)
{
	const char *x = strrchr(((const dt_libsrc *)a)->ls_name, '/');
	const char *y = strrchr(((const dt_libsrc *)b)->ls_name, '/');
	return (strcmp(x + 1, y + 1));
}

/* Add every NAME.d file of dir to the set. */
static void
lib_dir(libset *s, const char *dir, size_t dlen)
{
	char path[4096];
	snprintf(path, sizeof (path), "%.*s", (int)dlen, dir);
	DIR *d = opendir(path);
	if (d == NULL)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL; ) {
		size_t l = strlen(e->d_name);
		if (l < 3 || strcmp(e->d_name + l - 2, ".d") != 0)
			continue;
		if (s->n == s->cap)
			s->ls = realloc(s->ls, (s->cap = s->cap * 2 + 8) *
			    sizeof (dt_libsrc));
		dt_libsrc *ls = &s->ls[s->n];
		snprintf(path, sizeof (path), "%.*s/%s", (int)dlen, dir,
		    e->d_name);
		ls->ls_src = read_file(path, &ls->ls_len);
		if (ls->ls_src == NULL)
			continue;
		ls->ls_name = strdup(path);
		s->n++;
	}
	closedir(d);
}

/* The library of a libdir list "DIR:DIR...", sorted by file name. */
static void
lib_load(dt_opts *o, const char *dirs)
{
	libset s = { NULL, 0, 0 };
	for (const char *p = dirs; *p != '\0'; ) {
		size_t l = strcspn(p, ":");
		if (l > 0)
			lib_dir(&s, p, l);
		p += l + (p[l] == ':');
	}
	if (s.n > 1)
		qsort(s.ls, s.n, sizeof (dt_libsrc), lib_cmp);
	o->o_libs = s.ls;
	o->o_nlibs = s.n;
}

static const char *
act_name(dt_actkind k)
{
	static const char *const names[] = { "?", "expr", "trace", "printf",
	    "printa", "exit", "stack", "ustack", "tracemem", "sym", "mod",
	    "speculate", "commit", "discard", "clear", "trunc", "normalize",
	    "denormalize", "setopt", "aggregate", "panic", "breakpoint",
	    "chill", "raise", "stop", "system" };
	return ((unsigned)k < sizeof (names) / sizeof (names[0]) ?
	    names[k] : "?");
}

static void
print_difo(const dif_difo_t *d)
{
	size_t need = dif_disasm(d, NULL, 0);
	char *buf = malloc(need + 1);
	dif_disasm(d, buf, need + 1);
	fputs(buf, stdout);
	if (need > 0 && buf[need - 1] != '\n')
		putchar('\n');
	free(buf);
}

/* The -S listing: every clause's predicate and actions. */
static void
print_prog(const dt_prog *p)
{
	for (uint32_t c = 0; c < p->dp_nclauses; c++) {
		const dt_clause *cl = &p->dp_clauses[c];
		printf("clause %u (line %u):", c, cl->cl_line);
		for (uint32_t i = 0; i < cl->cl_nprobes; i++) {
			const dt_probedesc *pd = &cl->cl_probes[i];
			printf(" %s:%s:%s:%s", pd->pd_prov, pd->pd_mod,
			    pd->pd_func, pd->pd_name);
		}
		printf("\n");
		if (cl->cl_pred != NULL) {
			printf("predicate:\n");
			print_difo(cl->cl_pred);
		}
		for (uint32_t a = 0; a < cl->cl_nacts; a++) {
			const dt_action *ac = &cl->cl_acts[a];
			printf("action %u: %s", a, act_name(ac->ac_kind));
			if (ac->ac_fmt >= 0)
				printf(" fmt=\"%s\"",
				    p->dp_formats[ac->ac_fmt].fd_text);
			for (uint32_t g = 0; g < ac->ac_naggs; g++)
				printf(" @%s", p->dp_aggs[ac->ac_aggs[g]].ag_name);
			if (ac->ac_arg != 0)
				printf(" arg=%llu", (unsigned long long)ac->ac_arg);
			printf(" size=%u\n", ac->ac_size);
			for (uint32_t i = 0; i < ac->ac_nargs; i++) {
				printf("value %u:\n", i);
				if (ac->ac_args[i] == NULL)
					printf("(recorded by the framework)\n");
				else
					print_difo(ac->ac_args[i]);
			}
		}
	}
}

static int
usage(void)
{
	fprintf(stderr, "usage: dtc [-ehSwZ] [-c cmd] [-o file] [-x opt] { -s script "
	    "| -n probe | script } [args...]\n");
	return (2);
}

/* header_write: dtrace -h's header of p into ofile (NULL: SCRIPT.h); the exit status. */
static int
header_write(const dt_prog *p, const char *script, const char *ofile)
{
	char path[4096];
	if (ofile == NULL) {
		size_t n = strlen(script);
		if (n > 2 && strcmp(script + n - 2, ".d") == 0)
			n -= 2;
		snprintf(path, sizeof (path), "%.*s.h", (int)n, script);
		ofile = path;
	}
	const char *base = strrchr(ofile, '/') != NULL ? strrchr(ofile, '/') + 1 : ofile;
	size_t need = dt_header_write(p, base, NULL, 0) + 1;
	char *text = malloc(need);
	FILE *f = fopen(ofile, "w");
	if (text == NULL || f == NULL) {
		fprintf(stderr, "dtrace: failed to open header file '%s'\n", ofile);
		free(text);
		return (1);
	}
	dt_header_write(p, base, text, need);
	int bad = fputs(text, f) < 0;
	bad |= fclose(f) != 0;
	free(text);
	return (bad);
}

int
main(int argc, char **argv)
{
	bool listing = false, errtags = false, header = false;
	const char *script = NULL, *prog = NULL, *libdir = DTC_LIBDIR;
	const char *ofile = NULL;
	const char *ctfpath = DTC_CTF;
	dt_opts o;
	dt_optval vers;			/* -x version= */
	dt_opterr vers_err;
	memset(&o, 0, sizeof (o));
	o.o_target = -1;
	o.o_match = host_match;
	int i;
	for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1] != '\0';
	    i++) {
		const char *a = argv[i];
		if (strcmp(a, "-x") == 0 && i + 1 < argc) {
			if (strcmp(argv[++i], "errtags") == 0)
				errtags = true;
			else if (strncmp(argv[i], "libdir=", 7) == 0)
				libdir = argv[i] + 7;
			else if (strncmp(argv[i], "ctf=", 4) == 0)
				ctfpath = argv[i] + 4;
			else if (strncmp(argv[i], "version=", 8) == 0 &&
			    (vers_err = dt_option_parse("version", argv[i] + 8,
			    &vers)) == DT_OPT_OK)
				o.o_version = (uint32_t)vers.ov_num;
			else if (strncmp(argv[i], "version=", 8) == 0) {
				fprintf(stderr, "dtrace: failed to set -x version: "
				    "%s\n", dt_option_errmsg(vers_err));
				return (1);
			}
		} else if (strcmp(a, "-s") == 0 && i + 1 < argc) {
			script = argv[++i];
		} else if (strcmp(a, "-c") == 0 && i + 1 < argc) {
			i++;
			o.o_target = 1;		/* no process here: a stand-in pid */
		} else if (strcmp(a, "-n") == 0 && i + 1 < argc) {
			prog = argv[++i];
		} else if (strcmp(a, "-o") == 0 && i + 1 < argc) {
			ofile = argv[++i];
		} else {
			for (const char *f = a + 1; *f != '\0'; f++) {
				switch (*f) {
				case 'S': listing = true; break;
				case 'h': header = true; break;
				case 'w': o.o_destructive = true; break;
				case 'Z': o.o_zdefs = true; break;
				case 'e': case 'q': break;
				default: return (usage());
				}
			}
		}
	}
	if (script == NULL && prog == NULL) {
		if (i >= argc)
			return (usage());
		script = argv[i++];
	}
	/* $0 is the script name, then the remaining arguments */
	const char **margv = calloc((size_t)(argc - i + 2), sizeof (char *));
	margv[0] = script != NULL ? script : "dtrace";
	for (int k = i; k < argc; k++)
		margv[k - i + 1] = argv[k];
	o.o_argv = margv;
	o.o_argc = argc - i + 1;
	size_t len;
	char *src = prog != NULL ? strdup(prog) : read_file(script, &len);
	if (src == NULL) {
		fprintf(stderr, "dtrace: failed to open %s\n", script);
		return (2);
	}
	if (prog != NULL)
		len = strlen(src);
	lib_load(&o, libdir);
	dtc_ctf_load(&o, ctfpath);
	/* the arena doubles while the compile runs out of it (D_NOMEM) */
	size_t asz = ARENA_SIZE;
	void *arena = malloc(asz);
	dt_prog *p;
	dt_error err;
	int rc;
	while ((rc = dt_compile(src, len, &o, arena, asz, &p, &err)) != 0 &&
	    strcmp(err.de_tag, "D_NOMEM") == 0 && asz < ((size_t)1 << 32)) {
		free(arena);
		arena = malloc(asz *= 2);
	}
	if (getenv("DTC_ARENA") != NULL)
		fprintf(stderr, "dtc: arena %zu bytes, used %zu\n", asz,
		    rc == 0 ? p->dp_arena_used : 0);
	if (rc != 0) {
		char msg[1024];
		dt_error_format(&err, errtags, msg, sizeof (msg));
		if (err.de_file != NULL)
			fprintf(stderr, "dtrace: failed to compile script %s: "
			    "%s\n", err.de_file, msg);
		else if (script != NULL)
			fprintf(stderr, "dtrace: failed to compile script %s: "
			    "%s\n", script, msg);
		else
			fprintf(stderr, "dtrace: invalid probe specifier %s: "
			    "%s\n", prog, msg);
		return (1);
	}
	if (listing)
		print_prog(p);
	if (header)
		rc = header_write(p, script != NULL ? script : "d.d", ofile);
	free(arena);
	free(src);
	free(margv);
	return (rc);
}
