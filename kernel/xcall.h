/*
 * xcall.h - cross-calls: run a function on another CPU, synchronously.
 *
 * xcall(cpu, fn, arg) makes CPU cpu run fn(arg) in interrupt context
 * (interrupts off) and returns when it has; on the calling CPU it just calls
 * fn.  xcall_all runs fn on every online CPU, this one included.  A CPU
 * waiting for its cross-call to finish keeps answering cross-calls sent to
 * it, so two CPUs calling each other do not deadlock.  Callers must not
 * hold a spinlock that another CPU may be spinning on with interrupts off.
 * Never called from probe context: a CPU answers a cross-call only with
 * interrupts on or from these wait loops, hence never inside a firing,
 * which is what dtrace_sync (trace/provider.h) relies on.
 * Used for buffer switches, aggregation snapshots, text-patch
 * synchronisation and TLB shootdowns; each cross-call sent is counted
 * (the sender's sysinfo xcalls, kernel/cpu_stat.h) and fires
 * sysinfo:::xcalls.
 *
 * xcall_park(work, resume, arg, timeout_ns) runs work(arg) on this CPU
 * while every other online CPU spins with interrupts off where it answers
 * cross-calls (their interrupt handler or a wait loop above), so no other
 * CPU runs anything else meanwhile; each runs resume(arg) (may be NULL)
 * when let go.  It returns false, having run nothing, if a CPU has not
 * arrived within timeout_ns (one spinning with interrupts off on a lock a
 * parked CPU holds never would): the caller does its work the ordinary way.
 * work must not cross-call, sleep or take a lock another CPU may hold.  One
 * parking at a time; thread context or interrupts off, as xcall.  A parking
 * is not counted in sysinfo xcalls (it makes no xcall).
 */
#ifndef SONDE_XCALL_H
#define SONDE_XCALL_H

#include <stdbool.h>
#include <stdint.h>

typedef void xcall_fn_t(void *arg);

void xcall(int cpu, xcall_fn_t *fn, void *arg);
void xcall_all(xcall_fn_t *fn, void *arg);
void xcall_poll(void);                            /* the IPI handler: run what is waiting */
bool xcall_park(xcall_fn_t *work, xcall_fn_t *resume, void *arg, uint64_t timeout_ns);

#endif
