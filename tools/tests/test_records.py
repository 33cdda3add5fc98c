"""The records in results/ (issue 49): one crossover answer, the table's figures the very lines the plots draw;
no % of limit above 100% over the link; the report opening with the answer in words, the machines named, a
summary of at most 8 columns and a roofline picture (the H200 record where it is in the repository, else the
newest H100 one)."""
import glob
import os
import re
import tempfile
import unittest
from unittest import mock

from nbk_compare import plots, report, runs, summary

from .helpers import TOOLS, have_matplotlib, read, run_tool

RESULTS = os.path.join(os.path.dirname(TOOLS), "results")
RECORDS = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(RESULTS, "*", "run.json")))


class Records(unittest.TestCase):
    def test_no_link_figure_above_100_percent(self):
        for path in RECORDS:
            for e in (e for r in runs.open_runs([path]) for e in r.entries if e.crosses_link):
                found = summary.limit(e)
                self.assertTrue(found is None or found.fraction is None or found.fraction <= 1.0, (path, e.name, found))

    @unittest.skipUnless(have_matplotlib(), "matplotlib not importable by this interpreter (python3-matplotlib)")
    def test_crossover_table_and_plots_agree(self):
        from matplotlib.axes import Axes
        for path in RECORDS:
            found_runs = runs.open_runs([path])
            found = summary.crossovers(found_runs, summary.summarize(found_runs))
            doc = report.Doc()
            report.crossover_section(doc, found_runs, found)
            table = {row[0]: row[1] for row in (
                [c.strip() for c in line.strip("|").split("|")] for line in doc.markdown().splitlines()
                if line.startswith("| ") and "resident / with transfers" not in line)}
            drawn, axvline = [], Axes.axvline
            with tempfile.TemporaryDirectory() as tmp, mock.patch.object(
                    Axes, "axvline", lambda ax, x, **kw: drawn.append((ax, kw["label"])) or axvline(ax, x, **kw)):
                plots.plot_curves(found, os.path.join(tmp, "times.png"))
            lines = {}  # a panel's title -> {resident, + transfers: the crossover its line draws}
            for ax, label in drawn:
                how, at = re.fullmatch(r"GPU (resident|\+ transfers) .+ wins from (.*)", label).groups()
                lines.setdefault(ax.get_title(loc="left"), {})[how] = at
            for c in found:
                resident, transfers = table[f"{c.experiment} {c.name}".strip()].split(" / ")
                panel = lines.get(f"{c.experiment} ({c.name}): time per call (log-log)", {})
                self.assertEqual(panel.get("resident", "never"), resident, (path, c.experiment, c.name))
                self.assertEqual(panel.get("+ transfers", "never"), transfers, (path, c.experiment, c.name))

    def test_the_report_opens_with_the_answer(self):
        path = next((p for p in RECORDS if "h200" in p), os.path.join(RESULTS, "h100-fbf7cc7"))
        with tempfile.TemporaryDirectory() as tmp:
            rc, _, err = run_tool("nbk-report", path, "--out", tmp, "--quiet")
            self.assertEqual(rc, 0, err)
            md = read(os.path.join(tmp, "index.md"))
        first = md[:md.index("## Summary")]
        self.assertRegex(first, r"Intel\(R\) Xeon\(R\) Processor, 16 cores; NVIDIA H[12]00[^;]*; revision \w{7}")
        self.assertRegex(first, r"- \*\*add_one\*\*: at 2\^31: GPU \d+(\.\d+)?x faster with data resident")
        self.assertRegex(first, r"- \*\*maximum\*\*: .*\(across sizes: the GPU wins from 2\^\d+\)")
        header = md[md.index("## Summary"):].splitlines()[2]
        self.assertLessEqual(header.count(" | ") + 1, 8, header)
        if have_matplotlib():
            self.assertLess(md.index("](roofline.png)"), md.index("## Machine and build"))


if __name__ == "__main__":
    unittest.main()
