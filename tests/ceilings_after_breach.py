#!/usr/bin/env python3
"""A row above its ceiling has its space's ceilings measured again right after it (issue 58, item 3;
lib/nbk/experiment/program.cpp's ceilings_after_breach_of): a ceiling taken in a slow moment of a shared machine
must not stand as the bound of rows run in a fast one.

A first program writes a run's probe file; every memory ceiling and FMA figure in it is then cut a millionfold,
as if the machine had been that slow when it probed, and left fresh (not re-probed for age). A second program
reading that file must find its rows above those figures, say so, measure its spaces' ceilings again, judge its
rows by the new figures (in its JSON's probes) and write them back into the file.
Usage: ceilings_after_breach.py --program BUILD/apps/sum/nbk-sum"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

SMALL = ["--size", "4096", "--probe-size", "4096", "--repetitions", "3"]
CUT = 1e6  # a row of 4096 elements then beats them even when a loaded machine takes a millisecond a call


def cut_ceilings(space):
    """Every ceiling of a space's probe divided by CUT; returns how many were cut."""
    count = 0
    for level in space["ceilings"]["levels"]:
        for kind, rate in level["gb_per_s"].items():
            if rate:
                level["gb_per_s"][kind] = rate / CUT
                count += 1
    for key in ("fma_f32_gflop_per_s", "fma_f64_gflop_per_s"):
        space[key] /= CUT
    return count


def highest_ceiling(space):
    return max(rate or 0 for level in space["ceilings"]["levels"] for rate in level["gb_per_s"].values())


def expect_measured_again(before, spaces, where):
    """Each space's highest ceiling in `spaces` (a probes JSON object), which must be back near its uncut figure
    in `before`: the cut ones measured again, not kept. Returns them."""
    highest = {name: highest_ceiling(space) for name, space in spaces.items()}
    for name, rate in highest.items():
        if rate < before[name] / 10:
            sys.exit(f"{where} {name}'s cut ceilings ({rate:g} GB/s at most, {before[name]:g} before the cut), "
                     "not those measured again")
    return highest


def run(program, probes, json_path):
    command = [program, *SMALL, "--probes", probes, "--json", json_path]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--program", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        probes = os.path.join(folder, "probes.json")
        rows = os.path.join(folder, "rows.json")
        run(args.program, probes, rows)
        with open(probes) as f:
            document = json.load(f)
        before = {name: highest_ceiling(space) for name, space in document["spaces"].items()}
        if not all(cut_ceilings(space) for space in document["spaces"].values()):
            sys.exit(f"{probes}: a space without memory ceilings to cut")
        with open(probes, "w") as f:
            json.dump(document, f)

        done = run(args.program, probes, rows)
        for name in document["spaces"]:
            if f" on {name} is above its ceiling: measuring them again" not in done.stderr:
                sys.exit(f"{name}'s rows beat ceilings cut {CUT:g}-fold and nothing was measured again:\n{done.stderr}")
        with open(rows) as f:
            expect_measured_again(before, json.load(f)["probes"], "the rows were judged by")
        with open(probes) as f:
            after = expect_measured_again(before, json.load(f)["spaces"], f"{probes} holds")
        print(f"ceilings cut {CUT:g}-fold were measured again after a row, judged the rows and were written "
              f"back: {', '.join(f'{name} {rate:g} GB/s at most' for name, rate in sorted(after.items()))}")


if __name__ == "__main__":
    main()
