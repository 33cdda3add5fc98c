"""Issue 58: every row against a ceiling it could reach, never above 100%. New-format rows at L1, L2 and DRAM name
their level and traffic kind; an old record's rows are judged by the probes it holds and, on a GPU, its theoretical
peak, and a row at a cache level it has no ceiling for says so; tools/nbk-check-ceilings exits 1 naming every row
above its ceiling (a program's own fractions in the new format), 0 over every record in results/, 2 on bad input."""
import glob
import json
import os
import shutil
import tempfile
import unittest
import unittest.mock

from nbk_compare import ceilings, check, plots, runs, summary

from .helpers import TOOLS, have_matplotlib, run_tool
from .runs_fixtures import GPU_CONTEXT, ceilings_program, ceilings_run, old_gpu_run, write_run

RESULTS = os.path.join(os.path.dirname(TOOLS), "results")
RECORDS = sorted(os.path.dirname(p) for p in glob.glob(os.path.join(RESULTS, "*", "run.json")))
H200 = os.path.join(RESULTS, "h200-9a38a6f")


def texts(folder):
    """{(experiment, variant, space, size): the row's % of limit as the report prints it}."""
    return {(e.experiment, e.variant, e.space, e.size): summary.limit_text(e) for e in runs.RunRecord(folder).entries}


class NewFormat(unittest.TestCase):
    def test_rows_name_their_level_and_kind(self):
        with tempfile.TemporaryDirectory() as tmp:
            said = texts(ceilings_run(os.path.join(tmp, "run")))
        self.assertEqual(said[("add", "f32", "openmp", "4096")], "81% of L1, 2 reads 1 write")
        self.assertEqual(said[("add", "f32", "openmp", "32768")], "81% of L2, 2 reads 1 write")
        self.assertEqual(said[("add", "f32", "openmp", "16777216")], "94% of DRAM, 2 reads 1 write")
        self.assertEqual(said[("add", "f32", "cuda", "16777216")], "90% of HBM, 2 reads 1 write")
        self.assertEqual(said[("add", "i64", "openmp", "4096")], "no ceiling for L1 in this record")

    def test_a_row_above_its_ceiling_is_no_percentage(self):
        with tempfile.TemporaryDirectory() as tmp:
            said = texts(ceilings_run(os.path.join(tmp, "run"), above=True))
        self.assertEqual(said[("add", "f32", "openmp", "32768")],
                         "no ceiling: beats its L2 ceiling (a bug, in the row or in the probe)")

    def test_a_chain_binds_where_its_links_take_longer_than_the_bytes(self):
        """A host row whose operations are one chain a thread (an in-order float sum): its links at the run's chain
        probe, where they take longer than its bytes at its ceiling; beaten, no percentage, and the check fails."""
        with tempfile.TemporaryDirectory() as tmp:
            data = ceilings_program()
            row = data["results"][2]  # 94% of DRAM
            links = 8388608
            row["chain"] = {"operations": "f32 adds", "links_per_thread": links, "link_ns": row["best_s"] * 0.97 /
                            links * 1e9, "fraction": 0.97}
            said = texts(write_run(os.path.join(tmp, "run"), GPU_CONTEXT, [data]))
            self.assertEqual(said[("add", "f32", "openmp", "16777216")], "97% of chain, f32 adds")
            row["chain"].update(link_ns=row["chain"]["link_ns"] * 1.1 / 0.97, fraction=1.1)
            folder = write_run(os.path.join(tmp, "above"), GPU_CONTEXT, [data])
            self.assertEqual(texts(folder)[("add", "f32", "openmp", "16777216")],
                             "no ceiling: beats its chain of f32 adds (a bug, in the row or in the probe)")
            self.assertTrue(any("chain.fraction 1.100" in line for line in check.offences(runs.RunRecord(folder))))

    def test_levels_of_the_new_format(self):
        with tempfile.TemporaryDirectory() as tmp:
            run = runs.RunRecord(ceilings_run(os.path.join(tmp, "run")))
        probe = run.programs["add"][1]["probes"]["openmp"]
        self.assertEqual([(lv.name, lv.capacity, lv.best) for lv in ceilings.levels(run, "openmp", probe)],
                         [("L1", 98304, 400.0), ("L2", 2097152, 190.0), ("L3", 33554432, 90.0), ("DRAM", None, 40.0)])
        self.assertEqual(ceilings.theoretical_gb_per_s(run, run.programs["add"][1]["probes"]["cuda"]), 4812.0)


