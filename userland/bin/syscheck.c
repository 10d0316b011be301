/*
 * syscheck - the system call layer's promises, checked from user mode.
 *
 * Each check makes one call with arguments the kernel must refuse (a NULL,
 * kernel or unmapped pointer; an unknown number) and prints "ok" or "not
 * ok" with what it asked and got (userland/bin/check.h).  Exit status 0
 * when every check passed.
 * A kernel fault would stop the machine instead, which is what this
 * program is there to show does not happen.
 */
#include <stdio.h>
#include "userland/libc/sonde.h"
#include "userland/bin/check.h"

#define EBADF   9
#define EFAULT  14
#define EINVAL  22
#define ENOTTY  25
#define ESPIPE  29
#define ENOSYS  38

#define KERNEL_ADDR 0xffffffff80100000L
#define HOLE_ADDR   0x0000700000000000L    /* user half, never mapped */
#define NONCANON    0x0000900000000000L
#define IMAGE_ADDR  0x0000000040004000L    /* sparc64's kernel image, inside its user half */

int main(void)
{
	static char buf[64];

	check("write(1, NULL, 5)", CALL(SYS_write, 1, 0, 5), -EFAULT);
	check("write(1, kernel, 5)", CALL(SYS_write, 1, KERNEL_ADDR, 5), -EFAULT);
	check("write(1, unmapped, 5)", CALL(SYS_write, 1, HOLE_ADDR, 5), -EFAULT);
	check("write(1, 0x40004000, 5)", CALL(SYS_write, 1, IMAGE_ADDR, 5), -EFAULT);
	check("write(1, non-canonical, 5)", CALL(SYS_write, 1, NONCANON, 5), -EFAULT);
	check("write(1, end of user half, 64)", CALL(SYS_write, 1, 0x00007fffffffffe0L, 64), -EFAULT);
	check("write(99, buf, 1)", CALL(SYS_write, 99, buf, 1), -EBADF);
	check("write(-1, buf, 1)", CALL(SYS_write, -1, buf, 1), -EBADF);
	check("fstat(1, kernel)", CALL(SYS_fstat, 1, KERNEL_ADDR, 0), -EFAULT);
	check("fstat(1, text)", CALL(SYS_fstat, 1, (long)main, 0), -EFAULT);
	check("ioctl(1, TCGETS, NULL)", CALL(SYS_ioctl, 1, 0x5401, 0), -EFAULT);
	check("ioctl(1, 0x1234, buf)", CALL(SYS_ioctl, 1, 0x1234, buf), -ENOTTY);
	check("lseek(1, 0, 0)", CALL(SYS_lseek, 1, 0, 0), -ESPIPE);
	check("nanosleep(kernel, NULL)", CALL(SYS_nanosleep, KERNEL_ADDR, 0, 0), -EFAULT);
	check("clock_gettime(0, kernel)", CALL(SYS_clock_gettime, 0, KERNEL_ADDR, 0), -EFAULT);
	check("clock_gettime(99, buf)", CALL(SYS_clock_gettime, 99, buf, 0), -EINVAL);
	check("uname(unmapped)", CALL(SYS_uname, HOLE_ADDR, 0, 0), -EFAULT);
	check("getcwd(kernel, 64)", CALL(SYS_getcwd, KERNEL_ADDR, 64, 0), -EFAULT);
	check("syscall 400", CALL(400, 0, 0, 0), -ENOSYS);
	check("syscall 100000", CALL(100000, 0, 0, 0), -ENOSYS);
	check("syscall -1", CALL(-1, 0, 0, 0), -ENOSYS);
	check("getcwd(buf, 64)", CALL(SYS_getcwd, buf, 64, 0), 2);
	return check_summary() != 0;
}
