#!/usr/bin/env python3
"""Holds every tuned form to its measured gain (issue 59, item 2). A workload's kernels.hpp holds its
document's kernels (the plain one first: scripts/plain_kernels.py); what the project wrote for speed
lives in another header of the folder (tuned.hpp, matmul's register_tiled.hpp), each entry function
marked by a comment line

    // Tuned form: <function>: <what it does differently from the plain kernel>

and each such form has a bullet in the folder's notes.md, section "## Tuned forms":

    - <function> (rows ...): what it buys over the plain row, measured: a factor such as 1.8x (or
      a percentage) beside the plain row it is measured against, with the machine it was measured on.

Fails where kernels.hpp holds a marker (a tuned form among the document's kernels), a marker names
no function defined in its file, a form has no bullet, a bullet gives no measured figure or names no
plain row, or a bullet names no form of the folder (a form that went and left its figure behind).
Prints each form by file and line with the first words of its gain.

  scripts/tuned_forms.py LIB_DIR
  scripts/tuned_forms.py --expect-missing NAME... -- LIB_DIR   exit 0 only where exactly the workloads
      NAME... fail (the check shown to catch what it is for: tests/tuned_forms/, ctest lint.tuned_forms_shown)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from workload_lint import run, verdict  # noqa: E402

MARKER = re.compile(r"^\s*// Tuned form: ([A-Za-z_]\w*): \S", re.M)
# A figure measured: a factor (1.8x, 0.97x) or a percentage (+12%), beside the plain row it is against.
FIGURE = re.compile(r"\b\d+(?:\.\d+)?x\b|[+-]?\b\d+(?:\.\d+)?%")
PLAIN = re.compile(r"\bplain\b")


def section(text, heading):
    """The lines under `heading` to the next "## " heading, or None where there is no such heading."""
    at = text.find("\n" + heading + "\n")
    if at < 0:
        return None
    begin = at + len(heading) + 2
    end = text.find("\n## ", begin)
    return text[begin:] if end < 0 else text[begin:end]


def bullets(text):
    """name -> the bullet's text joined on one line, for every "- <name>" bullet of a section."""
    found, name, lines = {}, None, []
    for line in text.splitlines() + ["- "]:
        if line.startswith("- ") or not line.strip():
            if name:
                found[name] = " ".join(lines)
            match = re.match(r"- `?([A-Za-z_]\w*)", line)
            name, lines = (match.group(1), [line[2:]]) if match else (None, [])
        elif name:
            lines.append(line.strip())
    return found


def defines(code, name):
    """Whether `code` defines a function `name` (its name, parameters, then a body; a default `= {}` allowed)."""
    return re.search(r"\b" + re.escape(name) + r"\s*\((?:[^;{]|\{\})*\)\s*(?:const\s*)?\{", code) is not None


def check(folder, workload, root):
    """(problems, lines to print) of one workload folder."""
    problems, shown, forms = [], [], []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".hpp"):
            continue
        path = os.path.join(folder, name)
        with open(path, encoding="utf-8") as f:
            code = f.read()
        where = os.path.relpath(path, root)
        for m in MARKER.finditer(code):
            line = code.count("\n", 0, m.start()) + 1
            if name == "kernels.hpp":
                problems.append(f"{where}:{line}: tuned form {m.group(1)} among the document's kernels (it belongs in tuned.hpp)")
            elif not defines(code[m.end():], m.group(1)):
                problems.append(f"{where}:{line}: the marker names {m.group(1)}, which the file does not define after it")
            forms.append((m.group(1), where, line))
    notes_path = os.path.join(folder, "notes.md")
    notes = ""
    if os.path.isfile(notes_path):
        with open(notes_path, encoding="utf-8") as f:
            notes = f.read()
    gains = section(notes, "## Tuned forms")
    if not forms:
        if gains is not None:
            problems.append(f"{workload}: notes.md has \"## Tuned forms\" but no header of the folder marks a tuned form")
        return problems, shown
    if gains is None:
        problems.append(f"{workload}: notes.md has no \"## Tuned forms\" section for {', '.join(f[0] for f in forms)}")
        return problems, shown
    told = bullets(gains)
    for name, where, line in forms:
        text = told.get(name)
        if text is None:
            problems.append(f"{where}:{line}: tuned form {name} has no bullet \"- {name} ...\" in notes.md's \"## Tuned forms\"")
        elif not FIGURE.search(text):
            problems.append(f"{workload}: notes.md's bullet for {name} gives no measured figure (a factor such as 1.8x, or a %)")
        elif not PLAIN.search(text):
            problems.append(f"{workload}: notes.md's bullet for {name} names no plain row to measure against")
        else:
            shown.append(f"{workload}: {where}:{line} {name}: {text[:90]}{'...' if len(text) > 90 else ''}")
    for name in sorted(set(told) - {f[0] for f in forms}):
        problems.append(f"{workload}: notes.md's \"## Tuned forms\" names {name}, which no header of the folder marks")
    return problems, shown


def main(lib, expect_missing=None):
    root = os.path.join(lib, "nbk")
    failed = []
    for workload in sorted(os.listdir(root)):
        folder = os.path.join(root, workload)
        if not os.path.isfile(os.path.join(folder, "experiment.cpp")):
            continue
        problems, shown = check(folder, workload, os.path.dirname(os.path.abspath(lib)))
        for line in shown + problems:
            print(line)
        if problems:
            failed.append(workload)
    return verdict(failed, expect_missing, "with a tuned form not measured against its plain row")


if __name__ == "__main__":
    run(main, __doc__)
