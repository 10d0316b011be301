/*
 * s64insns [fault] - sparc64: every class of instruction the pid provider
 * replays there (arch/sparc64/pid_isa.c), in small assembly functions run
 * over a table of inputs; the results are folded into one checksum,
 * printed as "checksum <hex>".  tests/e2e/test_sparc64_user.py runs it
 * untraced and with every entry, return and offset probe of its functions
 * enabled: the checksum must not change.
 *
 * Classes: emulated (Bicc and BPcc on %icc and %xcc, annulled or not, taken
 * or not, ba,a and bn,a; BPr; FBfcc and FBPfcc on %fcc0 and %fcc1; call; jmpl as an indirect call, ret and
 * retl; return with its delay slot in the caller's window; rd %pc; nop)
 * and stepped out of line (save, restore with a result, loads and stores,
 * ALU, mulx, movcc, movr, a conditional trap not taken, floating point),
 * and instructions in delay slots of each kind.  `s64insns fault` instead
 * loads through NULL in sx_fault's first instruction (stepped out of line
 * when probed): it must die of SIGSEGV reported at sx_fault+0x0.
 *
 * Built for sparc64 only (mk/sparc64_user.mk); x86_64's is userland/bin/insns.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

uint64_t sx_branch(uint64_t a, uint64_t b);
uint64_t sx_call(uint64_t a, uint64_t b);
uint64_t sx_leaf(uint64_t x);
uint64_t sx_ret(uint64_t x);
uint64_t sx_mem(uint64_t a, uint64_t b);
uint64_t sx_fault(void);

__asm__(".text\n"
	/* sx_branch(a, b): a leaf; each branch's outcome leaves a bit in %o2 */
	".globl sx_branch\n.type sx_branch, @function\n.align 4\nsx_branch:\n"
	" mov 0, %o2\n cmp %o0, %o1\n"
	" be,a %xcc, 1f\n  or %o2, 1, %o2\n"          /* annulled: the delay slot runs if taken */
	"1: bne,a,pn %icc, 2f\n  or %o2, 2, %o2\n"
	"2: bg %xcc, 3f\n  or %o2, 4, %o2\n"          /* not annulled: it always runs */
	" or %o2, 8, %o2\n"
	"3: bleu,a %xcc, 4f\n  or %o2, 16, %o2\n"
	" or %o2, 32, %o2\n"
	"4: ba,a 5f\n  or %o2, 64, %o2\n"            /* never runs */
	"5: bn,a 6f\n  or %o2, 128, %o2\n"           /* never runs */
	"6: bn 7f\n  or %o2, 256, %o2\n"             /* runs */
	"7: brz,a %o0, 8f\n  or %o2, 512, %o2\n"
	"8: brgez %o1, 9f\n  or %o2, 1024, %o2\n"
	" or %o2, 2048, %o2\n"
	"9: sllx %o2, 12, %o2\n"
	" brnz,a,pt %o1, 10f\n  or %o2, 1, %o2\n"
	" or %o2, 2, %o2\n"
	"10: subcc %o0, %o1, %g0\n"
	" bl 11f\n  or %o2, 4, %o2\n"                /* Bicc (the V8 form): %icc */
	" or %o2, 8, %o2\n"
	"11: bcs,a %xcc, 12f\n  or %o2, 16, %o2\n"
	" or %o2, 32, %o2\n"
	"12: bvc %icc, 13f\n  nop\n"
	" or %o2, 64, %o2\n"
	"13: brlz %o0, 14f\n  nop\n"
	" or %o2, 128, %o2\n"
	"14: retl\n  mov %o2, %o0\n"
	".size sx_branch, .-sx_branch\n"
	/* sx_leaf(x): a leaf with two returns */
	".globl sx_leaf\n.type sx_leaf, @function\n.align 4\nsx_leaf:\n"
	" cmp %o0, 10\n bgu,a,pn %xcc, 1f\n  sllx %o0, 1, %o0\n"
	" retl\n  add %o0, 5, %o0\n"
	"1: retl\n  xor %o0, 3, %o0\n"
	".size sx_leaf, .-sx_leaf\n"
	/* sx_ret(x): a frame left by `return`, its delay slot in the caller's window */
	".globl sx_ret\n.type sx_ret, @function\n.align 4\nsx_ret:\n"
	" save %sp, -176, %sp\n add %i0, 7, %i0\n"
	" return %i7 + 8\n  sllx %o0, 2, %o0\n"
	".size sx_ret, .-sx_ret\n"
	/* sx_call(a, b): call, an indirect call through jmpl, rd %pc, ret; restore with a result */
	".globl sx_call\n.type sx_call, @function\n.align 4\nsx_call:\n"
	" save %sp, -176, %sp\n"
	" call sx_leaf\n  mov %i0, %o0\n"
	" mov %o0, %l0\n"
	" sethi %hi(sx_ret), %g1\n or %g1, %lo(sx_ret), %g1\n"
	" jmpl %g1, %o7\n  mov %i1, %o0\n"
	" add %l0, %o0, %l0\n"
	" rd %pc, %g4\n"
	" sethi %hi(sx_call), %g5\n or %g5, %lo(sx_call), %g5\n"
	" sub %g4, %g5, %g4\n add %l0, %g4, %l0\n nop\n"
	" ret\n  restore %l0, 1, %o0\n"
	".size sx_call, .-sx_call\n"
	/* sx_mem(a, b): loads, stores, mulx, movcc, movr, a trap not taken, floating point */
	".globl sx_mem\n.type sx_mem, @function\n.align 4\nsx_mem:\n"
	" save %sp, -192, %sp\n"
	" stx %i0, [%fp + 2039]\n ldx [%fp + 2039], %l1\n"
	" mulx %l1, %i1, %l1\n and %l1, 0xfff, %l1\n"
	" movrz %i1, 7, %l1\n"
	" cmp %i0, %i1\n movg %xcc, %i0, %l1\n"
	" tvs %xcc, 5\n"                              /* %xcc's V is clear after cmp of small values */
	" stx %l1, [%fp + 2031]\n ldd [%fp + 2031], %f0\n fxtod %f0, %f2\n"
	" faddd %f2, %f2, %f4\n fdtox %f4, %f6\n std %f6, [%fp + 2031]\n ldx [%fp + 2031], %l2\n"
	" fcmpd %f2, %f4\n fbl,a 1f\n  add %l2, 1, %l2\n"   /* FBfcc on %fcc0: x < 2x unless x is 0 */
	" add %l2, 2, %l2\n"
	"1: fcmpd %fcc1, %f4, %f2\n fbge,pn %fcc1, 2f\n  add %l2, 4, %l2\n"   /* FBPfcc on %fcc1 */
	" add %l2, 8, %l2\n"
	"2: fbue,a %fcc1, 3f\n  add %l2, 16, %l2\n"
	"3: ret\n  restore %l1, %l2, %o0\n"
	".size sx_mem, .-sx_mem\n"
	/* sx_fault(): a load through NULL as its first instruction */
	".globl sx_fault\n.type sx_fault, @function\n.align 4\nsx_fault:\n"
	" ldx [%g0], %o0\n retl\n  nop\n"
	".size sx_fault, .-sx_fault\n");

static const uint64_t inputs[][2] = {
	{ 0, 0 }, { 1, 2 }, { 2, 1 }, { 5, 5 }, { 11, 3 }, { 3, 11 }, { 40, 0 },
	{ 0xffffffffULL, 1 }, { 1, 0xffffffffULL }, { (uint64_t)-3, 4 }, { 4, (uint64_t)-3 },
	{ 0x80000000ULL, 0x7fffffffULL }, { (uint64_t)-1, (uint64_t)-1 },
};

int main(int argc, char **argv)
{
	uint64_t sum = 0;

	if (argc > 1 && strcmp(argv[1], "fault") == 0)
		return (int)sx_fault();
	for (unsigned i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
		uint64_t a = inputs[i][0], b = inputs[i][1];
		sum = sum * 31 + sx_branch(a, b);
		sum = sum * 31 + sx_call(a & 0xff, b & 0xff);
		sum = sum * 31 + sx_mem(a & 0xffff, b & 0xffff);
	}
	printf("checksum %llx\n", (unsigned long long)sum);
	return 0;
}
