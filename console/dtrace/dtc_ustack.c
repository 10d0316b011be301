/*
 * dtc_ustack.c - naming user addresses: ustack() records and keys.
 *
 * A ustack() record (trace/dtrace.h) starts with the word naming the
 * process's image, a boot-archive executable that lives as long as the
 * kernel, so frames are named from its .symtab even after the process has
 * exited.  A frame prints as DTrace prints it: "prog`func+0x1c", "prog`func"
 * at a function's first byte, and the bare hex address when no function of
 * the program covers it.  ufunc()/usym()/uaddr()/umod() records and keys
 * are [pc, image]: printed as prog`func, prog`func+0x1c and prog; as keys,
 * ufunc() and usym() merge by function and umod() by program.  printf's
 * and printa's %A carry only the address: it is named from the image of
 * the -c/-p process (dtc_uaddr_value), hex without one.
 *
 * Tests: tests/d/pid; tests/e2e/test_pid.py
 */
#include "kernel/elf.h"
#include "kernel/kfile.h"
#include "kernel/klib.h"
#include "console/dtrace/dtc.h"

/* image_module: the module name of an image: its file's basename ("bin/loop" -> "loop"). */
static const char *image_module(const struct kfile *kf)
{
	const char *slash = strchr(kf->kf_name, '/'), *base = kf->kf_name;

	for (; slash != NULL; slash = strchr(slash + 1, '/'))
		base = slash + 1;
	return base;
}

void dtc_usym(uint64_t image, uint64_t pc, bool with_offset, char *buf, size_t size)
{
	const struct kfile *kf = (const struct kfile *)image;
	char name[ELF_NAME_MAX];
	uint64_t start;

	if (kf == NULL || !elf_func_at(kf->kf_data, kf->kf_size, pc, name, sizeof(name), &start))
		ksnprintf(buf, size, "0x%lx", pc);
	else if (with_offset && pc != start)
		ksnprintf(buf, size, "%s`%s+0x%lx", image_module(kf), name, pc - start);
	else
		ksnprintf(buf, size, "%s`%s", image_module(kf), name);
}

void dtc_uaddr_value(struct dtc *d, struct dtc_value *v, char *buf, size_t size)
{
	dtc_usym(dtc_uimage(d), (uint64_t)v->dv_int, true, buf, size);   /* hex without a process */
	v->dv_uaddr = true;
	v->dv_str = buf;
}

void dtc_uaddr_format(int keykind, uint64_t pc, uint64_t image, char *buf, size_t size)
{
	const struct kfile *kf = (const struct kfile *)image;

	if (keykind == DT_KEY_UMOD && kf != NULL)
		ksnprintf(buf, size, "%s", image_module(kf));
	else if (keykind == DT_KEY_UMOD)
		ksnprintf(buf, size, "0x%lx", pc);
	else
		dtc_usym(image, pc, keykind == DT_KEY_UADDR, buf, size);
}

uint64_t dtc_uaddr_normal(int keykind, uint64_t pc, uint64_t image)
{
	const struct kfile *kf = (const struct kfile *)image;
	char name[ELF_NAME_MAX];
	uint64_t start;

	if (keykind == DT_KEY_UMOD && kf != NULL)
		return 0;                           /* one module per image */
	if (keykind == DT_KEY_USYM && kf != NULL &&
	    elf_func_at(kf->kf_data, kf->kf_size, pc, name, sizeof(name), &start))
		return start;
	return pc;
}

/*
 * dtc_ustack_frames: the ustackframes option takes effect here, before the
 * program is enabled: each ustack() action and ustack() key without a
 * frame count gets the option's (at most 100, as ustack(n)), so the kernel
 * and the consumer size its record alike.
 */
void dtc_ustack_frames(dt_prog *prog, uint32_t frames)
{
	frames = frames > 100 ? 100 : frames;
	for (uint32_t c = 0; c < prog->dp_nclauses; c++)
		for (uint32_t i = 0; i < prog->dp_clauses[c].cl_nacts; i++) {
			dt_action *a = &prog->dp_clauses[c].cl_acts[i];
			if (a->ac_kind == DT_ACT_USTACK && a->ac_arg == 0)
				a->ac_arg = frames;
		}
	for (uint32_t g = 0; g < prog->dp_naggs; g++)
		for (uint32_t k = 0; k < prog->dp_aggs[g].ag_nkeys; k++) {
			dt_keytype *kt = &prog->dp_aggs[g].ag_keys[k];
			if (kt->kt_kind == DT_KEY_USTACK && kt->kt_frames == 0)
				kt->kt_frames = frames;
		}
}

void dtc_print_ustack_fmt(const uint64_t *rec, uint32_t n, int indent, const char *fmt)
{
	char sym[192];

	dtc_out("\n");
	for (uint32_t i = 1; i < n && rec[i] != 0; i++) {
		dtc_usym(rec[0], rec[i], true, sym, sizeof(sym));
		dtc_out("%*s", indent, "");
		dtc_out(fmt, sym);
		dtc_out("\n");
	}
}

void dtc_print_ustack(struct dtc *d, const uint64_t *rec, uint32_t n)
{
	dtc_print_ustack_fmt(rec, n, d->dc_stackindent, "%s");
}
