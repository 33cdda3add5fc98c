"""Several runs side by side: nbk-report RUN..., nbk-compare on program JSON and run folders,
the H100 record in results/, and bad input (one line, exit 2, or 'not comparable')."""
import json
import os
import shutil
import tempfile
import unittest

from nbk_compare import summary

from .helpers import TOOLS, have_matplotlib, read, run_tool
from .runs_fixtures import CPU_CONTEXT, cpu_and_gpu_runs, cpu_programs, gpu_programs, load, write_run

H100 = os.path.join(os.path.dirname(TOOLS), "results", "h100-4ae6697")


class TwoRuns(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.cpu, cls.gpu = cpu_and_gpu_runs(cls.tmp)
        cls.out = os.path.join(cls.tmp, "report")
        cls.rc, cls.stdout, cls.err = run_tool("nbk-report", cls.cpu, cls.gpu, "--out", cls.out)
        cls.md = read(os.path.join(cls.out, "index.md")) if cls.rc == 0 else ""

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def test_same_named_files_of_two_runs_are_two_columns(self):
        self.assertEqual(self.rc, 0, self.err)
        # add_one.json of both runs: the openmp rows of each, side by side
        self.assertIn("| variant | size | serial@ws | openmp@ws | openmp@gpu | cuda@gpu |", self.md)
        # no cache sizes: a row smaller than its probes (cuda's: of no size) says "≤" (it may sit in a cache)
        self.assertIn("| resident | 2^31 | 750.0 ms<br>4.10 GB/s, 44% of DRAM, copy probe | "
                      "300.0 ms<br>50.2 GB/s, no ceiling: beats every DRAM ceiling | 100.0 ms<br>150 GB/s, no "
                      "ceiling: beats every DRAM ceiling | 20.00 ms<br>850 GB/s, ≤50% of HBM, copy probe; level not "
                      "recorded |", self.md)

    def test_summary_on_top_and_on_stdout(self):
        self.assertLess(self.md.index("## Summary"), self.md.index("## Machine and build"))
        line = next(ln for ln in self.stdout.splitlines() if ln.startswith("add_one"))
        self.assertIn("resident openmp", line)
        self.assertIn("300.0 ms", line)
        self.assertIn("resident cuda", line)
        self.assertIn("15.0x", line)  # 300 ms / 20 ms
        self.assertIn("managed cuda", line)
        self.assertIn("25% of link", line)  # of the link
        self.assertIn("best CPU (ws)", self.stdout)
        self.assertIn("best GPU, data resident", self.stdout)
        self.assertIn("Run 2, gpu: Fixture CPU; Fixture GPU; revision abc1234.", self.md)  # the machines, first

    def test_machine_columns_per_run(self):
        self.assertIn("|   | ws | gpu |", self.md)
        self.assertIn("| GPU | none reported | Fixture GPU |", self.md)

    def test_crossover_from_both_runs(self):
        # one answer, as the summary's: ws's host times (5x the fixture's) against gpu's device times
        section = self.md[self.md.index("## Crossover"):]
        row = next(ln for ln in section.splitlines() if ln.startswith("| maximum |"))
        self.assertEqual(row, "| maximum | no device | 2^10 (every size) / never |")
        self.assertIn("The host times are those of ws, as in the summary.", section)
        self.assertIn("(across sizes: the GPU wins from 2^10 (every size))", self.md)  # the sentence too

    def test_plots_fit_the_page(self):
        from nbk_compare import plots
        if not have_matplotlib():
            self.skipTest("no matplotlib")
        pngs = [n for n in os.listdir(self.out) if n.endswith(".png")]
        self.assertIn("times.png", pngs)
        self.assertNotIn("sweeps.png", pngs)
        for name in pngs:
            self.assertLessEqual(plots.png_size(os.path.join(self.out, name))[1], plots.MAX_HEIGHT_PX, name)


class Summary(unittest.TestCase):
    def summary(self, *runs_):
        rc, out, err = run_tool("nbk-report", *runs_, "--out", os.path.join(os.path.dirname(runs_[0]), "r"),
                                "--no-plots")
        self.assertEqual(rc, 0, err)
        return out

    def test_different_sizes_are_not_comparable(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu = cpu_programs()[:1]
            gpu = gpu_programs()[:1]
            for row in gpu[0]["results"]:
                row["size"], row["elements"] = "1024", 1024
            a = write_run(os.path.join(tmp, "a"), CPU_CONTEXT, cpu)
            b = write_run(os.path.join(tmp, "b"), dict(CPU_CONTEXT, host="b"), gpu)
            out = self.summary(a, b)
            self.assertIn("not comparable: CPU at 2^31, GPU at 2^10", out)
            self.assertNotIn("data resident", out.splitlines()[0])  # no GPU time set beside the CPU's

    def test_failed_rows_are_left_out_and_said(self):
        with tempfile.TemporaryDirectory() as tmp:
            gpu = gpu_programs()[:1]
            gpu[0]["results"][1].update(status="failed", check="FAILED (3 mismatches)")
            out = self.summary(write_run(os.path.join(tmp, "b"), CPU_CONTEXT, gpu))
            self.assertIn("add_one: 1 row(s) not verified: FAILED (3 mismatches): left out", out)
            self.assertNotIn("data resident", out.splitlines()[0])

    def test_crossover_rule(self):
        self.assertEqual(summary.crossover([(1, 1.0, 2.0), (2, 2.0, 1.0), (4, 4.0, 1.0)]), 2)
        self.assertEqual(summary.crossover([(1, 1.0, 0.5), (2, 2.0, 3.0), (4, 4.0, 1.0)]), 4)
        self.assertIsNone(summary.crossover([(1, 1.0, 0.5), (2, 2.0, 3.0)]))


class JudgedOn(unittest.TestCase):
    """A row is judged by the probes of the space its JSON names in `judged_on` (OpenBLAS on every
    core: openmp's), else by its own space's, one-thread 'host' rows by serial's."""

    def test_reference_follows_judged_on(self):
        data = {"experiment": "matmul", "probes": {"serial": {"memcpy_gb_per_s": 30.0},
                                                   "openmp": {"memcpy_gb_per_s": 50.0}},
                "results": [{"variant": "blas", "space": "host", "judged_on": "openmp", "status": "verified",
                             "best_s": 0.01, "gb_per_s": 1.0, "size": "8"},
                            {"variant": "host", "space": "host", "status": "verified", "best_s": 0.06,
                             "gb_per_s": 0.2, "size": "8"}]}
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "run"), CPU_CONTEXT, [data])
            rc, out, err = run_tool("nbk-report", run, "--out", os.path.join(tmp, "r"), "--no-plots")
            self.assertEqual(rc, 0, err)
            md = read(os.path.join(tmp, "r", "index.md"))
        self.assertIn("| blas | 8 | 10.00 ms<br>1.00 GB/s, ≤2.0% of DRAM, memcpy probe; level not recorded |",
                      md)  # of openmp's 50 GB/s
        self.assertIn("| host | 8 | 60.00 ms<br>0.200 GB/s, ≤0.7% of DRAM, memcpy probe; level not recorded |",
                      md)  # of serial's 30 GB/s


