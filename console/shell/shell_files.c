/*
 * shell_files.c - the shell's file commands: ls and cat; interpreter files.
 *
 * Files are the kernel's boot-time files (kernel/kfile.h): the built-in
 * script library under /scripts and whatever was passed as boot modules;
 * /tmp, /dev and /disk, and any file not in the archive, are read through the
 * path layer instead (shell_vfs.c).
 * They form a flat, sorted list of names such as "scripts/hello.d"; a
 * directory is any proper prefix ending in "/", so ls finds a directory's
 * entries by scanning the list for names under it.  Names starting with
 * "." are hidden from ls unless -a is given (tools/dtrace keeps its command
 * line in ".sonde/cmdline").
 *
 * A file whose first line is "#!/path/cmd args" runs as a command, as
 * exec(2) runs an interpreter file: "tests/x.d a b" with "#!/usr/sbin/dtrace
 * -qs" is "dtrace -qs tests/x.d a b".
 *
 * Output goes to standard output; errors go to the error stream
 * (kprintf_err), "ls: PATH: no such file or directory", status 1.
 *
 * Tests: tests/unit/shell_cmds_test.c; tests/e2e/test_commands.py
 */
#include "console/shell/shell.h"
#include "kernel/console.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"

#define LS_NAME_MAX KFILE_NAME_MAX

/* --- ls ------------------------------------------------------------------ */

struct ls_state {
	const char *ls_dir;          /* trimmed, "" for the root, else ending in "/" */
	size_t ls_dirlen;
	bool ls_all;                 /* -a: show names starting with "." */
	bool ls_long;                /* -l: sizes */
	char ls_last[LS_NAME_MAX];   /* the last subdirectory printed (names are sorted) */
	int ls_found;                /* entries under ls_dir */
};

/* ls_entry: print the file, or the subdirectory it lies in, if it is directly under ls_dir. */
static bool ls_entry(const struct kfile *kf, void *arg)
{
	struct ls_state *st = arg;
	const char *rest, *slash;

	if (strncmp(kf->kf_name, st->ls_dir, st->ls_dirlen) != 0)
		return true;
	rest = kf->kf_name + st->ls_dirlen;
	st->ls_found++;
	if (rest[0] == '.' && !st->ls_all)
		return true;
	slash = strchr(rest, '/');
	if (slash == NULL) {
		if (st->ls_long)
			kprintf("%10lu %s\n", kf->kf_size, rest);
		else
			kprintf("%s\n", rest);
		return true;
	}
	size_t n = MIN((size_t)(slash - rest), sizeof(st->ls_last) - 1);
	if (strncmp(st->ls_last, rest, n) == 0 && st->ls_last[n] == 0)
		return true;                      /* this directory is already listed */
	memcpy(st->ls_last, rest, n);
	st->ls_last[n] = 0;
	if (st->ls_long)
		kprintf("%10s %s/\n", "-", st->ls_last);
	else
		kprintf("%s/\n", st->ls_last);
	return true;
}

/* ls_path: list one path (a file or a directory); returns a shell status. */
static int ls_path(const char *path, bool all, bool lng)
{
	static struct ls_state st;   /* the shell runs one command at a time */
	char dir[LS_NAME_MAX];
	const struct kfile *kf = kfile_lookup(path);

	if (kf != NULL) {
		if (lng)
			kprintf("%10lu %s\n", kf->kf_size, path);
		else
			kprintf("%s\n", path);
		return SHELL_OK;
	}
	const char *t = kfile_path_trim(path);
	if (strncmp(t, "tmp", 3) == 0 || strncmp(t, "dev", 3) == 0)
		if (t[3] == '\0' || t[3] == '/')
			return shell_vfs_ls(path, all, lng);       /* not the archive's: shell_vfs.c */
	if (strncmp(t, "disk", 4) == 0 && (t[4] == '\0' || t[4] == '/'))
		return shell_vfs_ls(path, all, lng);               /* /disk (kernel/ext2.c) */
	size_t n = kstrlcpy(dir, t, sizeof(dir) - 1);
	if (n >= sizeof(dir) - 1) {
		kprintf_err("ls: %s: name too long\n", path);
		return SHELL_ERR;
	}
	while (n > 0 && dir[n - 1] == '/')
		dir[--n] = 0;
	if (n > 0)
		dir[n++] = '/', dir[n] = 0;
	st = (struct ls_state){ .ls_dir = dir, .ls_dirlen = n, .ls_all = all, .ls_long = lng };
	kfile_foreach(ls_entry, &st);
	if (st.ls_found == 0 && n > 0) {
		kprintf_err("ls: %s: no such file or directory\n", path);
		return SHELL_ERR;
	}
	return SHELL_OK;
}

