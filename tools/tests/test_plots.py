"""The report's plots: PNG images from the fixture runs, and a page without them (one sentence, and
one line on stderr naming python3-matplotlib) where matplotlib does not import."""
import os
import subprocess
import sys
import tempfile
import unittest

from nbk_compare import plots

from .helpers import TOOLS, have_matplotlib, read, run_tool
from .runs_fixtures import cpu_and_gpu_runs, cpu_run_with_numpy


@unittest.skipUnless(have_matplotlib(), "matplotlib not importable by this interpreter (python3-matplotlib)")
class Plots(unittest.TestCase):
    def test_pngs_of_the_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            out = os.path.join(tmp, "report")
            rc, _, err = run_tool("nbk-report", cpu, gpu, "--out", out, "--quiet")
            self.assertEqual(rc, 0, err)
            pngs = sorted(n for n in os.listdir(out) if n.endswith(".png"))
            self.assertEqual(pngs, ["roofline-1.png", "roofline-2.png", "single-size.png", "times.png"])
            md = read(os.path.join(out, "index.md"))
            self.assertLess(md.index("](roofline-2.png)"), md.index("## Machine"))  # with the summary, first
            for name in pngs:
                self.assertIn(f"]({name})", md)
                width, height = plots.png_size(os.path.join(out, name))
                self.assertGreater(width, 300)
                self.assertGreater(height, 200)
                self.assertLessEqual(height, plots.MAX_HEIGHT_PX)


    def test_a_cpu_only_run_opens_with_its_roofline(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = cpu_run_with_numpy(tmp)
            out = os.path.join(tmp, "report")
            rc, summary, err = run_tool("nbk-report", run, "--out", out)
            self.assertEqual(rc, 0, err)
            md = read(os.path.join(out, "index.md"))
            self.assertLess(md.index("](roofline.png)"), md.index("## Machine"))
            self.assertNotIn(".png)", md[:md.index("](roofline.png)")])  # the first picture
            table = md[md.index("## Summary"):md.index("## Machine")]
            self.assertNotIn("GPU", table.splitlines()[2])  # no empty GPU columns
            self.assertNotIn("GPU", summary.splitlines()[0])


class WithoutMatplotlib(unittest.TestCase):
    def test_the_page_says_why(self):
        with tempfile.TemporaryDirectory() as tmp:
            os.makedirs(os.path.join(tmp, "stand-in", "matplotlib"))
            with open(os.path.join(tmp, "stand-in", "matplotlib", "__init__.py"), "w") as f:
                f.write("raise ImportError('no matplotlib here (test stand-in)')\n")
            cpu, gpu = cpu_and_gpu_runs(tmp)
            out = os.path.join(tmp, "report")
            proc = subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-report"), cpu, gpu, "--out", out,
                                   "--quiet"], capture_output=True, text=True, timeout=120,
                                  env=dict(os.environ, PYTHONPATH=os.path.join(tmp, "stand-in")))
            self.assertEqual(proc.returncode, 0, proc.stderr)
            said = [line for line in proc.stderr.splitlines() if "matplotlib" in line]  # on the terminal, once
            self.assertEqual(len(said), 1, proc.stderr)
            self.assertIn("nbk-report: plots skipped: matplotlib is not importable", said[0])
            self.assertIn("apt-get install python3-matplotlib", said[0])
            self.assertIn("Plots skipped: matplotlib is not importable", read(os.path.join(out, "index.md")))
            self.assertIn("python3-matplotlib", read(os.path.join(out, "index.md")))
            self.assertFalse([n for n in os.listdir(out) if n.endswith(".png")])


if __name__ == "__main__":
    unittest.main()
