#!/usr/bin/env python3
"""Reads a CUDA build's host code for nvcc's lambda wrappers (issue 59): nvcc holds every KOKKOS_LAMBDA's
host side in a __nv_hdl_wrapper_t, called through a pointer element by element, which no compiler inlines or
vectorizes (kokkos/kokkos#8141). Only the plain kernels (each workload's document kernel, a function plain_*)
may have one: a tuned kernel is a functor, which nvcc never wraps. In `objdump -d -C` of each FILE, every
wrapper's tag names the function its lambda is written in (`__nv_dl_tag<..., &(void nbk::x::plain_y<...>`);
prints each such function and its wrappers, and exits 1 where one is not a plain kernel (or no wrapper is
found at all: then the check reads nothing).

  scripts/lambda_wrappers.py OBJDUMP FILE...
  scripts/lambda_wrappers.py --expect-tuned NAME OBJDUMP FILE...   exit 0 only where NAME (a function's
      qualified name) is the one tuned function found: the check shown to catch a wrapped tuned kernel
"""
import collections
import re
import subprocess
import sys

HEADER = re.compile(r"^[0-9a-f]+ <(__nv_hdl_wrapper_t<.*)>:$")
# The function the lambda is written in: the tag's second argument, &(<return type> <qualified name><...
ENCLOSING = re.compile(r"__nv_dl_tag<.*?, &\((?:[\w:<>, *&]+? )?((?:\w+::)*\w+)<")


def enclosing_functions(objdump, path):
    """Counter of the qualified names of the functions whose lambdas nvcc wrapped in `path`."""
    listing = subprocess.run([objdump, "-d", "-C", "--no-show-raw-insn", path], check=True, capture_output=True,
                             text=True).stdout
    found = collections.Counter()
    for line in listing.splitlines():
        header = HEADER.match(line)
        if header:
            name = ENCLOSING.search(header.group(1))
            found[name.group(1) if name else "(unreadable tag)"] += 1
    return found


def main(args):
    expect = None
    if args[:1] == ["--expect-tuned"]:
        if len(args) < 4:
            sys.exit(__doc__)
        expect, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    objdump, files = args[0], args[1:]
    found = collections.Counter()
    for path in files:
        found.update(enclosing_functions(objdump, path))
    tuned = sorted(name for name in found if not name.split("::")[-1].startswith("plain_"))
    for name in sorted(found):
        print(f"{'plain' if name not in tuned else 'TUNED'}: {name}: {found[name]} wrapper function(s)")
    if expect is not None:
        ok = tuned == [expect]
        if not ok:
            print(f"expected exactly {expect} to be found wrapped, found {tuned}", file=sys.stderr)
        return 0 if ok else 1
    if not found:
        print("no nvcc lambda wrapper at all: not a CUDA build's host code, or the plain kernels are gone",
              file=sys.stderr)
        return 1
    if tuned:
        print(f"{len(tuned)} function(s) besides the plain kernels hold a KOKKOS_LAMBDA that nvcc wraps in host code: "
              "write them as functors", file=sys.stderr)
    return 1 if tuned else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
