/*
 * ls [-al] [PATH...] - list directories (getdents64) or name files; -l adds type, mode and size.
 *
 * Entries come in the order the directory gives them.  Names starting
 * with "." are left out unless -a.  A path that is not a directory is
 * printed as given.  Errors: "ls: cannot access 'PATH': <reason>", status 2
 * if nothing could be listed, 1 if some paths failed (as GNU ls).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "userland/libc/sonde.h"

static int opt_all, opt_long;

/* mode_string: "drwxr-xr-x" from st_mode. */
static void mode_string(unsigned mode, char *out)
{
	static const char rwx[] = "rwxrwxrwx";

	out[0] = S_ISDIR(mode) ? 'd' : S_ISCHR(mode) ? 'c' : S_ISFIFO(mode) ? 'p' : '-';
	for (int i = 0; i < 9; i++)
		out[i + 1] = (mode & (0400u >> i)) ? rwx[i] : '-';
	out[10] = '\0';
}

/* show: one name; with -l, stat it (path is its full path). */
static void show(const char *path, const char *name)
{
	struct stat st;
	char mode[11];

	if (!opt_long) {
		printf("%s\n", name);
		return;
	}
	if (stat(path, &st) < 0) {
		printf("?????????? %8s %s\n", "?", name);
		return;
	}
	mode_string((unsigned)st.st_mode, mode);
	printf("%s %8ld %s\n", mode, (long)st.st_size, name);
}

static int list_dir(const char *path, int fd)
{
	static char buf[2048];
	char full[512];
	int n;

	while ((n = sonde_getdents64(fd, buf, sizeof(buf))) > 0) {
		for (int off = 0; off < n;) {
			struct sonde_dirent64 *d = (struct sonde_dirent64 *)(buf + off);
			off += d->d_reclen;
			if (d->d_name[0] == '.' && !opt_all)
				continue;
			snprintf(full, sizeof(full), "%s%s%s", path,
			         path[strlen(path) - 1] == '/' ? "" : "/", d->d_name);
			show(full, d->d_name);
		}
	}
	if (n < 0) {
		fprintf(stderr, "ls: reading directory '%s': %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static int list(const char *path, int several)
{
	struct stat st;

	if (stat(path, &st) < 0) {
		fprintf(stderr, "ls: cannot access '%s': %s\n", path, strerror(errno));
		return 2;
	}
	if (!S_ISDIR(st.st_mode)) {
		show(path, path);
		return 0;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0) {
		fprintf(stderr, "ls: cannot open directory '%s': %s\n", path, strerror(errno));
		return 2;
	}
	if (several)
		printf("%s:\n", path);
	int r = list_dir(path, fd);
	close(fd);
	return r;
}

int main(int argc, char **argv)
{
	int i = 1, status = 0, failed = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++) {
		for (const char *o = argv[i] + 1; *o; o++) {
			if (*o == 'a')
				opt_all = 1;
			else if (*o == 'l')
				opt_long = 1;
			else {
				fprintf(stderr, "ls: invalid option -- '%c'\nusage: ls [-al] [PATH...]\n", *o);
				return 2;
			}
		}
	}
	if (i == argc)
		return list(".", 0) ? 2 : 0;
	for (int k = i; k < argc; k++) {
		int r = list(argv[k], argc - i > 1);
		if (r != 0) {
			status = 1;
			failed++;
		}
		if (argc - i > 1 && k + 1 < argc)
			printf("\n");
	}
	return failed == argc - i ? 2 : status;
}
