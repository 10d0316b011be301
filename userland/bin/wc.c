/*
 * wc [-lwc] [FILE...] - count lines, words and bytes of each file or of standard input.
 *
 * Output as GNU wc with one input: the counts asked for (all three by
 * default), each right-aligned, then the file name if one was given.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

struct counts { long lines, words, bytes; };

static int count(int fd, struct counts *c)
{
	char buf[512];
	int n, inword = 0;

	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		c->bytes += n;
		for (int k = 0; k < n; k++) {
			int space = buf[k] == ' ' || buf[k] == '\n' || buf[k] == '\t' || buf[k] == '\r';
			if (buf[k] == '\n')
				c->lines++;
			if (!space && !inword)
				c->words++;
			inword = !space;
		}
	}
	return n < 0;
}

static int opt_l, opt_w, opt_c;

static void show(const struct counts *c, const char *name)
{
	const char *sep = "";

	if (opt_l)
		printf("%s%ld", sep, c->lines), sep = " ";
	if (opt_w)
		printf("%s%ld", sep, c->words), sep = " ";
	if (opt_c)
		printf("%s%ld", sep, c->bytes);
	printf("%s%s\n", name != NULL ? " " : "", name != NULL ? name : "");
}

int main(int argc, char **argv)
{
	int i = 1, status = 0;

	for (; i < argc && argv[i][0] == '-' && argv[i][1] != '\0'; i++)
		for (const char *o = argv[i] + 1; *o; o++)
			opt_l |= *o == 'l', opt_w |= *o == 'w', opt_c |= *o == 'c';
	if (!opt_l && !opt_w && !opt_c)
		opt_l = opt_w = opt_c = 1;
	if (i == argc) {
		struct counts c = { 0, 0, 0 };
		status = count(0, &c);
		show(&c, NULL);
		return status;
	}
	for (; i < argc; i++) {
		struct counts c = { 0, 0, 0 };
		int fd = open(argv[i], O_RDONLY);
		if (fd < 0) {
			fprintf(stderr, "wc: %s: No such file or directory\n", argv[i]);
			status = 1;
			continue;
		}
		status |= count(fd, &c);
		close(fd);
		show(&c, argv[i]);
	}
	return status;
}
