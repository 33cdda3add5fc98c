#!/usr/bin/env python3
"""Runs every nbk-* program of a build at small sizes, and compares two such runs without their timings.

  scripts/compare_runs.py capture BUILD_DIR OUT_DIR   run each program once: OUT_DIR/<name>.txt and <name>.json
  scripts/compare_runs.py compare BEFORE_DIR AFTER_DIR  exit 1 if any table's non-timing columns, any JSON key or
                                                        any non-timing JSON value differs
  scripts/compare_runs.py rows BEFORE_DIR AFTER_DIR ADDED  the JSON rows matched by (variant, space, size): exit 1
                                                        if a row of BEFORE is missing from AFTER or differs in a
                                                        non-timing value, or AFTER adds a row whose variant does
                                                        not match the regex ADDED (a change that adds rows:
                                                        every other row unchanged)

What counts as timing: table columns of times, rates, fractions, the ceilings' rates and the crossover's winner;
JSON values of keys ending in _s or _ns, rates, fractions, speed-ups, the level and floor that bind a row (which of
memory and arithmetic binds is a timing), the run context and the probes' figures (their keys still count).
"""
import json
import os
import re
import subprocess
import sys

# Small requests, one per program: every variant, every check, in seconds.
REQUESTS = {
    "add": ["--size", "4", "--size", "3841"],
    "add_one": ["--size", "100003"],
    "counter": ["--size", "10000"],
    "device_info": [],
    "gaussian": ["--size", "1025"],
    "histogram": ["--size", "10007"],
    "hypot": ["--size", "1025"],
    "l2_norm": ["--size", "10x2", "--size", "1001x3"],
    "mat_add": ["--size", "17x33"],
    "matmul": ["--size", "33x17x65"],
    "maximum": ["--size", "7x9x13", "--size", "32"],
    "pi": ["--size", "24x1000"],
    "polar": ["--size", "1025"],
    "product": ["--size", "10007"],
    "row_sum": ["--size", "100x37"],
    "sin_exp": ["--size", "1025"],
    "sum": ["--size", "100003"],
}
COMMON = ["--repetitions", "1", "--probe-size", "4096"]
SWEEPS = ("maximum", "sin_exp")  # the programs with a crossover sweep
# Besides timings, what a run cannot repeat: a racy counter's lost updates, a pool's creation time, free memory.
TIMING_COLUMN = re.compile(r"^(first|best|median|faster|host|speed-up|device .*|.*GB/s.*|.*%.*|.*/s|.*transfers.*|with .*"
                           r"|pool creation|lost updates|lost, worst call|bound by|read-only|in place|\d reads? 1 write.*)$")
TIMING_KEY = re.compile(r"(_s|_ns|_per_s|^speedup|^fraction_.*|_seconds|^lost_fewest|^lost_most|^memory_available_bytes|^openmp_thread_cpus|^limit|^limit_level|^fraction|^floor_binds)$")
OPAQUE = {"context", "probes"}  # keys compared, values not


def experiments(root):
    with open(os.path.join(root, "experiments.txt")) as f:
        return [l.strip() for l in f if re.match(r"^[a-z][a-z0-9_]*$", l.strip())]


def capture(build, out):
    os.makedirs(out, exist_ok=True)
    env = dict(os.environ, OMP_NUM_THREADS="2", OMP_PROC_BIND="false")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    failed = []
    for name in experiments(root):
        program = os.path.join(build, "apps", name, "nbk-" + name.replace("_", "-"))
        args = [program] + REQUESTS.get(name, []) + (COMMON if name != "device_info" else [])
        args += ["--sweep-to", "4096"] if name in SWEEPS else []
        args += ["--json", os.path.join(out, name + ".json")]
        run = subprocess.run(args, env=env, capture_output=True, text=True)
        with open(os.path.join(out, name + ".txt"), "w") as f:
            f.write(run.stdout)
        print(f"{name}: exit {run.returncode}")
        if run.returncode != 0:  # a run that failed its checks, or refused its input, is no baseline
            failed.append(f"{name} (exit {run.returncode})")
    if failed:
        sys.exit("compare_runs: " + ", ".join(failed) + " did not exit 0")


