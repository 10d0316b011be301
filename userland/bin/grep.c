/*
 * grep [-v] [-c] WORD [FILE...] - lines containing WORD (a fixed string, not a regular expression).
 *
 * -v prints the lines without it, -c only their number.  Status 0 if a
 * line was selected, 1 if none, 2 on an error, as grep(1).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define LINE_MAX_ 1024

static int opt_v, opt_c;
static long selected;

static void line_done(const char *line, size_t len, const char *word)
{
	char copy[LINE_MAX_ + 1];

	memcpy(copy, line, len);
	copy[len] = '\0';
	if ((strstr(copy, word) != NULL) == !opt_v) {
		selected++;
		if (!opt_c)
			printf("%s\n", copy);
	}
}

static int grep(int fd, const char *word)
{
	static char line[LINE_MAX_];
	char buf[512];
	size_t len = 0;
	int n;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		for (int k = 0; k < n; k++) {
			if (buf[k] == '\n') {
				line_done(line, len, word);
				len = 0;
			} else if (len < LINE_MAX_) {
				line[len++] = buf[k];
			}
		}
	}
	if (len > 0)
		line_done(line, len, word);
	return n < 0;
}

int main(int argc, char **argv)
{
	int i = 1, err = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++)
		for (const char *o = argv[i] + 1; *o; o++)
			opt_v |= *o == 'v', opt_c |= *o == 'c';
	if (i == argc) {
		fprintf(stderr, "usage: grep [-vc] WORD [FILE...]\n");
		return 2;
	}
	const char *word = argv[i++];
	if (i == argc)
		err = grep(0, word);
	for (; i < argc; i++) {
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "grep: %s: No such file or directory\n", argv[i]);
			err = 1;
			continue;
		}
		err |= grep(fd, word);
		close(fd);
	}
	if (opt_c)
		printf("%ld\n", selected);
	return err ? 2 : selected > 0 ? 0 : 1;
}
