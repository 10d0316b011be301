/*
 * ASSERTION: on sparc64 the D library's regs.d names the SPARC uregs[]
 * indices of the Dynamic Tracing Guide's table, numbered as Solaris's
 * SPARC register set (%g, %o, %l, %i, then %ccr, %pc, %npc, %y, %asi,
 * %fprs), with the common aliases R_SP, R_FP, R_R0, R_R1 and R_PS.
 */
/* @@options: -q */

BEGIN
{
	printf("%d %d %d %d %d %d %d %d\n", R_G0, R_G7, R_O0, R_O7, R_L0, R_L7, R_I0, R_I7);
	printf("%d %d %d %d %d %d\n", R_CCR, R_PC, R_NPC, R_Y, R_ASI, R_FPRS);
	printf("%d %d %d %d %d\n", R_SP, R_FP, R_R0, R_R1, R_PS);
	exit(0);
}
