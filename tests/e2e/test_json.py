"""-x oformat=json: the output is JSON Lines that python3 -m json.tool accepts
line by line, for every record kind (probe records with trace, printf,
stack and sym data, aggregations of every function, errors, drops, printa).

The exact bytes of each kind are pinned by the goldens in tests/d/json/
(run by tools/dtest.py); this test checks what a golden cannot: that each
line is valid JSON as a standard parser reads it, on live output, including
stacks (which change with the kernel) and a busy profile probe.
"""

import json
import os
import subprocess
import sys

import pytest

from conftest import KERNEL, ROOT

TOOL = os.path.join(ROOT, "tools", "dtrace")

PROGRAM = r"""
BEGIN { trace("esc \" \\ \t \x01 \xff"); printf("%d %s\n", 1, "two"); stack(); }
BEGIN { trace(*(int *)8); }
profile-997 { @s[stack()] = count(); @c[cpu] = count(); @q = quantize(arg0 & 0xff); }
profile-997 { @l = lquantize(arg0 & 15, 0, 10, 1); @g = llquantize(arg0 & 0xfff, 10, 0, 3, 10); }
tick-100ms /n++ == 2/ { printa(@c); printa("%@d\n", @q); exit(0); }
"""


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def json_tool_accepts(line):
    """python3 -m json.tool on one line, as a user's script would run it."""
    r = subprocess.run([sys.executable, "-m", "json.tool"], input=line.encode("latin-1"),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
    return r.returncode == 0, r.stderr.decode()


def run(*args):
    env = dict(os.environ, SONDE_TIMEOUT="60")
    r = subprocess.run([TOOL] + list(args), cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=90)
    return r.returncode, r.stdout.decode("latin-1"), r.stderr.decode("latin-1")


def test_every_line_is_json():
    status, out, err = run("-x", "oformat=json", "-x", "bufsize=4k", "-n", PROGRAM)
    assert status == 0, err
    lines = out.splitlines()
    assert lines and out.endswith("\n")
    kinds = set()
    for line in lines:
        ok, why = json_tool_accepts(line)
        assert ok, "json.tool refused %r: %s" % (line, why)
        kinds.add(json.loads(line)["type"])
    assert {"probe", "aggregation", "error"} <= kinds
    first = json.loads(lines[0])
    assert first["output"][0] == {"action": "trace", "value": "esc \" \\ \t \x01 \xff"}
    assert first["output"][2]["action"] == "stack"
    assert all(f.startswith("kernel`") for f in first["output"][2]["value"])
    stacks = [json.loads(l) for l in lines if '"name":"s"' in l]
    assert stacks and all(isinstance(s["keys"][0], list) for s in stacks)


def test_drops_are_json_too():
    status, out, err = run("-x", "oformat=json", "-x", "bufsize=64", "-n",
                           'BEGIN { trace(1); } BEGIN { trace(2); } BEGIN { trace(3); } '
                           'BEGIN { trace(4); } BEGIN { exit(0); }')
    assert status == 0, err
    drops = [json.loads(l) for l in out.splitlines() if json_tool_accepts(l)[0]
             and json.loads(l)["type"] == "drop"]
    assert drops == [{"type": "drop", "kind": "DTRACEDROP_PRINCIPAL", "count": 1, "cpu": 0,
                      "message": "1 drop on CPU 0"}]
    assert "dtrace: 1 drop on CPU 0\n" in err


def test_bad_oformat_is_refused():
    status, out, err = run("-x", "oformat=yaml", "-n", "BEGIN { exit(0); }")
    assert status == 1 and out == ""
    assert err == "dtrace: failed to set -x oformat: Invalid value for specified option\n"
