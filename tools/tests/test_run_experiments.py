"""scripts/run-experiments.sh keeps every run: each writes a folder of its own with run.json,
the programs' JSON, the NumPy reference's (numpy/), their log and a report (checked with
stand-in programs and a stand-in nbk-numpy, no C++ built; and once with the real nbk-numpy at
tiny sizes); and tools/nbk_compare/record.py, which names the folders and writes run.json."""
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


# A stand-in for tools/nbk-numpy (NBK_NUMPY): as STUB_NUMPY says, NumPy absent (one line, exit 2,
# nothing written), a failed check (files written, exit 1), a crash (exit 3), or rows of add_one
# and sum that pair with FAKE_PROGRAM's (variant v, size 1024) and take twice its time.
STUB_NUMPY = """import json, os, sys
mode = os.environ.get("STUB_NUMPY", "ok")
args = sys.argv[1:]
assert args[:2] == ["--threads", "1"], args
out = args[args.index("--out") + 1]
if mode == "absent":
    sys.exit(print("nbk-numpy: NumPy is not available (stand-in): no reference run, nothing written",
                   file=sys.stderr) or 2)
if mode == "crash":
    sys.exit(print("Traceback (most recent call last): MemoryError (stand-in)", file=sys.stderr) or 3)
os.makedirs(out, exist_ok=True)  # a resumed run makes it again
context = {"execution_spaces": ["numpy"], "threads": 1, "numpy_version": "0.0-stub", "blas": "stub BLAS",
           "blas_library": None, "blas_threads": None, "label": "numpy"}
for exp in ("add_one", "sum"):
    row = {"variant": "v", "space": "numpy", "size": "1024", "elements": 1024, "best_s": 0.002,
           "gb_per_s": 4.0, "status": "failed" if mode == "failed" else "verified", "check": "ok"}
    with open(os.path.join(out, exp + ".json"), "w") as f:
        json.dump({"experiment": exp, "context": context, "probes": {"numpy": {"memcpy_gb_per_s": 10.0}},
                   "results": [row]}, f)
print("stand-in nbk-numpy wrote", out)
sys.exit(1 if mode == "failed" else 0)
"""


def experiments():
    with open(os.path.join(REPO, "experiments.txt"), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip()]


def fake_build(root):
    with open(os.path.join(root + "-nbk-numpy"), "w", encoding="utf-8") as f:
        f.write(STUB_NUMPY)
    for exp in experiments():
        folder = os.path.join(root, "apps", exp)
        os.makedirs(folder)
        path = os.path.join(folder, "nbk-" + exp.replace("_", "-"))
        with open(path, "w", encoding="utf-8") as f:
            f.write(FAKE_PROGRAM.format(experiment=exp))
        os.chmod(path, 0o755)


def system_numpy():
    """The NumPy version of /usr/bin/python3 (the main job's interpreter), else None."""
    if not os.path.exists("/usr/bin/python3"):
        return None
    proc = subprocess.run(["/usr/bin/python3", "-c", "import numpy; print(numpy.__version__)"], capture_output=True,
                          text=True, timeout=60)
    return proc.stdout.strip() if proc.returncode == 0 else None


