#!/usr/bin/python3
"""grade.py - grade one lab, or all of them (make grade LAB=name, make grade-all).

    labs/grade/grade.py LAB                  the student's work in labs/student/LAB/
    labs/grade/grade.py --solutions LAB      the reference solutions in labs/solutions/LAB/
    labs/grade/grade.py --quick LAB ...      only the tasks marked quick (make labs-check)
    labs/grade/grade.py --task NAME LAB      only task NAME (repeatable)
    labs/grade/grade.py --dir DIR LAB        the files in DIR instead (a submission)
    labs/grade/grade.py --all [--solutions]  every lab in LABS, in order
    labs/grade/grade.py --list               the labs and their tasks

Each lab is labs/grade/<LAB>.py: DOC (its docs/labs page), an optional
prepare(lab) run first (the sdt lab builds a kernel there) and
register(lab), which declares the tasks (gradelib.Lab.task).  Exit status:
0 if every graded task passed, 1 if one failed, 2 for bad use.
"""
import argparse
import importlib.util
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gradelib  # noqa: E402

# The labs in the order of docs/labs/README.md.
LABS = ["oneliners", "probe-effect", "sdt", "dif-safety", "aggregations", "speculation",
        "pid", "sunray"]


def load(name, solutions):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name.replace("-", "_") + ".py")
    if name not in LABS or not os.path.exists(path):
        raise SystemExit("grade: no lab %r (labs: %s)" % (name, " ".join(LABS)))
    spec = importlib.util.spec_from_file_location("lab_" + name.replace("-", "_"), path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    lab = gradelib.Lab(name, mod.DOC, solutions=solutions)
    mod.register(lab)
    return mod, lab


def grade_one(name, args):
    mod, lab = load(name, args.solutions)
    if args.dir:
        lab.dir = args.dir
    chosen = [t for t in lab.tasks if (not args.quick or t[1]) and (not args.task or t[0] in args.task)]
    if not chosen:
        return True               # --quick or --task chose nothing here: no boot, no build
    if hasattr(mod, "prepare"):
        try:
            mod.prepare(lab)
        except gradelib.Fail as e:
            print("== grade %s: %s ==\nprepare: FAIL\n%s\nScore: 0/%d"
                  % (name, lab.dir, gradelib.indent(str(e)), len(lab.tasks)), flush=True)
            return False
    return gradelib.grade(lab, quick=args.quick, only=args.task)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("lab", nargs="*")
    ap.add_argument("--solutions", action="store_true", help="grade labs/solutions/LAB")
    ap.add_argument("--quick", action="store_true", help="only the quick tasks")
    ap.add_argument("--task", action="append", help="only this task (repeatable)")
    ap.add_argument("--dir", help="grade the files in DIR (one lab)")
    ap.add_argument("--all", action="store_true", help="every lab")
    ap.add_argument("--list", action="store_true", help="list the labs and their tasks")
    args = ap.parse_args()
    if args.list:
        for name in LABS:
            _, lab = load(name, False)
            print("%-13s %s: %s" % (name, lab.doc, " ".join(t[0] for t in lab.tasks)))
        return 0
    names = LABS if args.all else args.lab
    if args.dir and len(names) != 1:
        ap.error("--dir grades one lab")
    if not names:
        ap.error("name a lab (make grade LAB=name) or --all; labs: " + " ".join(LABS))
    ok = True
    for name in names:
        ok = grade_one(name, args) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
