"""Principal buffer policies and sizes at their limits, as the Dynamic
Tracing Guide's "Buffers and Buffering" defines them.

How many records fit in a buffer depends on the record layout, which is
Sonde's, so these tests check the policies' semantics (what is kept, what
is dropped, that END still fits, that tracing ends) rather than counts; the
exact outputs that do not depend on the layout are D tests in
tests/d/buffers.
"""

from test_dtrace_host import dtrace

TICKS = ["-q", "-n", 'tick-1ms { printf("%d\\n", i++); }',
         "-n", 'END { printf("end after %d firings\\n", i); }']


def numbers(out):
    """The per-firing lines, as integers, and the END line."""
    lines = out.rstrip("\n").split("\n")
    return [int(l) for l in lines[:-1]], lines[-1]


def test_fill_stops_when_full_and_end_still_fits():
    status, out, err = dtrace("-x", "bufpolicy=fill", "-x", "bufsize=1k", *TICKS)
    assert status == 0, err
    got, end = numbers(out)
    assert got == list(range(len(got))) and len(got) > 10      # the first ones, in order
    # It stopped by itself; a dropped firing runs no action, so i counts the printed ones.
    assert end == "end after %d firings" % len(got)
    assert "drop" in err                                        # the record that did not fit


def test_ring_keeps_the_most_recent_records():
    status, out, err = dtrace("-x", "bufpolicy=ring", "-x", "bufsize=1k", *TICKS,
                              "-n", "tick-1ms /i == 200/ { exit(0); }")
    assert (status, err) == (0, "")
    got, end = numbers(out)
    assert end == "end after 200 firings"
    assert got == list(range(200 - len(got), 200)) and 10 < len(got) < 200   # the last ones


def test_switch_drops_what_does_not_fit_between_switches():
    status, out, err = dtrace("-q", "-x", "bufsize=64", "-x", "switchrate=100ms",
                              "-n", 'tick-1ms { n++; }', "-n", 'tick-1ms { printf("%d\\n", n); }',
                              "-n", "tick-1ms /n == 300/ { exit(0); }",
                              "-n", 'END { printf("end after %d firings\\n", n); }')
    assert status == 0, err
    got, end = numbers(out)
    assert end == "end after 300 firings"
    assert got == sorted(got) and 0 < len(got) < 300 and "drops on CPU 0" in err


def test_an_exit_record_that_cannot_fit_is_refused_not_hung():
    status, out, err = dtrace("-x", "bufsize=8", "-n", "BEGIN { exit(0); }")
    assert (status, out) == (1, "")
    assert err == ("dtrace: description 'BEGIN ' matched 1 probe\n"
                   "dtrace: could not enable tracing: Enabling exceeds size of buffer\n")


def test_lowered_sizes_are_reported():
    status, out, err = dtrace("-q", "-x", "bufsize=64g", "-x", "aggsize=64g", "-x", "specsize=64g",
                              "-x", "dynvarsize=64g", "-n", "BEGIN { @ = count(); exit(0); }")
    assert (status, out) == (0, "\n                1\n")
    notices = err.split("\n")
    for what in ("buffer size", "aggregation size", "speculation size", "dynamic variable size"):
        assert any(n.startswith("dtrace: %s lowered to " % what) for n in notices), err


def test_sizes_under_8_bytes_cannot_be_had():
    # As in DTrace: no halving reaches a usable buffer ("Not enough space"),
    # but a program that aggregates gets a principal buffer of at least its
    # largest record.
    assert dtrace("-x", "bufsize=4", "-n", "BEGIN { exit(0); }") == \
        (1, "", "dtrace: description 'BEGIN ' matched 1 probe\n"
                "dtrace: could not enable tracing: Not enough space\n")
    assert dtrace("-x", "aggsize=4", "-n", "BEGIN { @ = count(); exit(0); }") == \
        (1, "", "dtrace: description 'BEGIN ' matched 1 probe\n"
                "dtrace: could not enable tracing: Not enough space\n")
    assert dtrace("-q", "-x", "bufsize=4", "-n", "BEGIN { @ = count(); exit(0); }") == \
        (0, "\n                1\n", "")
