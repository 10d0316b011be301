/* Pins the DIF for: stores into members and elements of struct/array D variables (copy to scratch, store, store back), zeroed reads of unset ones, run-time bounds checks. */
struct point { int x; int y; };
struct point p;
int arr[4];
BEGIN
{
	p.x = 3;
	p.y = -4;
	arr[0] = 1;
	arr[3] = 8;
	arr[pid % 4] += 2;
	printf("%d %d %d %d %d\n", p.x, p.y, arr[0], arr[3], sizeof (p));
	trace(arr[arg0]);
}
