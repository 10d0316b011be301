/*
 * A library file for tests/d/dlib/tst.depends_chain.d: uses z_bottom.d's
 * inline, so it must come after it, though its name sorts first.
 */
#pragma D depends_on library z_bottom.d

inline int chain_middle = chain_bottom + 1;
