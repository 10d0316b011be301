/*
 * shell_fake_kernel.c - the pretend kernel behind test_shell_cmds (see the header).
 *
 * Each kernel function the shell calls is replaced by a few lines that
 * record the call in `fk` (output and error stream kept apart) or answer
 * from a small fixed world: three
 * threads (tids 0, 1 = the shell, 2), two symbols, fixed memory statistics.
 */
#include "tests/unit/shell_fake_kernel.h"
#include "console/shell/shell.h"
#include "kernel/klib.h"
#include "kernel/console.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "arch/arch.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fake_kernel fk;

static struct thread fk_self = { .t_tid = 1, .t_name = "init" };

static const struct thread_info fk_threads[] = {
	{ .ti_tid = 0, .ti_name = "idle", .ti_state = TS_RUNNABLE, .ti_cpu = 0, .ti_cputime = 1500000000 },
	{ .ti_tid = 1, .ti_name = "init", .ti_state = TS_RUNNING, .ti_cpu = 0, .ti_cputime = 2000000 },
	{ .ti_tid = 2, .ti_name = "spin", .ti_state = TS_SLEEPING, .ti_cpu = 0, .ti_cputime = 0 },
};

static const struct ksym fk_syms[] = {
	{ .ks_addr = 0xffffffff80100000, .ks_size = 0x40, .ks_name = "kmain", .ks_func = true },
	{ .ks_addr = 0xffffffff80200000, .ks_size = 0x8, .ks_name = "boot_info", .ks_func = false },
};

void fk_reset(void)
{
	fk.out[0] = '\0';                   /* not the whole 64 KiB buffers: the fuzzer resets per input */
	fk.out_len = 0;
	fk.err[0] = '\0';
	fk.err_len = 0;
	memset(&fk.in, 0, offsetof(struct fake_kernel, exit_jmp) - offsetof(struct fake_kernel, in));
	fk.now_ns = 1500 * NSEC_PER_MSEC;
	fk.poweroff_status = -2;
	fk.fault_kind = -1;
	fk.created = 0;
	fk.created_arg = NULL;
}

void fk_type(const char *bytes, size_t n)
{
	memcpy(fk.in + fk.in_len, bytes, n);
	fk.in_len += n;
}

/* --- output -------------------------------------------------------------- */

static void fk_append(char *buf, size_t *len, const char *s, size_t n)
{
	n = MIN(n, FK_OUT_MAX - 1 - *len);
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
}

void console_write(const char *s, size_t n)
{
	fk_append(fk.out, &fk.out_len, s, n);
}

void console_err_write(const char *s, size_t n)
{
	fk_append(fk.err, &fk.err_len, s, n);
}

int kvprintf(const char *fmt, va_list ap)
{
	char buf[1024];
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);

	console_write(buf, strlen(buf));
	return n;
}

int kprintf_err(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	int n = kvsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	console_err_write(buf, strlen(buf));
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	int n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}

/* --- console input and Ctrl-C -------------------------------------------- */

int console_getc_timeout(unsigned long long timeout_ns)
{
	(void)timeout_ns;
	if (fk.in_len == 0)
		return -1;
	int c = fk.in[0];
	memmove(fk.in, fk.in + 1, --fk.in_len);
	return c;
}

int console_getc(void)
{
	return console_getc_timeout(0);
}

/* As the console: drop up to and including the last Ctrl-C; keep what follows. */
void console_input_flush_interrupt(void)
{
	for (size_t i = fk.in_len; i > 0; i--) {
		if (fk.in[i - 1] == 0x03) {
			memmove(fk.in, fk.in + i, fk.in_len - i);
			fk.in_len -= i;
			return;
		}
	}
}

bool console_interrupted(void) { return fk.interrupted; }
void console_clear_interrupt(void) { fk.interrupted = false; }
void console_echo_interrupt(bool on) { fk.echo_interrupt = on; }

/* --- time and threads ---------------------------------------------------- */

uint64_t ktime_ns(void) { return fk.now_ns; }

void thread_sleep_ns(uint64_t ns)
{
	fk.now_ns += ns;
	if (fk.ctrl_c_at_ns != 0 && fk.now_ns >= fk.ctrl_c_at_ns) {
		fk.ctrl_c_at_ns = 0;
		fk.interrupted = true;
		fk_type("\x03", 1);
		if (fk.echo_interrupt)
			console_write("^C\n", 3);       /* as the console echoes it */
		if (fk.after_ctrl_c != NULL)
			fk_type(fk.after_ctrl_c, strlen(fk.after_ctrl_c));
	}
}

bool thread_should_exit(void) { return false; }
struct thread *curthread(void) { return &fk_self; }

int thread_list(struct thread_info *out, int max)
{
	int n = (int)ARRAY_SIZE(fk_threads);

	for (int i = 0; i < n && i < max; i++)
		out[i] = fk_threads[i];
	return n;
}

const char *thread_state_name(enum thread_state s)
{
	static const char *const names[] = { "runnable", "running", "sleeping", "zombie" };
	return names[s];
}

void thread_exit(int status)
{
	(void)status;
	abort();                        /* no thread of the fake kernel ever runs */
}

