/*
 * dtc_json.c - structured output: -x oformat=json.
 *
 * With oformat=json the consumer writes JSON Lines on standard output: one
 * JSON object, then a newline, per thing it would otherwise print as text.
 * Every line parses on its own (python3 -m json.tool accepts each), and the
 * bytes depend only on what was traced (no timestamps, no addresses of the
 * consumer's own memory), so golden files can hold them.  The kinds:
 *
 *   {"type":"probe", "cpu", "id", "provider", "module", "function", "name",
 *    "output":[...]}                  a record of an enabled probe; output
 *                                     holds one element per action that
 *                                     prints (trace, printf, stack, ...)
 *   {"type":"aggregation", "name", "function", "keys":[...], "value"}
 *                                     one entry (histograms: "buckets")
 *   {"type":"error", ...}             a fault (also reported on stderr)
 *   {"type":"drop", "kind", "count", "message"[, "cpu"]}  lost records
 *
 * The field names of a probe record are FreeBSD libdtrace's (its
 * oformat=json names a probe's cpu, id, provider, module, function and
 * name so); the rest, and the choice of one object a line rather than one
 * document, are Sonde's, described in docs/output.md.  quiet leaves out
 * the probe records with nothing in "output" (a clause that only assigns,
 * or only exits), as quiet text output shows only what the actions print.
 *
 * Strings are escaped byte by byte: ", \ and control characters as JSON
 * escapes, bytes 0x7f and above as \u00XX (read as Latin-1), so any bytes
 * a probe recorded still make valid JSON.  Thread context.
 *
 * Tests: tests/d/json; tests/e2e/test_json.py
 */
#include "kernel/klib.h"
#include "kernel/ksym.h"
#include "kernel/mem.h"
#include "console/dtrace/dtc.h"

#define JSON_TEXTMAX 4096                      /* a printf's text is cut here */

static const char *const agg_func_names[] = {
	[DT_AGG_COUNT] = "count", [DT_AGG_SUM] = "sum", [DT_AGG_AVG] = "avg",
	[DT_AGG_MIN] = "min", [DT_AGG_MAX] = "max", [DT_AGG_STDDEV] = "stddev",
	[DT_AGG_QUANTIZE] = "quantize", [DT_AGG_LQUANTIZE] = "lquantize",
	[DT_AGG_LLQUANTIZE] = "llquantize",
};

/* ---- JSON values ---- */

/* json_str: n bytes as a JSON string (stops early at a NUL). */
static void json_strn(const char *s, size_t n)
{
	char esc[8];

	dtc_outn("\"", 1);
	for (size_t i = 0; i < n && s[i] != 0; i++) {
		unsigned char c = (unsigned char)s[i];
		size_t run = i;
		while (run < n && s[run] != 0 && (unsigned char)s[run] >= 0x20 &&
		       (unsigned char)s[run] < 0x7f && s[run] != '"' && s[run] != '\\')
			run++;
		if (run > i) {                           /* plain characters, in one write */
			dtc_outn(s + i, run - i);
			i = run - 1;
			continue;
		}
		if (c == '"' || c == '\\')
			ksnprintf(esc, sizeof(esc), "\\%c", c);
		else if (c == '\n')
			kstrlcpy(esc, "\\n", sizeof(esc));
		else if (c == '\t')
			kstrlcpy(esc, "\\t", sizeof(esc));
		else
			ksnprintf(esc, sizeof(esc), "\\u%04x", c);
		dtc_outn(esc, strlen(esc));
	}
	dtc_outn("\"", 1);
}

static void json_str(const char *s)
{
	json_strn(s, strlen(s));
}

/* json_field: ,"name": (first: without the comma). */
static void json_field(const char *name, bool first)
{
	if (!first)
		dtc_outn(",", 1);
	json_str(name);
	dtc_outn(":", 1);
}

/* json_int: an integer of size bytes, sign-extended or not, as a JSON number. */
static void json_int(int64_t v, uint32_t size, bool sgn)
{
	int k = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3;

	if (sgn)
		dtc_out("%lld", (long long)(k == 0 ? (int8_t)v : k == 1 ? (int16_t)v :
		                            k == 2 ? (int32_t)v : v));
	else
		dtc_out("%llu", (unsigned long long)(k == 0 ? (uint8_t)v : k == 1 ? (uint16_t)v :
		                                     k == 2 ? (uint32_t)v : (uint64_t)v));
}

