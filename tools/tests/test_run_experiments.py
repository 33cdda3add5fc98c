"""scripts/run-experiments.sh keeps every run: each writes a folder of its own with run.json,
the programs' JSON, their log and a report (checked with stand-in programs, no C++ built);
and tools/nbk_compare/record.py, which names the folders and writes run.json."""
import datetime
import json
import os
import subprocess
import sys
import tempfile
import unittest

from nbk_compare import record

from .helpers import TOOLS, read

REPO = os.path.dirname(TOOLS)
SCRIPT = os.path.join(REPO, "scripts", "run-experiments.sh")

# A stand-in for build/<preset>/apps/<experiment>/nbk-<experiment>: writes one verified row.
FAKE_PROGRAM = """#!/bin/sh
[ "$1" = --json ] || exit 2
echo "fake {experiment}"
cat > "$2" <<'JSON'
{{"experiment": "{experiment}", "context": {{"kokkos_version": "3.4.1", "execution_spaces": ["serial", "openmp"],
 "host_name": "fake", "date_utc": "2026-11-24T10:00:00Z"}},
 "probes": {{"openmp": {{"memcpy_gb_per_s": 20.0}}}},
 "results": [{{"variant": "v", "space": "openmp", "size": "1024", "elements": 1024, "status": "verified",
              "check": "ok", "best_s": 0.001, "gb_per_s": 8.0}}]}}
JSON
"""


def experiments():
    with open(os.path.join(REPO, "experiments.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def fake_build(root):
    for exp in experiments():
        folder = os.path.join(root, "apps", exp)
        os.makedirs(folder)
        path = os.path.join(folder, "nbk-" + exp.replace("_", "-"))
        with open(path, "w", encoding="utf-8") as f:
            f.write(FAKE_PROGRAM.format(experiment=exp))
        os.chmod(path, 0o755)


def run_script(*args, build_dir):
    env = dict(os.environ, NBK_BUILD_DIR=build_dir, PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run(["bash", SCRIPT, *args], capture_output=True, text=True, timeout=300, env=env)


class MainJob(unittest.TestCase):
    def test_two_runs_leave_two_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            build, runs = os.path.join(tmp, "build"), os.path.join(tmp, "runs")
            fake_build(build)
            for _ in range(2):
                proc = run_script("--preset", "openmp", "--no-build", "--runs", runs, build_dir=build)
                self.assertEqual(proc.returncode, 0, proc.stderr[-2000:])
            folders = sorted(os.listdir(runs))
            self.assertEqual(len(folders), 2, folders)
            for name in folders:
                run = os.path.join(runs, name)
                self.assertRegex(name, r"^[\w.-]+-openmp-\w+\+?-\d{8}-\d{6}(-2)?$")
                context = record.read_context(run)
                self.assertEqual(context["preset"], "openmp")
                self.assertEqual(context["kokkos_version"], "3.4.1")
                self.assertEqual(context["exit_codes"], {e: 0 for e in experiments()})
                self.assertIn("--runs", context["command"])
                for exp in experiments():
                    self.assertTrue(os.path.exists(os.path.join(run, f"{exp}.json")), exp)
                self.assertIn("fake add_one", read(os.path.join(run, "run.log")))
                self.assertTrue(os.path.exists(os.path.join(run, "report", "index.md")))

    def test_a_failing_program_is_recorded_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as tmp:
            build, runs = os.path.join(tmp, "build"), os.path.join(tmp, "runs")
            fake_build(build)
            with open(os.path.join(build, "apps", "sum", "nbk-sum"), "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\necho broken >&2\nexit 1\n")
            proc = run_script("--preset", "openmp", "--no-build", "--runs", runs, build_dir=build)
            self.assertEqual(proc.returncode, 1)
            (name,) = os.listdir(runs)
            context = record.read_context(os.path.join(runs, name))
            self.assertEqual(context["exit_codes"]["sum"], 1)
            self.assertIn("add_one.json", context["programs"])

    def test_bad_arguments_one_line_exit_2(self):
        for args in (["--bogus"], ["--preset"], ["--preset", "vulkan", "--no-build"], ["--no-build"], ["--runs"]):
            with self.subTest(args):
                proc = run_script(*args, build_dir="/nonexistent")
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)


class Record(unittest.TestCase):
    def test_run_name(self):
        when = datetime.datetime(2026, 11, 24, 10, 15, 0, tzinfo=datetime.timezone.utc)
        self.assertEqual(record.run_name("my host", "cuda", "abc1234+", when), "my_host-cuda-abc1234+-20261124-101500")

    def test_existing_names_get_a_suffix(self):
        with tempfile.TemporaryDirectory() as tmp:
            paths = [record.new_run_dir(tmp, "r") for _ in range(3)]
            self.assertEqual([os.path.basename(p) for p in paths], ["r", "r-2", "r-3"])

    def test_start_and_finish(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = record.start(tmp, "openmp", "scripts/run-experiments.sh", tmp)
            with open(os.path.join(path, "add_one.json"), "w", encoding="utf-8") as f:
                json.dump({"experiment": "add_one", "context": {"kokkos_version": "4.2.0"}, "results": []}, f)
            context = record.finish(path, [("add_one", 0)])
            self.assertEqual(context["preset"], "openmp")
            self.assertEqual(context["kokkos_version"], "4.2.0")
            self.assertEqual(context["programs"], ["add_one.json"])
            self.assertIn("started_utc", context)
            self.assertEqual(record.read_context(path), context)

    def test_command_line_errors(self):
        proc = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-run-record"), "finish", "/nonexistent"],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
