syscall::munmap:entry /pid == $target/ { printf("@T syscall-entry\n"); stack(); @s["syscall-entry", stack()] = count(); }
syscall::munmap:return /pid == $target/ { printf("@T syscall-return\n"); stack(); @s["syscall-return", stack()] = count(); }

END { printf("@A\n"); printa(@s); }
