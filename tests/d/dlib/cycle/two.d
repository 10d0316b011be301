/* A library file for tests/d/dlib/err.D_PRAGMA_DEPEND.circular.d: needs one.d. */
#pragma D depends_on library one.d

inline int cycle_two = 2;
