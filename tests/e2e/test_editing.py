"""Line editing, history and Ctrl-C, typed at the real console.

The byte sequences are what a VT100-style terminal sends: ESC [ A..D for the
arrows, ESC [ H / F for Home / End, 0x7f for Backspace.
"""

import re
import time

from conftest import PROMPT

UP, DOWN, RIGHT, LEFT = "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D"
HOME, END = "\x1b[H", "\x1b[F"
BACKSPACE, CTRL_C, CTRL_U, CTRL_W = "\x7f", "\x03", "\x15", "\x17"


def output_lines(out):
    return [l for l in out.split("\n") if l.strip()]


def test_backspace(guest):
    assert output_lines(guest.run("echo abcx" + BACKSPACE)) == ["abc"]


def test_ctrl_h_is_backspace_too(guest):
    assert output_lines(guest.run("echo abcx\b")) == ["abc"]


def test_left_arrow_inserts_mid_line(guest):
    assert output_lines(guest.run("echo ac" + LEFT + "b")) == ["abc"]


def test_right_arrow_and_backspace_mid_line(guest):
    line = "echo axbc" + LEFT + LEFT + BACKSPACE + RIGHT + RIGHT + "d"
    assert output_lines(guest.run(line)) == ["abcd"]


def test_home_and_end(guest):
    assert output_lines(guest.run("cho x" + HOME + "e" + END + "!")) == ["x!"]


def test_ctrl_u_kills_line(guest):
    assert output_lines(guest.run("echo bad" + CTRL_U + "echo good")) == ["good"]


def test_ctrl_w_kills_word(guest):
    assert output_lines(guest.run("echo keep drop" + CTRL_W + "more")) == ["keep more"]


def test_history_up_reruns_last_command(guest):
    assert output_lines(guest.run("echo hist-one")) == ["hist-one"]
    assert output_lines(guest.run(UP)) == ["hist-one"]


def test_history_up_up_and_down(guest):
    guest.run("echo first")
    guest.run("echo second")
    assert output_lines(guest.run(UP + UP)) == ["first"]
    assert output_lines(guest.run(UP + UP + UP + DOWN)) == ["second"]


def test_history_recall_then_edit(guest):
    guest.run("echo abc")
    assert output_lines(guest.run(UP + BACKSPACE + "z")) == ["abz"]


def test_history_down_returns_to_draft(guest):
    guest.run("echo old")
    assert output_lines(guest.run("echo draft" + UP + DOWN)) == ["draft"]


def test_ctrl_c_cancels_line(guest):
    guest.send("echo nope" + CTRL_C)
    guest.expect_exact("^C\r\n" + PROMPT)
    assert output_lines(guest.run("echo yes")) == ["yes"]


def test_ctrl_c_interrupts_sleep(guest):
    guest.sendline("sleep 100")
    guest.expect_exact("\r\n")
    time.sleep(0.5)
    start = time.time()
    guest.send(CTRL_C)
    guest.expect_exact("^C")
    guest.wait_prompt(timeout=10)
    assert time.time() - start < 5
    # The Ctrl-C byte must not also cancel the next line.
    assert output_lines(guest.run("echo after")) == ["after"]


def test_typeahead_runs_after_a_command(guest):
    guest.sendline("sleep 1")
    guest.sendline("echo typed-ahead")
    guest.expect(r"\ntyped-ahead\r\n")
    guest.wait_prompt()


def test_ctrl_c_abandons_the_rest_of_the_line(guest):
    guest.sendline("sleep 100; echo never")
    guest.expect_exact("\r\n")
    time.sleep(0.5)
    guest.send(CTRL_C)
    guest.expect_exact("^C")
    guest.wait_prompt(timeout=10)
    assert "never" not in guest.before
    assert output_lines(guest.run("echo after")) == ["after"]
