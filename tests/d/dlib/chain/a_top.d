/*
 * A library file for tests/d/dlib/tst.depends_chain.d: uses what
 * m_middle.d defines, so it must be compiled after it.
 */
#pragma D depends_on library m_middle.d

inline int chain_top = chain_middle * 10;