class H100Record(unittest.TestCase):
    """The H100 run of main at 4ae6697, in the repository; its rows were converted once from the older format."""

    def test_record_is_readable(self):
        rc, out, err = run_tool("nbk-compare", H100, "--json")
        self.assertEqual(rc, 0, err)
        by = {(r["experiment"], r["variant"], r["space"]): r for r in json.loads(out)["results"]}
        resident = by[("add_one", "resident", "cuda")]
        self.assertAlmostEqual(resident["time_s"], 0.020240402)
        self.assertEqual(resident["reference"], "probe/copy/cuda")  # no memcpy probe then
        self.assertIsNone(by[("add_one", "managed", "cuda")]["fraction_of_reference"])  # crosses the link
        self.assertIsNone(by[("sum", "builtin+transfers", "cuda")]["fraction_of_reference"])
        self.assertEqual(by[("product", "prod", "cuda")]["time_s"], 2.7728e-05)
        self.assertIn(("product", "log-sum", "openmp"), by)

    def test_files_are_the_runs_own(self):
        with open(os.path.join(H100, "add_one.json"), encoding="utf-8") as f:
            self.assertIn("method", f.read())  # converted rows keep the run's own keys

    def test_report_of_the_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_tool("nbk-report", H100, "--out", tmp, "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("resident cuda", out)
            md = read(os.path.join(tmp, "index.md"))
            self.assertIn("NVIDIA H100 80GB HBM3", md)
            self.assertIn("njit 1 CPU 4.62 s / 629 ms", md)  # the document's figures: in the notes, no ratio


class CompareProgramJson(unittest.TestCase):
    def test_two_runs_paired_and_a_planted_regression(self):
        with tempfile.TemporaryDirectory() as tmp:
            before = write_run(os.path.join(tmp, "before"), CPU_CONTEXT, cpu_programs())
            slower = cpu_programs()
            slower[0]["results"][1]["best_s"] *= 1.5  # add_one resident openmp: 50% slower
            after = write_run(os.path.join(tmp, "after"), CPU_CONTEXT, slower)
            rc, out, err = run_tool("nbk-compare", before, after)
            self.assertEqual(rc, 0, err)
            line = next(ln for ln in out.splitlines() if ln.startswith("add_one ") and " openmp " in ln)
            self.assertEqual(line.split()[-4:], ["450.0", "ms", "1.50x", "-"])  # B/A; no repetitions to test
            rc, out, err = run_tool("nbk-compare", before, after, "--columns")
            self.assertEqual(rc, 0, err)
            self.assertIn("openmp@before", out)
            self.assertIn("openmp@after", out)
            rc, out, err = run_tool("nbk-compare", "regress", before, after)
            self.assertEqual(rc, 1, err)
            self.assertIn("1 regression(s): add_one/resident/openmp/2147483648", out)
            rc, out, err = run_tool("nbk-compare", "regress", os.path.join(before, "add_one.json"),
                                    os.path.join(after, "add_one.json"))
            self.assertEqual(rc, 1, err)
            rc, out, _ = run_tool("nbk-compare", "regress", before, before)
            self.assertEqual(rc, 0)
            self.assertIn("no regression", out)

    def test_cpu_run_against_gpu_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            rc, out, err = run_tool("nbk-compare", cpu, gpu, "--baseline", "openmp@cpu")
            self.assertEqual(rc, 0, err)
            self.assertIn("cuda", out)
            self.assertIn("15.0x", out)

    def test_failed_row_is_an_error_not_a_time(self):
        with tempfile.TemporaryDirectory() as tmp:
            before = write_run(os.path.join(tmp, "before"), CPU_CONTEXT, cpu_programs())
            failed = cpu_programs()
            failed[0]["results"][1].update(status="failed", check="FAILED (1 mismatch)")
            after = write_run(os.path.join(tmp, "after"), CPU_CONTEXT, failed)
            rc, out, _ = run_tool("nbk-compare", "regress", before, after)
            self.assertEqual(rc, 1)
            self.assertIn("ERROR in B: not verified: FAILED (1 mismatch)", out)


class BadRuns(unittest.TestCase):
    def one_line_exit_2(self, tool, *args, words):
        rc, out, err = run_tool(tool, *args)
        self.assertEqual(rc, 2, err)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertNotIn("Traceback", err)
        self.assertIn(words, err)
        return err

    def test_missing_and_empty_folders(self):
        with tempfile.TemporaryDirectory() as tmp:
            for tool, out in (("nbk-report", ["--out", os.path.join(tmp, "r")]), ("nbk-compare", [])):
                self.one_line_exit_2(tool, os.path.join(tmp, "nope"), H100, *out, words="no such file or run folder")
                self.one_line_exit_2(tool, tmp, H100, *out, words="not a run")

    def test_same_run_twice_and_several_runs_without_out(self):
        self.one_line_exit_2("nbk-report", H100, H100 + "/", "--out", "/tmp/unused", words="the same run as")
        self.one_line_exit_2("nbk-report", H100, H100, words="--out is needed with several runs")

    def test_unreadable_run_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_run(os.path.join(tmp, "a"), CPU_CONTEXT, cpu_programs())
            with open(os.path.join(a, "run.json"), "w") as f:
                f.write('{"name": ')
            self.one_line_exit_2("nbk-report", a, words="run.json: not a run context")

    def test_truncated_and_foreign_files_in_a_run_are_named(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_run(os.path.join(tmp, "a"), CPU_CONTEXT, cpu_programs())
            with open(os.path.join(a, "sum.json"), "w") as f:
                f.write('{"experiment": "sum", "results": [')
            with open(os.path.join(a, "notes.json"), "w") as f:
                json.dump({"hello": 1}, f)
            rc, _, err = run_tool("nbk-report", a, "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("skipped", err)
            md = read(os.path.join(a, "report", "index.md"))
            self.assertIn("sum.json`: truncated JSON", md)
            self.assertIn("notes.json`: neither a program result", md)

    def test_two_results_of_one_experiment_in_a_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_run(os.path.join(tmp, "a"), CPU_CONTEXT, cpu_programs())
            shutil.copy(os.path.join(a, "add_one.json"), os.path.join(a, "add_one-again.json"))
            rc, _, err = run_tool("nbk-report", a, "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("a second result of add_one in one run", read(os.path.join(a, "report", "index.md")))

    def test_runs_with_nothing_in_common(self):
        with tempfile.TemporaryDirectory() as tmp:
            a = write_run(os.path.join(tmp, "a"), CPU_CONTEXT, [load("add_one.json")])
            b = write_run(os.path.join(tmp, "b"), dict(CPU_CONTEXT, host="b"), [load("sin_exp.json")])
            self.one_line_exit_2("nbk-compare", "regress", a, b, words="no benchmark in common")
            self.one_line_exit_2("nbk-compare", a, b, words="no benchmark in common")
            rc, _, err = run_tool("nbk-report", a, b, "--out", os.path.join(tmp, "r"), "--no-plots")
            self.assertEqual(rc, 0, err)  # the report shows both; the summary says what is missing
            md = read(os.path.join(tmp, "r", "index.md"))
            self.assertIn("Not run in b.", md)
            self.assertIn("Not run in ws.", md)


if __name__ == "__main__":
    unittest.main()