def tables(text):
    """Every table of a program's output as (header, rows), its timing columns left out."""
    lines = text.split("\n")
    found = []
    for i in range(1, len(lines)):
        if re.match(r"^-+(\|-+)+$", lines[i]) and "|" in lines[i - 1]:
            header = [c.strip() for c in lines[i - 1].split("|")]
            keep = [k for k, h in enumerate(header) if not TIMING_COLUMN.match(h)]
            rows = []
            for line in lines[i + 1:]:
                if "|" not in line:
                    break
                cells = [c.strip() for c in line.split("|")]
                rows.append([cells[k] if k < len(cells) else "" for k in keep])
            found.append(([header[k] for k in keep], rows))
    return found


def flatten(value, path=""):
    if isinstance(value, dict):
        for key, item in value.items():
            p = f"{path}/{key}"
            if key in OPAQUE:
                yield from ((q, None) for q, _ in flatten(item, p))
            elif TIMING_KEY.search(key):
                yield from ((q, None) for q, _ in flatten(item, p))
            else:
                yield from flatten(item, p)
    elif isinstance(value, list):
        for k, item in enumerate(value):
            yield from flatten(item, f"{path}[{k}]")
    else:
        yield path, value


def compare(before, after):
    differences = 0
    names = lambda d: {f[:-4] for f in os.listdir(d) if f.endswith(".txt")}
    for name in sorted(names(before) ^ names(after)):
        differences += 1
        print(f"{name}: in one run only")
    for name in sorted(names(before) & names(after)):
        old, new = (open(os.path.join(d, name + ".txt")).read() for d in (before, after))
        if tables(old) != tables(new):
            differences += 1
            print(f"{name}: the tables differ")
            for (h0, r0), (h1, r1) in zip(tables(old), tables(new)):
                if (h0, r0) != (h1, r1):
                    print("  before:", h0, r0[:3], "\n  after: ", h1, r1[:3])
        path0, path1 = (os.path.join(d, name + ".json") for d in (before, after))
        if os.path.exists(path0):
            j0, j1 = (dict(flatten(json.load(open(p)))) for p in (path0, path1))
            if set(j0) != set(j1):
                differences += 1
                print(f"{name}: JSON keys differ: {sorted(set(j0) ^ set(j1))[:8]}")
            bad = [k for k in set(j0) & set(j1) if j0[k] != j1[k]]
            if bad:
                differences += 1
                print(f"{name}: JSON values differ: " + ", ".join(f"{k}: {j0[k]!r} -> {j1[k]!r}" for k in sorted(bad)[:6]))
    print("identical" if differences == 0 else f"{differences} differences")
    return 1 if differences else 0


def results_by_row(path):
    """(variant, space, size) -> the row's non-timing values, of one program's JSON."""
    with open(path) as f:
        data = json.load(f)
    rows = {}
    for r in data.get("results", []):
        key = (str(r.get("variant")), str(r.get("space")), json.dumps(r.get("size")))
        rows[key] = {k: v for k, v in flatten(r) if v is not None}
    return rows


def compare_rows(before, after, added):
    differences, kept, new = 0, 0, 0
    for name in sorted(f[:-5] for f in os.listdir(before) if f.endswith(".json")):
        path = os.path.join(after, name + ".json")
        if not os.path.exists(path):
            differences += 1
            print(f"{name}: no JSON after")
            continue
        old, now = results_by_row(os.path.join(before, name + ".json")), results_by_row(path)
        for key in sorted(set(old) - set(now)):
            differences += 1
            print(f"{name}: {' '.join(key)}: gone")
        for key in sorted(set(now) - set(old)):
            new += 1
            if not re.search(added, key[0]):
                differences += 1
                print(f"{name}: {' '.join(key)}: added, and not a row the change adds ({added})")
        for key in sorted(set(old) & set(now)):
            kept += 1
            bad = sorted(k for k in set(old[key]) | set(now[key]) if old[key].get(k) != now[key].get(k))
            if bad:
                differences += 1
                print(f"{name}: {' '.join(key)}: " + ", ".join(f"{k}: {old[key].get(k)!r} -> {now[key].get(k)!r}" for k in bad[:4]))
    print(f"{kept} rows in both, {new} added; " + ("every row unchanged" if differences == 0 else f"{differences} differences"))
    return 1 if differences else 0


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "rows":
        sys.exit(compare_rows(*sys.argv[2:]))
    if len(sys.argv) != 4 or sys.argv[1] not in ("capture", "compare"):
        sys.exit(__doc__)
    if sys.argv[1] == "capture":
        capture(sys.argv[2], sys.argv[3])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
