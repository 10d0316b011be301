/*
 * ASSERTION: the kernel's types (CTF) are D types: `ncpus is an int
 * lvalue, &`ncpus a pointer to it, `cpus an array of struct cpu; curthread
 * is a struct thread * whose members (an array of char, integers) read
 * through the pointer; curcpu translates the kernel's real struct cpu;
 * kernel typedefs name types; sizeof and offsetof see kernel layouts; a
 * kernel integer typedef keeps its name for print(), which prints a kernel
 * struct member by member (a function pointer, volatile integers, as C
 * names their types); a D typedef may reuse a kernel typedef's name; a
 * D translator reads
 * a kernel struct's members.
 */
#pragma D option quiet

typedef struct tinfo { uint64_t ti_tid; int ti_cpu; } tinfo_t;
typedef char kfile_fn;		/* D's own, hiding the kernel's typedef */
translator tinfo_t < struct thread *T > { ti_tid = T->t_tid; ti_cpu = T->t_cpu; };

BEGIN
{
	printf("ncpus >= 1: %d\n", `ncpus >= 1);
	printf("sizeof (`ncpus): %d\n", sizeof (`ncpus));
	printf("*&`ncpus == `ncpus: %d\n", *&`ncpus == `ncpus);
	printf("cpus[cpu].cpu_id == cpu: %d\n", `cpus[cpu].cpu_id == cpu);
	printf("cpus[cpu].cpu_self == &cpus[cpu]: %d\n",
	    `cpus[cpu].cpu_self == &`cpus[cpu]);
	printf("t_name: %s\n", stringof(curthread->t_name));
	printf("t_tid == tid: %d\n", curthread->t_tid == tid);
	printf("(*curthread).t_tid == tid: %d\n", (*curthread).t_tid == tid);
	printf("curcpu->cpu_id == cpu: %d\n", curcpu->cpu_id == cpu);
	printf("offsetof (struct cpu, cpu_self): %d\n",
	    offsetof (struct cpu, cpu_self));
	printf("sizeof (dtrace_id_t): %d\n", sizeof (dtrace_id_t));
	printf("sizeof (kernel`dtrace_id_t): %d\n", sizeof (kernel`dtrace_id_t));
	printf("sizeof (kfile_fn): %d\n", sizeof (kfile_fn));
	printf("sizeof (struct thread) == sizeof (*curthread): %d\n",
	    sizeof (struct thread) == sizeof (*curthread));
	this->t = (struct thread *)curthread;
	printf("this->t == curthread: %d\n", this->t == curthread);
	printf("this->t->t_name[0]: %c\n", this->t->t_name[0]);
	printf("xlate: %d %d\n", xlate<tinfo_t>(curthread).ti_tid == tid,
	    xlate<tinfo_t *>(curthread)->ti_cpu == cpu);
	print(curthread->t_tid == tid);
	/* the last CPU slot is never used with the 1 or 4 CPUs tests run on */
	print(`cpus[7].cpu_xcall);
	exit(0);
}
