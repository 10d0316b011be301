/*
 * procfs.d: the process and thread of a probe, as psinfo_t and lwpsinfo_t,
 * and curpsinfo and curlwpsinfo.
 *
 * Part of Sonde's D library (dlang/dt_lib.c).  As in DTrace, curpsinfo is
 * a psinfo_t * and curlwpsinfo an lwpsinfo_t *, translations of the
 * running thread (curthread, sched.d), with the members of illumos's
 * /proc structures.  The translators read the kernel's struct thread (and
 * its struct proc) through the kernel's CTF, the way the built-in variables
 * do for the running thread (pid, ppid, tid, execname: trace/probe.c), so
 * they describe any thread: curthread, or the thread a sched probe is
 * about (sched:::wakeup's args[0] and args[1], trace/prov_sdt.c).  A
 * struct proc * (the proc provider's arguments, trace/prov_proc.c) has
 * translators too, from what the process table keeps.  The ids are the
 * process's (kernel/cred.h; a kernel thread's are root's, 0).  What
 * Sonde does not have reads as 0 (or "" for names); pr_state is always
 * SONPROC.
 */

#pragma D depends_on library sched.d

/* process models (pr_dmodel) */
inline char PR_MODEL_ILP32 = 1;
inline char PR_MODEL_LP64 = 2;

/* thread states (pr_state) and their letters (pr_sname) */
inline char SSLEEP = 1;			/* sleeping */
inline char SRUN = 2;			/* runnable */
inline char SZOMB = 3;			/* exited, not yet reaped */
inline char SSTOP = 4;			/* stopped */
inline char SIDL = 5;			/* being created */
inline char SONPROC = 6;		/* running on a CPU */
inline char SWAIT = 7;			/* waiting to be runnable */

typedef int taskid_t;
typedef int projid_t;
typedef int poolid_t;
typedef int zoneid_t;
typedef int ctid_t;
typedef struct timespec {
	time_t tv_sec;
	long tv_nsec;
} timestruc_t;

typedef struct psinfo {
	int pr_nlwp;			/* threads in the process */
	pid_t pr_pid;			/* process id */
	pid_t pr_ppid;			/* parent's process id */
	pid_t pr_pgid;			/* process group */
	pid_t pr_sid;			/* session */
	uid_t pr_uid;			/* real user id */
	uid_t pr_euid;			/* effective user id */
	gid_t pr_gid;			/* real group id */
	gid_t pr_egid;			/* effective group id */
	uintptr_t pr_addr;		/* the process's address */
	size_t pr_size;			/* image size, KiB */
	size_t pr_rssize;		/* resident set size, KiB */
	uintptr_t pr_ttydev;		/* controlling terminal */
	ushort_t pr_pctcpu;		/* recent CPU use */
	ushort_t pr_pctmem;		/* memory use */
	timestruc_t pr_start;		/* start time */
	timestruc_t pr_time;		/* CPU time */
	timestruc_t pr_ctime;		/* CPU time of reaped children */
	char pr_fname[16];		/* the executable's name */
	char pr_psargs[80];		/* the start of the argument list */
	int pr_wstat;			/* a zombie's wait status */
	int pr_argc;			/* argument count */
	uintptr_t pr_argv;		/* argument vector */
	uintptr_t pr_envp;		/* environment vector */
	char pr_dmodel;			/* PR_MODEL_* */
	taskid_t pr_taskid;
	projid_t pr_projid;
	poolid_t pr_poolid;
	zoneid_t pr_zoneid;
	ctid_t pr_contract;
} psinfo_t;

typedef struct lwpsinfo {
	int pr_flag;			/* thread flags */
	id_t pr_lwpid;			/* thread id */
	uintptr_t pr_addr;		/* the thread's address */
	uintptr_t pr_wchan;		/* what it sleeps on */
	char pr_stype;			/* the kind of sleep */
	char pr_state;			/* S* above */
	char pr_sname;			/* the state as a letter */
	char pr_nice;			/* nice value */
	short pr_syscall;		/* system call number */
	char pr_oldpri;
	char pr_cpu;
	int pr_pri;			/* priority */
	ushort_t pr_pctcpu;		/* recent CPU use */
	ushort_t pr_pad;
	timestruc_t pr_start;		/* start time */
	timestruc_t pr_time;		/* CPU time */
	char pr_clname[8];		/* scheduling class */
	char pr_name[16];		/* the thread's name */
	processorid_t pr_onpro;		/* the CPU it last ran on */
	processorid_t pr_bindpro;	/* the CPU it is bound to */
	psetid_t pr_bindpset;		/* the processor set it is bound to */
	lgrp_id_t pr_lgrp;		/* its home locality group */
} lwpsinfo_t;

