"""test_labs.py - the lab graders (labs/grade) say FAIL when they should.

make labs-check grades the reference solutions, which only shows that a
grader can pass.  These show, on the host-only tasks of the DIF safety lab
(no boot), that a grader fails a wrong answer and a missing file with a
message that says which, and scores them.
"""
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GRADE = os.path.join(ROOT, "labs", "grade", "grade.py")


def grade(tmp_path, files, *tasks):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    argv = [sys.executable, GRADE, "--dir", str(tmp_path), "dif-safety"]
    for t in tasks:
        argv += ["--task", t]
    return subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=120)


def test_reference_passes(tmp_path):
    sol = os.path.join(ROOT, "labs", "solutions", "dif-safety")
    files = {f: open(os.path.join(sol, f)).read() for f in ("loop.dif", "fact.dif")}
    r = grade(tmp_path, files, "loop", "fact")
    assert r.returncode == 0, r.stdout
    assert "loop: OK" in r.stdout and "fact: OK" in r.stdout and "Score: 2/2" in r.stdout


def test_wrong_reason_fails(tmp_path):
    # refused, but for writing %r0, not for a backward branch
    r = grade(tmp_path, {"loop.dif": "\tsetx 1, %r0\n\tret %r0\n"}, "loop")
    assert r.returncode == 1
    assert "loop: FAIL" in r.stdout
    assert 'expected exactly one problem, "branch backwards"' in r.stdout
    assert "write to %r0" in r.stdout            # what the validator did say
    assert "Score: 0/1" in r.stdout


def test_wrong_result_fails(tmp_path):
    r = grade(tmp_path, {"fact.dif": "\tsetx 5, %r1\n\tret %r1\n"}, "fact")
    assert r.returncode == 1 and "fact: FAIL" in r.stdout
    assert "result 5" in r.stdout and "expected 3628800" in r.stdout


def test_missing_file_named(tmp_path):
    r = grade(tmp_path, {}, "noret")
    assert r.returncode == 1 and "noret: FAIL" in r.stdout
    assert "noret.dif: missing (docs/labs/04-dif-safety.md, task 3" in r.stdout
