/*
 * cred.c - the rules for changing user and group ids (kernel/cred.h).
 *
 * Privilege is an effective uid of 0, for group ids as for user ids (POSIX's
 * "appropriate privileges").  Without it a process may only pick among the
 * ids it holds: setuid to the real or saved id changes the effective id
 * alone, which is how a set-user-id program drops its privilege and takes
 * it back; with it setuid changes all three, which is how a login program
 * becomes its user for good.  Every function checks everything before it
 * changes anything, so a refused call leaves the ids as they were.
 *
 * Freestanding: built into the kernel and into the host unit test.
 *
 * Tests: tests/unit/kernel_cred_test.c
 */
#include <stdbool.h>
#include "kernel/cred.h"

struct cred cred_root(void)
{
	return cred_user(0, 0);
}

struct cred cred_user(uint32_t uid, uint32_t gid)
{
	return (struct cred){ uid, uid, uid, gid, gid, gid };
}

static bool privileged(const struct cred *c)
{
	return c->cr_euid == 0;
}

/*
 * set_id: setuid's rule on one triple of ids (r, e, s), with privilege
 * decided by the caller (the effective uid, also for the group ids).
 */
static int set_id(uint32_t *r, uint32_t *e, uint32_t *s, uint32_t id, bool priv)
{
	if (id == CRED_KEEP)
		return -CRED_EINVAL;
	if (priv) {
		*r = *e = *s = id;
		return 0;
	}
	if (id != *r && id != *s)
		return -CRED_EPERM;
	*e = id;
	return 0;
}

int cred_setuid(struct cred *c, uint32_t uid)
{
	return set_id(&c->cr_ruid, &c->cr_euid, &c->cr_suid, uid, privileged(c));
}

int cred_setgid(struct cred *c, uint32_t gid)
{
	return set_id(&c->cr_rgid, &c->cr_egid, &c->cr_sgid, gid, privileged(c));
}

/* held: id is KEEP, or one of the triple's current ids (what an unprivileged process may pick). */
static bool held(const uint32_t ids[3], uint32_t id)
{
	return id == CRED_KEEP || id == ids[0] || id == ids[1] || id == ids[2];
}

static int set_res(uint32_t *r, uint32_t *e, uint32_t *s, const uint32_t want[3], bool priv)
{
	const uint32_t now[3] = { *r, *e, *s };

	for (int i = 0; i < 3 && !priv; i++)
		if (!held(now, want[i]))
			return -CRED_EPERM;
	if (want[0] != CRED_KEEP)
		*r = want[0];
	if (want[1] != CRED_KEEP)
		*e = want[1];
	if (want[2] != CRED_KEEP)
		*s = want[2];
	return 0;
}

int cred_setresuid(struct cred *c, uint32_t r, uint32_t e, uint32_t s)
{
	const uint32_t want[3] = { r, e, s };

	return set_res(&c->cr_ruid, &c->cr_euid, &c->cr_suid, want, privileged(c));
}

int cred_setresgid(struct cred *c, uint32_t r, uint32_t e, uint32_t s)
{
	const uint32_t want[3] = { r, e, s };

	return set_res(&c->cr_rgid, &c->cr_egid, &c->cr_sgid, want, privileged(c));
}
