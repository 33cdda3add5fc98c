"""What a person sees: no figure taller than 1600 px however many workloads or rows, the page
rendered by headless Chromium (skipped without it), and no reference outside the project."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

from nbk_compare import plots, runs, summary

from .helpers import TOOLS, have_matplotlib
from .runs_fixtures import CPU_CONTEXT, GPU_CONTEXT, cpu_and_gpu_runs, write_run

REPO = os.path.dirname(TOOLS)


def many_workloads(n, device):
    """n programs of 8 rows each (4 sizes x 2 variants) on openmp, and cuda when `device`."""
    programs = []
    for k in range(n):
        rows = []
        for size in (1024, 4096, 16384, 65536):
            for variant, factor in (("a", 1.0), ("b", 1.5)):
                rows.append({"variant": variant, "space": "openmp", "size": str(size), "elements": size,
                             "status": "verified", "best_s": size * 1e-9 * factor * (k + 1), "gb_per_s": 8.0})
                if device:
                    rows.append(dict(rows[-1], space="cuda", best_s=2e-6 + size * 1e-11, gb_per_s=900.0,
                                     with_transfers={"best_s": 1e-5 + size * 1e-9, "gb_per_s": 10.0}))
        programs.append({"experiment": f"w{k:02d}", "probes": {"openmp": {"memcpy_gb_per_s": 20.0},
                                                               "cuda": {"memcpy_gb_per_s": 2000.0}},
                         "results": rows})
    return programs


@unittest.skipUnless(have_matplotlib(), "matplotlib not importable by this interpreter (python3-matplotlib)")
class FigureHeights(unittest.TestCase):
    def test_run_plots_of_21_workloads(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu = write_run(os.path.join(tmp, "cpu"), CPU_CONTEXT, many_workloads(21, False))
            gpu = write_run(os.path.join(tmp, "gpu"), GPU_CONTEXT, many_workloads(21, True))
            found = runs.open_runs([cpu, gpu])
            lines = summary.summarize(found)
            written = plots.write_run_plots(found, lines, summary.crossovers(found, lines), tmp)
            names = sorted(os.path.basename(p) for p, _ in written)
            self.assertEqual(names, ["times-2.png", "times.png"])
            for path, _ in written:
                self.assertLessEqual(plots.png_size(path)[1], plots.MAX_HEIGHT_PX, path)


SCREENSHOT = os.path.join(REPO, "scripts", "screenshot-report.sh")


class Screenshot(unittest.TestCase):
    def test_bad_arguments(self):
        for args in ([], ["/nonexistent", "out.png"]):
            proc = subprocess.run(["bash", SCREENSHOT, *args], capture_output=True, text=True, timeout=60)
            self.assertEqual(proc.returncode, 2, proc.stderr)
            self.assertEqual(len(proc.stderr.strip().splitlines()), 1)

    @unittest.skipUnless(shutil.which("chromium") or shutil.which("chromium-browser"),
                         "no chromium (apt-get install chromium)")
    def test_page_rendered_by_chromium(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            out = os.path.join(tmp, "report")
            subprocess.run([sys.executable, os.path.join(TOOLS, "nbk-report"), cpu, gpu, "--out", out,
                            "--quiet"], check=True, capture_output=True, timeout=120)
            png = os.path.join(tmp, "shot", "page.png")
            proc = subprocess.run(["bash", SCREENSHOT, out, png, "1200", "1500"], capture_output=True, text=True,
                                  timeout=120)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertEqual(plots.png_size(png), (1200, 1500))
            self.assertGreater(os.path.getsize(png), 30000)  # a page, not a blank window


class SelfContained(unittest.TestCase):
    def test_no_reference_outside_the_project(self):
        if not shutil.which("git") or not os.path.isdir(os.path.join(REPO, ".git")) and \
                not os.path.isfile(os.path.join(REPO, ".git")):
            self.skipTest("not a git checkout")
        outside = ".." + "/shared"
        proc = subprocess.run(["git", "-C", REPO, "grep", "-n", "-F", outside, "--", ".", ":!.ci/run"],
                              capture_output=True, text=True, timeout=60)
        self.assertEqual(proc.stdout, "", f"files naming {outside}")


if __name__ == "__main__":
    unittest.main()
