/*
 * shell_link.c - the `link` command: what /dev/link (kernel/link.c) has
 * done since boot, from the kernel's counts.  Kernel only.  Thread
 * context, the shell's thread.
 *
 *   link: 5 frames in, 5 out
 *   link: refused: 1 headers, 1 checksums, 23 bytes of noise, 0 baggages
 *   link: dropped: 0 unread, 0 overrun
 *
 * or "link: no link device" on a machine that is not joined to another.
 *
 * Tests: tests/e2e/test_link.py
 */
#include "kernel/klib.h"
#include "kernel/link.h"
#include "console/shell/shell.h"

static int shell_do_link(int argc, char **argv)
{
	struct link_stats st;

	if (argc != 1)
		return shell_usage(argv[0]);
	link_stats_get(&st);
	if (!st.ls_present) {
		kprintf("link: no link device\n");
		return SHELL_OK;
	}
	kprintf("link: %lu frames in, %lu out\n", st.ls_rx.lc_frames, st.ls_sent);
	kprintf("link: refused: %lu headers, %lu checksums, %lu bytes of noise, %lu baggages\n",
	        st.ls_rx.lc_bad_header, st.ls_rx.lc_bad_crc, st.ls_rx.lc_noise, st.ls_bad_baggage);
	kprintf("link: dropped: %lu unread, %lu overrun\n", st.ls_unread, st.ls_overrun);
	return SHELL_OK;
}
SHELL_COMMAND(link, shell_do_link, "link", "what the link to another machine (/dev/link) has carried and refused");