def run_script(*args, build_dir, numpy="ok", **env):
    """The main job on the programs of build_dir, with the stand-in nbk-numpy in `numpy` mode
    (None: the real tools/nbk-numpy)."""
    env = dict(os.environ, NBK_BUILD_DIR=build_dir, PYTHONDONTWRITEBYTECODE="1", **env)
    if numpy is not None:
        env.update(NBK_NUMPY=build_dir + "-nbk-numpy", STUB_NUMPY=numpy)
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
                self.assertIn("stand-in nbk-numpy wrote", read(os.path.join(run, "run.log")))
                self.assertEqual(sorted(os.listdir(os.path.join(run, "numpy"))), ["add_one.json", "sum.json"])
                self.assertEqual(context["numpy"], {"tool": "tools/nbk-numpy", "exit_code": 0, "ran": True,
                                                    "files": ["add_one.json", "sum.json"],
                                                    "numpy_version": "0.0-stub", "threads": 1, "blas": "stub BLAS",
                                                    "blas_library": None, "blas_threads": None})
                md = read(os.path.join(run, "report", "index.md"))
                # add_one: one table of the two files' rows, and the summary's NumPy column
                said = "≤40% of DRAM, memcpy probe; level not recorded"  # a probe of no size: the row's level unknown
                self.assertTrue(f"| v | 2^10 | 1.000 ms<br>8.00 GB/s, {said} | "
                                "2.000 ms<br>4.00 GB/s, - |" in md, "no numpy column in add_one's table")
                self.assertTrue(f"| add_one | 2^10 | v openmp 1.000 ms, {said} | "
                                "v 2.000 ms, 2.00x |" in md,
                                "no NumPy column in the summary")
            self.assertRegex(proc.stdout, r"(?m)add_one +2\^10 +\| v openmp 1\.000 ms, ≤40% of DRAM, memcpy probe; "
                                          r"level not recorded +\| "
                                          r"v 2\.000 ms, 2\.00x *$")

    def run_once(self, tmp, returncode=0, numpy="ok", **env):
        """The main job once on the stand-in programs of tmp/build (made unless there):
        (process, run folder)."""
        build, runs = os.path.join(tmp, "build"), os.path.join(tmp, "runs")
        if not os.path.isdir(build):
            fake_build(build)
        proc = run_script("--preset", "openmp", "--no-build", "--runs", runs, build_dir=build, numpy=numpy, **env)
        self.assertEqual(proc.returncode, returncode, proc.stdout[-2000:] + proc.stderr[-2000:])
        (name,) = os.listdir(runs)
        return proc, os.path.join(runs, name)

    def test_a_failing_program_is_recorded_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake_build(os.path.join(tmp, "build"))
            with open(os.path.join(tmp, "build", "apps", "sum", "nbk-sum"), "w", encoding="utf-8") as f:
                f.write("#!/bin/sh\necho broken >&2\nexit 1\n")
            _, run = self.run_once(tmp, returncode=1)
            context = record.read_context(run)
            self.assertEqual(context["exit_codes"]["sum"], 1)
            self.assertIn("add_one.json", context["programs"])

    def test_a_row_above_its_ceiling_fails_the_run(self):
        """Issue 58: a program of the format with ceilings whose row beats its own (nbk-check-ceilings)."""
        with tempfile.TemporaryDirectory() as tmp:
            fake_build(os.path.join(tmp, "build"))
            path = os.path.join(tmp, "build", "apps", "sum", "nbk-sum")
            with open(path, encoding="utf-8") as f:
                text = f.read().replace('"gb_per_s": 8.0}', '"gb_per_s": 8.0, "fraction_of_limit": 1.3, "limit_level": '
                                        '"L2", "ceiling": {"level": "L2", "kind": "read", "fraction": 1.3}}')
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            proc, run = self.run_once(tmp, returncode=1)
            self.assertIn("sum v openmp 2^10: 130% of L2 (fraction_of_limit 1.300)", proc.stdout)
            self.assertIn("rows above their ceiling (exit 1; listed above)", proc.stdout + proc.stderr)
            self.assertEqual(record.read_context(run)["exit_codes"]["sum"], 0)  # the program itself passed

    def test_without_numpy_one_line_and_the_run_goes_on(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc, run = self.run_once(tmp, numpy="absent")
            self.assertFalse(os.path.exists(os.path.join(run, "numpy")))
            log = read(os.path.join(run, "run.log"))
            self.assertEqual(len([ln for ln in log.splitlines() if "NumPy" in ln and "nbk-numpy" in ln]), 2, log)
            self.assertIn("NumPy reference exited with 2 (its output is above): not counted against the run", log)
            self.assertEqual(record.read_context(run)["numpy"]["ran"], False)
            self.assertNotIn("NumPy (", proc.stdout)

    def test_a_failed_numpy_check_fails_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc, run = self.run_once(tmp, returncode=1, numpy="failed")
            self.assertIn("the NumPy reference failed a check (exit 1)", proc.stdout)
            context = record.read_context(run)
            self.assertEqual(context["numpy"]["exit_code"], 1)
            self.assertEqual(set(context["exit_codes"].values()), {0})
            self.assertIn("not verified", proc.stdout)  # the summary names the failed rows

    def test_other_numpy_problems_do_not_fail_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc, run = self.run_once(tmp, numpy="crash")
            self.assertIn("the NumPy reference exited with 3", proc.stdout)
            self.assertEqual(record.read_context(run)["numpy"]["exit_code"], 3)

    @unittest.skipUnless(system_numpy(), "no NumPy for /usr/bin/python3 (python3-numpy)")
    def test_the_real_nbk_numpy_at_tiny_sizes(self):
        with tempfile.TemporaryDirectory() as tmp:
            proc, run = self.run_once(tmp, numpy=None, NBK_NUMPY_ARGS="--only sum,sin_exp --scale 0.0001 "
                                                                    "--size sin_exp=1000 --repetitions 2 "
                                                                    "--probe-size 4096")
            self.assertEqual(sorted(os.listdir(os.path.join(run, "numpy"))), ["sin_exp.json", "sum.json"])
            numpy = record.read_context(run)["numpy"]
            version = system_numpy()
            self.assertEqual((numpy["ran"], numpy["exit_code"], numpy["numpy_version"], numpy["threads"]),
                             (True, 0, version, 1))
            self.assertIn("blas", numpy)
            self.assertRegex(proc.stdout, r"NumPy \(\S+, 1 thread\)")  # the run's label: this host's name
            self.assertIn("NumPy reference (tools/nbk-numpy) | NumPy " + version,
                          read(os.path.join(run, "report", "index.md")))

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
            context = record.finish(path, [("add_one", 0)], numpy=0)
            self.assertEqual(context["preset"], "openmp")
            self.assertEqual(context["kokkos_version"], "4.2.0")
            self.assertEqual(context["programs"], ["add_one.json"])
            self.assertIn("started_utc", context)
            self.assertEqual(context["numpy"], {"tool": "tools/nbk-numpy", "exit_code": 0, "ran": False, "files": []})
            self.assertEqual(record.read_context(path), context)

    def test_command_line_errors(self):
        proc = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-run-record"), "finish", "/nonexistent"],
                              capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        self.assertEqual(len(proc.stderr.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
