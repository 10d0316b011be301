/*
 * pidbench [N] - the cost of a pid probe (make bench, docs/processes.md):
 * ROUNDS rounds of N calls (default 1000) of each of two tiny functions,
 * timed with clock_gettime; prints the fastest round's nanoseconds per
 * call of each.  Under QEMU's -icount one nanosecond is one guest
 * instruction.  The functions are written in assembly so that their first
 * instruction is known whatever the compiler does:
 *
 *   pb_push   push %rbp; pop %rbp; ret      an entry probe here is emulated
 *   pb_step   lea (%rdi,%rsi),%rax; ret     an entry probe here is stepped
 *                                           out of line
 *   pb_usdt   a USDT site (pidbench<PID>:pidbench:pb_usdt:tick, arg0 = a),
 *             then pb_step's body: disabled, the site is one NOP
 *   pb_deep   calls itself down to 10 frames deep, then pb_push(a, 2):
 *             the timed unit for ustack() of 10 frames
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "userland/libc/sonde.h"
#include "userland/libc/usdt.h"

#define ROUNDS 20

__asm__(".text\n"
        ".globl pb_push\n.type pb_push, @function\n"
        "pb_push: push %rbp\n pop %rbp\n ret\n.size pb_push, .-pb_push\n"
        ".globl pb_step\n.type pb_step, @function\n"
        "pb_step: lea (%rdi,%rsi,1), %rax\n ret\n.size pb_step, .-pb_step\n"
        ".globl pb_usdt\n.type pb_usdt, @function\n"
        "pb_usdt: 990: .byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n" USDT_RECORD(pidbench, tick, 0, "%rdi") "\n"
        " lea (%rdi,%rsi,1), %rax\n ret\n.size pb_usdt, .-pb_usdt\n");
long pb_push(long a, long b);
long pb_step(long a, long b);
long pb_usdt(long a, long b);

static volatile long sink;

/* pb_deep: depth frames of itself above a call of pb_push (not a loop: the volatile store follows). */
__attribute__((noinline)) static long pb_deep(long a, long depth)
{
	long r = depth > 1 ? pb_deep(a, depth - 1) : pb_push(a, 2);

	sink = r;
	return r + 1;
}

static long pb_deep10(long a, long b)
{
	(void)b;
	return pb_deep(a, 9);                /* with pb_push and main's frame: 10 user frames and more */
}

static long long now_ns(void)
{
	struct timespec ts;

	sonde_syscall(SYS_clock_gettime, 1, (long)&ts, 0, 0, 0, 0);     /* CLOCK_MONOTONIC */
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* best_ns: the fastest round's time per call of fn. */
static long long best_ns(long (*volatile fn)(long, long), long n)
{
	long long best = -1;

	for (int r = 0; r < ROUNDS && n > 0; r++) {
		long long t0 = now_ns();
		for (long i = 0; i < n; i++)
			fn(i, 1);
		long long dt = now_ns() - t0;
		if (best < 0 || dt < best)
			best = dt;
	}
	return n > 0 ? best / n : 0;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 1000;

	printf("pb_push: %lld ns per call\n", best_ns(pb_push, n));
	printf("pb_step: %lld ns per call\n", best_ns(pb_step, n));
	printf("pb_usdt: %lld ns per call\n", best_ns(pb_usdt, n));
	printf("pb_deep: %lld ns per call\n", best_ns(pb_deep10, n));
	return 0;
}
