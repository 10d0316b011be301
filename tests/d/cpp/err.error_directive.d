/*
 * dtrace -C: #error stops the run with cpp's diagnostic (file, line,
 * column of the directive's name) and DTrace's "Preprocessor failed to
 * process input program", exit status 1.
 */
/* @@options: -C -D VERSION=1 */
#if VERSION < 2
#error this script needs VERSION 2
#endif
BEGIN { exit(0); }
