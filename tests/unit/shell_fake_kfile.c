/*
 * tests/unit/shell_fake_kfile.c - no boot files, for the shell's host unit
 * tests: ls and cat find nothing, and no word is an interpreter file.  (The
 * shell fuzzer has a file table of its own.)
 */
#include "tests/unit/shell_fake_kernel.h"
#include "kernel/kfile.h"

const struct kfile *kfile_lookup(const char *path)
{
	(void)path;
	return NULL;
}

bool kfile_foreach(kfile_fn *fn, void *arg)
{
	(void)fn;
	(void)arg;
	return true;
}
