#!/usr/bin/python3
"""tools/check_reading.py: docs/reading-order.md reaches every source file,
and every file of code says what tests it.

    tools/check_reading.py         (from anywhere; checks the tracked files)

The reading order is how a newcomer finds their way; a file it never names
is a file nobody is told to read.  A source file is one of the tree's C,
assembly, header, table (.def), linker script, makefile or tool files under
the directories below.  It is reached when the page names it by its path in
backquotes (`trace/spec.c`), when the page names its directory with a
trailing slash (`userland/bin/`: every file directly inside), or, for a
header or table, when the file of the same stem is reached (`kernel/xcall.c`
reaches `kernel/xcall.h`).

Every C and assembly file of the system (the directories in CODE, not the
small programs of userland/bin/) ends its opening comment with a line
"Tests: ..." naming the self-tests, test folders and unit tests that check
it, so that a mechanism's tests can be found from its file.

Fails naming each unreached file and each file without its Tests: line;
exit status 0 when there is none.  Run by `make check` (check-deps).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
PAGE = "docs/reading-order.md"
DIRS = ("arch/", "boot/", "dif/", "dlang/", "kernel/", "trace/", "userland/", "tools/", "mk/")
TOP = ("Makefile", "linker.ld")
EXTS = (".c", ".h", ".asm", ".S", ".def", ".ld", ".mk", ".py", ".sh", ".cfg")
PAIRED = (".h", ".def")
NAMED = re.compile(r"`([A-Za-z0-9_./-]+)`")
CODE = ("arch/", "boot/", "dif/", "dlang/", "kernel/", "trace/", "console/dtrace/",
        "userland/libc/", "console/shell/", "console/workloads/")
CODE_EXTS = (".c", ".asm", ".S")


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE).stdout
    return [p for p in out.decode().split("\0") if p]


def is_source(path):
    if path in TOP:
        return True
    if not path.startswith(DIRS):
        return False
    if path.endswith(EXTS):
        return True
    # extensionless tools (tools/dtrace, tools/flamegraph) are programs too
    return path.startswith("tools/") and "." not in os.path.basename(path)


def reached(path, names):
    if path in names or os.path.dirname(path) + "/" in names:
        return True
    stem, ext = os.path.splitext(path)
    if ext in PAIRED:
        return any(stem + e in names for e in (".c", ".asm", ".S"))
    return False


def opening_comment(path):
    """The file's first comment: a /* */ block, or the leading ; lines of assembly."""
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        text = f.read()
    if path.endswith(".asm"):
        return "\n".join(l for l in text.splitlines()[:80] if l.startswith(";"))
    m = re.match(r"\s*/\*.*?\*/", text, re.S)
    return m.group(0) if m else ""


def says_tests(path):
    if not (path.startswith(CODE) and path.endswith(CODE_EXTS)):
        return True
    return re.search(r"^\s*(\*|;)\s*Tests:", opening_comment(path), re.M) is not None


def main():
    with open(os.path.join(ROOT, PAGE), encoding="utf-8") as f:
        names = set(NAMED.findall(f.read()))
    files = tracked()
    missing = [p for p in files if is_source(p) and not reached(p, names)]
    for p in missing:
        print("%s: not reached by any step of %s (name it there)" % (p, PAGE))
    untested = [p for p in files if is_source(p) and not says_tests(p)]
    for p in untested:
        print("%s: its opening comment has no \"Tests:\" line (docs/adding.md)" % p)
    return 1 if missing or untested else 0


if __name__ == "__main__":
    sys.exit(main())
