"""The tools' outputs against golden files (tests/golden/), from the fixtures: nbk-compare's
view of two inputs (text and md), its table of spaces (--columns) and JSON, regress's, the
report's index.md (its date and the temporary folder replaced) and
nbk-numpy --list. `NBK_GOLDEN=update python3 -m unittest tests.test_golden` (in tools/) rewrites
them; review the diff before committing it."""
import json
import os
import re
import tempfile
import unittest

from .helpers import REPO, fixture, golden, read, run_tool
from .runs_fixtures import cpu_and_gpu_runs


class Golden(unittest.TestCase):
    def tool(self, name, *args, rc=0):
        code, out, err = run_tool(name, *args)
        self.assertEqual(code, rc, err)
        return out.replace(os.path.dirname(fixture("x")), "FIXTURES")

    def test_compare(self):
        golden(self, "compare.txt", self.tool("nbk-compare", fixture("spaces.json"), fixture("second.json"),
                                              "--columns"))
        golden(self, "compare.json", self.tool("nbk-compare", fixture("spaces.json"), "--json"))

    def test_compare_two(self):
        for form in ("text", "md", "csv"):
            golden(self, f"compare-two.{form.replace('text', 'txt')}", self.tool(
                "nbk-compare", fixture("before.json"), fixture("after.json"), "--all", "--format", form))

    def test_regress(self):
        golden(self, "regress.txt", self.tool("nbk-compare", "regress", fixture("before.json"), fixture("after.json"),
                                              rc=1))
        golden(self, "regress.json", self.tool("nbk-compare", "regress", fixture("before.json"),
                                               fixture("after.json"), "--json", rc=1))

    def test_compare_of_two_runs(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            golden(self, "compare-runs.txt", self.tool("nbk-compare", cpu, gpu).replace(tmp, "TMP"))

    def test_report(self):
        with tempfile.TemporaryDirectory() as tmp:
            cpu, gpu = cpu_and_gpu_runs(tmp)
            out = os.path.join(tmp, "report")
            summary = self.tool("nbk-report", cpu, gpu, "--out", out, "--no-plots")
            # The page escapes Markdown in paths: a temporary folder's "_" (one name in five) is "\_" there.
            md = read(os.path.join(out, "index.md")).replace(tmp, "TMP").replace(tmp.replace("_", "\\_"), "TMP")
            md = re.sub(r"on \d{4}-\d\d-\d\d \d\d:\d\d UTC", "on DATE", md)
            golden(self, "report-summary.txt", summary)
            golden(self, "report-index.md", md)

    def test_numpy_list(self):
        golden(self, "numpy-list.txt", self.tool("nbk-numpy", "--list"))


class NumpySizes(unittest.TestCase):
    def test_the_default_sizes_are_the_programs(self):
        """nbk-numpy's default sizes (its --list) against the sizes of the newest GPU record's JSON."""
        listed = {line.split(":")[0]: line.split("; sizes ")[1].split(";")[0].split(", ")
                  for line in run_tool("nbk-numpy", "--list")[1].splitlines() if "; sizes " in line}
        record = os.path.join(REPO, "results", "h100-fbf7cc7")
        if not os.path.isdir(record):
            self.skipTest("no results/h100-fbf7cc7")
        checked = 0
        for name, sizes in listed.items():
            path = os.path.join(record, f"{name}.json")
            if os.path.isfile(path):
                with open(path, encoding="utf-8") as f:
                    theirs = list(dict.fromkeys(r["size"] for r in json.load(f)["results"]))
                self.assertEqual(sizes, theirs, name)
                checked += 1
        self.assertGreater(checked, 10)


if __name__ == "__main__":
    unittest.main()
