/*
 * Asserts D_DECL_SIGNINT: a sign with a typedef name is refused: DTrace checks the specifier, not what it names.
 */
signed uint32_t u;
