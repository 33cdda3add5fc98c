#!/usr/bin/env python3
"""Holds every workload's statement (lib/nbk/<workload>/experiment.cpp) to the experiment model's
budget (docs/design.md): the distinct names of the model (`exp::...`) it writes, at most MAX_NAMES
for any statement and a median of at most MEDIAN_NAMES, and at most MAX_LINES lines; an element-wise
statement (an exp::MapSpec: the map and its rows, its kernels in kernels.hpp) at most MAP_CODE_LINES
lines of code (neither blank nor only a comment), as its neighbours (issue 59: 45, and two more since
every map states its plain kernel, Spec::plain_kernel, beside its tuned one). What a new
workload costs to learn is the names its neighbours use. The names the rest of its folder writes
(its own cases or Problem, kernels aside) are printed beside them, not held to the budget.

  scripts/statement_budget.py LIB_DIR   prints each workload's counts and lines, exit 1 over budget
"""
import os
import re
import statistics
import sys

MAX_NAMES, MEDIAN_NAMES, MAX_LINES, MAP_CODE_LINES = 12, 9, 160, 47
KERNELS = ("kernels.hpp", "tuned.hpp")  # the document's kernels and the tuned forms beside them
NAME = re.compile(r"(?<![A-Za-z0-9_])exp::([A-Za-z_]+)")


def budget(folder):
    """The distinct model names of the statement, of its whole folder (its kernels aside), the statement's lines,
    and its lines of code where it is element-wise (None where not)."""
    statement, folder_names, code = set(), set(), None
    for entry in sorted(os.listdir(folder)):
        if entry.endswith((".cpp", ".hpp")) and entry not in KERNELS:
            with open(os.path.join(folder, entry), encoding="utf-8") as f:
                text = f.read()
            folder_names.update(NAME.findall(text))
            if entry == "experiment.cpp":
                statement.update(NAME.findall(text))
                lines = text.count("\n")
                if "exp::MapSpec<" in text:
                    code = sum(1 for line in text.splitlines() if line.strip() and not line.strip().startswith("//"))
    return statement, folder_names, lines, code


def main(lib):
    root = os.path.join(lib, "nbk")
    counts, failures = [], []
    for workload in sorted(os.listdir(root)):
        folder = os.path.join(root, workload)
        if workload == "experiment" or not os.path.isfile(os.path.join(folder, "experiment.cpp")):
            continue
        names, folder_names, lines, code = budget(folder)
        counts.append(len(names))
        print(f"{workload:12} {len(names):2} names ({len(folder_names):2} in the folder) {lines:4} lines  "
              f"{' '.join(sorted(names))}")
        if len(names) > MAX_NAMES:
            failures.append(f"{workload}: {len(names)} names of the model, more than {MAX_NAMES}")
        if lines > MAX_LINES:
            failures.append(f"{workload}: experiment.cpp has {lines} lines, more than {MAX_LINES}")
        if code is not None and code > MAP_CODE_LINES:
            failures.append(f"{workload}: an element-wise statement of {code} lines of code, more than {MAP_CODE_LINES}")
    if counts and statistics.median(counts) > MEDIAN_NAMES:
        failures.append(f"the median statement writes {statistics.median(counts):g} names, more than {MEDIAN_NAMES}")
    for failure in failures:
        print("statement_budget.py: " + failure, file=sys.stderr)
    return 1 if failures or not counts else 0


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.path.isdir(os.path.join(sys.argv[1], "nbk")):
        given = sys.argv[1] if len(sys.argv) > 1 else "nothing"
        print(f"statement_budget.py: error: expected one LIB_DIR holding nbk/<workload>/, got {given!r}",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
