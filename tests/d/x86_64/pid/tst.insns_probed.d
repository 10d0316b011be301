/*
 * ASSERTION: probes change nothing: /bin/insns (every class of instruction
 * the pid provider emulates or steps out of line, over a table of inputs)
 * computes the same checksum, and exits 0, with every entry, return and
 * offset probe of its functions enabled as with none (the program checks
 * it against the value it computes untraced: exit status 0);
 * each probe fires once per instruction executed.
 * @@options: -q -c /bin/insns
 */
pid$target::ix_stack:, pid$target::ix_riprel:, pid$target::ix_cc:, pid$target::ix_far:,
pid$target::ix_leaf:, pid$target::ix_misc:
{
	@[probefunc] = count();
}

insns$target:::result
{
	printf("checksum %x\n", arg0);
}

syscall::exit_group:entry
/pid == $target/
{
	printf("status %d\n", arg0);
}
