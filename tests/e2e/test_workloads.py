"""The built-in workloads: listed by `run`, visible in `ps`, ending by
themselves when given a count, stopped by `kill` when not."""

import re
import time

WORKLOADS = ("spin", "churn", "pingpong")


def start(guest, line):
    out = guest.run(line)
    m = re.search(r"^(\S+): tid (\d+)$", out, re.M)
    assert m, out
    return int(m.group(2))


def ps_rows(guest):
    """ps as {tid: (name, state)}."""
    rows = {}
    for line in guest.run("ps").splitlines()[1:]:
        f = line.split()
        if len(f) >= 5 and f[0].isdigit():
            rows[int(f[0])] = (" ".join(f[1:-3]), f[-3])
    return rows


def wait_gone(guest, tid, timeout=20):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if tid not in ps_rows(guest):
            return True
        time.sleep(0.3)
    return False


def test_run_alone_lists_workloads(guest):
    out = guest.run("run")
    for name in WORKLOADS:
        assert re.search(r"^  %s \[" % name, out, re.M), out


def test_run_unknown_workload(guest):
    out = guest.run("run frob")
    assert "run: frob: no such workload" in out


def test_run_bad_count_is_usage_error(guest):
    assert "usage: run spin [MS]" in guest.run("run spin lots")
    assert "usage: run churn [COUNT]" in guest.run("run churn 1 2")


def test_spin_shows_in_ps_and_ends_by_itself(guest):
    tid = start(guest, "run spin 1500")
    rows = ps_rows(guest)
    assert rows[tid][0] == "spin", rows
    assert rows[tid][1] in ("running", "runnable"), rows
    assert wait_gone(guest, tid)


def test_spin_uses_cpu_time(guest):
    tid = start(guest, "run spin")
    time.sleep(1.0)
    out = guest.run("ps")
    line = next(l for l in out.splitlines() if l.split() and l.split()[0] == str(tid))
    assert float(line.split()[-1]) > 0.05, out
    guest.run("kill -t %d" % tid)
    assert wait_gone(guest, tid)


def test_churn_ends_by_itself(guest):
    tid = start(guest, "run churn 200")
    assert wait_gone(guest, tid)
    assert "heap block corrupted" not in guest.run("mem")


def test_churn_moves_heap_counters(guest):
    before = int(re.search(r"(\d+) allocs", guest.run("mem")).group(1))
    tid = start(guest, "run churn 20")
    assert wait_gone(guest, tid)
    after = int(re.search(r"(\d+) allocs", guest.run("mem")).group(1))
    assert after - before >= 20 * 24


def names_now(guest):
    return [n for n, _ in ps_rows(guest).values()]


def test_pingpong_pair_appears_and_kill_stops_both(guest):
    tid = start(guest, "run pingpong")
    assert "pingpong" in names_now(guest) and "pingpong-rx" in names_now(guest)
    guest.run("kill -t %d" % tid)
    assert wait_gone(guest, tid)
    assert "pingpong-rx" not in names_now(guest)


def test_pingpong_ends_by_itself(guest):
    tid = start(guest, "run pingpong 5000")
    assert wait_gone(guest, tid, timeout=60)
    assert "pingpong-rx" not in names_now(guest)


def test_kill_stops_each_workload(guest):
    tids = [start(guest, "run " + name) for name in WORKLOADS]
    rows = ps_rows(guest)
    for tid in tids:
        assert tid in rows, rows
    for tid in tids:
        assert guest.run("kill -t %d" % tid).strip() == ""
    for tid in tids:
        assert wait_gone(guest, tid), ps_rows(guest)
    deadline = time.time() + 10        # the consumer follows its producer
    while "pingpong-rx" in names_now(guest) and time.time() < deadline:
        time.sleep(0.3)
    assert "pingpong-rx" not in names_now(guest)


def test_kill_the_consumer_stops_the_producer(guest):
    tid = start(guest, "run pingpong")
    rx = [t for t, (n, _) in ps_rows(guest).items() if n == "pingpong-rx"]
    assert len(rx) == 1
    guest.run("kill -t %d" % rx[0])
    assert wait_gone(guest, tid)


def test_shell_stays_responsive_under_load(guest):
    tids = [start(guest, "run spin"), start(guest, "run churn")]
    start_t = time.time()
    assert "responsive" in guest.run("echo responsive")
    assert time.time() - start_t < 5
    for tid in tids:
        guest.run("kill -t %d" % tid)
    for tid in tids:
        assert wait_gone(guest, tid)


def test_kill_refuses_the_shell(guest):
    me = [t for t, (n, s) in ps_rows(guest).items() if s == "running"]
    assert me
    out = guest.run("kill -t %d" % me[0])
    assert "refusing to kill the shell" in out
