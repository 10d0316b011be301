profile-997 /arg1 != 0/ { printf("@T profile-user\n"); stack(); @s["profile-user", stack()] = count(); }
profile-997 /arg0 != 0/ { printf("@T profile-kernel\n"); stack(); @s["profile-kernel", stack()] = count(); }

END { printf("@A\n"); printa(@s); }
