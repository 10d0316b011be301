BEGIN { printf("@T BEGIN\n"); stack(); @s["BEGIN", stack()] = count(); }
sysinfo:::xcalls /pid == $target/ { printf("@T xcalls\n"); stack(); @s["xcalls", stack()] = count(); }
fbt::proc_munmap:entry /pid == $target/ { printf("@T fbt-entry\n"); stack(); @s["fbt-entry", stack()] = count(); }
fbt::proc_munmap:return /pid == $target/ { printf("@T fbt-return\n"); stack(); @s["fbt-return", stack()] = count(); }
sdt:::cyclic-fire { printf("@T cyclic-fire\n"); stack(); @s["cyclic-fire", stack()] = count(); }
sched:::on-cpu { printf("@T on-cpu\n"); stack(); @s["on-cpu", stack()] = count(); }
lockstat:::spin-acquire /pid == $target/ { printf("@T spin-acquire\n"); stack(); @s["spin-acquire", stack()] = count(); }
proc:::exit /pid == $target/ { printf("@T proc-exit\n"); stack(); @s["proc-exit", stack()] = count(); }
pid$target::main:entry { printf("@T pid-main\n"); stack(); @s["pid-main", stack()] = count(); }
ERROR { printf("@T ERROR\n"); stack(); @s["ERROR", stack()] = count(); }
END { printf("@T END\n"); stack(); @s["END", stack()] = count(); }
fbt::proc_munmap:entry /pid == $target/ { trace(*(int *)8); }
END { printf("@A\n"); printa(@s); }
