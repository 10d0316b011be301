#!/usr/bin/python3
"""stackcollapse.py - dtrace stack aggregations to folded stacks (for flame graphs).

    tools/dtrace --shell "run spin; dtrace -n 'profile-997 { @[stack()] = count(); }
        tick-5s { exit(0); }'" > out.txt          (or any saved dtrace output)
    tools/stackcollapse.py out.txt > out.folded

dtrace prints an aggregation keyed by stack() as blocks: the frames, one per
line, innermost first, indented, then the value on a line of its own:

              kernel`spin_mix+0x1a
              kernel`spin_block+0x2c
              kernel`thread_start+0x22
              997

The folded format has one line per stack, outermost frame first, frames
joined by ';', then a space and the value:

    thread_start;spin_block;spin_mix 997

Offsets (+0x1a) are dropped so that samples in one function merge, and so is
the module prefix (kernel`) unless --keep-module; identical stacks are summed.
Other output (headers, dtrace: messages, unindented lines) is skipped.
Aggregations keyed by more than one stack() are not supported.

Self-check: python3 -m doctest tools/stackcollapse.py
"""
import argparse
import re
import sys

FRAME = re.compile(r"^\s+(\S.*?)\s*$")
VALUE = re.compile(r"^\s+(-?\d+)\s*$")
OFFSET = re.compile(r"\+0x[0-9a-fA-F]+$")


def frame_name(text, keep_module):
    """
    >>> frame_name("kernel`spin_mix+0x1a", False)
    'spin_mix'
    >>> frame_name("kernel`spin_mix+0x1a", True)
    'kernel`spin_mix'
    >>> frame_name("0xffffffff80101234", False)
    '0xffffffff80101234'
    """
    name = OFFSET.sub("", text.strip())
    if not keep_module and "`" in name:
        name = name.split("`", 1)[1]
    return name.replace(";", ":").replace(" ", "_")


def collapse(lines, keep_module=False):
    """Folded stacks -> summed values, in first-seen order.

    >>> out = collapse(['', '  kernel`b+0x1', '  kernel`a+0x2', '    5', '',
    ...                 '  kernel`b+0x9', '  kernel`a+0x2', '    2', '',
    ...                 '  kernel`c', '  kernel`a+0x4', '    1'])
    >>> [(k, v) for k, v in out.items()]
    [('a;b', 7), ('a;c', 1)]
    """
    totals = {}
    frames = []
    for line in lines:
        line = line.rstrip("\n")
        m = VALUE.match(line)
        if m and frames:
            key = ";".join(reversed(frames))
            totals[key] = totals.get(key, 0) + int(m.group(1))
            frames = []
            continue
        m = FRAME.match(line)
        if m and not line.startswith("dtrace:"):
            frames.append(frame_name(m.group(1), keep_module))
        else:
            frames = []                  # a blank or unindented line ends a block
    return totals


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file", nargs="?", help="dtrace output (default: standard input)")
    ap.add_argument("--keep-module", action="store_true", help="keep the module` prefix")
    args = ap.parse_args()
    src = open(args.file) if args.file else sys.stdin
    with src:
        totals = collapse(src, args.keep_module)
    for key, value in totals.items():
        print("%s %d" % (key, value))
    return 0


if __name__ == "__main__":
    sys.exit(main())
