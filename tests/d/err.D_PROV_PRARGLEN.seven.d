/*
 * Asserts D_PROV_PRARGLEN: a probe takes at most six arguments (the
 * DTRACE_PROBE6 of userland/libc/usdt.h that dtrace -h's macros expand to).
 */
provider shop {
	probe many(int, int, int, int, int, int, int);
};
