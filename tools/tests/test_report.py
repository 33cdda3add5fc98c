"""tools/nbk-report: every section from fixtures, and a page (no crash) when inputs are missing."""
import os
import shutil
import tempfile
import unittest


from .helpers import FIXTURES, fixture, have_matplotlib, read, run_tool


def preset_dir(tmp, results=True, bench=True):
    """build/openmp as the programs and scripts/bench.sh leave it: results/*.json and bench.json."""
    d = os.path.join(tmp, "build", "openmp")
    os.makedirs(os.path.join(d, "results"))
    if results:
        for name in os.listdir(os.path.join(FIXTURES, "results")):
            shutil.copy(os.path.join(FIXTURES, "results", name), os.path.join(d, "results", name))
    if bench:
        shutil.copy(fixture("spaces.json"), os.path.join(d, "bench.json"))
    return d


class Report(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.dir = preset_dir(cls.tmp)
        cls.rc, cls.out, cls.err = run_tool("nbk-report", cls.dir, "--out", os.path.join(cls.dir, "report"))
        cls.md = read(os.path.join(cls.dir, "report", "index.md")) if cls.rc == 0 else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_writes_markdown_and_html(self):
        self.assertEqual(self.rc, 0, self.err)
        self.assertTrue(os.path.exists(os.path.join(self.dir, "report", "index.html")))
        self.assertIn("<table>", read(os.path.join(self.dir, "report", "index.html")))

    def test_machine_and_build(self):
        self.assertIn("## Machine and build", self.md)
        self.assertIn("| CPU | Fixture CPU |", self.md)
        self.assertIn("| Kokkos version | 3.4.1 |", self.md)
        self.assertIn("git revision (from the run) | abc1234", self.md)
        self.assertIn("OMP_PROC_BIND | spread", self.md)

    def test_summary_first_and_small(self):
        self.assertLess(self.md.index("## Summary"), self.md.index("## Machine and build"))
        self.assertIn("| maximum | 32x32x32 | mdrange-auto openmp 5.000 µs, no ceiling: no openmp probes in this "
                      "record | "
                      "mdrange-auto cuda 4.000 µs, no ceiling: no cuda probes in this record | 1.25x | "
                      "mdrange-auto cuda 90.00 µs, 31% of link | 0.06x |", self.md)
        self.assertLessEqual(len(self.md[self.md.index("## Summary"):].splitlines()[2].split(" | ")), 8)  # columns
        self.assertIn("sum: 1 row(s) not verified: FAILED (error 0.125 > 0.1): left out", self.md)
        self.assertRegex(self.out, r"\nmaximum +32x32x32 +\| mdrange-auto openmp")  # the summary on stdout too
        self.assertNotIn("every field", self.md)  # no JSON dumps
        self.assertLess(len(self.md), 40000)

    def test_known_and_unknown_experiments(self):
        self.assertIn("### add_one", self.md)
        self.assertIn("| resident | 2^31 | 750.0 ms<br>4.10 GB/s, 44% of DRAM, copy probe | 300.0 ms<br>50.2 GB/s, "
                      "no ceiling: beats every DRAM ceiling |", self.md)
        self.assertIn("| builtin | 134217571 | - | not comparable: not verified: FAILED (error 0.125 > 0.1) |", self.md)
        # the workload's notes, as the program prints them after its table (lib/nbk/add_one/notes.md)
        self.assertIn('<details markdown="1">\n<summary>add_one: notes (lib/nbk/add_one/notes.md)</summary>', self.md)
        self.assertNotIn("every row, probes, sweeps", self.md)  # no fold repeating the table
        self.assertIn("### hypot", self.md)  # no code knows hypot
        self.assertIn("| sin_exp f32 | never / never |", self.md)
        self.assertIn("| sin_exp f64 | 2^12 / never |", self.md)

    def test_crossover_sweep(self):
        self.assertIn("| maximum | 2^12 / never |", self.md)

    def test_plots_of_the_run(self):
        if not have_matplotlib():
            self.assertIn("Plots skipped: matplotlib is not importable", self.md)
            return
        self.assertIn("](times.png)", self.md)
        self.assertGreater(os.path.getsize(os.path.join(self.dir, "report", "times.png")), 5000)
        # the summary and tables give each % of the probe, the crossover table each sweep's crossovers
        self.assertNotIn("bandwidth.png", self.md)
        self.assertNotIn("sweeps.png", self.md)

    def test_unusable_files_are_named_not_fatal(self):
        self.assertIn("tests.json`: GoogleTest output", self.md)
        self.assertIn("broken.json`: truncated JSON", self.md)
        self.assertIn("skipped", self.err)

    def test_no_ratio_to_other_machines_figures(self):
        self.assertNotIn("published", self.md)  # the documents' figures: other machines, no speed-up

    def test_benchmarks_named_not_compared(self):
        self.assertIn("## Benchmarks (Google Benchmark)", self.md)
        self.assertIn("compared by `tools/nbk-compare FILE` (not repeated here): `" + os.path.join(self.dir, "bench.json"),
                      self.md)
        self.assertNotIn("5.05x*", self.md)


class MissingInputs(unittest.TestCase):
    def test_empty_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = preset_dir(tmp, results=False, bench=False)
            rc, _, err = run_tool("nbk-report", "--results", os.path.join(d, "results"), "--out", d)
            self.assertEqual(rc, 0, err)
            md = read(os.path.join(d, "index.md"))
            self.assertIn("No program results found", md)
            self.assertIn("No Google Benchmark output", md)
            self.assertIn("No timings", md)
            self.assertIn("unknown: the run records none", md)

    def test_results_without_bench_and_bench_without_results(self):
        with tempfile.TemporaryDirectory() as tmp:
            d = preset_dir(tmp, results=True, bench=False)
            rc, _, err = run_tool("nbk-report", d, "--out", os.path.join(d, "report"), "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("No Google Benchmark output", read(os.path.join(d, "report", "index.md")))
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "r")
            rc, _, err = run_tool("nbk-report", "--results", fixture("spaces.json"), "--out", out, "--no-plots")
            self.assertEqual(rc, 0, err)
            md = read(os.path.join(out, "index.md"))
            self.assertIn("No program results found", md)
            self.assertIn("Plots not requested", md)

    def test_missing_run_exits_2(self):
        rc, _, err = run_tool("nbk-report", "/nonexistent/build/openmp")
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
