/*
 * cmdline.c - the kernel command line.
 *
 * Words separated by spaces; a word is a flag ("selftest") or key=value,
 * where the value may be quoted with double or single quotes so it can hold
 * spaces (cmd="run spin 100; ps").  Inside double quotes a backslash escapes
 * the next character.  Host-testable.
 *
 * Tests: tests/unit/kernel_cmdline_test.c; self-tests cmdline_parses
 */
#include "kernel/boot.h"
#include "kernel/klib.h"

/* word_value: copy the word at s to buf (quotes removed); returns the end of the word. */
static const char *word_value(const char *s, char *buf, size_t size)
{
	char quote = 0;
	size_t len = 0;

	for (; *s && (quote || *s != ' '); s++) {
		char c = *s;
		if (quote == 0 && (c == '"' || c == '\'')) {
			quote = c;
			continue;
		}
		if (quote != 0 && c == quote) {
			quote = 0;
			continue;
		}
		if (quote == '"' && c == '\\' && s[1] != 0)
			c = *++s;
		if (buf != NULL && len + 1 < size)
			buf[len++] = c;
	}
	if (buf != NULL && size > 0)
		buf[len] = 0;
	return s;
}

bool cmdline_get(const char *cmdline, const char *key, char *buf, size_t size)
{
	size_t klen = strlen(key);
	const char *s = cmdline;

	while (*s) {
		while (*s == ' ')
			s++;
		if (*s == 0)
			break;
		if (strncmp(s, key, klen) == 0 && (s[klen] == '=' || s[klen] == ' ' || s[klen] == 0)) {
			word_value(s + klen + (s[klen] == '='), buf, size);   /* a bare flag: "" */
			return true;
		}
		s = word_value(s, NULL, 0);
	}
	return false;
}