class OldFormat(unittest.TestCase):
    def test_levels_from_the_record(self):
        with tempfile.TemporaryDirectory() as tmp:
            said = texts(old_gpu_run(os.path.join(tmp, "run")))
        self.assertEqual(said[("add_one", "resident", "cuda", str(2 ** 31))], "93% of HBM, theoretical peak")
        self.assertEqual(said[("add_one", "resident", "cuda", str(2 ** 20))], "no ceiling for L2 in this record")
        self.assertEqual(said[("add_one", "resident", "openmp", str(2 ** 24))], "no ceiling for L3 in this record")
        self.assertEqual(said[("add_one", "resident", "openmp", str(2 ** 28))], "50% of DRAM, in_place probe")

    def test_the_h200_theoretical_peak(self):
        """memory clock 3201000 kHz x 6016 bits x 2 / 8: 4814 GB/s (device_info.json's theoretical_gb_per_s)."""
        if not os.path.isdir(H200):
            self.skipTest("no results/h200-9a38a6f")
        run = runs.RunRecord(H200)
        self.assertAlmostEqual(ceilings.theoretical_gb_per_s(run, {}), 4814.304, places=3)
        said = texts(H200)
        self.assertEqual(said[("add_one", "resident", "cuda", "2147483648")], "88% of HBM, theoretical peak")
        self.assertEqual(said[("product", "cub-prod", "cuda", "4000000")], "no ceiling for L2 in this record")
        self.assertEqual(said[("mat_add", "flat-stream", "openmp", "4096x4096")],
                         "no ceiling: beats every DRAM ceiling")
        # no CPU cache sizes in the record: a row at least its probes' 3 arrays is at DRAM, a smaller one may sit
        # in a cache whose ceiling is higher than DRAM's: at most the fraction shown
        self.assertEqual(said[("add_one", "resident", "openmp", "2147483648")], "83% of DRAM, in_place probe")
        self.assertEqual(said[("sum", "blocked", "openmp", "134217571")],
                         "≤87% of DRAM, dot probe; level not recorded")


class Roofline(unittest.TestCase):
    def test_a_roof_per_level_and_space(self):
        with tempfile.TemporaryDirectory() as tmp:
            new, old = (runs.RunRecord(make(os.path.join(tmp, name)))
                        for name, make in (("new", ceilings_run), ("old", old_gpu_run)))
        self.assertEqual(plots.roofs(new)["openmp"], ([("L1", 400.0), ("L2", 190.0), ("L3", 90.0), ("DRAM", 40.0)],
                                                      {"f32": 100.0}, None, True))
        self.assertEqual(plots.roofs(new)["cuda"][0], [("L2", 9000.0), ("HBM", 4300.0)])
        self.assertEqual(plots.roofs(new)["cuda"][2], 4812.0)
        levels, _, theoretical, measured = plots.roofs(old)["cuda"]  # the probes' best, the device's peak
        self.assertEqual((levels, round(theoretical), measured), ([("HBM", 4200.0)], 4814, False))

    @unittest.skipUnless(have_matplotlib(), "matplotlib not importable by this interpreter (python3-matplotlib)")
    def test_an_old_record_says_its_caches_were_not_measured(self):
        from matplotlib.axes import Axes
        titles, set_title = [], Axes.set_title
        with tempfile.TemporaryDirectory() as tmp, unittest.mock.patch.object(
                Axes, "set_title", lambda ax, t, **kw: titles.append(t) or set_title(ax, t, **kw)):
            for name, make in (("old", old_gpu_run), ("new", ceilings_run)):
                run = runs.open_runs([make(os.path.join(tmp, name))])
                self.assertTrue(plots.write_rooflines(run, summary.summarize(run), tmp))
        self.assertIn("cache levels not measured in this record", titles[0])
        self.assertIn("a roof per memory level", titles[2])


