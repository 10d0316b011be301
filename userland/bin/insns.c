/*
 * insns - every class of instruction the pid provider replays, in a table
 * of small assembly functions run over a table of inputs; the results are
 * folded into one checksum, reported by the USDT probe
 * insns<PID>:insns:main:result (arg0) and by the exit status (0 if it is
 * the expected value).  tests/d/pid runs it with no probe and with every
 * offset probe of every function enabled: the checksum must not change
 * ("probes change nothing").
 *
 * Classes: emulated (push, mov %rsp,%rbp, mov $imm32, nops, ret, jmp
 * rel8/rel32, call rel32, every jcc condition rel8 and rel32) and stepped
 * out of line (pop, leave, loads and stores through %rbp and %rsp,
 * %rip-relative loads, stores and lea, ALU, imul, cmov, setcc, xchg,
 * shifts, SSE, jmp through a register); `call *%reg` and `loop` are in
 * the code but get no probe.  `insns fault` instead loads through NULL in
 * ix_load's first instruction (stepped out of line when probed): it must
 * die of SIGSEGV reported at ix_load+0x0, not at the copy.
 */
#include <stdint.h>
#include "userland/libc/usdt.h"

#define EXPECTED 0x4c024484c67bcd38ULL

uint64_t ix_data = 7;

__asm__(".text\n"
	/* ix_stack(a, b): a frame, callee-saved registers, locals */
	".globl ix_stack\n.type ix_stack, @function\nix_stack:\n"
	" push %rbp\n mov %rsp, %rbp\n push %rbx\n push %r12\n sub $16, %rsp\n"
	" mov %rdi, %rbx\n mov %rsi, %r12\n mov %rbx, -24(%rbp)\n mov %r12, 8(%rsp)\n"
	" mov -24(%rbp), %rax\n imul 8(%rsp), %rax\n xchg %rax, %rbx\n add %rbx, %rax\n"
	" add $16, %rsp\n pop %r12\n pop %rbx\n leave\n ret\n.size ix_stack, .-ix_stack\n"
	/* ix_riprel(a): %rip-relative loads, stores and lea */
	".globl ix_riprel\n.type ix_riprel, @function\nix_riprel:\n"
	" mov ix_data(%rip), %rax\n add %rdi, %rax\n mov %rax, ix_data(%rip)\n"
	" lea ix_data(%rip), %rcx\n mov (%rcx), %rdx\n addq $3, ix_data(%rip)\n"
	" lea (%rax,%rdx,2), %rax\n ret\n.size ix_riprel, .-ix_riprel\n"
	/* ix_cc(a, b): every condition, each setting a bit when taken (rel8) */
	".globl ix_cc\n.type ix_cc, @function\nix_cc:\n"
	" xor %eax, %eax\n"
	" cmp %rsi, %rdi\n jo 1f\n or $0x1, %eax\n1:\n"
	" cmp %rsi, %rdi\n jno 1f\n or $0x2, %eax\n1:\n"
	" cmp %rsi, %rdi\n jb 1f\n or $0x4, %eax\n1:\n"
	" cmp %rsi, %rdi\n jae 1f\n or $0x8, %eax\n1:\n"
	" cmp %rsi, %rdi\n je 1f\n or $0x10, %eax\n1:\n"
	" cmp %rsi, %rdi\n jne 1f\n or $0x20, %eax\n1:\n"
	" cmp %rsi, %rdi\n jbe 1f\n or $0x40, %eax\n1:\n"
	" cmp %rsi, %rdi\n ja 1f\n or $0x80, %eax\n1:\n"
	" cmp %rsi, %rdi\n js 1f\n or $0x100, %eax\n1:\n"
	" cmp %rsi, %rdi\n jns 1f\n or $0x200, %eax\n1:\n"
	" cmp %rsi, %rdi\n jp 1f\n or $0x400, %eax\n1:\n"
	" cmp %rsi, %rdi\n jnp 1f\n or $0x800, %eax\n1:\n"
	" cmp %rsi, %rdi\n jl 1f\n or $0x1000, %eax\n1:\n"
	" cmp %rsi, %rdi\n jge 1f\n or $0x2000, %eax\n1:\n"
	" cmp %rsi, %rdi\n jle 1f\n or $0x4000, %eax\n1:\n"
	" cmp %rsi, %rdi\n jg 1f\n or $0x8000, %eax\n1:\n"
	" ret\n.size ix_cc, .-ix_cc\n"
	/* ix_far(a, b): rel32 jcc and jmp, a call, nops, mov $imm32, setcc, cmov, shifts */
	".globl ix_far\n.type ix_far, @function\nix_far:\n"
	" push %rbp\n mov %rsp, %rbp\n nop\n nopl 0(%rax,%rax,1)\n"
	" mov $5, %eax\n cmp %rsi, %rdi\n"
	" .byte 0x0f, 0x8c\n .long 2f - 1f\n1:\n add $11, %rax\n"       /* jl rel32 */
	" .byte 0xe9\n .long 3f - 2f\n2:\n shl $3, %rax\n"               /* jmp rel32 */
	"3:\n call ix_leaf\n setg %cl\n movzbl %cl, %ecx\n add %rcx, %rax\n"
	" cmp $40, %rax\n cmovg %rdi, %rax\n sar $1, %rax\n"
	" jmp 4f\n ud2\n4:\n pop %rbp\n ret\n.size ix_far, .-ix_far\n"
	".globl ix_leaf\n.type ix_leaf, @function\nix_leaf:\n"
	" lea 1(%rax,%rdi), %rax\n ret\n.size ix_leaf, .-ix_leaf\n"
	/* ix_misc(a, b): SSE, jmp and call through a register, loop */
	".globl ix_misc\n.type ix_misc, @function\nix_misc:\n"
	" push %rbp\n mov %rsp, %rbp\n movq %rdi, %xmm0\n movq %rsi, %xmm1\n"
	" paddq %xmm1, %xmm0\n movq %xmm0, %rax\n lea 1f(%rip), %rdx\n jmp *%rdx\n ud2\n"
	"1:\n lea ix_leaf(%rip), %rdx\n call *%rdx\n mov $3, %ecx\n"
	"2:\n add %rcx, %rax\n loop 2b\n pop %rbp\n ret\n.size ix_misc, .-ix_misc\n");

