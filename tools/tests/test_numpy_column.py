"""NumPy is a CPU reference, never a GPU and never the best CPU: spaces classified in one place
(runs.py), a run's numpy/ folder read as part of the run, and the summary's column
"NumPy (1 thread)" beside the best CPU variant with the best CPU variant's speed-up over it;
checked through nbk-report's summary (stdout) and page."""
import os
import tempfile
import unittest

from nbk_compare import gbench

from .helpers import read, run_tool
from .runs_fixtures import (CPU_CONTEXT, cpu_and_gpu_runs, cpu_programs, cpu_run_with_numpy, numpy_programs,
                            write_run)


def report(*paths):
    """nbk-report PATHS: (its summary on stdout, index.md, stderr)."""
    out = os.path.join(os.path.dirname(paths[0]), "report-of-test")
    rc, text, err = run_tool("nbk-report", *paths, "--out", out, "--no-plots")
    assert rc == 0, err
    return text, read(os.path.join(out, "index.md")), err


def row(text, workload):
    return [c.strip() for c in next(ln for ln in text.splitlines() if ln.startswith(workload + " ")).split("|")]


class Spaces(unittest.TestCase):
    def test_cpu_and_gpu_spaces(self):
        for space in ("serial", "openmp", "host", "threads", "numpy"):
            self.assertFalse(gbench.on_device(space), space)
        for space in ("cuda", "hip", "sycl", "openmptarget"):
            self.assertTrue(gbench.on_device(space), space)
        self.assertTrue(gbench.is_reference("numpy"))
        self.assertFalse(gbench.is_reference("openmp"))


class RunFolder(unittest.TestCase):
    def test_numpy_folder_is_part_of_the_run(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, md, err = report(cpu_run_with_numpy(tmp))
            self.assertIn("| variant | size | serial | openmp | numpy |", md)  # one table, a numpy column
            self.assertIn("# Report: ws\n", md)  # the programs' run, not NumPy's "label"
            self.assertNotIn("Files not used", md)
            self.assertNotIn("GPU", text.splitlines()[0])  # a CPU run: NumPy beside the best CPU, no GPU

    def test_numpy_files_alone_are_a_run_named_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_run(os.path.join(tmp, "numpy-run"), None, numpy_programs())
            cpu, gpu = cpu_and_gpu_runs(tmp)
            text, md, _ = report(cpu, folder, gpu)
            self.assertIn("# Report: ws vs numpy vs gpu", md)
            self.assertIn("GPU: gpu.", text)  # not "best GPU" of numpy and gpu
            self.assertIn("NumPy (numpy, 1 thread)", text)  # measured on ws, as the CPU run: a speed-up
            self.assertRegex(row(text, "add_one")[2], r"0\.67x$")
            self.assertIn("GPU: gpu.", text)

    def test_numpy_files_beside_gpu_runs_alone(self):
        """No CPU run of the programs: the best CPU of every run's CPU rows, never NumPy's."""
        with tempfile.TemporaryDirectory() as tmp:
            folder = write_run(os.path.join(tmp, "numpy-run"), None, numpy_programs())
            _, gpu = cpu_and_gpu_runs(tmp)
            text, _, _ = report(gpu, folder)
            self.assertRegex(row(text, "add_one")[1], r"^resident openmp@gpu +100\.0 ms")
            # NumPy's, from numpy, measured on ws: no speed-up over gpu's CPU rows (another machine)
            self.assertRegex(row(text, "add_one")[2], r"^resident 200\.0 ms, -$")
            self.assertIn("Another machine than the best CPU row's, so no speed-up: add_one, maximum.", text)
            self.assertIn("CPU: gpu, numpy (each record's own CPU rows); GPU: gpu.", text)

    def test_two_numpy_files_of_one_experiment_are_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = cpu_run_with_numpy(tmp)
            write_run(os.path.join(run, "results"), None, numpy_programs()[:1])
            _, md, err = report(run)
            self.assertIn("a second result of add_one in one run", md)
            self.assertIn("a second result of add_one in one run", err)


class NumpyColumn(unittest.TestCase):
    def test_beside_the_best_cpu_variant_never_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, _, _ = report(cpu_run_with_numpy(tmp))
            self.assertEqual([g.strip() for g in text.splitlines()[0].split("|")][1:3],
                             ["best CPU (ws)", "NumPy (ws, 1 thread)"])
            # openmp's 300 ms is the best CPU; NumPy's 200 ms is faster, yet not the best CPU
            self.assertRegex(text, r"(?m)^add_one +2\^31 +\| resident openmp 300\.0 ms, no ceiling: beats every DRAM "
                                   r"ceiling +\| resident 200\.0 ms, 0\.67x$")

    def test_the_same_variant_else_numpys_fastest(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, _, _ = report(cpu_run_with_numpy(tmp))
            self.assertRegex(row(text, "maximum")[1], r"^mdrange-auto openmp")
            self.assertRegex(row(text, "maximum")[2], r"^flat ")  # no mdrange-auto row in NumPy's

    def test_numpy_at_other_sizes_is_said(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs()[:1])
            numpy = numpy_programs()[:1]
            numpy[0]["results"][0].update(size="1024", elements=1024)
            write_run(os.path.join(run, "numpy"), None, numpy)
            text, _, _ = report(run)
            self.assertEqual(row(text, "add_one")[0].split(), ["add_one", "2^31"])
            self.assertEqual(len(row(text, "add_one")), 2)
            self.assertNotIn("NumPy (1 thread)", text.splitlines()[0])  # no value: no column
            self.assertIn("add_one: NumPy not at 2^31 (measured at 2^10)", text)

    def test_no_numpy_no_column(self):
        with tempfile.TemporaryDirectory() as tmp:
            text, _, _ = report(*cpu_and_gpu_runs(tmp))
            self.assertNotIn("NumPy", text)

    def test_threads_in_the_label(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, cpu_programs())
            numpy = numpy_programs()
            for data in numpy:
                data["context"] = dict(data["context"], threads=2)
            write_run(os.path.join(run, "numpy"), None, numpy)
            self.assertIn("NumPy (ws, 2 threads)", report(run)[0])


class Report(unittest.TestCase):
    def test_report_of_a_run_with_numpy(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = cpu_run_with_numpy(tmp)
            rc, out, err = run_tool("nbk-report", run, "--no-plots")
            self.assertEqual(rc, 0, err)
            self.assertIn("NumPy (ws, 1 thread)", out)
            row = next(ln for ln in out.splitlines() if ln.startswith("add_one"))
            self.assertRegex(row, r"resident openmp 300\.0 ms, no ceiling: beats every DRAM ceiling +\| "
                                  r"resident 200\.0 ms, 0\.67x$")
            md = read(os.path.join(run, "report", "index.md"))
            self.assertIn("| variant | size | serial | openmp | numpy |", md)
            self.assertIn("| NumPy reference (tools/nbk-numpy) | NumPy 1.24.2, 1 thread(s); BLAS: OpenBLAS", md)
            self.assertNotIn("every row, probes", md)  # no fold repeating the table


if __name__ == "__main__":
    unittest.main()