static void json_bytes(const uint8_t *p, uint32_t n)
{
	dtc_outn("[", 1);
	for (uint32_t i = 0; i < n; i++)
		dtc_out(i ? ",%u" : "%u", p[i]);
	dtc_outn("]", 1);
}

/* json_stack: frames as an array of "kernel`func+0x1c" strings (up to the first 0). */
static void json_stack(const uint64_t *pcs, uint32_t n)
{
	char sym[160];

	dtc_outn("[", 1);
	for (uint32_t i = 0; i < n && pcs[i] != 0; i++) {
		if (i)
			dtc_outn(",", 1);
		dtc_frame_name(pcs[i], sym, sizeof(sym));
		json_str(sym);
	}
	dtc_outn("]", 1);
}

/* json_probe: the probe's names, FreeBSD's fields (after "type"). */
static void json_probe(const dtrace_epinfo_t *ei)
{
	const dtrace_probedesc_t *pd = &ei->dei_desc;

	json_field("id", false);
	dtc_out("%u", ei->dei_probe);
	json_field("provider", false);
	json_str(pd->dpd_provider);
	json_field("module", false);
	json_str(pd->dpd_mod);
	json_field("function", false);
	json_str(pd->dpd_func);
	json_field("name", false);
	json_str(pd->dpd_name);
}

/* ---- records ---- */

/* json_trace: trace()'s datum by its type: a number, a string, or bytes. */
static void json_trace(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	const dif_difo_t *dp = a->ac_args[0];
	int64_t v;

	if (dp->dd_rtype.dt_kind == DIF_TYPE_STRING) {
		json_strn((const char *)data, d->dc_ov.dov_strsize);
	} else if (dp->dd_rtype.dt_kind == DIF_TYPE_BLOB &&
	           !dtc_is_text(data, dp->dd_rtype.dt_size)) {    /* judged by its bytes, as text output */
		json_bytes(data, dp->dd_rtype.dt_size);
	} else if (dp->dd_rtype.dt_kind == DIF_TYPE_BLOB) {
		json_strn((const char *)data, dp->dd_rtype.dt_size);
	} else {
		memcpy(&v, data, 8);
		json_int(v, dp->dd_rtype.dt_size ? dp->dd_rtype.dt_size : 8,
		         (dp->dd_rtype.dt_flags & DIF_TF_SIGNED) != 0);
	}
}

/* json_text: the action's printed text (printf, print, sym, ...) as a string. */
static void json_text(struct dtc *d, const dt_action *a, const uint8_t *data)
{
	char *buf = kmalloc(JSON_TEXTMAX);

	if (buf == NULL) {
		json_str("");
		return;
	}
	size_t n = dtc_action_text(d, a, data, buf, JSON_TEXTMAX);
	json_strn(buf, n);
	kfree(buf);
}

static const char *const action_names[] = {
	[DT_ACT_TRACE] = "trace", [DT_ACT_PRINTF] = "printf", [DT_ACT_PRINT] = "print",
	[DT_ACT_STACK] = "stack", [DT_ACT_USTACK] = "ustack", [DT_ACT_TRACEMEM] = "tracemem",
	[DT_ACT_SYM] = "sym", [DT_ACT_MOD] = "mod",
};

/* action_name: the "action" of an element of "output"; NULL if the action prints nothing. */
static const char *action_name(const dt_action *a)
{
	return (size_t)a->ac_kind < ARRAY_SIZE(action_names) ? action_names[a->ac_kind] : NULL;
}

/* json_action: one element of "output"; false if the action prints nothing. */
static bool json_action(struct dtc *d, const dt_action *a, const uint8_t *data, bool first)
{
	const char *name = action_name(a);

	if (name == NULL)
		return false;
	if (!first)
		dtc_outn(",", 1);
	dtc_outn("{", 1);
	json_field("action", true);
	json_str(name);
	json_field("value", false);
	if (a->ac_kind == DT_ACT_TRACE)
		json_trace(d, a, data);
	else if (a->ac_kind == DT_ACT_STACK)
		json_stack((const uint64_t *)data, (uint32_t)(a->ac_arg ? a->ac_arg : d->dc_ov.dov_stackframes));
	else if (a->ac_kind == DT_ACT_USTACK)
		json_stack((const uint64_t *)data, 1);
	else if (a->ac_kind == DT_ACT_TRACEMEM)
		json_bytes(data, (uint32_t)dtc_tracemem_size(a, data));
	else
		json_text(d, a, data);
	dtc_outn("}", 1);
	return true;
}