class EveryRecord(unittest.TestCase):
    def test_no_row_above_its_ceiling(self):
        """Every row of every record in results/: a fraction at most 1, else words saying why there is none."""
        self.assertTrue(RECORDS)
        for path in RECORDS:
            run = runs.RunRecord(path)
            self.assertEqual(check.offences(run), [], path)
            for e in run.entries:
                found = summary.limit(e)
                if found is not None:
                    self.assertTrue(found.fraction is not None and found.fraction <= 1 or found.none, (path, e.name))
                    self.assertNotRegex(found.text(), r"\d{4,}%|[1-9]\d\d%" if found.fraction is None else "^$",
                                        (path, e.name))


class Command(unittest.TestCase):
    def test_passes_every_record(self):
        rc, out, err = run_tool("nbk-check-ceilings", *RECORDS)
        self.assertEqual((rc, out), (0, ""), err)
        self.assertIn("rows within their ceilings", err)

    def test_fails_on_a_row_above_its_ceiling(self):
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run_tool("nbk-check-ceilings", ceilings_run(os.path.join(tmp, "run"), above=True))
        self.assertEqual(rc, 1, err)
        self.assertIn("add f32 openmp 2^15: 130% of L2 (fraction_of_limit 1.300)", out)
        self.assertIn("add f32 openmp 2^15: 130% of L2 (ceiling.fraction 1.300)", out)
        self.assertEqual(len(out.splitlines()), 3, out)  # and its bytes over its rate: the row alone
        with tempfile.TemporaryDirectory() as tmp:
            self.assertEqual(run_tool("nbk-check-ceilings", ceilings_run(os.path.join(tmp, "run")))[0], 0)

    def test_fails_on_todays_output_held_to_its_own_figures(self):
        """Today's programs' output (results/h200-9a38a6f) as a program of the new format would write it with no
        ceiling measured: its fraction_of_limit against the DRAM probes, above 1 for a fifth of its rows."""
        if not os.path.isdir(H200):
            self.skipTest("no results/h200-9a38a6f")
        with tempfile.TemporaryDirectory() as tmp:
            run = shutil.copytree(H200, os.path.join(tmp, "run"),
                                  ignore=shutil.ignore_patterns("profile", "cpu-parity"))
            for name in os.listdir(run):
                if name.endswith(".json") and name not in ("run.json", "device_info.json"):
                    with open(os.path.join(run, name), encoding="utf-8") as f:
                        data = json.load(f)
                    for probe in data["probes"].values():
                        probe["ceilings"] = {"levels": []}
                    with open(os.path.join(run, name), "w", encoding="utf-8") as f:
                        json.dump(data, f)
            rc, out, err = run_tool("nbk-check-ceilings", run)
        self.assertEqual(rc, 1, err)
        self.assertEqual(len(out.splitlines()), 59, out)  # the 59 verified rows above 1 (issue 58)
        self.assertIn("mat_add flat-stream openmp 4096x4096: 211% of the copy probe (fraction_of_limit 2.106)", out)

    def test_bad_input_is_one_line(self):
        rc, out, err = run_tool("nbk-check-ceilings", os.path.join(TOOLS, "no-such-run"))
        self.assertEqual((rc, out, len(err.splitlines())), (2, "", 1), err)
        self.assertIn("no-such-run: no such file or run folder", err)


if __name__ == "__main__":
    unittest.main()
