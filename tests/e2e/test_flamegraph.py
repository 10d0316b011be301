"""tools/flamegraph and tools/dtrace --flamegraph.

A recorded aggregation of stack() counts (tests/e2e/data/stacks.txt, the
same data as JSON Lines in stacks.jsonl) becomes the same flame graph from
either form; the SVG's boxes have the right widths and tooltips; the
speedscope file follows speedscope's schema; and in headless Chromium
(driven through chromedriver's WebDriver HTTP interface, standard library
only) the SVG renders, hovering a box shows its function and count in the
status line, a click zooms and Reset zoom comes back.  A screenshot goes to
build/test-artifacts/flamegraph.png.  The browser test is skipped, with the
reason, when chromium or chromedriver is missing (tools/deps.sh installs
them: Debian's chromium and chromium-driver, about a minute).
"""

import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from conftest import KERNEL, ROOT

FLAMEGRAPH = os.path.join(ROOT, "tools", "flamegraph")
TOOL = os.path.join(ROOT, "tools", "dtrace")
DATA = os.path.join(ROOT, "tests", "e2e", "data")
ARTIFACTS = os.path.join(ROOT, "build", "test-artifacts")
SVG_NS = "{http://www.w3.org/2000/svg}"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"     # WebDriver's element reference key


def flamegraph(*args):
    r = subprocess.run([sys.executable, FLAMEGRAPH] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return r.returncode, r.stdout.decode(), r.stderr.decode()


def frames_of(svg_text):
    """{function: [(count, width)]} of the SVG's boxes."""
    root = ET.fromstring(svg_text)
    out = {}
    for g in root.iter(SVG_NS + "g"):
        if g.get("class") != "frame":
            continue
        rect = g.find(SVG_NS + "rect")
        out.setdefault(g.get("data-name"), []).append(
            (int(g.get("data-count")), float(rect.get("width")), g.find(SVG_NS + "title").text))
    return out


def test_text_and_json_give_the_same_graph():
    _, from_text, _ = flamegraph(os.path.join(DATA, "stacks.txt"))
    _, from_json, _ = flamegraph(os.path.join(DATA, "stacks.jsonl"))
    assert from_text == from_json
    frames = frames_of(from_text)
    assert frames["all"][0][0] == 100
    assert frames["kmalloc"] == [(25, frames["all"][0][1] * 0.25, "kmalloc (25 samples, 25.00%)")]
    assert frames["churn_round"][0][2] == "churn_round (30 samples, 30.00%)"
    assert frames["sched_idle"][0][0] == 70


def test_folded_input_and_speedscope(tmp_path):
    folded = tmp_path / "in.folded"
    folded.write_text("thread_start;a;b 3\nthread_start;a 1\nthread_start;c 6\n")
    ss = tmp_path / "out.speedscope.json"
    status, svg_text, _ = flamegraph(str(folded), "--speedscope", str(ss))
    assert status == 0
    assert frames_of(svg_text)["a"][0][0] == 4
    doc = json.loads(ss.read_text())
    assert doc["$schema"] == "https://www.speedscope.app/file-format-schema.json"
    prof = doc["profiles"][0]
    assert prof["type"] == "sampled" and prof["endValue"] == 10 == sum(prof["weights"])
    names = [f["name"] for f in doc["shared"]["frames"]]
    stacks = sorted(([names[i] for i in s], w) for s, w in zip(prof["samples"], prof["weights"]))
    assert stacks == [(["thread_start", "a"], 1), (["thread_start", "a", "b"], 3),
                      (["thread_start", "c"], 6)]


def test_no_stacks_is_an_error(tmp_path):
    empty = tmp_path / "none.txt"
    empty.write_text("CPU     ID                    FUNCTION:NAME\n")
    assert flamegraph(str(empty)) == (1, "", "flamegraph: no stack counts in the input\n")


def test_dtrace_flamegraph_option(tmp_path):
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)
    out = tmp_path / "prof.svg"
    r = subprocess.run([TOOL, "--flamegraph", str(out), "-n",
                        "profile-997 { @[stack()] = count(); } tick-500ms { exit(0); }",
                        "-c", "spin 100000"], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=90,
                       env=dict(os.environ, SONDE_TIMEOUT="60"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == b""
    assert b"tools/dtrace: flame graph of " in r.stderr
    frames = frames_of(out.read_text())
    assert frames["all"][0][0] > 0 and "thread_start" in frames


FAKE = ("              kernel`fake_leaf+0x1\n              kernel`fake_root+0x2\n"
        "              999\n\nfake_root;fake_leaf 999\n"
        '{"type":"aggregation","name":"","function":"count","keys":[["kernel`fake_json"]],')


@pytest.mark.parametrize("cpus,arch", [("1", ""), ("4", ""), ("1", "sparc64")])
def test_dtrace_flamegraph_command_output(tmp_path, cpus, arch):
    """A -c command that prints frames, counts, folded lines and a broken JSON
    record (no newline) adds no samples: only dtrace's records are drawn, and
    what the command printed reaches standard output unchanged."""
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)
    if arch and not os.path.exists(os.path.join(ROOT, "build", arch, "kernel.elf")):
        pytest.skip("build/%s/kernel.elf missing: make ARCH=%s" % (arch, arch))
    fake = tmp_path / "fake.txt"
    fake.write_text(FAKE)
    out = tmp_path / "k.svg"
    r = subprocess.run([TOOL, "--flamegraph", str(out), "--file", str(fake), "-n",
                        "fbt::kmalloc:entry { @[stack()] = count(); }",
                        "-c", "cat %s" % fake], cwd=ROOT, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=90,
                       env=dict(os.environ, SONDE_TIMEOUT="60", SONDE_CPUS=cpus,
                                SONDE_ARCH=arch))
    assert r.returncode == 0, r.stderr
    assert r.stdout.decode() == FAKE
    frames = frames_of(out.read_text())
    assert not [f for f in frames if f.startswith("fake")], sorted(frames)
    assert frames["all"][0][0] < 999


# --- the browser ----------------------------------------------------------------

class WebDriver:
    """The few WebDriver commands the test needs, over HTTP with urllib."""

    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": shutil.which("chromium"),
            "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     "--window-size=1250,400"]}}}}
        self.session = self.call("POST", "/session", caps)["sessionId"]

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as resp:
            return json.loads(resp.read())["value"]

    def cmd(self, method, path, body=None):
        return self.call(method, "/session/%s%s" % (self.session, path), body)

    def script(self, code, *args):
        return self.cmd("POST", "/execute/sync", {"script": code, "args": list(args)})

    def find(self, css):
        return self.cmd("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def hover(self, element):
        self.cmd("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "mouse", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "duration": 0, "x": 0, "y": 0,
                         "origin": {ELEMENT: element}}]}]})

    def click(self, element):
        self.cmd("POST", "/element/%s/click" % element, {})

    def close(self):
        try:
            self.call("DELETE", "/session/%s" % self.session)
        except OSError:
            pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def browser():
    chromium, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver is None:
        pytest.skip("chromium or chromedriver missing (Debian: chromium chromium-driver, "
                    "tools/deps.sh installs them)")
    port = free_port()
    proc = subprocess.Popen([driver, "--port=%d" % port], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen("http://127.0.0.1:%d/status" % port, timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        wd = WebDriver(port)
        try:
            yield wd
        finally:
            wd.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_svg_in_chromium(browser, tmp_path):
    svg = tmp_path / "graph.svg"
    status, _, _ = flamegraph(os.path.join(DATA, "stacks.txt"), "-o", str(svg))
    assert status == 0
    browser.cmd("POST", "/url", {"url": "file://" + str(svg)})
    n = browser.script("return document.getElementsByClassName('frame').length;")
    assert n == len(ET.fromstring(svg.read_text()).findall(".//%sg[@class='frame']" % SVG_NS))
    box = browser.script("var r = document.querySelector(\"g[data-name='kmalloc'] rect\")"
                         ".getBoundingClientRect(); return [r.width, r.height];")
    assert box[0] > 200 and box[1] > 10                      # drawn: a quarter of 1180 px
    browser.hover(browser.find("g[data-name='kmalloc']"))
    details = browser.script("return document.getElementById('details').textContent;")
    assert details == "Function: kmalloc (25 samples, 25.00%)"
    os.makedirs(ARTIFACTS, exist_ok=True)
    with open(os.path.join(ARTIFACTS, "flamegraph.png"), "wb") as f:
        f.write(base64.b64decode(browser.cmd("GET", "/screenshot")))
    width = "return +document.querySelector(\"g[data-name='%s'] rect\").getAttribute('width');"
    full = browser.script(width % "all")
    browser.click(browser.find("g[data-name='churn_round']"))
    assert abs(browser.script(width % "churn_round") - full) < 0.5   # zoomed: full width
    assert abs(browser.script(width % "kmalloc") - full * 25 / 30) < 0.5
    assert browser.script("return document.querySelector(\"g[data-name='sched_idle']\")"
                          ".style.display;") == "none"
    browser.click(browser.find("#reset"))
    assert abs(browser.script(width % "churn_round") - full * 0.30) < 0.5
    browser.script("search('^churn_');")
    assert browser.script("return document.getElementById('matched').textContent;") == \
        "Matched: 30.00%"
