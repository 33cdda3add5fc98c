#!/usr/bin/env python3
"""The table of `.device/run.sh parity` (scripts/device-run.sh): the CPU rows (Serial, OpenMP) of the packed CUDA
build beside the same revision's host-only build, run on one host a minute apart (issue 48). Reads FOLDER's
cuda-<experiment>.json and host-<experiment>.json (and the second round's cuda2- and host2-, where run), prints
one line per row: program, variant, space, size, each build's best time over its rounds and their ratio (CUDA
build over host-only: above 1, the CUDA build's CPU row is slower), and for a row slower by more than 10% whether
it was so in each round (the build's own) or differs by round (one process disturbed). The plain rows (issue 59:
each workload's document kernel as a KOKKOS_LAMBDA, which nvcc wraps in host code, kokkos/kokkos#8141) are
expected slower in the CUDA build: they are counted apart, and the within-10% count is the tuned rows'.
Usage: device-parity.py FOLDER"""
import json
import os
import sys

BUILDS = ("cuda", "host")


def seconds_text(s):
    if s is None:
        return "-"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s * 1e9:.3g} ns"


def rows(path):
    """(variant, space, size) -> best seconds of the verified CPU rows of one program's JSON; None: unreadable."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    out = {}
    for r in data.get("results") or [] if isinstance(data, dict) else []:
        if not isinstance(r, dict) or r.get("space") not in ("serial", "openmp"):
            continue
        best = r.get("best_s")
        ok = r.get("status") in (None, "verified") and isinstance(best, (int, float)) and best > 0
        out[(str(r.get("variant")), r["space"], str(r.get("size")))] = best if ok else None
    return out


def is_plain(variant):
    """A plain row: 'plain', 'plain-<param>' or '<precision>-plain' (the statements' naming)."""
    return variant == "plain" or variant.startswith("plain-") or variant.endswith("-plain")


def main(argv):
    if len(argv) != 2 or not os.path.isdir(argv[1]):
        print("usage: device-parity.py FOLDER (cuda-<experiment>.json and host-<experiment>.json)", file=sys.stderr)
        return 2
    folder = argv[1]
    names = sorted({n.split("-", 1)[1][:-5] for n in os.listdir(folder)
                    if n.endswith(".json") and n.split("-", 1)[0] in BUILDS})

    def rounds(build, name):
        """The build's rows in each of its rounds (build-, build2-); None: the first round unreadable."""
        first = rows(os.path.join(folder, f"{build}-{name}.json"))
        second = os.path.join(folder, f"{build}2-{name}.json")
        if first is None or not os.path.exists(second):
            return first if first is None else [first]
        return [first, rows(second) or {}]

    # A row slower by more than 10% is the CUDA build's own when each of its rounds is slower than
    # each of the host-only build's; otherwise one round was disturbed (a process, not a build).
    header = ("program", "variant", "space", "size", "cuda build", "host-only", "cuda / host", "rounds")
    table, ratios, plain, missing = [], [], [], []
    for name in names:
        found = {b: rounds(b, name) for b in BUILDS}
        for b in BUILDS:
            if found[b] is None:
                missing.append(f"{name}: no {b}-{name}.json (or not JSON)")
        keys = sorted(set().union(*(r for f in found.values() if f for r in f)), key=lambda k: (k[1] != "serial", k[0], k[2]))
        for key in keys:
            times = {b: [r[key] for r in found[b] or [] if r.get(key)] for b in BUILDS}
            cuda, host = (min(times[b]) if times[b] else None for b in BUILDS)
            ratio = cuda / host if cuda and host else None
            every = ""
            if ratio is not None and ratio > 1.10 and len(times["cuda"]) > 1 and len(times["host"]) > 1:
                every = "slower in each" if min(times["cuda"]) > 1.10 * max(times["host"]) else "differs by round"
            if ratio is not None:
                (plain if is_plain(key[0]) else ratios).append((ratio, f"{name} {key[0]} {key[1]} {key[2]}", every))
            table.append((name, *key, seconds_text(cuda), seconds_text(host), f"{ratio:.2f}x" if ratio else "-", every))
    widths = [max(len(str(row[i])) for row in [header] + table) for i in range(len(header))]
    print("The CPU rows of the CUDA build and of a host-only build of the same revision, same host (run.sh parity)")
    for row in [header] + table:
        print(" | ".join(str(c).ljust(w) for c, w in zip(row, widths)).rstrip(" |"))
    for line in missing:
        print(f"missing: {line}")
    if ratios:
        within = sum(1 for r, _, _ in ratios if r <= 1.10)
        worst = max(ratios)
        own = sum(1 for _, _, every in ratios if every == "slower in each")
        print(f"{len(ratios)} rows in both builds: {within} with the CUDA build within 10% of the host-only build "
              f"(or faster), {len(ratios) - within} slower ({own} in each round of both builds); the slowest: "
              f"{worst[1]} at {worst[0]:.2f}x")
    else:
        print("no row ran in both builds")
    if plain:
        print(f"{len(plain)} plain rows (KOKKOS_LAMBDA, wrapped by nvcc on host spaces) apart: CUDA build over "
              f"host-only {min(plain)[0]:.2f}x to {max(plain)[0]:.2f}x")
    return 0 if ratios and not missing else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
