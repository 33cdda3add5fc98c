#!/usr/bin/env python3
"""Finds Kokkos API that Kokkos 5 deprecates or removes (docs/kokkos.md, "Kokkos 5"), in C++
sources with their comments left out: View::HostMirror (5.0, kokkos#8232: nbk::HostMirrorOf or
host_mirror_type), a random pool's init (5.0, kokkos#8082: nbk::random_pool), deep_copy of a View
onto itself (5.2, kokkos#9033), the CUDA options 5.2 removes (their macros: CUDA_LAMBDA, LDG,
UVM), and names of the set Kokkos deprecated in 4 (Kokkos_ENABLE_DEPRECATED_CODE_4, off in 5.0,
removed in 5.2). lib/nbk/core/compat.hpp is left out: the one file that knows the Kokkos version,
whose 3.4 and 4.6 branches call what those versions offer (init where no constructor takes a
pool's streams).

  scripts/kokkos5_api.py DIR|FILE...                    lists each use found, exit 1 if any
  scripts/kokkos5_api.py --expect-every-rule FILE...    exit 0 only if every rule finds one: the
                                                        check shown failing (tests/kokkos5_api/)
Folders are walked for C++ sources (.cpp, .hpp, .h, .cpp.in); a file named is read whatever its name.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from prose_literals import strip_comments  # noqa: E402  (comments blanked, strings and lines kept)

VIEW = r"[A-Za-z_][\w:.\->\[\]()]*?"
RULES = [
    ("HostMirror", re.compile(r"\bHostMirror\b"),
     "View::HostMirror is deprecated in Kokkos 5.0 (kokkos#8232): nbk::HostMirrorOf<View> or host_mirror_type"),
    ("pool init", re.compile(r"(?:\.|->)\s*init\s*\("),
     "Random_XorShift*_Pool::init is deprecated in Kokkos 5.0 (kokkos#8082): nbk::random_pool<Pool>(seed, states)"),
    ("deep_copy onto itself", re.compile(r"\bdeep_copy\s*\(\s*(?:[^,();]+,\s*)?(" + VIEW + r")\s*,\s*\1\s*\)"),
     "deep_copy of a View onto itself is a precondition violation from Kokkos 5.2 (kokkos#9033)"),
    ("CUDA option", re.compile(r"\bKOKKOS_ENABLE_CUDA_(?:LAMBDA|LDG_INTRINSIC|UVM)\b"),
     "Kokkos 5.2 removes the CUDA_LAMBDA, LDG_INTRINSIC and UVM options (their macros go with them)"),
    ("deprecated in 4", re.compile(r"\b(?:in_parallel|is_asynchronous|detect_device_count|detect_device_arch"
                                   r"|atomic_query_version|is_layouttiled|TaskScheduler|BasicFuture|task_spawn"
                                   r"|host_spawn|Experimental::swap|atomic_increment|atomic_decrement)\b"
                                   r"|\bKokkos::vector\b|CudaUVMSpace::available|::Rank\b(?!\s*<)"),
     "deprecated in Kokkos 4 (gone with Kokkos_ENABLE_DEPRECATED_CODE_4=OFF, 5.0's default; removed in 5.2)"),
]
SOURCES = (".cpp", ".hpp", ".h", ".cpp.in")
EXEMPT = os.path.join("nbk", "core", "compat.hpp")


def sources(paths):
    for path in paths:
        if os.path.isfile(path):
            yield path
            continue
        if not os.path.isdir(path):
            sys.exit(f"kokkos5_api: {path}: no such file or folder")
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                full = os.path.join(root, name)
                if name.endswith(SOURCES) and not full.endswith(EXEMPT):
                    yield full


def findings(path):
    with open(path, encoding="utf-8") as f:
        text = strip_comments(f.read())
    for rule, pattern, why in RULES:
        for m in pattern.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            yield rule, f"{path}:{line}: {m.group(0).strip()}: {why}"


def main(argv):
    expect_every = argv[:1] == ["--expect-every-rule"]
    paths = argv[1:] if expect_every else argv
    if not paths:
        sys.exit(__doc__.strip().split("\n\n")[1])
    found = [hit for path in sources(paths) for hit in findings(path)]
    if expect_every:
        missed = [rule for rule, _, _ in RULES if rule not in {r for r, _ in found}]
        for rule in missed:
            print(f"kokkos5_api: no use found for rule '{rule}' in {' '.join(paths)}")
        return 1 if missed else 0
    for _, text in found:
        print(text)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
