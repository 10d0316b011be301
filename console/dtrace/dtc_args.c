/*
 * dtc_args.c - the dtrace command line: dtrace(1M)'s flags and operands.
 *
 * Parsed as getopt(3C) parses DTrace's option string: flags may be
 * grouped (-qn BEGIN), an option's argument is the rest of its word or the
 * next word, "--" ends the options, and operands (words that are not
 * options) may come anywhere: they are the macro arguments $1, $2, ...
 * ($0 is the first -s script's path, or "dtrace").  A wrong use prints
 * "dtrace: illegal option -- c" or "option requires an argument -- c" and
 * DTrace's usage message, exit status 2.
 *
 * Every flag of dtrace(1M) is known.  Those Sonde cannot honour say so as
 * DTrace would when the facility is missing: -A (no driver.conf to write:
 * tools/dtrace -A saves the enabling on the host), -G (no object is
 * needed: dtc_gen.c, which writes -h's header), -32 (the kernel is LP64,
 * so a 32-bit program cannot be enabled; -h's header, which does not
 * depend on the data model, is still written, as DTrace opens no device
 * for -h).  -o names the output file (dtc_ofile.c), -c and -p the process
 * traced (dtc_proc.c), -a claims the anonymous state (dtc_anon.c); -L adds
 * a directory of D library files (dtc_lib.c); -C, -D, -U, -I and -H are the
 * C preprocessor's (dtc_cpp.c).
 *
 * Thread context.
 *
 * Tests: tests/d/cmdline; tests/e2e/test_cmdline.py
 */
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

/* The flags that take an argument (getopt's "x:"). */
#define DTC_ARGFLAGS "36bcDfiILmnoPpsUxX"

static const char usage_text[] =
	"Usage: dtrace [-32|-64] [-aACeFGhHlqSvVwZ] [-b bufsz] [-c cmd] [-D name[=def]]\n"
	"\t[-I path] [-L path] [-o output] [-p pid] [-s script] [-U name]\n"
	"\t[-x opt[=val]] [-X a|c|s|t]\n\n"
	"\t[-P provider [[ predicate ] action ]]\n"
	"\t[-m [ provider: ] module [[ predicate ] action ]]\n"
	"\t[-f [[ provider: ] module: ] func [[ predicate ] action ]]\n"
	"\t[-n [[[ provider: ] module: ] func: ] name [[ predicate ] action ]]\n"
	"\t[-i probe-id [[ predicate ] action ]] [ args ... ]\n\n"
	"\tpredicate -> '/' D-expression '/'\n"
	"\t   action -> '{' D-statements '}'\n\n"
	"\t-32 generate 32-bit D programs and ELF files\n"
	"\t-64 generate 64-bit D programs and ELF files\n\n"
	"\t-a  claim anonymous tracing state\n"
	"\t-A  generate driver.conf(4) directives for anonymous tracing\n"
	"\t-b  set trace buffer size\n"
	"\t-c  run specified command and exit upon its completion\n"
	"\t-C  run cpp(1) preprocessor on script files\n"
	"\t-D  define symbol when invoking preprocessor\n"
	"\t-e  exit after compiling request but prior to enabling probes\n"
	"\t-f  enable or list probes matching the specified function name\n"
	"\t-F  coalesce trace output by function\n"
	"\t-G  generate an ELF file containing embedded dtrace program\n"
	"\t-h  generate a header file with definitions for static probes\n"
	"\t-H  print included files when invoking preprocessor\n"
	"\t-i  enable or list probes matching the specified probe id\n"
	"\t-I  add include directory to preprocessor search path\n"
	"\t-l  list probes matching specified criteria\n"
	"\t-L  add library directory to library search path\n"
	"\t-m  enable or list probes matching the specified module name\n"
	"\t-n  enable or list probes matching the specified probe name\n"
	"\t-o  set output file\n"
	"\t-p  grab specified process-ID and cache its symbol tables\n"
	"\t-P  enable or list probes matching the specified provider name\n"
	"\t-q  set quiet mode (only output explicitly traced data)\n"
	"\t-s  enable or list probes according to the specified D script\n"
	"\t-S  print D compiler intermediate code\n"
	"\t-U  undefine symbol when invoking preprocessor\n"
	"\t-v  set verbose mode (report stability attributes, arguments)\n"
	"\t-V  report DTrace API version\n"
	"\t-w  permit destructive actions\n"
	"\t-x  enable or modify compiler and tracing options\n"
	"\t-X  specify ISO C conformance settings for preprocessor\n"
	"\t-Z  permit probe descriptions that match zero probes\n";

int dtc_usage(void)
{
	dtc_err("%s", usage_text);
	return 2;
}

static int add_desc(struct dtc *d, enum dtc_desc_kind kind, const char *text)
{
	if (d->dc_ndescs == DTC_MAXDESCS) {
		dtc_err("dtrace: too many probe descriptions (at most %d)\n", DTC_MAXDESCS);
		return 2;
	}
	d->dc_descs[d->dc_ndescs++] = (struct dtc_desc){ .dd_kind = kind, .dd_text = text };
	return -1;
}

/* flag_unsupported: the flags naming a facility Sonde lacks; -1 if c is not one. */
static int flag_unsupported(char c)
{
	switch (c) {
	case 'A':
		dtc_err("dtrace: failed to save anonymous enabling: Sonde has no persistent storage "
		        "(tools/dtrace -A saves it on the host)\n");
		return 1;
	default:
		return -1;
	}
}

