#!/usr/bin/env python3
"""Runs one program with the project's Kokkos Tools library (tests/kokkos_tools/region_tool.cpp)
and checks what a Kokkos tool sees of its rows (docs/profiling.md): every row of its JSON that ran,
and every point of its sweeps, is a region nbk::<workload>::<variant>@<space>/<size> holding the
kernels of its timed calls (a row on a Kokkos space: at least one), with its setup, first call and
check in regions of their own inside it (<row>/setup, <row>/first, <row>/check; <row>/transfers
where the row is also timed with its copies); every space probed is a region nbk::probe::<space>
with kernels; no region is popped that was not pushed, none is left open. A "host" row is a plain
loop on one host thread, no Kokkos kernel: its regions must be there, kernels are not asked for.
The program runs at the small sizes of scripts/compare_runs.py (REQUESTS, COMMON, SWEEPS).

  kokkos_regions.py --programs BUILD/apps --name sum --tool libnbk_region_tool.so
                    --variable KOKKOS_TOOLS_LIBS --out DIR       exit 0: every row seen; 1: not
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "scripts"))
from compare_runs import COMMON, REQUESTS, SWEEPS  # noqa: E402


def read_tool(path):
    regions, outside, unbalanced = {}, None, None
    with open(path) as f:
        for line in f:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "region":
                regions[fields[3]] = (int(fields[1]), int(fields[2]))  # entered, kernels directly inside
            elif fields[0] == "outside":
                outside = int(fields[1])
            elif fields[0] == "unbalanced":
                unbalanced = (int(fields[1]), int(fields[2]))
    return regions, outside, unbalanced


def expected(doc):
    """(region, kernels required) for every row and sweep point that ran, and every probe."""
    name = doc.get("experiment", "")
    for row in doc.get("results", []):
        if row.get("status") == "skipped":
            continue
        base = f"nbk::{name}::{row['variant']}@{row['space']}" + (f"/{row['size']}" if row["size"] else "")
        kernels = row["space"] != "host"
        yield base, kernels
        yield base + "/setup", False
        yield base + "/first", kernels
        yield base + "/check", False
        if "with_transfers" in row:
            yield base + "/transfers", kernels
            yield base + "/transfers/first", kernels
    for sweep in doc.get("sweeps", []):
        for point in sweep.get("points", []):
            for space, variant, key in ((sweep["host_space"], sweep["host_variant"], "host_s"),
                                        (sweep["device_space"], sweep["device_variant"], "device_resident_s")):
                if point.get(key) is not None:
                    yield f"nbk::{name}::{variant}@{space}/{point['size']}", space != "host"
    for space in doc.get("probes", {}):
        yield f"nbk::probe::{space}", True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--programs", required=True, help="the build's apps/ folder")
    ap.add_argument("--name", required=True, help="the experiment, as experiments.txt names it")
    ap.add_argument("--tool", required=True, help="the tool library (libnbk_region_tool.so)")
    ap.add_argument("--variable", required=True, help="what this Kokkos loads a tool from: KOKKOS_TOOLS_LIBS, "
                                                       "or KOKKOS_PROFILE_LIBRARY for 3.x")
    ap.add_argument("--out", required=True, help="a folder for the program's JSON and the tool's counts")
    a = ap.parse_args()
    program = os.path.join(a.programs, a.name, "nbk-" + a.name.replace("_", "-"))
    if not os.access(program, os.X_OK) or not os.path.isfile(a.tool):
        print(f"kokkos_regions: no program {program} or no tool {a.tool}", file=sys.stderr)
        return 2
    os.makedirs(a.out, exist_ok=True)
    json_path, tool_path = (os.path.join(a.out, a.name + suffix) for suffix in (".json", ".regions"))
    for stale in (json_path, tool_path):
        if os.path.exists(stale):
            os.remove(stale)
    args = [program] + REQUESTS.get(a.name, []) + (COMMON if a.name != "device_info" else [])
    args += ["--sweep-to", "4096"] if a.name in SWEEPS else []
    args += ["--json", json_path]
    env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="false", NBK_REGION_TOOL_OUT=tool_path)
    env[a.variable] = os.path.abspath(a.tool)
    run = subprocess.run(args, env=env, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(tool_path):
        print(f"kokkos_regions: {' '.join(args)}: exit {run.returncode}, tool counts written: "
              f"{os.path.exists(tool_path)}\n{run.stderr[-2000:]}")
        return 1
    with open(json_path) as f:
        doc = json.load(f)
    regions, outside, unbalanced = read_tool(tool_path)
    failures = []
    if unbalanced != (0, 0):
        failures.append(f"regions unbalanced: {unbalanced[0]} popped with none open, {unbalanced[1]} left open")
    checked = 0
    for region, needs_kernels in expected(doc):
        checked += 1
        entered, kernels = regions.get(region, (0, 0))
        if entered == 0:
            failures.append(f"no region {region}")
        elif needs_kernels and kernels == 0:
            failures.append(f"no kernel in region {region} (entered {entered} times)")
    rows = sum(1 for r in doc.get("results", []) if r.get("status") != "skipped")
    for line in failures:
        print(f"kokkos_regions: {a.name}: {line}")
    print(f"kokkos_regions: {a.name}: {rows} rows, {checked} regions expected, {len(failures)} missing or empty; "
          f"{len(regions)} regions seen, {outside} kernels outside any region ({a.variable})")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
