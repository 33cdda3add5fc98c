"""The tools' command lines: a python3 without the modules a tool needs, options out of range, where
the report goes without --out, and a run folder's bench.json beside its programs' rows."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from nbk_compare import report

from .helpers import TOOLS, fixture, run_tool
from .runs_fixtures import CPU_CONTEXT, cpu_programs, write_run

REPO = os.path.dirname(TOOLS)


class WithoutModules(unittest.TestCase):
    """python3 -S: no site-packages, so no markdown, jinja2, numpy or scipy (a python3 other than
    Debian's first on PATH is the same case)."""

    def test_one_line_naming_the_debian_package(self):
        for tool, args, package in (("nbk-report", ["--help"], "python3-markdown"),
                                    ("nbk-compare", [fixture("spaces.json")], "python3-numpy"),
                                    ("nbk-compare", ["--help"], "python3-scipy"),
                                    ("nbk-numpy", ["--only", "sum", "--out", "/nonexistent/x"], "python3-numpy")):
            with self.subTest(tool=tool, args=args):
                proc = subprocess.run([sys.executable, "-S", os.path.join(TOOLS, tool), *args],
                                      capture_output=True, text=True, timeout=60)
                self.assertEqual(proc.returncode, 2, proc.stderr)
                self.assertEqual(len(proc.stderr.strip().splitlines()), 1, proc.stderr)
                self.assertIn(package, proc.stderr)
                self.assertEqual(proc.stdout, "")


class Options(unittest.TestCase):
    def refused(self, tool, *args, words):
        rc, out, err = run_tool(tool, *args)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn(words, err)

    def test_out_of_range(self):
        results = fixture("results")
        self.refused("nbk-compare", fixture("spaces.json"), "--alpha", "7", words="--alpha")
        self.refused("nbk-compare", "regress", fixture("before.json"), fixture("after.json"), "--alpha", "0",
                     words="--alpha")
        self.refused("nbk-compare", fixture("spaces.json"), "--csv", words="unrecognized")  # dropped: --json
        self.refused("nbk-compare", fixture("spaces.json"), "--baseline", "nonsense", words="nonsense")
        self.refused("nbk-compare", "regress", fixture("before.json"), fixture("after.json"), "--threshold", "-1",
                     words="--threshold")
        for option in ("--alpha", "--reference", "--baseline"):  # the report compares no benchmarks
            self.refused("nbk-report", results, "--out", "/nonexistent/x", option, "x", words="unrecognized")
        self.refused("nbk-report", results, results, words="--out")
        self.refused("nbk-report", results, "--label", " ", "--out", "/nonexistent/x", words="--label")
        self.refused("nbk-compare", fixture("spaces.json"), "--label", "", words="--label")


class DefaultOut(unittest.TestCase):
    """Where the report goes without --out, asked of the function: the tests write under temporary folders only."""

    def test_a_record_in_the_tree_reports_into_build_reports(self):
        self.assertEqual(report.default_out(fixture("results")), os.path.join(REPO, "build", "reports", "results"))
        build = os.path.join(REPO, "build", "x")  # already under build/: beside the run
        self.assertEqual(report.default_out(build), os.path.join(build, "report"))
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(report.default_out(tmp), os.path.join(tmp, "report"))


class BenchBesideRows(unittest.TestCase):
    def test_said_not_skipped_silently(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "run"), CPU_CONTEXT, cpu_programs())
            shutil.copy(fixture("spaces.json"), os.path.join(run, "bench.json"))
            rc, out, err = run_tool("nbk-compare", run)
            self.assertEqual(rc, 0, err)
            self.assertIn(os.path.join(run, "bench.json"), err)
            self.assertIn("not compared", err)


if __name__ == "__main__":
    unittest.main()
