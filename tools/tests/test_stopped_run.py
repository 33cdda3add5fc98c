"""A stopped main job keeps what finished and goes on (issue 60): scripts/run-experiments.sh stopped at random points
by SIGINT or SIGTERM (to the script alone, as `timeout` sends it, or to its process group, as a terminal's Ctrl-C)
writes run.json and a report every time, and --resume completes the record until its rows are an uninterrupted
run's. Stand-in programs that stop as the real ones do (nbk/core/stop.hpp) and the stand-in nbk-numpy; no C++ built.
The real programs' own stop is tests/stop_programs.py's (ctest app.stop_programs)."""
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
import unittest

from nbk_compare import record

from .helpers import TOOLS, read
from .test_run_experiments import SCRIPT, STUB_NUMPY, experiments

# A stand-in program: four rows of ROW_S seconds each; a signal ends the row in flight unfinished, starts no other,
# and the JSON (whole, through a rename) holds the finished rows and says what was not: exit 128 + the signal.
FAKE_PROGRAM = """#!/usr/bin/python3
import json, os, signal, sys, time
experiment, path = {experiment!r}, sys.argv[sys.argv.index("--json") + 1]
stop = []
def on_signal(number, _):
    if stop:
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
    stop.append(number)
for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
    signal.signal(number, on_signal)
print("fake", experiment, flush=True)
rows, results, in_progress, not_run = [dict(variant=f"v{{i}}", space="openmp", size="1024") for i in range(4)], [], None, []
for row in rows:
    if stop:
        not_run.append(row)
        continue
    time.sleep(float(os.environ.get("ROW_S", "0.05")))
    if stop:
        in_progress = row
        continue
    results.append(dict(row, elements=1024, status="verified", check="ok", best_s=0.001, gb_per_s=8.0))
doc = dict(experiment=experiment, context=dict(kokkos_version="3.4.1", execution_spaces=["serial", "openmp"]),
           probes=dict(openmp=dict(memcpy_gb_per_s=20.0)), results=results, interrupted=None)
if stop:
    doc["interrupted"] = dict(signal=signal.Signals(stop[0]).name, signal_number=stop[0], in_progress=in_progress,
                              not_run=not_run, sweeps_not_run=[])
with open(path + ".tmp", "w") as f:
    json.dump(doc, f)
os.replace(path + ".tmp", path)
print("table of", len(results), "rows", flush=True)
sys.exit(128 + stop[0] if stop else 0)
"""


def fake_build(root):
    with open(root + "-nbk-numpy", "w", encoding="utf-8") as f:
        f.write(STUB_NUMPY)
    for exp in experiments():
        os.makedirs(folder := os.path.join(root, "apps", exp))
        with open(path := os.path.join(folder, "nbk-" + exp.replace("_", "-")), "w", encoding="utf-8") as f:
            f.write(FAKE_PROGRAM.format(experiment=exp))
        os.chmod(path, 0o755)


def rows(run):
    """{experiment: [(variant, space, size), ...]} of a record's programs, in their order."""
    out = {}
    for exp in experiments():
        with open(os.path.join(run, exp + ".json"), encoding="utf-8") as f:
            out[exp] = [(r["variant"], r["space"], r["size"]) for r in json.load(f)["results"]]
    return out


