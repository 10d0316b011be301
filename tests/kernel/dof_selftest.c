/*
 * dof_selftest.c - in-kernel self-tests of the DOF boundary
 * (dtrace_enable_dof, trace/dof.c): a program written as DOF enables as the
 * compiled one does; DOF broken after writing is refused with a message and
 * leaves the state enableable; a DOF file that clears the "destructive"
 * flag of a destructive program is still refused without -w (the kernel
 * judges the actions, not the flag); and a refused or closed enabling
 * gives back every byte of the heap it took.
 *
 * Run: -append "selftest=dof_*"
 */
#include "dif/dof.h"
#include "dlang/dt_prog.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/selftest.h"
#include "trace/dtrace.h"

#define ARENA (256UL << 10)

/* dof_of: src compiled (with -w) and written as DOF into a kmalloc'd buffer; NULL on failure. */
static void *dof_of(const char *src, size_t *len)
{
	dt_opts co = { .o_destructive = true, .o_target = -1 };
	void *arena = kmalloc(ARENA), *dof = NULL;
	dt_prog *prog;
	dt_error err;

	if (arena != NULL && dt_compile(src, strlen(src), &co, arena, ARENA, &prog, &err) == 0) {
		*len = dt_dof_write(prog, NULL, 0);
		if ((dof = kmalloc(*len)) != NULL)
			dt_dof_write(prog, dof, *len);
	}
	kfree(arena);
	return dof;
}

/* enable_rc: dtrace_enable_dof's result (and message) in a fresh state. */
static int enable_rc(const void *dof, size_t len, bool destructive, char *eb, size_t eblen)
{
	dtrace_optvals_t o;
	dtrace_state_t *s;

	dtrace_opts_default(&o);
	o.dov_bufsize = 4096;
	o.dov_aggsize = 4096;
	o.dov_destructive = destructive;
	if (dtrace_open(&o, &s) != 0)
		return 1;
	int rc = dtrace_enable_dof(s, dof, len, NULL, eb, eblen);
	dtrace_close(s);
	return rc;
}

static uint64_t heap_inuse(void)
{
	struct kheap_stats st;

	kheap_stats(&st);
	return st.hs_inuse;
}

SELFTEST(dof_enable_and_refuse)
{
	size_t len = 0;
	unsigned char *dof = dof_of("BEGIN { @a[probename] = count(); printf(\"%d\", 1); }", &len);
	char eb[160];

	ST_ASSERT(dof != NULL);
	if (dof == NULL)
		return;
	ST_ASSERT(enable_rc(dof, len, false, eb, sizeof(eb)) == 0);   /* warm: providers provide */
	uint64_t before = heap_inuse();
	ST_ASSERT(enable_rc(dof, len, false, eb, sizeof(eb)) == 0);
	dof[DOF_ID_ENCODING] ^= 3;                                   /* the other byte order */
	ST_ASSERT(enable_rc(dof, len, false, eb, sizeof(eb)) == DTRACE_EINVAL);
	ST_ASSERT(strncmp(eb, "DOF: encoding", 13) == 0);
	dof[DOF_ID_ENCODING] ^= 3;
	ST_ASSERT(enable_rc(dof, len / 2, false, eb, sizeof(eb)) == DTRACE_EINVAL);
	ST_ASSERT(enable_rc(dof, len, false, eb, sizeof(eb)) == 0);
	ST_ASSERT(heap_inuse() == before);
	kfree(dof);
}

SELFTEST(dof_destructive_flag_cannot_lie)
{
	size_t len = 0;
	unsigned char *dof = dof_of("BEGIN { chill(1); }", &len);
	char eb[160];

	ST_ASSERT(dof != NULL);
	if (dof == NULL)
		return;
	/* clear SONDE_PROG's flags word (the 8th): the file no longer says "destructive" */
	uint32_t n;
	memcpy(&n, dof + DOF_HDR_SECNUM, 4);
	for (uint32_t i = 0; i < n; i++) {
		uint64_t h = DOF_HDR_SIZE + (uint64_t)i * DOF_SEC_SIZE, off;
		uint32_t type, zero = 0;
		memcpy(&type, dof + h + DOF_SEC_TYPE, 4);
		memcpy(&off, dof + h + DOF_SEC_OFFSET, 8);
		if (type == DOF_SECT_SONDE_PROG)
			memcpy(dof + off + 28, &zero, 4);
	}
	ST_ASSERT(enable_rc(dof, len, false, eb, sizeof(eb)) == DTRACE_EPERM);
	ST_ASSERT(enable_rc(dof, len, true, eb, sizeof(eb)) == 0);
	kfree(dof);
}
