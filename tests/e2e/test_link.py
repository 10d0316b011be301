"""The link between two Sonde machines (kernel/link.c, tools/dtrace-pair, docs/causal.md).

- test_pair_baggage_tags_server_latency: the causal join across machines.
  Two guests joined by tools/dtrace-pair, two client programs on A
  (linkclient, then linkbulk), linkserver on B.  A D program on A packs
  the client program's name and the request id into the baggage (bag->);
  on B they are the keys of the latency measured from sdt:::link-receive
  to sdt:::link-send.  Skipped, with the reason,
  while the kernel's D has no bag-> scope.
- test_link_refuses_garbage: the host is the other end of one guest's
  link; it sends noise, a header with a bad checksum, a frame with a bad
  body checksum, then real requests: the guest's kernel stays up, counts
  each refusal (the `link` command) and answers the real requests.
- test_link_baggage_from_the_wire: the host sends requests whose baggage
  it built itself (kernel/baggage.h's wire form), one well formed, one
  malformed: D on the guest sees the first's tags, nothing of the second
  (refused, counted; the request still answered, its reader's old tags
  gone).  Skipped while D has no bag->.
"""

import os
import re
import socket
import struct
import subprocess
import time
import zlib

import pytest

from conftest import KERNEL, ROOT, BOOT_TIMEOUT

PAIR = os.path.join(ROOT, "tools", "dtrace-pair")
DATA = os.path.join("tests", "e2e", "data", "link")      # relative: the guest names them so
REQUEST, RESPONSE = 1, 2


@pytest.fixture(autouse=True)
def _kernel():
    if not os.path.exists(KERNEL):
        pytest.fail("%s missing: run make" % KERNEL)


