#!/usr/bin/env python3
"""Checks that a matrix product kernel's PTX has a register-tiled main loop: reads the PTX a CUDA
build keeps (lib/ptx/matmul/*.compute_XX.ptx, nvcc --keep) and, for each kernel whose demangled
name holds NAME, finds its main loop (of the loops closed by a backward branch, the one with the
most fma.rn.f32) and counts there the FMAs and the loads from shared memory (ld.shared, any width).

Why: a shared-memory GEMM is bound by its shared loads unless each one feeds several FMAs from
registers. The document's tiled kernel (4 x 4 of C a thread, 4-byte loads) has 2 FMAs a shared load;
register_tiled (8 x 8 a thread, 16-byte loads of A's transposed tile and of B's) has 16. A loop
whose block of C fell out of registers, or whose loads were split into 4-byte ones, shows here.

--min-fma-per-load R fails a kernel whose main loop has fewer than R FMAs a shared load;
--require-v4 fails one whose main loop has no 16-byte shared load (ld.shared.v4.f32); --ptxas ARCH
runs ptxas -v on each file for that architecture (sm_90) and fails a kernel that spills, printing
its registers a thread. A NAME that matches no kernel fails: a renamed kernel cannot pass by being
absent.

Usage: scripts/ptx_matmul.py --kernel NAME [--min-fma-per-load R] [--require-v4] [--ptxas sm_90] PATH...
Exit: 0 every matching kernel passes, 1 one does not (or none matches), 2 bad input.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from ptx_atomics import INSTRUCTION, demangle, functions, ptx_files, reachable  # noqa: E402

LABEL = re.compile(r"^\s*([\w$]+):", re.M)
BRANCH = re.compile(r"^\s*(?:@!?%\w+\s+)?bra(?:\.uni)?\s+([\w$]+)\s*;", re.M)
SHARED_LOAD = re.compile(r"^ld\.shared(?:\.\w+)*$")
SHARED_V4 = re.compile(r"^ld\.shared(?:\.\w+)*\.v4\.[bf]32$")


def loops(body):
    """[(label, text)] of every loop of a function: from a label to a later branch back to it."""
    labels = {m.group(1): m.start() for m in LABEL.finditer(body)}
    found = []
    for m in BRANCH.finditer(body):
        start = labels.get(m.group(1))
        if start is not None and start < m.start():
            found.append((m.group(1), body[start:m.end()]))
    return found


def count(text):
    """(FMAs, shared loads, 16-byte shared loads) of some PTX."""
    ops = [op for op, _ in INSTRUCTION.findall(text)]
    return (sum(op == "fma.rn.f32" for op in ops), sum(bool(SHARED_LOAD.match(op)) for op in ops),
            sum(bool(SHARED_V4.match(op)) for op in ops))


def main_loop(module, name):
    """(label, FMAs, shared loads, 16-byte shared loads) of the kernel's loop with the most FMAs."""
    best = (None, 0, 0, 0)
    for f in reachable(name, module):
        for label, text in loops(module[f][1]):
            counted = count(text)
            if counted[0] > best[1]:
                best = (label, *counted)
    return best


def ptxas_usage(path, arch):
    """{mangled entry: (registers, spill stores + spill loads in bytes)} from ptxas -v."""
    tool = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    out = subprocess.run([tool, f"-arch={arch}", "-v", path, "-o", os.devnull], capture_output=True, text=True)
    if out.returncode != 0:
        print(f"ptx_matmul: ptxas failed on {path}:\n{out.stderr[-2000:]}", file=sys.stderr)
        sys.exit(2)
    usage, current, spills = {}, None, 0
    for line in out.stderr.splitlines():
        if m := re.search(r"Compiling entry function '([\w$]+)'", line):
            current, spills = m.group(1), 0
        elif m := re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", line):
            spills = int(m.group(1)) + int(m.group(2))
        elif (m := re.search(r"Used (\d+) registers", line)) and current:
            usage[current] = (int(m.group(1)), spills)
    return usage


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--kernel", required=True, metavar="NAME", help="a part of the kernels' demangled names")
    parser.add_argument("--min-fma-per-load", type=float, default=0, metavar="R")
    parser.add_argument("--require-v4", action="store_true", help="16-byte shared loads in the main loop")
    parser.add_argument("--ptxas", metavar="ARCH", help="ptxas -v for ARCH (sm_90): registers, and no spills")
    args = parser.parse_args()
    failed, seen = False, 0
    for path in ptx_files(args.paths):
        with open(path, encoding="utf-8", errors="replace") as f:
            module = functions(f.read())
        entries = [n for n, (kind, _) in module.items() if kind == "entry" and "3nbk" in n]
        names = demangle(entries)
        mine = [n for n in entries if args.kernel in names[n]]
        usage = ptxas_usage(path, args.ptxas) if args.ptxas and mine else {}
        for name in mine:
            seen += 1
            label, fmas, loads, v4 = main_loop(module, name)
            ratio = fmas / loads if loads else float("inf") if fmas else 0.0
            problems = []
            if ratio < args.min_fma_per_load:
                problems.append(f"fewer than {args.min_fma_per_load:g} FMAs a shared load")
            if args.require_v4 and not v4:
                problems.append("no 16-byte shared load")
            where = ""
            if args.ptxas:
                registers, spilled = usage.get(name, (None, None))
                if registers is None:
                    problems.append(f"ptxas did not report it for {args.ptxas}")
                else:
                    where = f"; {args.ptxas}: {registers} registers, {spilled} bytes spilled"
                    if spilled:
                        problems.append("spills")
            failed |= bool(problems)
            print(f"{'FAIL' if problems else 'ok  '} {os.path.basename(path)}: {names[name][:160]}\n"
                  f"     main loop {label}: {fmas} fma.rn.f32, {loads} ld.shared ({v4} .v4): {ratio:.1f} FMAs a shared "
                  f"load{where}{': ' + ', '.join(problems) if problems else ''}")
    if not seen:
        print(f"MISSING  no kernel named like '{args.kernel}' in {' '.join(args.paths)}")
        return 1
    print(f"ptx_matmul: {'FAILED' if failed else 'ok'}: {seen} kernel(s) named like '{args.kernel}'")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
