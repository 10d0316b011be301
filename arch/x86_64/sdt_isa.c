/*
 * sdt_isa.c - the x86_64 half of sdt.
 *
 * A site (kernel/sdt.h) is the 5-byte NOP `0F 1F 44 00 00` (nopl 0(%rax,%rax))
 * written by the assembler, so a disabled probe costs one NOP.  Enabling
 * plants int3 over its first byte (prov_isa_arm, fbt_isa.c); the trap resumes
 * after the five bytes.  The probe's arguments stay wherever the compiler
 * put them: the macro asks for each in some register ("r" constraint) and
 * records the register's name ("%rbx") next to the site, and
 * sdt_isa_regindex() turns that name into an index into the saved frame.
 */
#include "arch/x86_64/x86.h"
#include "kernel/klib.h"
#include "kernel/prov_isa.h"

#define TF_INDEX(field) ((int)(offsetof(struct trapframe, field) / sizeof(uint64_t)))

static const struct {
	const char *name;
	int index;
} sdt_regs[] = {
	{ "%rax", TF_INDEX(tf_rax) }, { "%rbx", TF_INDEX(tf_rbx) },
	{ "%rcx", TF_INDEX(tf_rcx) }, { "%rdx", TF_INDEX(tf_rdx) },
	{ "%rsi", TF_INDEX(tf_rsi) }, { "%rdi", TF_INDEX(tf_rdi) },
	{ "%rbp", TF_INDEX(tf_rbp) }, { "%rsp", TF_INDEX(tf_rsp) },
	{ "%r8", TF_INDEX(tf_r8) },   { "%r9", TF_INDEX(tf_r9) },
	{ "%r10", TF_INDEX(tf_r10) }, { "%r11", TF_INDEX(tf_r11) },
	{ "%r12", TF_INDEX(tf_r12) }, { "%r13", TF_INDEX(tf_r13) },
	{ "%r14", TF_INDEX(tf_r14) }, { "%r15", TF_INDEX(tf_r15) },
};

int sdt_isa_regindex(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(sdt_regs); i++) {
		if (strcmp(sdt_regs[i].name, name) == 0)
			return sdt_regs[i].index;
	}
	return -1;
}

bool sdt_isa_site_ok(uint64_t addr)
{
	static const uint8_t nop5[SDT_ISA_SITE_LEN] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	return memcmp((const void *)addr, nop5, sizeof(nop5)) == 0;
}
