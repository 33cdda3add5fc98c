#!/usr/bin/env python3
"""A program stopped keeps what it finished (issue 60; nbk/core/stop.hpp): one program of the build, at the small
sizes scripts/compare_runs.py runs it at with many repetitions, stopped at random points: a random delay after it
started a random row (or, for row 0, after its first line on stderr: Kokkos up, the handler installed), so that
the points fall in the probes, in rows and between them however loaded the machine is.

- SIGINT and SIGTERM: exit 130 / 143; the JSON holds every row that started before the signal but the one in
  flight, all verified, and says which row was in progress and which were not run, in the order of an uninterrupted
  run's rows (and the same of the sweeps); the table of the finished rows and the stop's lines are printed.
- SIGKILL: neither the JSON nor the probe file is ever partial: each, after each kill, is absent or parses.

It prints its seed; replay a failure with NBK_STOP_SEED=<seed>.
Usage: stop_programs.py --programs BUILD/apps --experiment NAME [--kills K]"""
import argparse
import json
import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from compare_runs import REQUESTS, SWEEPS  # noqa: E402  the programs' small sizes

PROBES = ["--probe-size", "4096"]
REPEATED = ["--repetitions", "100"]  # time to stop a row in flight


def key(row):
    return (row["variant"], row["space"], row["size"])


def sweep_key(sweep):
    return (sweep["host_variant"], sweep["device_variant"])


def started(path):
    """The rows the program started, from its stderr's "running VARIANT on SPACE ..." lines."""
    with open(path, encoding="utf-8", errors="replace") as f:
        return re.findall(r"^running (\S+) on (\S+) \.\.\.$", f.read(), re.M)


def run(args, folder, name, stop=None):
    """Runs the program; `stop`: (signal, row, seconds): the signal that many seconds after the program started
    row `row` (1: the first), or for row 0 after its first line on stderr. (exit code, stdout)."""
    out, err = (open(os.path.join(folder, f"{name}.{s}"), "w+", encoding="utf-8") for s in ("out", "err"))
    with out, err:
        proc = subprocess.Popen(args, stdout=out, stderr=err)
        if stop:
            number, row, after = stop
            began = time.monotonic()
            while proc.poll() is None and time.monotonic() - began < 120 and \
                    (os.path.getsize(err.name) == 0 or len(started(err.name)) < row):
                time.sleep(0.001)
            time.sleep(after)
            if proc.poll() is None:
                proc.send_signal(number)
        code = proc.wait(timeout=300)
        out.seek(0)
        return code, out.read()


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def check_stopped(name, number, code, text, doc, whole, started_rows):
    """What a SIGINT or SIGTERM leaves (see the head); a list of failures."""
    fail = []
    rows, stop = [key(r) for r in doc["results"]], doc.get("interrupted")
    if code != 128 + number:
        if code == 0 and stop is None and rows == [key(r) for r in whole["results"]]:
            return []  # the signal came after the JSON was written: a whole run
        return [f"exit {code}, not {128 + number}"]
    if not isinstance(stop, dict) or stop.get("signal") != signal.Signals(number).name:
        return [f"'interrupted' does not name {signal.Signals(number).name}: {stop}"]
    in_progress = stop["in_progress"]
    row_in_progress = [key(in_progress)] if in_progress and "sweep" not in in_progress else []
    if rows + row_in_progress + [key(r) for r in stop["not_run"]] != [key(r) for r in whole["results"]]:
        fail.append("finished + in progress + not run are not the uninterrupted run's rows in order")
    if [(v, s) for v, s, _ in rows + row_in_progress] != started_rows:
        fail.append(f"the rows started ({len(started_rows)}) are not the finished ones and the one in flight")
    if not all(r["status"] in ("verified", "skipped") for r in doc["results"]):
        fail.append("a finished row did not verify")
    sweeps = [sweep_key(s) for s in doc.get("sweeps") or []]
    sweep_in_progress = [sweep_key(in_progress["sweep"])] if in_progress and "sweep" in in_progress else []
    if sweeps + sweep_in_progress + [sweep_key(s) for s in stop["sweeps_not_run"]] != \
            [sweep_key(s) for s in whole.get("sweeps") or []]:
        fail.append("finished + in progress + not run are not the uninterrupted run's sweeps")
    if f"Stopped by {signal.Signals(number).name}: {len(rows)} rows finished" not in text:
        fail.append("no 'Stopped by' line after the table")
    if rows and not re.search(r"^variant +\|", text, re.M):
        fail.append("no table of the finished rows")
    return fail


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--programs", required=True, help="the build's apps/ folder")
    p.add_argument("--experiment", required=True)
    p.add_argument("--kills", type=int, default=2, help="SIGKILLs at random points")
    a = p.parse_args()
    seed = int(os.environ.get("NBK_STOP_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    name = a.experiment
    program = os.path.join(a.programs, name, "nbk-" + name.replace("_", "-"))
    args = [program, *REQUESTS.get(name, []), *PROBES, *(["--sweep-to", "4096"] if name in SWEEPS else [])]
    print(f"{name}: seed {seed} (NBK_STOP_SEED), {' '.join(args[1:] + REPEATED)}")
    failures = []
    with tempfile.TemporaryDirectory() as folder:
        json_path = os.path.join(folder, name + ".json")
        code, _ = run(args + ["--repetitions", "1", "--json", json_path], folder, "whole")  # the rows, in order
        if code != 0:
            sys.exit(f"{name}: the uninterrupted run exited {code}")
        whole = load(json_path)
        points = lambda: (rng.randint(0, len(whole["results"])), rng.uniform(0, 0.02))  # noqa: E731
        args += REPEATED
        print(f"  uninterrupted: {len(whole['results'])} rows, {len(whole.get('sweeps') or [])} sweeps")
        for number in (signal.SIGINT, signal.SIGTERM):
            row, after = points()
            os.unlink(json_path)
            code, text = run(args + ["--json", json_path], folder, "stopped", (number, row, after))
            doc = load(json_path) if os.path.exists(json_path) else None
            why = ["no JSON written"] if doc is None else \
                check_stopped(name, number, code, text, doc, whole, started(os.path.join(folder, "stopped.err")))
            print(f"  {signal.Signals(number).name} {after:.3f} s into row {row}: exit {code}, "
                  f"{len(doc['results']) if doc else 0} rows kept" + "".join(f"\n    FAILED: {w}" for w in why))
            failures += why
        probes = os.path.join(folder, "probes.json")
        for i in range(a.kills):  # the same paths each time: a kill leaves the last whole file, or none
            row, after = points()
            code, _ = run(args + ["--json", json_path, "--probes", probes], folder, "killed", (signal.SIGKILL, row, after))
            for path in (json_path, probes):
                try:
                    load(path)
                except FileNotFoundError:
                    pass
                except ValueError as e:
                    failures.append(f"SIGKILL in row {row}: {os.path.basename(path)} is not whole JSON ({e})")
            print(f"  SIGKILL {after:.3f} s into row {row}: exit {code}; the files it writes are whole or absent")
    if failures:
        sys.exit(f"{name}: {len(failures)} failure(s) (seed {seed})")


if __name__ == "__main__":
    main()
