"""NumPy is a CPU reference, never a GPU and never the best CPU: spaces classified in one place
(runs.py), a run's numpy/ folder read as part of the run, and the summary's column
"NumPy (1 thread)" beside the best CPU variant with the best CPU variant's speed-up over it."""
import os
import tempfile
import unittest

from nbk_compare import runs, summary

from .helpers import read, run_tool
from .runs_fixtures import (CPU_CONTEXT, cpu_and_gpu_runs, cpu_programs, cpu_run_with_numpy, numpy_programs,
                            write_run)


class Spaces(unittest.TestCase):
    def test_cpu_and_gpu_spaces(self):
        for space in ("serial", "openmp", "host", "threads", "numpy"):
            self.assertFalse(runs.on_device(space), space)
        for space in ("cuda", "hip", "sycl", "openmptarget"):
            self.assertTrue(runs.on_device(space), space)
        self.assertTrue(runs.is_reference("numpy"))
        self.assertFalse(runs.is_reference("openmp"))

    def test_a_numpy_row_is_a_cpu_reference(self):
        with tempfile.TemporaryDirectory() as tmp:
            (run,) = runs.open_runs([cpu_run_with_numpy(tmp)])
            numpy = [e for e in run.entries if e.space == "numpy"]
            self.assertEqual(len(numpy), 2)
            for e in numpy:
                self.assertFalse(e.on_device)
                self.assertTrue(e.is_reference)
                self.assertFalse(e.cpu_variant)
            self.assertFalse(run.has_device)


class RunFolder(unittest.TestCase):
    def test_numpy_folder_is_part_of_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            (run,) = runs.open_runs([cpu_run_with_numpy(tmp)])
            self.assertEqual(sorted(run.programs), ["add_one", "maximum"])
            self.assertEqual(sorted(run.references), ["add_one", "maximum"])
            self.assertEqual([os.path.basename(os.path.dirname(p)) for p, _ in run.files_of("add_one")],
                             ["cpu", "numpy"])
            spaces = {(e.experiment, e.space) for e in run.entries}
            self.assertIn(("add_one", "numpy"), spaces)
            self.assertIn(("add_one", "openmp"), spaces)
            self.assertEqual(run.label, "ws")  # the programs' run, not NumPy's "label"
            self.assertEqual(run.skipped, [])

    def test_numpy_files_alone_are_a_cpu_run_named_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_run(os.path.join(tmp, "numpy-run"), None, numpy_programs())
            cpu, gpu = cpu_and_gpu_runs(tmp)
            found = runs.open_runs([cpu, folder, gpu])
            self.assertEqual([r.label for r in found], ["ws", "numpy", "gpu"])
            self.assertFalse(found[1].has_device)
            text = summary.render_text(found, summary.summarize(found))
            self.assertIn("best GPU (gpu), data resident", text)  # not "best GPU" of numpy and gpu
            self.assertIn("NumPy (1 thread)", text)
            self.assertIn("GPU: gpu.", text)

    def test_numpy_files_beside_gpu_runs_alone(self):
        """No CPU run of the programs: the best CPU of every run's CPU rows, never NumPy's."""
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_run(os.path.join(tmp, "numpy-run"), None, numpy_programs())
            _, gpu = cpu_and_gpu_runs(tmp)
            found = runs.open_runs([gpu, folder])
            line = summary.summarize(found)[0]
            self.assertEqual((line.cpu.space, line.cpu.time), ("openmp", 0.1))
            self.assertEqual(line.references["numpy"].run.label, "numpy")
            self.assertIn("CPU: gpu, numpy (no run of the programs on a CPU alone: CPU rows of every run); GPU: gpu.",
                          summary.legend(found, [line])[0])

    def test_two_numpy_files_of_one_experiment_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = cpu_run_with_numpy(tmp)
            write_run(os.path.join(run, "results"), None, numpy_programs()[:1])
            (found,) = runs.open_runs([run])
            self.assertIn("a second result of add_one in one run", found.skipped[0][1])


class NumpyColumn(unittest.TestCase):
    def lines(self, *paths):
        found = runs.open_runs(list(paths))
        return found, {line.experiment: line for line in summary.summarize(found)}

    def test_beside_the_best_cpu_variant_never_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            found, lines = self.lines(cpu_run_with_numpy(tmp))
            add_one = lines["add_one"]
            self.assertEqual((add_one.cpu.variant, add_one.cpu.space), ("resident", "openmp"))  # 300 ms
            self.assertEqual(add_one.references["numpy"].time, 0.2)  # faster, yet not the best CPU
            self.assertAlmostEqual(add_one.cpu_speedup("numpy"), 0.2 / 0.3)
            groups, rows = summary.summary_table(found, summary.summarize(found))
            self.assertEqual([g for g, _ in groups][:3], ["", "best CPU (ws)", "NumPy (1 thread)"])
            self.assertEqual(rows[0][:8], ["add_one", "2^31", "resident openmp", "300.0 ms", "179%",
                                           "resident", "200.0 ms", "0.67x"])

    def test_the_same_variant_else_numpys_fastest(self):
        with tempfile.TemporaryDirectory() as tmp:
            _, lines = self.lines(cpu_run_with_numpy(tmp))
            maximum = lines["maximum"]
            self.assertEqual(maximum.cpu.variant, "mdrange-auto")
            self.assertEqual(maximum.references["numpy"].variant, "flat")  # no mdrange-auto row in NumPy's

    def test_numpy_at_other_sizes_is_said(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs()[:1])
            numpy = numpy_programs()[:1]
            numpy[0]["results"][0].update(size="1024", elements=1024)
            write_run(os.path.join(run, "numpy"), None, numpy)
            _, lines = self.lines(run)
            self.assertIsNone(lines["add_one"].references["numpy"])
            self.assertEqual(lines["add_one"].size, "2147483648")
            self.assertIn("NumPy not at 2^31 (measured at 2^10)", lines["add_one"].notes)

    def test_no_numpy_no_column(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            found = runs.open_runs([cpu, gpu])
            groups, _ = summary.summary_table(found, summary.summarize(found))
            self.assertNotIn("NumPy", " ".join(g for g, _ in groups))

    def test_threads_in_the_label(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs())
            numpy = numpy_programs()
            for data in numpy:
                data["context"] = dict(data["context"], threads=2)
            write_run(os.path.join(run, "numpy"), None, numpy)
            self.assertEqual(summary.reference_label(runs.open_runs([run]), "numpy"), "NumPy (2 threads)")


class Report(unittest.TestCase):
    def test_report_of_a_run_with_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = cpu_run_with_numpy(tmp)
            rc, out, err = run_tool("nbk-report", run, "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("NumPy (1 thread)", out)
            row = next(ln for ln in out.splitlines() if ln.startswith("add_one"))
            self.assertRegex(row, r"resident openmp +300\.0 ms +179% \| resident +200\.0 ms +0\.67x$")
            md = read(os.path.join(run, "report", "index.md"))
            self.assertIn("| variant | size | serial | openmp | numpy |", md)
            self.assertIn("| NumPy reference (tools/nbk-numpy) | NumPy 1.24.2, 1 thread(s); BLAS: OpenBLAS", md)
            self.assertNotIn("every row, probes", md)  # no fold repeating the table


if __name__ == "__main__":
    unittest.main()