def pair(a, b, timeout=60):
    """Run tools/dtrace-pair; returns (status, {"A": [lines], "B": [lines]}, stderr)."""
    env = dict(os.environ, SONDE_TIMEOUT="50")
    for k in ("SONDE_BOOT", "SONDE_CPUS", "SONDE_ICOUNT", "SONDE_KERNEL"):
        env.pop(k, None)
    r = subprocess.run([PAIR, "--a", a, "--b", b], cwd=ROOT, env=env, timeout=timeout,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = {"A": [], "B": []}
    for line in r.stdout.decode("latin-1").splitlines():
        out[line[0]].append(line[3:])
    return r.returncode, out, r.stderr.decode("latin-1")



def test_pair_baggage_tags_server_latency():
    status, out, err = pair("dtrace -q -s %s/client_tag.d -c '/bin/linkclient -k 2; /bin/linkbulk 2'; "
                            "link" % DATA,
                            "dtrace -q -s %s/server_by_client.d -c /bin/linkserver" % DATA)
    assert status == 0, (out, err)
    assert out["A"][:6] == ["linkclient: response 1: re: request 1", "linkclient: response 2: re: request 2",
                            "linkclient: 2 requests answered",
                            "linkbulk: response 1: re: request 1...........",
                            "linkbulk: response 2: re: request 2...........",
                            "linkbulk: 2 requests answered"], out
    # A sent knocks (repeated while B's server was not reading yet), 4 requests and quit,
    # and got at least as many answers back, all well formed.
    frames = re.search(r"^link: (\d+) frames in, (\d+) out$", "\n".join(out["A"]), re.M)
    assert frames and int(frames.group(1)) >= 6 and int(frames.group(2)) >= 6, out["A"]
    assert "link: refused: 0 headers, 0 checksums, 0 bytes of noise, 0 baggages" in out["A"]
    assert "linkserver: 4 requests answered" in out["B"], out
    keys = [(m.group(1), int(m.group(2)))
            for m in (re.match(r"(\S*) request (\d+): \d+ ns$", ln) for ln in out["B"]) if m]
    assert sorted(keys) == [("linkbulk", 1), ("linkbulk", 2), ("linkclient", 1), ("linkclient", 2)], out["B"]
    clients = [m.group(1) for m in (re.match(r"(\S*): \d+ ns on average$", ln) for ln in out["B"]) if m]
    assert sorted(clients) == ["linkbulk", "linkclient"], out["B"]


# --- the host as the other end --------------------------------------------------

def baggage(*entries):
    """A blob in kernel/baggage.h's wire form: (key, int or str) entries."""
    body = b""
    for key, v in entries:
        body += bytes([len(key)]) + key.encode()
        if isinstance(v, int):
            body += bytes([1]) + struct.pack("<Q", v)
        else:
            body += bytes([2, len(v)]) + v.encode()
    return struct.pack("<BBH", 0xB1, 0, 4 + len(body)) + body


def frame(type_, reqid, payload, bag=b""):
    """A frame as kernel/link_frame.h lays it out."""
    hdr = struct.pack("<2sBBIHH", b"SL", 1, type_, reqid, len(bag), len(payload))
    hdr += struct.pack("<I", zlib.crc32(hdr))
    body = hdr + bag + payload
    return body + struct.pack("<I", zlib.crc32(body))


class FrameReader:
    """Frames from the socket (the guest's are well formed: no resynchronising here)."""

    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def next(self, deadline):
        while True:
            if len(self.buf) >= 16:
                _, _, type_, reqid, baglen, paylen, _ = struct.unpack("<2sBBIHHI", self.buf[:16])
                n = 16 + baglen + paylen + 4
                if len(self.buf) >= n:
                    f, self.buf = self.buf[:n], self.buf[n:]
                    assert struct.unpack("<I", f[-4:])[0] == zlib.crc32(f[:-4])
                    return type_, reqid, f[16 + baglen:n - 4]
            self.sock.settimeout(max(deadline - time.monotonic(), 0.01))
            try:
                data = self.sock.recv(4096)
            except socket.timeout:
                return None
            assert data, "the guest closed the link"
            self.buf += data


def ask(sock, reader, reqid, payload, seconds=20):
    """Send a request until its response comes (the server may not be reading yet)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sock.sendall(frame(REQUEST, reqid, payload))
        while True:
            got = reader.next(time.monotonic() + 0.1)
            if got is None:
                break
            if got[0] == RESPONSE and got[1] == reqid:
                return got[2]
    raise AssertionError("no response to request %d" % reqid)


def test_link_refuses_garbage(boot, tmp_path):
    path = str(tmp_path / "link.sock")
    g = boot(extra=["-chardev", "socket,id=link,path=%s,server=on,wait=off" % path,
                    "-device", "isa-serial,chardev=link,iobase=0x2e8,irq=3"])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    reader = FrameReader(sock)
    assert re.match(r"\[1\] \d+", g.run("/bin/linkserver 0 &").strip())
    bad_header = bytearray(frame(REQUEST, 5, b"x"))
    bad_header[12] ^= 0xff                       # the header's checksum
    bad_body = bytearray(frame(REQUEST, 6, b"body"))
    bad_body[17] ^= 0x01                         # a payload byte
    lying = frame(REQUEST, 8, bytes(200))[:16]   # a header that promises 220 bytes...
    sock.sendall(b"hello noise" + bytes(bad_header) + bytes(bad_body))
    assert ask(sock, reader, 7, b"ping") == b"re: ping"
    sock.sendall(lying + frame(REQUEST, 9, b"hidden") + bytes(250))   # ...which hide a real one
    got = reader.next(time.monotonic() + 20)
    while got is not None and got[1] == 7:       # late answers to the first knocks
        got = reader.next(time.monotonic() + 20)
    assert got == (RESPONSE, 9, b"re: hidden")
    assert ask(sock, reader, 0, b"quit") == b"re: quit"
    g.run("wait")                                # linkserver ended on quit
    stats = g.run("link")
    m = re.search(r"link: refused: (\d+) headers, (\d+) checksums, (\d+) bytes of noise, 0 baggages", stats)
    assert m, stats
    headers, checksums, noise = map(int, m.groups())
    assert headers >= 1 and checksums >= 2 and noise >= len("hello noise"), stats
    assert re.search(r"^link: \d+ frames in, \d+ out$", stats, re.M), stats
    assert g.run("echo still up").strip() == "still up"
    sock.close()


def test_link_baggage_from_the_wire(boot, tmp_path):
    path = str(tmp_path / "link.sock")
    g = boot(extra=["-chardev", "socket,id=link,path=%s,server=on,wait=off" % path,
                    "-device", "isa-serial,chardev=link,iobase=0x2e8,irq=3"])
    g.wait_prompt(timeout=BOOT_TIMEOUT)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.connect(path)
    reader = FrameReader(sock)
    g.sendline("dtrace -q -n 'sdt:::link-receive /arg1 != 0/ "
               "{ printf(\"req %d: [%s] [%s], %d bytes\\n\", arg1, bag->client, bag->req, arg3); }' "
               "-c '/bin/linkserver 0'")
    good = baggage(("client", "hostclient"), ("req", 41))
    bad = bytearray(baggage(("client", "evil")))
    bad[4 + 1 + len("client")] = 9              # the entry's type: none such
    bad = bytes(bad)
    end = time.monotonic() + 20                 # knock until the server reads
    while reader.next(time.monotonic() + 0.1) is None and time.monotonic() < end:
        sock.sendall(frame(REQUEST, 0, b"hello"))
    sock.sendall(frame(REQUEST, 1, b"tagged", good))
    assert reader.next(time.monotonic() + 20)[1:] in ((1, b"re: tagged"), (0, b"re: hello"))
    sock.sendall(frame(REQUEST, 2, b"refused", bad))
    sock.sendall(frame(REQUEST, 0, b"quit"))
    g.expect_exact("req 1: [hostclient] [41], %d bytes" % len(good), timeout=20)
    g.expect_exact("req 2: [] [], %d bytes" % len(bad), timeout=20)
    g.wait_prompt(timeout=30)
    stats = g.run("link")
    assert "1 baggages" in stats, stats
    sock.close()
