/*
 * ASSERTION: print() prints a value by its D type as illumos's libdtrace
 * does: the type's name, then the value; a struct's members one a line as
 * "TYPE NAME = VALUE", indented four spaces a level, nested structs in
 * braces, bit-fields with their width, arrays in brackets (a char array
 * holding a string as that string), integers and pointers in hex (0 as 0,
 * a negative short at its width), strings quoted; each print() ends its
 * line.
 */
/* @@options: -q */

struct inner {
	short s;
	char name[8];
};

struct outer {
	int a;
	unsigned int flag : 3;
	struct inner in;
	int arr[3];
	char *p;
	double d;
};

struct outer o;
struct inner i;

BEGIN
{
	o.a = 42;
	o.flag = 5;
	o.in.s = -1;
	o.p = (char *)0x1000;
	o.d = (double)0x3ff8000000000000;
	print(o);
	print(i);
	print(10);
	print((short)-1);
	print((uint8_t)200);
	print("text");
	print(o.arr);
	print((void *)0);
	exit(0);
}
