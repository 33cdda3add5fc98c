#!/usr/bin/env python3
"""Finds every workload's plain kernel (issue 59): the first Kokkos::parallel_for / parallel_reduce in
lib/nbk/<workload>/kernels.hpp must be the document's kernel as Kokkos' documentation writes it: a
Kokkos policy named in the function that launches it (RangePolicy, MDRangePolicy or TeamPolicy), the
body in place as a KOKKOS_LAMBDA (no helper of ours between the policy and the body), labelled
"nbk::<workload>::plain...", and called by the workload's statement (experiment.cpp), which makes it
a row on every space. Prints each workload's plain kernel by file and line; exit 1 where one is
missing or is not plain, or where a macro of ours stands for KOKKOS_LAMBDA (a #define anywhere under
LIB_DIR whose body names KOKKOS_LAMBDA or KOKKOS_CLASS_LAMBDA: kernels use Kokkos' own spelling).

  scripts/plain_kernels.py LIB_DIR
  scripts/plain_kernels.py --expect-missing NAME... -- LIB_DIR   exit 0 only where exactly the workloads
      NAME... fail (the check shown to catch what it is for: tests/plain_kernels/, ctest lint.plain_kernels_shown)
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prose_literals import strip_comments  # noqa: E402  (comments blanked, strings and lines kept)
from workload_lint import run, verdict  # noqa: E402

LAUNCH = re.compile(r"Kokkos::parallel_(?:for|reduce|scan)\s*\(")
# The project's helpers that launch a kernel: none may come before the plain kernel.
HELPER = re.compile(r"\b(?:reduce_into_host|map_each|update_each|map_elements|map_in_blocks|for_each_index)\s*[<(]")
POLICY = re.compile(r"Kokkos::(?:RangePolicy|MDRangePolicy|TeamPolicy)\s*<")
LABEL = re.compile(r'^\s*"([^"]*)"')
# A function definition at namespace scope: its name before the parameters, at the start of a line.
FUNCTION = re.compile(r"^(?:template\s*<[^\n]*>\s*\n)?[A-Za-z_][\w:<>, ]*?\b([A-Za-z_]\w*)\s*\([^;]*?\)\s*\{", re.M)


def call_text(code, start):
    """The arguments of the call whose '(' ends at `start`, to its matching ')'."""
    depth, i = 1, start
    while i < len(code) and depth:
        depth += {"(": 1, ")": -1}.get(code[i], 0)
        i += 1
    return code[start:i - 1]


def plain_kernel(folder, workload):
    """(line, function, label) of the folder's plain kernel, or a sentence saying why there is none."""
    path = os.path.join(folder, "kernels.hpp")
    with open(path, encoding="utf-8") as f:
        code = strip_comments(f.read())
    launch = LAUNCH.search(code)
    if not launch:
        return "no Kokkos::parallel_for or parallel_reduce at all"
    line = code.count("\n", 0, launch.start()) + 1
    helper = HELPER.search(code, 0, launch.start())
    if helper:
        return f"line {code.count(chr(10), 0, helper.start()) + 1}: a helper of ours ({helper.group(0)[:-1]}) launches before the first Kokkos launch"
    functions = [m for m in FUNCTION.finditer(code) if m.end() <= launch.start()]
    if not functions:
        return f"line {line}: the first launch is in no function"
    function = functions[-1]
    body = code[function.end():launch.start()]
    args = call_text(code, launch.end())
    label = LABEL.match(args)
    if not label or not label.group(1).startswith(f"nbk::{workload}::plain"):
        return f"line {line}: the first launch is labelled {label.group(1) if label else '(no literal)'!r}, not nbk::{workload}::plain..."
    if "KOKKOS_LAMBDA" not in args:
        return f"line {line}: the first launch ({label.group(1)}) has no KOKKOS_LAMBDA body in place"
    if not POLICY.search(body + args):
        return f"line {line}: the first launch ({label.group(1)}) names no Kokkos policy in {function.group(1)}"
    with open(os.path.join(folder, "experiment.cpp"), encoding="utf-8") as f:
        statement = strip_comments(f.read())
    if not re.search(r"\b" + re.escape(function.group(1)) + r"\s*[(<]", statement):
        return f"line {line}: {function.group(1)} ({label.group(1)}) is called by no row of experiment.cpp"
    return line, function.group(1), label.group(1)


MACRO = re.compile(r"^\s*#\s*define\s+(\w+)[^\n]*\bKOKKOS_(?:CLASS_)?LAMBDA\b", re.M)


def lambda_macros(lib):
    """(path, macro) of every #define under lib that stands for KOKKOS_LAMBDA."""
    found = []
    for folder, _, files in sorted(os.walk(lib)):
        for name in sorted(files):
            if name.endswith((".hpp", ".cpp", ".h", ".in")):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    found += [(os.path.join(folder, name), m.group(1)) for m in MACRO.finditer(f.read())]
    return found


def main(lib, expect_missing=None):
    root = os.path.join(lib, "nbk")
    missing = []
    for path, macro in lambda_macros(lib):
        missing.append("macro")
        print(f"macro: {os.path.relpath(path, os.path.dirname(os.path.abspath(lib)))}: #define {macro} stands for KOKKOS_LAMBDA")
    for workload in sorted(os.listdir(root)):
        folder = os.path.join(root, workload)
        if not all(os.path.isfile(os.path.join(folder, f)) for f in ("kernels.hpp", "experiment.cpp")):
            continue
        found = plain_kernel(folder, workload)
        where = os.path.relpath(os.path.join(folder, "kernels.hpp"), os.path.dirname(os.path.abspath(lib)))
        if isinstance(found, str):
            missing.append(workload)
            print(f"{workload}: {where}: {found}")
        else:
            print(f"{workload}: {where}:{found[0]} {found[1]} ({found[2]})")
    return verdict(missing, expect_missing, "without a plain kernel first in kernels.hpp")


if __name__ == "__main__":
    run(main, __doc__)
