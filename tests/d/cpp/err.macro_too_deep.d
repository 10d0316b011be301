/*
 * dtrace -C: macros expand within macros at most 16 deep, and the message
 * names the limit.
 */
/* @@options: -C */
#define M0 M1
#define M1 M2
#define M2 M3
#define M3 M4
#define M4 M5
#define M5 M6
#define M6 M7
#define M7 M8
#define M8 M9
#define M9 M10
#define M10 M11
#define M11 M12
#define M12 M13
#define M13 M14
#define M14 M15
#define M15 M16
#define M16 M17
#define M17 1
BEGIN { trace(M0); exit(0); }
