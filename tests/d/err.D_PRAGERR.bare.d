/*
 * Asserts D_PRAGERR: a bare #error is one of DTrace's directives too; the
 * message joins the words, a string without its quotes, each followed by
 * a space.
 */
#error "stop" here
