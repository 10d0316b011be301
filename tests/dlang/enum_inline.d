/* Pins the DIF for: enumerators and inlines expand to their values. */
enum color { RED, GREEN = 5, BLUE };
inline int twice = BLUE * 2;
BEGIN
{
	trace(twice + GREEN);
}
