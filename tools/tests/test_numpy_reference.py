"""tools/nbk-numpy: the NumPy reference run at tiny sizes, read back by the report's classes;
bad input (one line, exit 2); and a clean skip where NumPy is absent."""
import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from unittest import mock

from nbk_numpy import reference as numpy_reference

from .helpers import TOOLS, fixture, run_tool


HAVE_NUMPY = importlib.util.find_spec("numpy") is not None
ROW_KEYS = {"variant", "space", "size", "elements", "status", "check", "first_s", "best_s", "median_s",
            "repetitions", "bytes_per_call", "gb_per_s", "expression"}


@unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
class TinyRun(unittest.TestCase):
    """Every experiment at a thousandth of its size (sin_exp at the fixture's 1000), 2 repetitions."""

    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.out = os.path.join(cls.tmp, "numpy", "results")
        cls.rc, cls.stdout, cls.err = run_tool(
            "nbk-numpy", "--scale", "0.001", "--size", "sin_exp=1000", "--repetitions", "2",
            "--probe-size", "4096", "--threads", "1", "--out", cls.out)
        cls.files = sorted(os.listdir(cls.out)) if os.path.isdir(cls.out) else []

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def load(self, name):
        with open(os.path.join(self.out, name), encoding="utf-8") as f:
            return json.load(f)

    def test_one_file_per_experiment(self):
        self.assertEqual(self.rc, 0, self.err)
        self.assertEqual(self.files, sorted(f"{name}.json" for name in numpy_reference.WORKLOADS))

    def test_programs_format(self):
        for name in self.files:
            with self.subTest(name):
                data = self.load(name)
                w = numpy_reference.WORKLOADS[data["experiment"]]
                self.assertEqual(name, f"{w.name}.json")
                self.assertEqual(data["context"]["execution_spaces"], ["numpy"])
                for key in ("host_name", "cpu_model", "date_utc", "numpy_version", "python_version", "blas",
                            "blas_threads", "threads", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
                    self.assertIn(key, data["context"])
                self.assertEqual(data["context"]["threads"], 1)
                self.assertEqual(data["context"]["OPENBLAS_NUM_THREADS"], "1")
                self.assertIn("memcpy_gb_per_s", data["probes"]["numpy"])
                self.assertTrue(data["problems"])
                for p in data["problems"]:
                    self.assertIn("size", p)
                    self.assertIn("elements", p)
                variants = {v.name for v in w.variants}
                self.assertEqual(len(data["results"]), len(variants) * len(data["problems"]))
                for row in data["results"]:
                    self.assertLessEqual(ROW_KEYS, set(row), row)
                    self.assertEqual(row["space"], "numpy")
                    self.assertIn(row["variant"], variants)
                    self.assertEqual(row["status"], "verified", row)
                    self.assertEqual(row["repetitions"], 2)
                    self.assertTrue(0 < row["best_s"] <= row["median_s"], row)

    def test_strict_json(self):
        for name in self.files:
            with open(os.path.join(self.out, name), encoding="utf-8") as f:
                json.loads(f.read(), parse_constant=lambda c: self.fail(f"{name}: {c} in JSON"))

    def compared(self, *args):
        """nbk-compare --json of folders of program JSON: {(experiment, variant, size, column): record}."""
        rc, out, err = run_tool("nbk-compare", *args, "--json")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("skipped", err)
        return {(r["experiment"], r["variant"], r["size"], r["column"]): r for r in json.loads(out)["results"]}

    def test_the_tools_read_it(self):
        found = self.compared(self.out)
        self.assertEqual({k[3] for k in found}, {"numpy"})
        for name in self.files:
            data = self.load(name)
            for row in data["results"]:
                self.assertIsNone(found[data["experiment"], row["variant"], row["size"], "numpy"]["error"])
        self.assertTrue(any(k[:2] == ("probe", "memcpy") for k in found))

    def test_numpy_is_a_column_beside_the_programs(self):
        """The programs' variant names and sizes: one row holds serial and numpy (the fixture has no openmp f32)."""
        with tempfile.TemporaryDirectory() as programs:
            shutil.copy(fixture("results/sin_exp.json"), programs)
            found = self.compared(programs, self.out, "--baseline", "serial")
        for variant in ("f32", "f64"):
            self.assertEqual(sorted(k[3] for k in found if k[:3] == ("sin_exp", variant, "1000")), ["numpy", "serial"])
            self.assertIsNotNone(found["sin_exp", variant, "1000", "numpy"]["speedup"])

    def test_stdout_names_blas_and_threads(self):
        self.assertIn("BLAS:", self.stdout)
        self.assertIn("1 thread(s)", self.stdout)


@unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
class Checks(unittest.TestCase):
    """A row is verified only when its check passes: wrong answers fail it."""

    def setUp(self):
        import numpy
        self.np = numpy

    def test_wrong_elements_fail(self):
        problem = numpy_reference.WORKLOADS["sin_exp"].build(self.np, (100,), 1)
        case = problem.cases[0]
        z = case.call()
        case.record(z)
        self.assertTrue(case.verdict().ok)
        z[7] *= 1 + 1e-5
        self.assertFalse(case.verdict().ok)
        self.assertEqual(case.verdict().details["mismatches"], 1)

    def test_wrong_sum_fails(self):
        problem = numpy_reference.WORKLOADS["sum"].build(self.np, (10000,), 1)
        builtin = problem.cases[0]
        builtin.record(builtin.call())
        self.assertTrue(builtin.verdict().ok)
        builtin.record(self.np.float32(builtin.call() + 1))  # a sample counted twice, say
        self.assertFalse(builtin.verdict().ok)

    def test_histogram_edges_are_numpys(self):
        """np.histogram bins float32 data by float32 edges. With seed 41, one of 10^5 samples lies between
        an edge of the 100 bins rounded to float32 and the same edge in float64 (float64 edges fail here)."""
        problem = numpy_reference.WORKLOADS["histogram"].build(self.np, (100000,), 41)
        for case in problem.cases:
            case.record(case.call())
            self.assertTrue(case.verdict().ok, (case.variant.name, case.verdict().summary))
        counts, _ = problem.cases[2].last
        counts[3] += 1
        self.assertFalse(problem.cases[2].verdict().ok)

    def test_add_one_checks_every_call(self):
        problem = numpy_reference.WORKLOADS["add_one"].build(self.np, (1000,), 1)
        case = problem.cases[0]
        for _ in range(2):
            case.record(case.call())
        self.assertTrue(case.verdict().ok)
        case.call()  # a call not recorded: the next record sees 4 where it expects 3
        case.record(case.call())
        self.assertFalse(case.verdict().ok)


class Budget(unittest.TestCase):
    """The programs' rule (nbk/experiment/driver.hpp, tests/test_driver_report.cpp's Budget): a first call and at
    least two timed ones, then no more once the calls, the first included, took the budget; every repetition
    asked for with --repetitions and no --budget; a row that stopped says so."""

    @staticmethod
    def slow_clock():
        """time.perf_counter for nbk-numpy on which every call takes 0.4 s (two readings 0.4 apart)."""
        ticks = iter(range(10**6))
        return mock.patch.object(numpy_reference.time, "perf_counter", lambda: 0.4 * next(ticks))

    def timed(self, repetitions, budget):
        case = numpy_reference.Case(numpy_reference.Variant("v", "e"), lambda: 0, lambda _: None, 8)
        with self.slow_clock():
            first, timed = numpy_reference.time_case(case, repetitions, budget)
        return first, len(timed)

    def test_stops_repeating_once_spent(self):
        self.assertEqual(self.timed(5, 1.0), (0.4, 2))  # 1.2 s after three calls
        self.assertEqual(self.timed(5, 2.0), (0.4, 4))  # 2.0 s after five
        self.assertEqual(self.timed(5, 0), (0.4, 5))  # no budget: all of them
        self.assertEqual(self.timed(1, 0.1), (0.4, 1))  # fewer asked for than the minimum: all of them

    @unittest.skipUnless(HAVE_NUMPY, "NumPy is not installed for this interpreter")
    def test_the_row_says_so(self):
        for args, calls, said in ((["--repetitions", "5"], 5, "5 of 5  "), ([], 2, "2 of 5, budget"),
                                  (["--repetitions", "5", "--budget", "1"], 2, "2 of 5, budget")):
            with self.subTest(args=args), tempfile.TemporaryDirectory() as tmp, self.slow_clock():
                out, err = io.StringIO(), io.StringIO()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    rc = numpy_reference.main(["--only", "add", "--size", "add=1000", "--probe-size", "4096",
                                               "--out", tmp, *args])
                self.assertEqual(rc, 0, err.getvalue())
                with open(os.path.join(tmp, "add.json"), encoding="utf-8") as f:
                    rows = json.load(f)["results"]
                self.assertEqual({(r["repetitions"], r["stopped_early"]) for r in rows}, {(calls, calls < 5)})
                self.assertEqual(out.getvalue().count(said), len(rows), out.getvalue())


class BadInput(unittest.TestCase):
    def check(self, words, *args):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_tool("nbk-numpy", "--out", os.path.join(tmp, "out"), *args)
            self.assertEqual(rc, 2, err)
            self.assertEqual(out, "")
            lines = err.strip().splitlines()
            self.assertEqual(len(lines), 1, err)
            self.assertNotIn("Traceback", err)
            self.assertIn(words, lines[0])
            self.assertFalse(os.path.exists(os.path.join(tmp, "out")))

    def test_unknown_experiment(self):
        self.check("nosuch", "--only", "sum,nosuch")
        self.check("nosuch", "--size", "nosuch=10")

    def test_bad_sizes(self):
        for size in ("sum=0", "sum=-5", "sum=abc", "sum=1.5", "sum=", "sum", "maximum=4x4", "matmul=0x2x2"):
            with self.subTest(size):
                self.check(size.split("=")[-1] or "--size", "--size", size)

    def test_bad_numbers(self):
        for option, value in (("--repetitions", "0"), ("--repetitions", "-1"), ("--repetitions", "abc"),
                              ("--scale", "0"), ("--scale", "-1"), ("--scale", "nan"), ("--scale", "x"),
                              ("--threads", "0"), ("--threads", "two"), ("--seed", "-3"), ("--probe-size", "0")):
            with self.subTest(option=option, value=value):
                self.check(value, option, value)

    def test_unknown_option(self):
        self.check("--frobnicate", "--frobnicate")

    @unittest.skipUnless(HAVE_NUMPY, "the output is checked only where NumPy runs")
    def test_unwritable_out(self):
        with tempfile.TemporaryDirectory() as tmp:
            blocker = os.path.join(tmp, "file")
            open(blocker, "w").close()
            rc, out, err = run_tool("nbk-numpy", "--only", "sum", "--out", os.path.join(blocker, "results"))
            self.assertEqual(rc, 2, err)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertIn(os.path.join(blocker, "results"), err)
            self.assertNotIn("Traceback", err)


class WithoutNumpy(unittest.TestCase):
    """A NumPy that fails to import (a stand-in package first on the path): one line, exit 2, nothing written;
    --list needs no NumPy."""

    def test_skips_with_a_note(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "numpy"))
            with open(os.path.join(tmp, "numpy", "__init__.py"), "w") as f:
                f.write("raise ImportError('no NumPy here (test stand-in)')\n")
            out_dir = os.path.join(tmp, "out")
            env = dict(os.environ, PYTHONPATH=tmp)
            proc = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-numpy"), "--out", out_dir],
                                  capture_output=True, text=True, timeout=60, env=env)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
            self.assertIn("NumPy is not available", proc.stderr)
            self.assertIn("python3-numpy", proc.stderr)
            self.assertFalse(os.path.exists(out_dir))
            listing = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-numpy"), "--list"],
                                     capture_output=True, text=True, timeout=60, env=env)
            self.assertEqual(listing.returncode, 0, listing.stderr)
            self.assertIn("np.sum(x)", listing.stdout)


if __name__ == "__main__":
    unittest.main()
