#!/usr/bin/python3
"""tools/check_figures.py: the probe-effect figures the docs quote are the
ones the bench measures.

    tools/check_figures.py [BENCH_JSON]   default build/bench/probe_effect.json

The probe effect is measured in guest instructions under -icount
(tools/bench_probe_effect.py), so it is exact and repeatable: a quoted
figure that differs from the measured one (rounded to a whole instruction)
is a doc that drifted.  Checked:

  - docs/providers.md's table "configuration | per call | added | ...": the
    first two figure columns of each row named in ROWS (the other columns
    are history: other builds, other boots);
  - each sentence in QUOTES: a pattern in a file whose number must be the
    figure's (every occurrence), and which must occur at least once, so a
    figure cannot be reworded out of the check unnoticed.

Run by `make check` (figures-check, after the bench writes the JSON) and
by `make bench`.  Exit status 0 when every figure agrees; otherwise each
disagreement is printed as FILE:LINE: quoted X, measured Y (KEY).
"""

import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

# docs/providers.md's rows: the row's first cell -> the bench's key.
ROWS = {
    "tracing compiled out (`bench_plain`, NOTRACE)": "plain",
    "fbt probes present, disabled (`bench_fbt`)": "fbt_disabled",
    "one SDT site, disabled (`bench_sdt`)": "sdt_disabled",
    "fbt entry enabled by the provider alone (no consumer)": "fbt_entry_provider",
    "fbt return enabled by the provider alone": "fbt_return_provider",
    "SDT site enabled by the provider alone, call path": "sdt_provider",
    "fbt entry enabled, `{ }`": "fbt_entry_empty",
    "fbt entry enabled, `{ @ = count(); }`": "fbt_entry_count",
    "fbt entry enabled, false predicate `/arg0 == 123456789/`": "fbt_entry_false_pred",
    "the same with 15 `+ 1` terms (30 more DIF instructions)": "fbt_entry_long_pred",
    "fbt return enabled, `{ @ = count(); }`": "fbt_return_count",
    "sdt enabled, `{ @ = count(); }`, call path": "sdt_count",
    "`@[arg0 % 1] = count()` (one key)": "agg_keys_1",
    "`@[arg0 % 10000] = count()` (a new key every call)": "agg_keys_10000",
    "`/execname == probefunc/ { @ = count(); }` (issue 35)": "fbt_entry_execname_pred",
    "`{ @[execname] = count(); }` (issue 35)": "fbt_entry_execname_key",
}

# (file, pattern with one group: the quoted "added" figure, key)
QUOTES = [
    ("README.md", r"fbt disabled \+(\d+)", "fbt_disabled"),
    ("README.md", r"an sdt site \+(\d+)", "sdt_disabled"),
    ("README.md", r"entry probe with `count\(\)` \+(\d+)", "fbt_entry_count"),
    ("docs/tracing.md", r"`count\(\)` costs \+(\d+) instructions", "fbt_entry_count"),
    ("docs/providers.md", r"fbt entry `count\(\)` \+(\d+) \(target", "fbt_entry_count"),
    ("docs/providers.md", r"fbt return `count\(\)` \+(\d+) \(", "fbt_return_count"),
    ("docs/providers.md", r"one-comparison predicate\s+\+(\d+) \(", "fbt_entry_false_pred"),
    ("docs/providers.md", r"sdt `count\(\)` \+(\d+) \(", "sdt_count"),
    ("docs/providers.md", r"`@\[arg0 % 10000\] = count\(\)` \+(\d+)\s", "agg_keys_10000"),
    ("docs/sparc64.md", r"\| fbt entry enabled, `count\(\)` \| \+(\d+) ", "fbt_entry_count"),
    ("docs/sparc64.md", r"\| fbt return enabled, `count\(\)` \| \+(\d+) ", "fbt_return_count"),
    ("docs/sparc64.md", r"\| sdt enabled, `count\(\)` \| \+(\d+) ", "sdt_count"),
]


def number(cell):
    """A table cell's figure: '**+95**' -> 95, '104' -> 104, '' -> None."""
    m = re.search(r"[-+]?\d+(\.\d+)?", cell.replace("*", ""))
    return float(m.group(0)) if m else None


def line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def check_table(bench, bad):
    path = "docs/providers.md"
    with open(os.path.join(ROOT, path)) as f:
        lines = f.read().splitlines()
    seen = set()
    for n, line in enumerate(lines, 1):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        key = ROWS.get(cells[0]) if len(cells) >= 3 else None
        if key is None:
            continue
        seen.add(key)
        per_call, added = number(cells[1]), number(cells[2])
        want_per = round(bench["insns_per_call"][key])
        want_add = round(bench["added_insns_per_call"].get(key, 0)) if key != "plain" else None
        if per_call != want_per:
            bad.append("%s:%d: per call %s, measured %s (%s)" % (path, n, cells[1], want_per, key))
        if want_add is not None and added != want_add:
            bad.append("%s:%d: added %s, measured +%s (%s)" % (path, n, cells[2], want_add, key))
    for key in sorted(set(ROWS.values()) - seen):
        bad.append("%s: no table row for %s" % (path, key))


def check_quotes(bench, bad):
    for path, pattern, key in QUOTES:
        with open(os.path.join(ROOT, path)) as f:
            text = f.read()
        want = round(bench["added_insns_per_call"][key])
        found = list(re.finditer(pattern, text))
        if not found:
            bad.append("%s: no longer quotes %s (pattern %r)" % (path, key, pattern))
        for m in found:
            if int(m.group(1)) != want:
                bad.append("%s:%d: quoted +%s, measured +%s (%s)"
                           % (path, line_of(text, m.start()), m.group(1), want, key))


def main(argv):
    src = argv[1] if len(argv) > 1 else os.path.join(ROOT, "build", "bench", "probe_effect.json")
    try:
        with open(src) as f:
            bench = json.load(f)
    except (OSError, ValueError) as e:
        print("check-figures: cannot read %s (%s): run tools/bench_probe_effect.py" % (src, e))
        return 1
    bad = []
    check_table(bench, bad)
    check_quotes(bench, bad)
    for b in bad:
        print("check-figures: " + b)
    if not bad:
        print("check-figures: %d quoted figures agree with %s"
              % (len(ROWS) * 2 - 1 + len(QUOTES), os.path.relpath(src, ROOT)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
