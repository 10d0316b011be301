/* A library file for tests/d/dlib/err.D_PRAGMA_DEPEND.circular.d: needs two.d. */
#pragma D depends_on library two.d

inline int cycle_one = 1;