static int shell_do_ls(int argc, char **argv)
{
	bool all = false, lng = false;
	int i = 1, status = SHELL_OK;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] != 0; i++) {
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o == 'a')
				all = true;
			else if (*o == 'l')
				lng = true;
			else
				return shell_usage(argv[0]);
		}
	}
	if (i == argc)
		return ls_path("/", all, lng);        /* the archive's top level (dev/ and tmp/ are /bin/ls's) */
	for (; i < argc; i++)                /* several paths: one list after another */
		if (ls_path(argv[i], all, lng) != SHELL_OK)
			status = SHELL_ERR;
	return status;
}
SHELL_COMMAND(ls, shell_do_ls, "ls [-al] [PATH...]",
              "list boot files (the script library is in /scripts)");

/* --- cat ----------------------------------------------------------------- */

static int shell_do_cat(int argc, char **argv)
{
	int status = SHELL_OK;

	if (argc < 2)
		return shell_usage(argv[0]);
	for (int i = 1; i < argc; i++) {
		const struct kfile *kf = kfile_lookup(argv[i]);
		if (kf == NULL) {
			if (shell_vfs_cat(argv[i]) != SHELL_OK)    /* /tmp, /dev: shell_vfs.c */
				status = SHELL_ERR;
			continue;
		}
		kstdout_write((const char *)kf->kf_data, kf->kf_size);
	}
	return status;
}
SHELL_COMMAND(cat, shell_do_cat, "cat FILE...", "print boot files");

/* --- interpreter files ----------------------------------------------------- */

#define INTERP_LINE_MAX 256
#define INTERP_ARGS_MAX 64

/* interp_words: split the "#!" line of kf into words at w (in line); their count, 0 if none. */
static int interp_words(const struct kfile *kf, char *line, char **w, int max)
{
	size_t n = 0;
	int nw = 0;

	if (kf->kf_size < 3 || kf->kf_data[0] != '#' || kf->kf_data[1] != '!')
		return 0;
	while (n + 2 < kf->kf_size && n + 1 < INTERP_LINE_MAX && kf->kf_data[n + 2] != '\n') {
		line[n] = (char)kf->kf_data[n + 2];
		n++;
	}
	line[n] = 0;
	for (char *p = line; *p && nw < max;) {
		while (*p == ' ' || *p == '\t')
			*p++ = 0;
		if (*p == 0)
			break;
		w[nw++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	return nw;
}

bool shell_interp_file(const char *path)
{
	const struct kfile *kf = kfile_lookup(path);

	return kf != NULL && kf->kf_size >= 2 && kf->kf_data[0] == '#' && kf->kf_data[1] == '!';
}

int shell_interp_run(int argc, char **argv)
{
	const struct kfile *kf = kfile_lookup(argv[0]);
	char line[INTERP_LINE_MAX];
	char *w[INTERP_ARGS_MAX];
	char *nargv[INTERP_ARGS_MAX + 2];
	int nw = kf != NULL ? interp_words(kf, line, w, INTERP_ARGS_MAX) : 0;

	if (nw == 0)
		return SHELL_NOTFOUND;
	const char *base = w[0];
	for (const char *p = w[0]; *p; p++)
		if (*p == '/')
			base = p + 1;
	const struct shell_cmd *cmd = shell_cmd_find(base);
	if (cmd == NULL) {
		kprintf_err("sonde: %s: %s: bad interpreter: no such command\n", argv[0], w[0]);
		return SHELL_NOTFOUND;
	}
	if (nw + argc > INTERP_ARGS_MAX) {
		kprintf_err("sonde: %s: argument list too long\n", argv[0]);
		return 1;
	}
	int n = 0;
	nargv[n++] = (char *)cmd->sc_name;
	for (int i = 1; i < nw; i++)
		nargv[n++] = w[i];
	for (int i = 0; i < argc; i++)
		nargv[n++] = argv[i];
	nargv[n] = NULL;
	return cmd->sc_fn(n, nargv);
}