__asm__(".globl ix_load\n.type ix_load, @function\nix_load:\n"
        " mov (%rdi), %rax\n ret\n.size ix_load, .-ix_load\n");
uint64_t ix_load(const uint64_t *p);
uint64_t ix_stack(uint64_t a, uint64_t b);
uint64_t ix_riprel(uint64_t a);
uint64_t ix_cc(uint64_t a, uint64_t b);
uint64_t ix_far(uint64_t a, uint64_t b);
uint64_t ix_misc(uint64_t a, uint64_t b);

static const int64_t inputs[][2] = {
	{ 0, 0 }, { 1, 2 }, { 2, 1 }, { -1, 1 }, { 1, -1 }, { 5, 5 },
	{ INT64_MIN, 1 }, { INT64_MAX, -1 }, { 3, 200 }, { 1000, 7 }, { -50, -60 },
};

static uint64_t fold(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ULL;
}

int main(int argc, char **argv)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	if (argc > 1 && argv[1][0] == 'f')
		return (int)ix_load(0);          /* `insns fault`: a load through NULL, SIGSEGV */
	for (int round = 0; round < 3; round++) {
		for (unsigned i = 0; i < sizeof(inputs) / sizeof(inputs[0]); i++) {
			uint64_t a = (uint64_t)inputs[i][0], b = (uint64_t)inputs[i][1];
			h = fold(h, ix_stack(a, b));
			h = fold(h, ix_riprel(a));
			h = fold(h, ix_cc(a, b));
			h = fold(h, ix_far(a, b));
			h = fold(h, ix_misc(a, b));
		}
	}
	DTRACE_PROBE1(insns, result, h);
	return h == EXPECTED ? 0 : 1;
}
