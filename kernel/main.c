/*
 * main.c - the kernel's table of contents.
 *
 * kmain() brings the machine up one subsystem at a time, then becomes the
 * idle thread.  The first real thread, init, reads the command line:
 *   selftest     run the in-kernel self-tests, power off with the result
 *   cmd="..."    run one shell command line, power off with its exit status
 *   cmdfile=PATH the same, with the command line read from a boot file
 *                (kfile.h; tools/dtrace passes it in its tar module)
 *   quiet        no boot banner: the console carries only command output
 *   stderr=com2  the error stream on the second serial port (console.h)
 *   bootstat     print the cycle counter as the shell starts, or the cycles
 *                a cmd= took (make bench)
 *   nosmp        run on the boot processor only
 *   (otherwise)  the interactive shell on the serial console
 *
 * Tests: tests/e2e/test_boot.py
 */
#include "arch/arch.h"
#include "kernel/boot.h"
#include "kernel/console.h"
#include "kernel/ctf.h"
#include "kernel/file.h"
#include "kernel/cpu.h"
#include "kernel/kfile.h"
#include "kernel/link.h"
#include "kernel/klib.h"
#include "kernel/mem.h"
#include "kernel/pci.h"
#include "kernel/selftest.h"
#include "kernel/thread.h"
#include "kernel/time.h"
#include "kernel/virtio_blk.h"
#include "kernel/init.h"
#include "kernel/pid_isa.h"
#include "kernel/prov_isa.h"

#define SONDE_VERSION "0.1"

static void banner(void)
{
	struct pmem_stats ps;

	if (cmdline_get(boot_info.bi_cmdline, "quiet", NULL, 0))
		return;
	pmem_stats(&ps);
	kprintf("Sonde %s (%s), booted by %s: %lu MiB of memory, %d CPU%s, %lu ms to here\n",
	        SONDE_VERSION, ARCH_MACHINE_NAME, boot_info.bi_loader, ps.ps_total >> 20, ncpus,
	        ncpus == 1 ? "" : "s", ktime_ns() / NSEC_PER_MSEC);
}

/* run_cmdfile: run the command line held in the boot file path (cmdfile=). */
static int run_cmdfile(const char *path)
{
	const struct kfile *kf = kfile_lookup(path);
	char *line;
	int status;

	if (kf == NULL) {
		kprintf_err("cmdfile: %s: no such file\n", path);
		return 127;
	}
	if ((line = kmalloc(kf->kf_size + 1)) == NULL) {
		kprintf_err("cmdfile: %s: out of memory\n", path);
		return 1;
	}
	memcpy(line, kf->kf_data, kf->kf_size);
	line[kf->kf_size] = 0;
	status = shell_run_line(line);
	kfree(line);
	return status;
}

/* run_timed: cmd=, and with bootstat the cycles it took (make bench: in-guest compile cost). */
static int run_timed(const char *cmd)
{
	bool stat = cmdline_get(boot_info.bi_cmdline, "bootstat", NULL, 0);
	uint64_t c0 = arch_cycles();
	int status = shell_run_line(cmd);

	if (stat)
		kprintf_err("bootstat: %lu cycles in the command\n", arch_cycles() - c0);
	return status;
}

static void init_main(void *arg)
{
	static char cmd[BOOT_CMDLINE_MAX];

	(void)arg;
	thread_bind(0);                /* the console's thread lives on the boot CPU */
	vfs_disk_mount(!cmdline_get(boot_info.bi_cmdline, "quiet", NULL, 0));   /* /disk */
	if (cmdline_get(boot_info.bi_cmdline, "selftest", NULL, 0))
		arch_poweroff(selftest_run_all() == 0 ? 0 : 1);
	/* A command's status keeps its low byte, as exit(2) does: exit(-1) is 255, not a crash. */
	if (cmdline_get(boot_info.bi_cmdline, "cmd", cmd, sizeof(cmd)))
		arch_poweroff(run_timed(cmd) & 0xff);
	if (cmdline_get(boot_info.bi_cmdline, "cmdfile", cmd, sizeof(cmd)))
		arch_poweroff(run_cmdfile(cmd) & 0xff);
	if (cmdline_get(boot_info.bi_cmdline, "bootstat", NULL, 0))
		kprintf("bootstat: %lu cycles, %lu ns since reset\n", arch_cycles(), ktime_ns());
	shell_thread(NULL);
}

void kmain(uint32_t magic, uint32_t info)
{
	console_init();                /* serial output, polled */
	arch_boot_info(magic, info);   /* memory map, command line, modules */
	console_err_init();            /* error stream: console or COM2 */
	arch_cpu_init();               /* GDT, TSS, IDT, per-CPU base */
	pmem_init();                   /* physical page allocator */
	vm_init();                     /* direct map, W^X kernel image */
	kheap_init();                  /* kmalloc */
	ctf_kernel_init();             /* the kernel's own types (CTF) */
	kfile_init();                  /* boot files: script library, modules */
	arch_intr_init();              /* interrupt controllers, timer calibration */
	walltime_init();               /* wall clock: the RTC's time at boot */
	sched_init();                  /* the boot thread becomes the idle thread */
	dtrace_init();                 /* the tracing framework and its dtrace provider */
	fbt_init();                    /* function boundary probes (made when first listed) */
	sdt_init();                    /* static probes: DTRACE_PROBE sites; sysinfo, vminfo */
	profile_init();                /* timer-driven probes: profile-N, tick-N */
	lockstat_init();               /* lock events: lockstat:::spin-acquire, ... */
	syscall_prov_init();           /* system calls: syscall::read:entry, ... */
	proc_prov_init();              /* processes: proc:::exec-success, ... */
	pid_prov_init();               /* user instructions: pid123:prog:main:entry, ... */
	console_init_irq();            /* serial input by interrupt */
	link_init();                   /* the link to another machine (/dev/link), if there is one */
	pci_init();                    /* the PCI devices (none on sparc64 yet) */
	vioblk_attach_all();           /* virtio disks: vioblk0, ... (kernel/blkdev.h) */
	if (!cmdline_get(boot_info.bi_cmdline, "nosmp", NULL, 0))
		arch_smp_start();      /* the other processors, each to its idle loop */
	banner();
	dtrace_anon_boot();            /* anonymous tracing: the boot module's enabling */
	if (thread_create("init", init_main, NULL) == NULL)
		panic("kmain: cannot create init");
	sched_start();                 /* idle loop; never returns */
}
