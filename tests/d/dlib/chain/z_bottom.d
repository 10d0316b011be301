/*
 * A library file for tests/d/dlib/tst.depends_chain.d: the bottom of the
 * chain, depending on nothing.
 */
inline int chain_bottom = 4;