translator psinfo_t < kthread_t *T > {
	pr_nlwp = 1;
	pr_pid = T->t_proc != 0 ? T->t_proc->p_pid : T->t_pid;
	pr_ppid = T->t_proc != 0 ? T->t_proc->p_ppid : 0;
	pr_pgid = T->t_proc != 0 ? T->t_proc->p_pid : T->t_pid;
	pr_sid = 0;
	pr_uid = T->t_proc != 0 ? T->t_proc->p_cred.cr_ruid : 0;
	pr_euid = T->t_proc != 0 ? T->t_proc->p_cred.cr_euid : 0;
	pr_gid = T->t_proc != 0 ? T->t_proc->p_cred.cr_rgid : 0;
	pr_egid = T->t_proc != 0 ? T->t_proc->p_cred.cr_egid : 0;
	pr_addr = 0;
	pr_fname = stringof(T->t_name);
	pr_psargs = T->t_proc != 0 ? stringof(T->t_proc->p_psargs) : stringof(T->t_name);
	pr_argc = T->t_proc != 0 ? T->t_proc->p_argc : 0;
	pr_dmodel = PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
};

/*
 * A process table slot (the proc provider's native argument): its one
 * thread is described from what the process keeps of it.
 */
translator psinfo_t < struct proc *P > {
	pr_nlwp = 1;
	pr_pid = P->p_pid;
	pr_ppid = P->p_ppid;
	pr_pgid = P->p_pid;
	pr_sid = 0;
	pr_uid = P->p_cred.cr_ruid;
	pr_euid = P->p_cred.cr_euid;
	pr_gid = P->p_cred.cr_rgid;
	pr_egid = P->p_cred.cr_egid;
	pr_addr = (uintptr_t)P;
	pr_fname = stringof(P->p_execname);
	pr_psargs = stringof(P->p_psargs);
	pr_wstat = P->p_status;
	pr_argc = P->p_argc;
	pr_dmodel = PR_MODEL_LP64;
	pr_taskid = 0;
	pr_projid = 0;
	pr_poolid = 0;
	pr_zoneid = 0;
	pr_contract = 0;
};

translator lwpsinfo_t < struct proc *P > {
	pr_flag = 0;
	pr_lwpid = P->p_tid;
	pr_addr = 0;
	pr_wchan = 0;
	pr_state = SONPROC;
	pr_sname = 'O';
	pr_syscall = 0;
	pr_pri = 0;
	pr_clname = "SYS";
	pr_name = stringof(P->p_execname);
	pr_onpro = 0;
	pr_bindpro = -1;
	pr_bindpset = -1;
	pr_lgrp = 0;
};

translator lwpsinfo_t < kthread_t *T > {
	pr_flag = 0;
	pr_lwpid = T->t_tid;
	pr_addr = (uintptr_t)T;
	pr_wchan = 0;
	pr_state = SONPROC;
	pr_sname = 'O';
	pr_syscall = 0;
	pr_pri = 0;
	pr_clname = "SYS";
	pr_name = stringof(T->t_name);
	pr_onpro = T->t_cpu;
	pr_bindpro = -1;
	pr_bindpset = -1;
	pr_lgrp = 0;
};

inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);
inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);

/*
 * The built-in variables of identity Sonde has one value of, as DTrace
 * names them (uid and gid are real built-ins, trace/probe.c): no projects
 * (every process is in project 0), no zones (the global zone, what DTrace
 * reports on a machine without others), and one working directory, "/"
 * (kernel/vfs.c), which is also every process's root.
 */
inline projid_t projid = 0;
inline string zonename = "global";
inline string cwd = "/";
inline string root = "/";
