/*
 * Asserts D_IDENT_BADREF: inlines defined by inlines nest only so deep (each
 * use is two of the compiler's 32 levels, so i16 is too deep), and the
 * message names the limit.
 */
inline int i0 = 1;
inline int i1 = i0;
inline int i2 = i1;
inline int i3 = i2;
inline int i4 = i3;
inline int i5 = i4;
inline int i6 = i5;
inline int i7 = i6;
inline int i8 = i7;
inline int i9 = i8;
inline int i10 = i9;
inline int i11 = i10;
inline int i12 = i11;
inline int i13 = i12;
inline int i14 = i13;
inline int i15 = i14;
inline int i16 = i15;
inline int i17 = i16;
inline int i18 = i17;
inline int i19 = i18;
inline int i20 = i19;
inline int i21 = i20;
inline int i22 = i21;
inline int i23 = i22;
inline int i24 = i23;
inline int i25 = i24;
inline int i26 = i25;
inline int i27 = i26;
inline int i28 = i27;
inline int i29 = i28;
inline int i30 = i29;
inline int i31 = i30;
inline int i32 = i31;
inline int i33 = i32;

BEGIN
{
	trace(i33);
}
