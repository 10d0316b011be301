/*
 * shell_fake_kernel.h - a pretend kernel for host tests of the shell's commands.
 *
 * test_shell_cmds links console/shell/shell.c, shell_cmds.c and
 * console/workloads/workload.c against shell_fake_kernel.c instead of the
 * kernel.  The fake records what the commands asked for (output, kills,
 * power-off, faults, new threads) and lets a test script the console input,
 * the clock and Ctrl-C.  This header is force-included (-include) when those
 * files are compiled for the host, so it also declares the kernel-only parts
 * of klib.h (kprintf).
 */
#ifndef SONDE_SHELL_FAKE_KERNEL_H
#define SONDE_SHELL_FAKE_KERNEL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kvprintf(const char *fmt, va_list ap);

#define FK_OUT_MAX   65536
#define FK_IN_MAX    256
#define FK_THREADS   4

struct fake_kernel {
	char out[FK_OUT_MAX];        /* everything printed, NUL-terminated */
	size_t out_len;
	char err[FK_OUT_MAX];        /* everything printed on the error stream */
	size_t err_len;
	unsigned char in[FK_IN_MAX]; /* console input not yet read */
	size_t in_len;
	bool interrupted;            /* the Ctrl-C flag */
	bool echo_interrupt;         /* console_echo_interrupt(true): Ctrl-C prints ^C */
	uint64_t now_ns;             /* the clock; sleeping advances it */
	uint64_t ctrl_c_at_ns;       /* 0, or when a pretend user presses Ctrl-C */
	const char *after_ctrl_c;    /* NULL, or what that user types right after it */
	bool malloc_fails;
	uint64_t killed_tid;         /* last successful thread_kill */
	int poweroff_status;         /* -2 until arch_poweroff is called */
	bool rebooted;
	int fault_kind;              /* -1 until arch_fault_test is called */
	jmp_buf exit_jmp;            /* where arch_poweroff / arch_reboot land */
	int created;                 /* threads made by thread_spawn */
	char created_name[32];
	void *created_arg;
	void *created_args[16];      /* the first 16 of them: their start blocks (never run here) */
	int ncreated_args;
};

extern struct fake_kernel fk;

/* fk_reset: a fresh machine: empty output and input, clock at 1.5 s, tid 1 current. */
void fk_reset(void);

/* fk_type: queue console input bytes. */
void fk_type(const char *bytes, size_t n);

#endif
