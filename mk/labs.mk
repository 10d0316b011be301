# mk/labs.mk - grading the labs of docs/labs/ (labs/grade/grade.py).
#
#   make grade LAB=name              grade the student's work in labs/student/name/
#   make grade LAB=name SOLUTIONS=1  grade the reference solutions (labs/solutions/name/)
#   make grade-all                   every lab's reference solutions, in full
#   make labs-check                  the quick tasks of every lab's reference solutions
#                                    (part of make check, a few seconds: the graders
#                                    cannot rot unnoticed)
#
# Each prints one line per task (NAME: OK|FAIL (time)) and "Score: N/M", as
# MIT 6.1810's make grade does; the status is 0 only if every task passed.

LAB       ?=
SOLUTIONS ?=
GRADE     := $(PYTHON) labs/grade/grade.py

LIB_CHECKS += labs-check

.PHONY: grade grade-all labs-check
grade: $(BUILD)/kernel.elf
	@test -n "$(LAB)" || { echo "make grade LAB=name; labs:"; $(GRADE) --list; exit 2; }
	@$(GRADE) $(if $(SOLUTIONS),--solutions) $(LAB)

grade-all: $(BUILD)/kernel.elf
	@$(GRADE) --all --solutions

labs-check: $(BUILD)/kernel.elf
	@echo "== labs: quick grading of the reference solutions"
	@$(GRADE) --all --solutions --quick
