"""The facts README.md and docs/ state about the running system, checked
against the system (issue: docs that make check keeps true).

- The providers: README.md's "Providers (...)" paragraph names, in
  backquotes, every provider `dtrace -l` lists in a booted guest, plus
  `pid` (whose probes exist once there is a process: `-c`), and nothing
  else; docs/providers.md has a "## name: ..." section for each of them.
- The paths the docs name are checked on the host by tools/check_tree.py
  (make check-deps), not here.

One guest for the listing (about a second), one for pid's.
"""

import os
import re
import subprocess

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def listed_providers(*args):
    """The provider column of `dtrace -l ARGS` in a fresh guest."""
    r = subprocess.run([TOOL, "--disk", "none", "-l"] + list(args), capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines and lines[0].split()[:2] == ["ID", "PROVIDER"], r.stdout[:500]
    return {line.split()[1] for line in lines[1:] if line.strip()}


def readme_providers():
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    m = re.search(r"^Providers \(.*?(?=\n\n)", text, re.S | re.M)
    assert m, "README.md has no paragraph starting 'Providers ('"
    return set(re.findall(r"`([a-z]+)`", m.group(0)))


def documented_sections():
    """Provider names of docs/providers.md's headings ("## io and fsinfo: ...")."""
    names = set()
    with open(os.path.join(ROOT, "docs", "providers.md")) as f:
        for line in f:
            m = re.match(r"## ([^:]+):", line)
            if m:
                names |= set(re.split(r",\s*|\s+and\s+", m.group(1).strip()))
    return names


def test_readme_names_every_provider_and_no_other():
    live = listed_providers()
    assert {"dtrace", "fbt", "sdt", "syscall"} <= live, live
    live |= {p.rstrip("0123456789") for p in
             listed_providers("-n", "pid$target::main:entry", "-c", "/bin/true")}
    assert "pid" in live
    named = readme_providers()
    assert named == live, ("README.md names %s; the system has %s"
                           % (sorted(named - live), sorted(live - named)))


def test_providers_md_has_a_section_for_each():
    live = listed_providers()
    missing = live - documented_sections()
    assert not missing, "docs/providers.md has no section for %s" % sorted(missing)
