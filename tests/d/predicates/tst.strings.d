/*
 * ASSERTION: predicates compare strings by content with == != < >.
 */
#pragma D option quiet

BEGIN /probename == "BEGIN"/ { printf("name matches\n"); }
BEGIN /probename != "END"/ { printf("not END\n"); }
BEGIN /"abc" < "abd"/ { printf("abc < abd\n"); }
BEGIN /"b" > "abc"/ { printf("b > abc\n"); }
BEGIN /"abc" > "abd"/ { printf("must not print\n"); }
BEGIN /probeprov == "sdt"/ { printf("must not print\n"); }
BEGIN { exit(0); }