/* flag_option: the flags that set an option; -1 to go on, else an exit status. */
static int flag_option(struct dtc *d, char c, const char *arg)
{
	switch (c) {
	case 'b': return dtc_opt_x(d, "-b", "bufsize", arg) ? -1 : 1;
	case 'X': return dtc_opt_x(d, "-X", "stdc", arg) ? -1 : 1;
	case 'x': return dtc_opt_x(d, "-x", arg, NULL) ? -1 : 1;
	case 'q': d->dc_quiet = true; return -1;
	case 'F': d->dc_flowindent = true; return -1;
	case 'w': d->dc_destructive = d->dc_ov.dov_destructive = true; return -1;
	case 'Z': d->dc_zdefs = true; return -1;
	case 'a': d->dc_grabanon = true; return -1;
	default: return -2;
	}
}

/* flag_one: one flag c (with its argument); -1 to go on, else an exit status. */
static int flag_one(struct dtc *d, char c, const char *arg)
{
	int rc = flag_option(d, c, arg);

	if (rc != -2)
		return rc;
	if ((c == '3' && strcmp(arg, "2") != 0) || (c == '6' && strcmp(arg, "4") != 0)) {
		dtc_err("dtrace: illegal option -- %c%s\n", c, arg);
		return dtc_usage();
	}
	if ((rc = flag_unsupported(c)) >= 0)
		return rc;
	switch (c) {
	case 'n': return add_desc(d, DTC_NAME, arg);
	case 's': return add_desc(d, DTC_SCRIPT, arg);
	case 'P': return add_desc(d, DTC_PROVIDER, arg);
	case 'm': return add_desc(d, DTC_MODULE, arg);
	case 'f': return add_desc(d, DTC_FUNCTION, arg);
	case 'i': return add_desc(d, DTC_ID, arg);
	case 'c': d->dc_ccmd = arg; return -1;
	case 'p': d->dc_pgrab = arg; return -1;
	case 'o': d->dc_ofile = arg; return -1;
	case 'l': d->dc_list = true; return -1;
	case 'v': d->dc_verbose = true; return -1;
	case 'e': d->dc_compile_only = true; return -1;
	case 'S': d->dc_show_dif = true; return -1;
	case 'G': d->dc_gen_object = true; return -1;
	case 'h': d->dc_gen_header = true; return -1;
	case 'V': d->dc_version_only = true; return -1;
	case 'C': d->dc_cpp = true; return -1;
	case 'H': d->dc_cpp_hdrs = true; return -1;
	case 'D': case 'U': case 'I':        /* the preprocessor's (dtc_cpp.c) */
		if (dtc_cpp_add(d, c, arg))
			return -1;
		dtc_err("dtrace: too many -%c options\n", c);
		return 2;
	case '3':
		d->dc_model32 = true;        /* refused after parsing unless -h (model_check) */
		return -1;
	case 'L':
		if (d->dc_nlibdirs == DTC_MAXLIBDIRS) {
			dtc_err("dtrace: too many -L options\n");
			return 2;
		}
		d->dc_libdirs[d->dc_nlibdirs++] = arg;
		return -1;
	case '6':
		return -1;                   /* the kernel's own data model: nothing to change */
	default:
		dtc_err("dtrace: illegal option -- %c\n", c);
		return dtc_usage();
	}
}

/* flags_word: the flags of one word argv[*i] (and its argument, maybe the next word). */
static int flags_word(struct dtc *d, int argc, char **argv, int *i)
{
	for (char *p = argv[*i] + 1; *p; p++) {
		const char *arg = NULL;
		if (strchr(DTC_ARGFLAGS, *p) != NULL) {
			arg = p[1] ? p + 1 : (*i + 1 < argc ? argv[++*i] : NULL);
			if (arg == NULL) {
				dtc_err("dtrace: option requires an argument -- %c\n", *p);
				return dtc_usage();
			}
		}
		int rc = flag_one(d, *p, arg);
		if (rc >= 0)
			return rc;
		if (arg != NULL)
			break;
	}
	return -1;
}

int dtc_parse_args(struct dtc *d, int argc, char **argv)
{
	int nop = 1, rc;
	bool options = true;

	d->dc_operands = kmalloc(((size_t)argc + 1) * sizeof(char *));
	if (d->dc_operands == NULL) {
		dtc_err("dtrace: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		if (options && strcmp(argv[i], "--") == 0)
			options = false;
		else if (options && argv[i][0] == '-' && argv[i][1] != 0) {
			if ((rc = flags_word(d, argc, argv, &i)) >= 0)
				return rc;
		} else
			d->dc_operands[nop++] = argv[i];
	}
	d->dc_operands[0] = "dtrace";
	for (int i = 0; i < d->dc_ndescs; i++)
		if (d->dc_descs[i].dd_kind == DTC_SCRIPT) {
			d->dc_operands[0] = d->dc_descs[i].dd_text;
			break;
		}
	d->dc_operands[nop] = NULL;
	d->dc_macro_argc = nop;
	d->dc_macro_argv = d->dc_operands;
	if (d->dc_version_only) {
		dtc_out("dtrace: Sun D %s\n", DT_VERSION_LATEST_STR);   /* as dtrace(1M) -V */
		return 0;
	}
	if (d->dc_model32 && !d->dc_gen_header && !d->dc_gen_object) {
		dtc_err("dtrace: failed to initialize dtrace: Module and program data models do not match\n");
		return 1;                    /* -G says why it makes nothing (dtc_gen.c) */
	}
	if ((d->dc_gen_object || d->dc_gen_header) && d->dc_ndescs == 0) {
		dtc_err("dtrace: -%c requires one or more scripts\n", d->dc_gen_header ? 'h' : 'G');
		return 2;
	}
	if (d->dc_ndescs == 0 && !d->dc_list && !d->dc_grabanon)
		return dtc_usage();
	return -1;
}