bool thread_kill(uint64_t tid)
{
	if (tid == 0 || tid >= ARRAY_SIZE(fk_threads))
		return false;
	fk.killed_tid = tid;
	return true;
}

/* thread_join: no thread of the fake kernel runs, so none is waited for. */
int thread_join(uint64_t tid)
{
	(void)tid;
	return -1;
}

uint64_t thread_spawn(const char *name, void (*fn)(void *), void *arg)
{
	(void)fn;
	if (fk.malloc_fails)
		return 0;
	fk.created++;
	snprintf(fk.created_name, sizeof(fk.created_name), "%s", name);
	fk.created_arg = arg;
	if (fk.ncreated_args < (int)(sizeof(fk.created_args) / sizeof(fk.created_args[0])))
		fk.created_args[fk.ncreated_args++] = arg;
	return 100 + (uint64_t)fk.created;
}

/* --- memory and symbols -------------------------------------------------- */

void *kmalloc(size_t size) { return fk.malloc_fails ? NULL : malloc(size); }
void *kzalloc(size_t size) { return fk.malloc_fails ? NULL : calloc(1, size); }
void kfree(void *p) { free(p); }

void pmem_stats(struct pmem_stats *st)
{
	st->ps_total = 256 << 20;
	st->ps_free = 200 << 20;
	st->ps_kernel = 1 << 20;
}

void kheap_stats(struct kheap_stats *st)
{
	*st = (struct kheap_stats){ .hs_allocs = 10, .hs_frees = 7, .hs_inuse = 4096,
	                            .hs_pages = 3, .hs_failures = 0, .hs_slab_pages = 1,
	                            .hs_large_pages = 1, .hs_tables = 1, .hs_va_used = 8192,
	                            .hs_arena_total = 1UL << 30, .hs_arena_segs = 3,
	                            .hs_arena_largest = 1020UL << 20 };
}

/* Two slab caches, 16 and 32 bytes, one page each. */
bool kheap_cache_stats(int i, struct kheap_cache_stats *cs)
{
	if (i >= 2)
		return false;
	*cs = (struct kheap_cache_stats){ .kcs_size = 16UL << i, .kcs_slabs = 1,
	                                  .kcs_inuse = 3 - i, .kcs_capacity = 255 >> i };
	return true;
}

bool ksym_lookup_addr(uint64_t addr, struct ksym *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(fk_syms); i++) {
		if (addr >= fk_syms[i].ks_addr && addr < fk_syms[i].ks_addr + fk_syms[i].ks_size) {
			*out = fk_syms[i];
			return true;
		}
	}
	return false;
}

bool ksym_lookup_name(const char *name, struct ksym *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(fk_syms); i++) {
		if (strcmp(fk_syms[i].ks_name, name) == 0) {
			*out = fk_syms[i];
			return true;
		}
	}
	return false;
}

char *ksym_format(uint64_t addr, char *buf, size_t size)
{
	struct ksym ks;

	if (ksym_lookup_addr(addr, &ks))
		snprintf(buf, size, "%s+0x%lx", ks.ks_name, addr - ks.ks_addr);
	else
		snprintf(buf, size, "0x%lx", addr);
	return buf;
}

/* --- the machine --------------------------------------------------------- */

void arch_poweroff(int status)
{
	fk.poweroff_status = status;
	longjmp(fk.exit_jmp, 1);
}

void arch_reboot(void)
{
	fk.rebooted = true;
	longjmp(fk.exit_jmp, 1);
}

void arch_fault_test(enum arch_fault kind)
{
	fk.fault_kind = (int)kind;      /* a fake CPU that does not fault */
}

uint64_t arch_irq_save(void) { return 0; }
void arch_irq_restore(uint64_t flags) { (void)flags; }

/* shell_run_program: no processes in the pretend kernel (shell_proc.c is kernel-only). */
int shell_run_program(int argc, char **argv)
{
	(void)argc;
	kprintf_err("sonde: %s: No such file or directory\n", argv[0]);
	return 127;
}

/* shell_ps_procs: the pretend kernel has no processes. */
void shell_ps_procs(void)
{
}

/* --- standard output and what is kernel-only (kstdio.c, shell_pipe.c, shell_vfs.c) --- */

void kstdout_write(const char *s, size_t n)
{
	console_write(s, n);
}

bool kstdout_broken(void) { return false; }
bool kstdout_redirected(void) { return false; }
int kstdout_error(void) { return 0; }

/* shell_pipeline_run: the pretend kernel has no pipes or files to redirect to. */
int shell_pipeline_run(const struct shell_words *w)
{
	(void)w;
	kprintf_err("sonde: pipes and redirection need the kernel\n");
	return 1;
}

bool shell_jobs_add(const int *pids, int n, const char *cmd)
{
	(void)pids; (void)n; (void)cmd;
	return false;
}

void shell_jobs_notify(void)
{
}

int shell_vfs_ls(const char *path, bool all, bool lng)
{
	(void)all; (void)lng;
	kprintf_err("ls: %s: no such file or directory\n", path);
	return 1;
}

int shell_vfs_cat(const char *path)
{
	kprintf_err("cat: %s: no such file\n", path);
	return 1;
}
