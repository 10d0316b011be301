/*
 * sync.c - dtrace_sync(): the barrier between probe context and whoever
 * frees what probe context may still be reading (see trace_impl.h).
 *
 * Probe context runs with interrupts off and never waits for or sends a
 * cross-call; a CPU runs a cross-call's function only with interrupts on or
 * while it waits for its own cross-call.  So once every CPU has run one, every
 * firing that was under way when dtrace_sync() was called has finished, and
 * the cross-call's release/acquire handshake makes the caller's earlier
 * stores (an unlink) visible to every firing that starts after it.
 *
 * Tests: self-tests trace_sync_close_while_firing
 *        (tests/kernel/trace_sync_selftest.c), stress_close_while_firing
 */
#include "kernel/xcall.h"
#include "trace/trace_impl.h"

static void sync_answer(void *arg)
{
	(void)arg;
}

void dtrace_sync(void)
{
	xcall_all(sync_answer, NULL);
}