/*
 * json_consumer_actions: what the consumer does for a record besides
 * printing it (setopt, printa, clear, trunc, normalize), in order.
 */
static void json_consumer_action(struct dtc *d, const dt_action *a, uint32_t epid,
                                 const uint8_t *data)
{
	int64_t v;

	memcpy(&v, data, 8);
	switch (a->ac_kind) {
	case DT_ACT_SETOPT: dtc_setopt(d, a, epid); break;
	case DT_ACT_CLEAR: case DT_ACT_TRUNC: case DT_ACT_NORMALIZE: case DT_ACT_DENORMALIZE:
		dtc_agg_apply(d, a, v);
		break;
	default: break;
	}
}

static void json_probe_record(struct dtc *d, int cpu, const dtrace_epinfo_t *ei,
                              const dt_clause *cl, const uint8_t *data)
{
	bool first = true;

	dtc_out("{\"type\":\"probe\",\"cpu\":%d", cpu);
	json_probe(ei);
	json_field("output", false);
	dtc_outn("[", 1);
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {
		const dt_action *a = &cl->cl_acts[i];
		if (json_action(d, a, data, first))
			first = false;
		data += dtrace_action_size(a, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
	}
	dtc_outn("]}\n", 3);
}

void dtc_json_record(struct dtc *d, int cpu, const dtrace_rechdr_t *h)
{
	const dtrace_epinfo_t *ei = &d->dc_epinfo[h->dtrh_epid - 1];
	const dt_clause *cl = &d->dc_prog->dp_clauses[ei->dei_clause];
	const uint8_t *data = (const uint8_t *)(h + 1);
	bool shown = !d->dc_quiet;

	for (uint32_t i = 0; i < cl->cl_nacts && !shown; i++)
		shown = action_name(&cl->cl_acts[i]) != NULL;
	if (shown)
		json_probe_record(d, cpu, ei, cl, data);
	for (uint32_t i = 0; i < cl->cl_nacts; i++) {       /* then printa, clear, setopt ... */
		const dt_action *a = &cl->cl_acts[i];
		if (a->ac_kind == DT_ACT_PRINTA)
			dtc_json_printa(d, a);
		else
			json_consumer_action(d, a, h->dtrh_epid, data);
		data += dtrace_action_size(a, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
	}
}

/* ---- aggregations ---- */

static void json_keys(struct dtc *d, const dt_aggdesc *ag, const struct dtc_aggent *e)
{
	uint32_t off = 0;
	char sym[160];

	dtc_outn("[", 1);
	for (uint32_t k = 0; k < ag->ag_nkeys && off < e->ae_keylen; k++) {
		const dt_keytype *kt = &ag->ag_keys[k];
		uint32_t len = dtrace_agg_keysize(kt, d->dc_ov.dov_strsize, d->dc_ov.dov_stackframes);
		const uint8_t *p = e->ae_key + off;
		int64_t v;
		memcpy(&v, p, 8);
		if (k)
			dtc_outn(",", 1);
		if (kt->kt_kind == DT_KEY_STACK || kt->kt_kind == DT_KEY_USTACK) {
			json_stack((const uint64_t *)p, len / 8);
		} else if (kt->kt_kind == DT_KEY_SYM || kt->kt_kind == DT_KEY_MOD) {
			dtc_print_sym((uint64_t)v, false, sym, sizeof(sym));
			if (kt->kt_kind == DT_KEY_MOD && strchr(sym, '`'))
				*strchr(sym, '`') = 0;
			json_str(sym);
		} else if (kt->kt_string) {
			json_strn((const char *)p, MIN(len, e->ae_keylen - off));
		} else {
			json_int(v, kt->kt_size, kt->kt_signed);
		}
		off += len;
	}
	dtc_outn("]", 1);
}

/* json_bucket_bound: the value column of bucket i, and whether it is an open end (< or >=). */
static int64_t json_bucket_bound(const dt_aggdesc *ag, uint32_t i, uint32_t n, const char **open)
{
	*open = NULL;
	if (ag->ag_func == DT_AGG_QUANTIZE)
		return dtc_agg_bucket_value(ag, i);
	if (i == 0) {
		*open = "underflow";
		return ag->ag_func == DT_AGG_LQUANTIZE ? ag->ag_params[0] :
		       dtc_agg_bucket_value(ag, 1);
	}
	if (i == n - 1)
		*open = "overflow";
	return dtc_agg_bucket_value(ag, i);
}

/* json_buckets: a histogram's buckets that hold something, low to high. */
static void json_buckets(struct dtc *d, const dt_aggdesc *ag, const struct dtc_aggent *e)
{
	bool first = true;

	dtc_outn("[", 1);
	for (uint32_t i = 0; i < e->ae_nvals; i++) {
		const char *open;
		if (e->ae_vals[i] == 0)
			continue;
		int64_t bound = json_bucket_bound(ag, i, e->ae_nvals, &open);
		dtc_out("%s{\"value\":%lld", first ? "" : ",", (long long)bound);
		if (open != NULL)
			dtc_out(",\"%s\":true", open);
		dtc_out(",\"count\":%lld}", (long long)dtc_agg_normal(d, e->ae_aggid, e->ae_vals[i]));
		first = false;
	}
	dtc_outn("]", 1);
}

static void json_agg_entry(struct dtc *d, const struct dtc_aggent *e)
{
	const dt_aggdesc *ag = dtc_agg_desc(d, e->ae_aggid);
	bool hist = ag->ag_func == DT_AGG_QUANTIZE || ag->ag_func == DT_AGG_LQUANTIZE ||
	            ag->ag_func == DT_AGG_LLQUANTIZE;

	dtc_out("{\"type\":\"aggregation\"");
	json_field("name", false);
	json_str(ag->ag_name);
	json_field("function", false);
	json_str((size_t)ag->ag_func < ARRAY_SIZE(agg_func_names) && agg_func_names[ag->ag_func] ?
	         agg_func_names[ag->ag_func] : "?");
	json_field("keys", false);
	json_keys(d, ag, e);
	if (hist) {
		json_field("buckets", false);
		json_buckets(d, ag, e);
	} else {
		int64_t v = dtc_agg_normal(d, e->ae_aggid, (int64_t)dtc_agg_sortval(d, e));
		json_field("value", false);
		dtc_out(ag->ag_func == DT_AGG_STDDEV ? "%llu" : "%lld", (long long)v);
	}
	dtc_outn("}\n", 2);
}

void dtc_json_agg(struct dtc *d, uint32_t aggid)
{
	uint32_t n;
	void **v = dtc_agg_sorted(d, aggid, &n);

	for (uint32_t i = 0; i < n; i++)
		json_agg_entry(d, v[i]);
	kfree(v);
}

/*
 * dtc_json_printa: printa(@a, @b) and printa(fmt, @a): each aggregation's
 * entries in turn, as at the end (a format shapes text, not data).
 */
void dtc_json_printa(struct dtc *d, const dt_action *a)
{
	dtc_agg_snapshot(d);
	for (uint32_t i = 0; i < a->ac_naggs; i++) {
		d->dc_agg_printed[a->ac_aggs[i]] = true;
		dtc_json_agg(d, a->ac_aggs[i]);
	}
}

/* ---- errors and drops ---- */

void dtc_json_error(struct dtc *d, const dtrace_errrec_t *r, const dtrace_epinfo_t *ei,
                    const char *fault, const char *where)
{
	(void)d;
	dtc_out("{\"type\":\"error\",\"epid\":%u", r->der_epid);
	if (ei != NULL)
		json_probe(ei);
	json_field("fault", false);
	json_str(fault);
	json_field("where", false);
	json_str(where);
	if (r->der_fault == 1 || r->der_fault == 2 || r->der_fault == 9)
		dtc_out(",\"address\":%lu", r->der_addr);
	if (r->der_pc != UINT32_MAX)
		dtc_out(",\"offset\":%u", r->der_pc);
	dtc_outn("}\n", 2);
}

void dtc_json_drop(struct dtc *d, const char *tag, uint64_t n, const char *what,
                   const char *suffix)
{
	char msg[160];
	const char *oncpu = " on CPU ";

	(void)d;
	ksnprintf(msg, sizeof(msg), "%lu %s%s%s", n, what, n == 1 ? "" : "s", suffix);
	dtc_out("{\"type\":\"drop\",\"kind\":");
	json_str(tag);
	dtc_out(",\"count\":%lu", n);
	if (strncmp(suffix, oncpu, strlen(oncpu)) == 0)
		dtc_out(",\"cpu\":%s", suffix + strlen(oncpu));
	json_field("message", false);
	json_str(msg);
	dtc_outn("}\n", 2);
}
