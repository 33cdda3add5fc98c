#!/usr/bin/env python3
"""Checks that the suite's integer atomic adds are native on the GPU: reads the PTX that a CUDA
build keeps (lib/ptx/<workload>/*.compute_XX.ptx, nvcc --keep) and fails when one of our
kernels (a function whose mangled name is in namespace nbk) holds a compare-and-swap.

Why: an atomic add that the compiler cannot map to the hardware's add becomes a loop of
atom.cas, which retries until no other thread wrote in between; on one contended counter that
serialises the GPU (10^6 increments: 31.6 s on an H100, against 0.7 ms with atom.add). Such a
loop is an atom.cas whose new value an add computed from the old one; a CAS that swaps in a
value set by mov (Kokkos' lock on a team's scratch, 0 -> 1) is a lock, reported, not failed.

A kernel's functions are its .entry and every .func it calls, so a CAS that nvcc did not
inline is still found. --require-v4 NAME checks the other thing read here: that a kernel reads its
data 16 bytes at a time (ld.global[.nc].v4 of 32-bit or .v2 of 64-bit values; nbk/core/packed.hpp); its 16-byte
stores, where it has any, are listed beside. --require-in-flight NAME=K asks more of a kernel: K of
its 16-byte loads issued one after another, before any of them is used or a branch or label
intervenes, so that a thread has 16 K bytes in flight at once. --require-in-loop NAME=K asks that
of a loop's body (lines between a label and a later branch back to it): K loads in flight on
every trip of a loop, as a grid-stride loop wants, not once. --require NAME (a part of a demangled kernel name, e.g.
nbk::counter::atomic_increments) fails the check unless such a kernel exists and adds natively:
a renamed or vanished kernel cannot pass by being absent.

Usage: scripts/ptx_atomics.py [--require NAME]... [--require-v4 NAME]... [--require-in-flight NAME=K]...
                              [--require-in-loop NAME=K]... PATH...
       (files, or folders searched for *.ptx)
Exit: 0 all native, 1 a CAS (or a required kernel missing, without a native add or without
16-byte accesses), 2 bad input.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

FUNCTION = re.compile(r"^(?:\.visible\s+|\.weak\s+|\.extern\s+)*\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)", re.M)
CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\),\s*)?([\w$]+)")
INSTRUCTION = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][\w.]*)\s+([^;]*);", re.M)
CAS = re.compile(r"^atom\..*\bcas\b")
INTEGER_ADD = re.compile(r"^(?:atom|red)(?:\.\w+)*\.add(?:\.\w+)*\.[us](?:32|64)$")  # 3.4: atom.global.add.u64, 4.6: red.add.global.relaxed.gpu.u64
ARITHMETIC = re.compile(r"^(?:add|sub|mad|fma)\.")
REGISTER = re.compile(r"%\w+")
STRAIGHT_LINE_ENDS = re.compile(r"^\s*(?:[\w$]+:|.*\b(?:bra|ret|exit|bar|call)\b)")  # a label or a jump
LABEL = re.compile(r"^\s*([\w$]+):")
BRANCH = re.compile(r"\bbra(?:\.uni)?\s+([\w$]+)\s*;")
VECTOR_ACCESS = re.compile(r"^(?:ld|st)\.global(?:\.\w+)*\.(?:v4\.[bsuf]32|v2\.[bsuf]64)$")  # 16 bytes


def functions(text):
    """{name: (kind, body)} for every .entry and .func defined in a PTX module."""
    found = {}
    for match in FUNCTION.finditer(text):
        open_brace = text.find("{", match.end())
        semicolon = text.find(";", match.end())
        if open_brace < 0 or (0 <= semicolon < open_brace and text[match.end():semicolon].count("(") ==
                              text[match.end():semicolon].count(")")):
            continue  # a declaration, not a definition
        depth, pos = 0, open_brace
        while pos < len(text):
            depth += {"{": 1, "}": -1}.get(text[pos], 0)
            if depth == 0:
                break
            pos += 1
        found[match.group(2)] = (match.group(1), text[open_brace:pos + 1])
    return found


def demangle(names):
    """Readable names where c++filt is installed, the mangled ones otherwise."""
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout.splitlines()
    return dict(zip(names, out)) if len(out) == len(names) else {n: n for n in names}


def reachable(name, module):
    """The kernel's own function and every .func it calls, directly or not."""
    seen, todo = set(), [name]
    while todo:
        f = todo.pop()
        if f in seen or f not in module:
            continue
        seen.add(f)
        todo.extend(CALL.findall(module[f][1]))
    return seen


