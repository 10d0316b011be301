/*
 * Asserts D_DECL_CHARATTR: long with char is refused (DTrace's attribute check, before D_DECL_COMBO).
 */
long char c;
