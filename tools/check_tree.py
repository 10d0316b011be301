#!/usr/bin/python3
"""tools/check_tree.py: the tree stands alone.

    tools/check_tree.py            (from anywhere; checks the tracked files)

Fails, naming each FILE:LINE, when a tracked file refers to something
outside the repository:

  - a path on the machine the tree was written on (the workspace root or
    a sibling folder next to the checkout: "/" "work/", "../" "shared");
  - in README.md and docs/ (labs included), a Markdown link [text](target)
    whose target is not a file of the tree (links to http(s) pages are
    fine: they are references, not parts), or a backquoted path of the
    tree (`kernel/bcache.c`, `userland/bin/`) that names no tracked file or
    folder.  Not checked: paths under build/ (made by the build), paths
    with a placeholder (a word in capitals: `tests/d/TOPIC/tst.NAME.d`) or
    a wildcard, and labs/student/ below its README (a student's own files,
    which `make lab-start` and the student make).

Exit status 0 when nothing was found.  Run by `make check` (check-deps).
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
# Spelled in pieces so that this file does not match itself.
OUTSIDE = re.compile("(" + "/" + "work/" + "|" + r"\.\./" + "shared" + ")")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
TOPS = "arch|kernel|trace|dlang|userland|tools|tests|docs|mk|scripts|disk|labs|boot|build|\\.ci"
TREEREF = re.compile(r"`((?:%s)/[A-Za-z0-9_.*/<>{}+-]*)`" % TOPS)
PLACEHOLDER = re.compile(r"(?<![A-Za-z])(?!README)[A-Z][A-Z0-9_]*[A-Z](?![a-z])|[*<>{}]")


def tracked():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True,
                         stdout=subprocess.PIPE).stdout
    return [p for p in out.decode().split("\0") if p]


def text_of(path):
    try:
        with open(os.path.join(ROOT, path), "rb") as f:
            data = f.read()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", "replace")


def link_target_ok(md, target):
    if re.match(r"[a-z]+:", target) or target.startswith("#"):
        return True
    target = target.split("#")[0]
    full = os.path.normpath(os.path.join(ROOT, os.path.dirname(md), target))
    return full.startswith(ROOT + os.sep) and os.path.exists(full)


def tree_ref_ok(ref, names):
    if ref.startswith("build/") or PLACEHOLDER.search(ref):
        return True
    if ref.startswith("labs/student/") and ref != "labs/student/README.md":
        return True
    return ref.rstrip("/") in names


def tracked_names(paths):
    """Every tracked file and every folder that holds one."""
    names = set(paths)
    for p in paths:
        while "/" in p:
            p = p.rsplit("/", 1)[0]
            names.add(p)
    return names


def check_file(path, text, names):
    bad = []
    is_doc = path == "README.md" or (path.startswith("docs/") and path.endswith(".md"))
    for n, line in enumerate(text.splitlines(), 1):
        if OUTSIDE.search(line):
            bad.append("%s:%d: refers outside the tree: %s" % (path, n, line.strip()))
        if not is_doc:
            continue
        for target in LINK.findall(line):
            if not link_target_ok(path, target):
                bad.append("%s:%d: link to a file not in the tree: %s" % (path, n, target))
        for ref in TREEREF.findall(line):
            if not tree_ref_ok(ref, names):
                bad.append("%s:%d: names a file not in the tree: %s" % (path, n, ref))
    return bad


def main():
    bad = []
    paths = tracked()
    names = tracked_names(paths)
    for path in paths:
        text = text_of(path)
        if text is not None:
            bad += check_file(path, text, names)
    for b in bad:
        print("check-tree: " + b)
    if not bad:
        print("check-tree: the tree refers only to itself")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