def atomics(body):
    """(CAS loops, CAS locks, native integer adds) of one function: each a list of opcodes."""
    instructions = INSTRUCTION.findall(body)
    defined_by = {}
    for op, operands in instructions:
        target = operands.split(",")[0].strip()
        defined_by.setdefault(target, []).append(op)
    loops, locks, adds = [], [], []
    for op, operands in instructions:
        if CAS.match(op):
            new_value = operands.split(",")[-1].strip()
            computed = any(ARITHMETIC.match(d) for d in defined_by.get(new_value, []))
            (loops if computed else locks).append(op)
        elif INTEGER_ADD.match(op):
            adds.append(op)
    return loops, locks, adds


def vector_accesses(body):
    """The 16-byte global loads and stores of one function, as opcodes (ld or st first)."""
    return [op for op, _ in INSTRUCTION.findall(body) if VECTOR_ACCESS.match(op)]


def loop_lines(lines):
    """The indices of the lines inside a loop: from a label to a later branch back to it."""
    labels = {m.group(1): i for i, m in ((i, LABEL.match(line)) for i, line in enumerate(lines)) if m}
    inside = set()
    for i, line in enumerate(lines):
        for target in BRANCH.findall(line):
            if labels.get(target, i) < i:
                inside.update(range(labels[target], i + 1))
    return inside


def loads_in_flight(body, in_loop=False):
    """The most 16-byte loads of one function issued one after another in straight-line code before
    any of them is read: what a thread has in flight at once; with in_loop, only in a loop's body."""
    best = run = 0
    pending = set()
    lines = body.splitlines()
    inside = loop_lines(lines) if in_loop else None
    for number, line in enumerate(lines):
        if inside is not None and number not in inside:
            run, pending = 0, set()
            continue
        if STRAIGHT_LINE_ENDS.match(line):
            run, pending = 0, set()
            continue
        found = INSTRUCTION.match(line)
        if not found:
            continue
        op, operands = found.groups()
        if op.startswith("ld") and VECTOR_ACCESS.match(op):
            target, _, address = operands.partition("[")
            if pending & set(REGISTER.findall(address)):
                run, pending = 0, set()
            run += 1
            pending |= set(REGISTER.findall(target))
            best = max(best, run)
        elif pending & set(REGISTER.findall(operands)):
            run, pending = 0, set()
    return best


def check_file(path):
    """[(mangled kernel name, CAS loops, CAS locks, native integer adds, 16-byte accesses, 16-byte
    loads in flight, 16-byte loads in flight in a loop's body)] of one PTX file."""
    with open(path, encoding="utf-8", errors="replace") as f:
        module = functions(f.read())
    kernels = []
    for name, (kind, _) in module.items():
        if kind != "entry" or "3nbk" not in name:
            continue
        functions_of = reachable(name, module)
        found = [atomics(module[f][1]) for f in functions_of]
        vectors = sum((vector_accesses(module[f][1]) for f in functions_of), [])
        in_flight = max(loads_in_flight(module[f][1]) for f in functions_of)
        in_loop = max(loads_in_flight(module[f][1], in_loop=True) for f in functions_of)
        kernels.append((name, *(sum((a[i] for a in found), []) for i in range(3)), vectors, in_flight, in_loop))
    return kernels