class StoppedMainJob(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.build, self.runs = os.path.join(self.tmp.name, "build"), os.path.join(self.tmp.name, "runs")
        fake_build(self.build)
        self.env = dict(os.environ, NBK_BUILD_DIR=self.build, PYTHONDONTWRITEBYTECODE="1",
                        NBK_NUMPY=self.build + "-nbk-numpy", STUB_NUMPY="ok")

    def tearDown(self):
        self.tmp.cleanup()

    def start(self, *args):
        return subprocess.Popen(["bash", SCRIPT, "--preset", "openmp", "--no-build", *args], env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)

    def log_of(self, run=None):
        """The size of the run's log (-1 before it exists): the job traps signals from the first line it writes."""
        if run is None:
            names = os.listdir(self.runs) if os.path.isdir(self.runs) else []
            run = os.path.join(self.runs, names[0]) if names else "/nonexistent"
        try:
            return os.path.getsize(os.path.join(run, "run.log"))
        except OSError:
            return -1

    def stopped(self, proc, grown, how, after_s):
        """Signals the job `after_s` seconds after grown() (its log written to); (exit code, output, signal)."""
        deadline = time.monotonic() + 30
        while not grown() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(after_s)
        number = signal.SIGINT if how != "term" else signal.SIGTERM
        if how == "group":  # a terminal's Ctrl-C: the script, tee and whatever shares their group
            os.killpg(proc.pid, number)
        else:
            proc.send_signal(number)
        out, _ = proc.communicate(timeout=120)
        return proc.returncode, out, number

    def the_one_run(self):
        (name,) = os.listdir(self.runs)
        return os.path.join(self.runs, name)

    def check_stop(self, run, code, out, number):
        """What every stop leaves: whole files, run.json and a report that name what is missing."""
        self.assertIn(code, (128 + number, 0), out[-3000:])
        for name in os.listdir(run):
            if name.endswith(".json"):
                with open(os.path.join(run, name), encoding="utf-8") as f:
                    json.load(f)  # whole
        context = record.read_context(run)
        md = read(os.path.join(run, "report", "index.md"))
        stop = context["interrupted"]
        if code == 0 or stop is None:  # the signal came after the last step (the record is then checked whole)
            self.assertTrue(code == 0 or "the record is complete" in out, out[-3000:])
            return True
        self.assertEqual(stop["signal"], signal.Signals(number).name)
        self.assertEqual(sorted(stop["not_run"] + list(context["exit_codes"])), sorted(experiments()))
        self.assertTrue(all(context["exit_codes"][e] == 128 + number for e in stop["stopped"]), context)
        missing = record.missing_programs(context)
        for exp in stop["stopped"]:
            if exp in stop["unwritten"]:  # stopped in its start-up, before its handler: named, and run again
                self.assertIn(f"| {exp} | stopped by {signal.Signals(number).name} before it wrote a row", md)
                continue
            with open(os.path.join(run, exp + ".json"), encoding="utf-8") as f:
                missing += record.missing_rows(json.load(f))
        if missing:
            self.assertIn("## Not measured: a run was stopped", md)
        self.assertIn("--resume", out)
        return False

    def test_stopped_at_random_points_and_resumed_equals_an_uninterrupted_run(self):
        whole = self.start("--runs", os.path.join(self.tmp.name, "whole"))
        out, _ = whole.communicate(timeout=120)
        self.assertEqual(whole.returncode, 0, out[-3000:])
        (name,) = os.listdir(os.path.join(self.tmp.name, "whole"))
        expected = rows(os.path.join(self.tmp.name, "whole", name))
        seed = int(os.environ.get("NBK_TEST_SEED", random.randrange(1 << 30)))
        rng = random.Random(seed)
        hows = ["script", "group", "term"]
        proc = self.start("--runs", self.runs)
        code, out, number = self.stopped(proc, lambda: self.log_of() > 0, hows[0], rng.uniform(0, 3))
        run = self.the_one_run()
        done = self.check_stop(run, code, out, number)
        stops = [(code, record.read_context(run)["interrupted"])]
        for attempt in range(1, 6):
            if done:
                break
            size = self.log_of(run)
            proc = self.start("--resume", run)
            if attempt < 3:  # stopped again, then left to finish
                code, out, number = self.stopped(proc, lambda: self.log_of(run) > size, hows[attempt % 3],
                                                 rng.uniform(0, 2))
                done = self.check_stop(run, code, out, number)
                stops.append((code, record.read_context(run)["interrupted"]))
            else:
                out, _ = proc.communicate(timeout=120)
                self.assertEqual(proc.returncode, 0, f"seed {seed}: " + out[-3000:])
                done = True
        self.assertTrue(done, f"seed {seed}")
        if os.environ.get("NBK_TEST_VERBOSE"):
            print(f"seed {seed}:", *(f"exit {c}: {json.dumps(s)}" for c, s in stops), sep="\n", file=sys.stderr)
        self.assertEqual(rows(run), expected, f"seed {seed}")
        context = record.read_context(run)
        self.assertIsNone(context["interrupted"])
        self.assertEqual(context["exit_codes"], {e: 0 for e in experiments()})
        self.assertEqual(context["numpy"]["exit_code"], 0)
        self.assertNotIn("Not measured", read(os.path.join(run, "report", "index.md")))

    def test_a_stopped_program_is_named_by_the_report_and_counted_by_nbk_compare(self):
        self.env["ROW_S"] = "0.5"  # time to stop the first program in its second row
        proc = self.start("--runs", self.runs)
        code, out, number = self.stopped(proc, lambda: self.log_of() > 0, "script", 0.8)
        self.assertEqual(code, 130, out[-3000:])
        run = self.the_one_run()
        context = record.read_context(run)
        first = experiments()[0]
        self.assertEqual(context["interrupted"]["stopped"], [first])
        self.assertEqual(context["interrupted"]["not_run"], experiments()[1:])
        self.assertEqual(context["interrupted"]["numpy"], "not run")
        md = read(os.path.join(run, "report", "index.md"))
        self.assertIn(f"| {first} | v1 on openmp at 1024: in progress when SIGINT stopped it, not finished |", md)
        self.assertIn(f"| {first} | v3 on openmp at 1024: not run (SIGINT) |", md)
        self.assertIn(f"| {experiments()[1]} | not run: the main job was stopped by SIGINT |", md)
        self.assertIn("table of 1 rows", read(os.path.join(run, "run.log")))  # the program's text after the signal
        compare = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-compare"), run, run + "/"],
                                 capture_output=True, text=True, timeout=60)
        self.assertEqual(compare.returncode, 0, compare.stderr)
        count = len(experiments()) - 1 + 3 + 1  # programs not run, the first one's rows, NumPy
        self.assertIn(f"A: {count} row(s) or program(s) not measured (a stopped run), not compared", compare.stdout)
        self.assertIn(f"  {first}: v2 on openmp at 1024: not run (SIGINT)", compare.stderr)

    def test_bad_resume_one_line_exit_2(self):
        proc = self.start("--runs", self.runs)
        proc.communicate(timeout=120)
        self.assertEqual(proc.returncode, 0)
        run = self.the_one_run()
        for args in (["--resume", "/nonexistent"], ["--resume", self.tmp.name], ["--resume"],
                     ["--resume", run, "--runs", self.runs], ["--resume", run, "--preset", "serial"]):
            with self.subTest(args):
                p = subprocess.run(["bash", SCRIPT, "--no-build", *args], env=self.env, capture_output=True,
                                   text=True, timeout=60)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertEqual(len(p.stderr.strip().splitlines()), 1, p.stderr)
        with open(os.path.join(run, "run.json"), "w", encoding="utf-8") as f:
            f.write('{"format": "something else"}')
        p = subprocess.run(["bash", SCRIPT, "--no-build", "--resume", run], env=self.env, capture_output=True,
                           text=True, timeout=60)
        self.assertEqual((p.returncode, len(p.stderr.strip().splitlines())), (2, 1), p.stderr)
        self.assertIn(run, p.stderr)

    def test_a_job_stopped_before_any_program_wrote_a_row_is_still_reported(self):
        """A signal in the first program's start-up (before its handler is set) leaves no program JSON: the record
        and its report still say what was not measured, and --resume knows to run everything."""
        run = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-run-record"), "start", "--root", self.runs,
                              "--preset", "openmp", "--build-dir", self.build, "--command", "test"],
                             capture_output=True, text=True, timeout=60, check=True).stdout.strip()
        first = experiments()[0]
        subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-run-record"), "finish", run, "--status",
                        f"{first}=143", "--signal", "SIGTERM"], capture_output=True, text=True, timeout=60, check=True)
        stop = record.read_context(run)["interrupted"]
        self.assertEqual((stop["stopped"], stop["unwritten"]), ([first], [first]))
        report = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-report"), run], capture_output=True,
                                text=True, timeout=120)
        self.assertEqual(report.returncode, 0, report.stderr)
        md = read(os.path.join(run, "report", "index.md"))
        self.assertIn(f"| {first} | stopped by SIGTERM before it wrote a row (no {first}.json) |", md)
        self.assertIn(f"| {experiments()[1]} | not run: the main job was stopped by SIGTERM |", md)
        self.assertNotIn("named by run.json, not in the folder", md)
        self.assertEqual(record.resume(run, "test")[1], experiments())


if __name__ == "__main__":
    unittest.main()
