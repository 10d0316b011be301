/*
 * shell_probes.c - the `probes` command: how enabled kernel probes are
 * planted right now.
 *
 * fbt entry probes are planted as a 5-byte jump into a per-site stub where
 * that is provably safe, else as an int3 trap (arch/x86_64/fbt_jump.c); sdt
 * sites as a direct call where the call path is on, else as a trap.  The
 * command prints how many enabled sites are planted each way and why
 * others could not jump; `probes jump on|off` sets whether entry probes
 * enabled from then on may jump (the boot flag nofbtjump starts with off).
 * Thread context; reads counters without the framework lock (a snapshot
 * that may be a little stale while a consumer enables).
 *
 * Tests: self-tests fbt_jump_*; tests/e2e/test_firing_trace.py
 */
#include "console/shell/shell.h"
#include "kernel/klib.h"
#include "kernel/prov_isa.h"

int fbt_entry_armed(void);           /* trace/prov_fbt.c */
int fbt_return_armed(void);          /* trace/prov_fbt.c */

/* probes_why: the refusals of entry (ret false) or return sites, by reason. */
static void probes_why(const struct fbt_jump_stats *js, bool ret)
{
	const char *why;

	for (int i = 0; i < FBT_JUMP_WHY_MAX && (why = fbt_isa_jump_why(ret, i)) != NULL; i++)
		kprintf("  %6d  %s\n", ret ? js->fjs_ret_why[i] : js->fjs_why[i], why);
}

static int shell_do_probes(int argc, char **argv)
{
	struct fbt_jump_stats js;
	bool verbose = argc == 2 && strcmp(argv[1], "-v") == 0;

	if (argc == 3 && strcmp(argv[1], "jump") == 0 &&
	    (strcmp(argv[2], "on") == 0 || strcmp(argv[2], "off") == 0)) {
		fbt_jump_on = strcmp(argv[2], "on") == 0;
		return SHELL_OK;
	}
	if (argc != 1 && !verbose)
		return shell_usage(argv[0]);
	fbt_isa_jump_stats(&js);
	int armed = fbt_entry_armed();
	kprintf("fbt entry sites enabled: %d by jump, %d by trap (jumps %s)\n", js.fjs_jumps,
	        armed - js.fjs_jumps, fbt_jump_on ? "on" : "off");
	kprintf("fbt jump stubs: %d; sites refused: %d (prologue or a branch into it), %d (no room); "
	        "waits given up: %d; branches into prologues: %d\n",
	        js.fjs_stubs, js.fjs_refused, js.fjs_full, js.fjs_busy, js.fjs_notes);
	if (verbose)
		probes_why(&js, false);
	kprintf("fbt jumps taken out: %d with the other CPUs stopped; batches the ordered way: %d\n",
	        js.fjs_unjumps_stopped, js.fjs_unjumps_ordered);
	kprintf("fbt return sites enabled: %d by jump, %d by trap\n", js.fjs_ret_jumps,
	        fbt_return_armed() - js.fjs_ret_jumps);
	kprintf("fbt return stubs: %d (%d over the ret and padding, %d over the epilogue); sites refused: "
	        "%d (epilogue too short or a branch into it)\n",
	        js.fjs_ret_stubs, js.fjs_ret_padded, js.fjs_ret_stubs - js.fjs_ret_padded, js.fjs_ret_refused);
	if (verbose)
		probes_why(&js, true);
	kprintf("sdt sites enabled by call: %d (calls %s)\n", sdt_isa_call_sites(),
	        sdt_isa_call_on ? "on" : "off");
	return SHELL_OK;
}
SHELL_COMMAND(probes, shell_do_probes, "probes [-v | jump on|off]",
              "how enabled fbt and sdt sites are planted (jump, call or trap); -v: why sites keep the trap");