def ptx_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for root, _, files in sorted(os.walk(path)):
                yield from (os.path.join(root, f) for f in sorted(files) if f.endswith(".ptx"))
        elif os.path.isfile(path):
            yield path
        else:
            print(f"ptx_atomics: no such file or folder: {path}", file=sys.stderr)
            sys.exit(2)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", nargs="+", metavar="PATH")
    parser.add_argument("--require", action="append", default=[], metavar="NAME",
                        help="a kernel whose demangled name contains NAME must exist and add natively")
    parser.add_argument("--require-v4", action="append", default=[], metavar="NAME",
                        help="a kernel whose demangled name contains NAME must exist and load 16 bytes at once")
    parser.add_argument("--require-in-flight", action="append", default=[], metavar="NAME=K",
                        help="a kernel whose demangled name contains NAME must issue K 16-byte loads before using one")
    parser.add_argument("--require-in-loop", action="append", default=[], metavar="NAME=K",
                        help="the same, in the body of a loop")
    args = parser.parse_args()
    in_flight_wanted = []  # (NAME, K, 5: anywhere, 6: in a loop's body)
    for option, field, wants in (("--require-in-flight", 5, args.require_in_flight),
                                 ("--require-in-loop", 6, args.require_in_loop)):
        for wanted in wants:
            name, _, count = wanted.rpartition("=")
            if not name or not count.isdigit() or int(count) < 1:
                print(f"ptx_atomics: {option} wants NAME=K with K a positive count, not '{wanted}'", file=sys.stderr)
                return 2
            in_flight_wanted.append((name, int(count), field))
    files = list(ptx_files(args.paths))
    if not files:
        print(f"ptx_atomics: no .ptx file under {' '.join(args.paths)} (is this a CUDA build?)", file=sys.stderr)
        return 2
    results = [(path, k) for path in files for k in check_file(path)]
    names = demangle(sorted({k[0] for _, k in results}))
    failed = False
    for path, (name, loops, _, adds, *_) in results:
        if loops:
            failed = True
            print(f"CAS  {os.path.basename(path)}: {names[name]}\n     {len(loops)} add loop(s) on "
                  f"{sorted(set(loops))}, native integer adds: {sorted(set(adds)) or 'none'}")
    for wanted in args.require:
        mine = [k for _, k in results if wanted in names[k[0]]]
        native = [k for k in mine if k[3] and not k[1]]
        if len(native) < len(mine) or not native:
            failed = True
            print(f"MISSING  '{wanted}': {len(native)} of its {len(mine)} kernel(s) add natively with no CAS loop")
        else:
            print(f"ok   {wanted}: {len(native)} kernel(s), {', '.join(sorted({op for k in native for op in k[3]}))}")
    for wanted in args.require_v4:
        packed = [k for _, k in results if wanted in names[k[0]] and any(op.startswith("ld") for op in k[4])]
        if not packed:
            failed = True
            print(f"MISSING  '{wanted}': no kernel of that name loads 16 bytes at once (ld.global.v4)")
        else:
            print(f"ok   {wanted}: {len(packed)} kernel(s), {', '.join(sorted({op for k in packed for op in k[4]}))}")
    for name, count, field in in_flight_wanted:
        mine = [k for _, k in results if name in names[k[0]]]
        most = max((k[field] for k in mine), default=0)
        where = " in a loop's body" if field == 6 else ""
        if most < count:
            failed = True
            print(f"MISSING  '{name}': {len(mine)} kernel(s), at most {most} 16-byte load(s) in flight{where}, not {count}")
        else:
            print(f"ok   {name}: {most} 16-byte loads in flight{where}")
    total = [sum(len(k[i]) for _, k in results) for i in (1, 2, 3)]
    print(f"ptx_atomics: {'FAILED' if failed else 'ok'}: {len(files)} PTX file(s), {len(results)} nbk kernel(s), "
          f"{total[2]} native integer add(s), {total[0]} CAS add loop(s), {total[1]} CAS lock(s) (Kokkos' scratch)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
