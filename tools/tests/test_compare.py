"""Pairing across spaces and files, missing partners, repetitions and aggregates, outputs."""
import csv
import io
import json
import os
import tempfile
import unittest

from nbk_compare import compare, runs
from nbk_compare.gbench import BenchFile, size_sort_key, split_name

from .helpers import fixture, run_tool


def comparison(*names, **kw):
    files = [BenchFile(fixture(n), n.replace(".json", "")) for n in names]
    return compare.Comparison(files, **kw)


def row(cmp, experiment, variant, size):
    return next(r for r in cmp.rows if (r.experiment, r.variant, r.size) == (experiment, variant, size))


class Names(unittest.TestCase):
    def test_space_taken_out_and_suffixes_dropped(self):
        f = split_name("add_one/resident/openmp/67108864/manual_time")
        self.assertEqual((f["experiment"], f["variant"], f["space"], f["size"], f["extra"]),
                         ("add_one", "resident", "openmp", "67108864", ""))
        self.assertEqual(split_name("hypot/fused/cuda/1024/256/threads:2")["size"], "1024/256")
        self.assertEqual(split_name("hypot/fused/cuda/1024/256/threads:2")["extra"], "threads:2")
        self.assertEqual(split_name("BM_foo/8")["size"], "8")
        self.assertEqual(split_name("lonely")["experiment"], "lonely")


class Pairing(unittest.TestCase):
    def setUp(self):
        self.cmp = comparison("spaces.json")

    def test_columns_are_the_spaces_of_the_file(self):
        self.assertEqual([c.label for c in self.cmp.columns], ["serial", "openmp", "cuda", "host"])
        self.assertEqual(self.cmp.baseline.label, "serial")

    def test_pairs_by_experiment_variant_and_size(self):
        r = row(self.cmp, "add_one", "resident", "1024")
        self.assertEqual(set(r.cells), {"serial", "openmp", "cuda"})
        self.assertAlmostEqual(r.cells["serial"].time, 10.1e-3)
        self.assertAlmostEqual(r.cells["openmp"].speedup, 10.1 / 2.0)
        self.assertAlmostEqual(r.cells["cuda"].speedup, 10.1 / 0.5)
        self.assertIsNone(r.cells["serial"].speedup)  # the baseline itself

    def test_sizes_sort_numerically_within_a_variant(self):
        sizes = [r.size for r in self.cmp.rows if r.family == "add_one/resident"]
        self.assertEqual(sizes, ["1024", "4096"])

    def test_missing_partners_show_as_dash(self):
        r = row(self.cmp, "add_one", "managed", "1024")
        self.assertEqual(set(r.cells), {"cuda"})
        self.assertIsNone(r.cells["cuda"].speedup)
        text = compare.render_comparison_text(self.cmp)
        line = next(ln for ln in text.splitlines() if "managed" in ln and "2^10" in ln)
        serial_part = line.split("|")[1]
        self.assertEqual(serial_part.split(), ["-", "-", "-"])

    def test_errors_are_shown_as_errors_not_timings(self):
        r = row(self.cmp, "sum", "builtin", "1000")
        cell = r.cells["cuda"]
        self.assertEqual(cell.error, "result does not verify")
        self.assertIsNone(cell.time)
        self.assertIsNone(cell.speedup)
        text = compare.render_comparison_text(self.cmp)
        self.assertIn("sum/builtin/cuda/1000/manual_time: result does not verify", text)
        line = next(ln for ln in text.splitlines() if ln.startswith("sum") and "builtin" in ln)
        self.assertIn("error", line.split("|")[3])

    def test_reference_is_the_copy_probe_of_the_same_space(self):
        # The fixture has no probe/memcpy (older files): the default falls back to probe/copy.
        cuda = next(c for c in self.cmp.columns if c.label == "cuda")
        self.assertEqual(cuda.reference.name, "probe/copy/cuda/2048/manual_time")
        cell = row(self.cmp, "add_one", "resident", "4096").cells["cuda"]
        self.assertAlmostEqual(cell.ref_fraction, cell.gbps / cuda.reference.gbps)
        # One host thread outside Kokkos is judged against the serial space's probe.
        host = next(c for c in self.cmp.columns if c.label == "host")
        self.assertEqual(host.reference.name, "probe/copy/serial/2048/manual_time")

    def test_a_call_that_crosses_the_link_gets_no_fraction_of_device_memory(self):
        managed = row(self.cmp, "add_one", "managed", "1024").cells["cuda"]
        self.assertTrue(managed.run.crosses_link)  # the registrar's crosses_link counter
        self.assertIsNone(managed.ref_fraction)
        resident = row(self.cmp, "add_one", "resident", "1024").cells["cuda"]
        self.assertFalse(resident.run.crosses_link)
        self.assertIsNotNone(resident.ref_fraction)


    def test_reference_family_is_configurable(self):
        cmp = comparison("spaces.json", reference="add_one/managed")
        cuda = next(c for c in cmp.columns if c.label == "cuda")
        self.assertEqual(cuda.reference.name, "add_one/managed/cuda/4096/manual_time")  # largest size
        self.assertIsNone(next(c for c in cmp.columns if c.label == "serial").reference)


class Repetitions(unittest.TestCase):
    def test_median_and_iqr_from_the_repetitions(self):
        run = BenchFile(fixture("spaces.json")).runs["add_one/resident/serial/1024/manual_time"]
        self.assertEqual(len(run.samples), 5)
        self.assertEqual(set(run.aggregates), {"mean", "median", "stddev", "cv"})
        self.assertAlmostEqual(run.time, 10.1e-3)  # median of the samples = the median aggregate
        kind, rel, details = run.spread
        self.assertEqual(kind, "iqr")
        self.assertAlmostEqual(rel, (10.2 - 10.0) / 10.1)
        self.assertAlmostEqual(details["min_s"], 9.9e-3)

    def test_significance_marks(self):
        cmp = comparison("spaces.json")
        fast = row(cmp, "add_one", "resident", "1024").cells["openmp"]
        self.assertEqual(fast.test, "exact")
        self.assertAlmostEqual(fast.p_value, 2 / 252)
        self.assertTrue(fast.significant)
        same = row(cmp, "sum", "builtin", "1000").cells["openmp"]
        self.assertFalse(same.significant)
        text = compare.render_comparison_text(cmp)
        self.assertIn("5.05x*", text)
        self.assertIn("1.00x?", text)

    def test_aggregates_only(self):
        f = BenchFile(fixture("before_agg.json"))
        run = f.runs["add_one/resident/cuda/1024/manual_time"]
        self.assertEqual(run.samples, [])
        self.assertAlmostEqual(run.time, 0.5e-3)
        self.assertEqual(run.time_source, "median aggregate")
        self.assertEqual(run.spread[0], "cv")
        self.assertEqual(run.repetitions, 3)
        cmp = compare.Comparison([f])
        self.assertTrue(any("no significance test" in line for line in cmp.legend()))
        self.assertTrue(any("no 'serial' column" in n for n in cmp.notes))  # fell back to cuda


class SeveralFiles(unittest.TestCase):
    def test_same_space_in_two_files_is_labelled_by_file(self):
        cmp = comparison("spaces.json", "second.json", baseline="openmp@second")
        labels = [c.label for c in cmp.columns]
        self.assertIn("openmp@spaces", labels)
        self.assertIn("openmp@second", labels)
        self.assertIn("serial", labels)  # only in one file: plain
        self.assertEqual(cmp.baseline.label, "openmp@second")
        r = row(cmp, "add_one", "resident", "1024")
        self.assertAlmostEqual(r.cells["openmp@spaces"].speedup, 1.0 / 2.0)

    def test_cli_labels_and_baseline(self):
        rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), fixture("second.json"),
                                "--label", "before", "--label", "after", "--baseline", "openmp@before")
        self.assertEqual(rc, 0, err)
        self.assertIn("openmp@after", out)
        self.assertIn("vs openmp@before", out)

    def test_unknown_baseline_given_explicitly_exits_2(self):
        rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), "--baseline", "fpga")
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)
        self.assertIn("fpga", err)


class MachineOutputs(unittest.TestCase):
    def test_json(self):
        rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), "--json")
        self.assertEqual(rc, 0, err)
        data = json.loads(out)
        self.assertEqual(data["baseline"], "serial")
        rec = next(r for r in data["results"] if r["name"] == "add_one/resident/openmp/1024/manual_time")
        self.assertAlmostEqual(rec["speedup"], 5.05)
        self.assertTrue(rec["significant"])
        err_rec = next(r for r in data["results"] if r["name"] == "sum/builtin/cuda/1000/manual_time")
        self.assertEqual(err_rec["error"], "result does not verify")
        self.assertIsNone(err_rec["time_s"])

    def test_csv(self):
        rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), "--csv")
        self.assertEqual(rc, 0, err)
        rows = list(csv.DictReader(io.StringIO(out)))
        self.assertEqual(len(rows), 15)  # one per benchmark of the file
        r = next(r for r in rows if r["name"] == "add_one/resident/cuda/4096/manual_time")
        self.assertEqual((r["experiment"], r["variant"], r["size"], r["column"]), ("add_one", "resident", "4096", "cuda"))
        self.assertAlmostEqual(float(r["speedup"]), 40.0 / 0.9)

    def test_json_to_a_file_keeps_the_table_on_stdout(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "out.json")
            rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), "--json", "-o", path)
            self.assertEqual(rc, 0, err)
            self.assertIn("vs serial", out)
            with open(path) as f:
                self.assertEqual(json.load(f)["baseline"], "serial")

    def test_output_never_overwrites_an_input(self):
        rc, out, err = run_tool("nbk-compare", fixture("spaces.json"), "--csv", "-o", fixture("spaces.json"))
        self.assertEqual(rc, 2)
        self.assertIn("will not overwrite", err)

    def test_json_and_csv_together_exit_2(self):
        rc, _, err = run_tool("nbk-compare", fixture("spaces.json"), "--csv", "--json")
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)

    def test_help(self):
        rc, out, _ = run_tool("nbk-compare", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("regress", out)
        rc, out, _ = run_tool("nbk-compare", "regress", "--help")
        self.assertEqual(rc, 0)
        self.assertIn("--threshold", out)



class SizeOrder(unittest.TestCase):
    def test_shapes_sort_by_element_count(self):
        sizes = ["256x256x256", "32x32x32", "128x128x128", "7x9x13"]
        self.assertEqual(sorted(sizes, key=size_sort_key), ["7x9x13", "32x32x32", "128x128x128", "256x256x256"])
        self.assertEqual(sorted(["67108864", "1048576", "text"], key=size_sort_key), ["1048576", "67108864", "text"])


class ResultsAsBenchmarks(unittest.TestCase):
    """The programs' results JSON seen as one benchmark file (the report's plots of a run
    of the programs alone)."""

    def setUp(self):
        run = runs.RunRecord(os.path.join(os.path.dirname(fixture("spaces.json")), "results"), "fixture")
        self.file = runs.ResultsFile(run)

    def test_rows_become_runs_and_probes_references(self):
        runs = self.file.runs
        self.assertEqual(runs["add_one/resident/serial/2147483648"].time, 0.75)
        self.assertEqual(runs["add_one/resident/openmp/2147483648"].gbps, 50.2)
        self.assertNotIn("add_one/managed/cuda/2147483648", runs)  # skipped rows are not results
        self.assertIn("not verified: FAILED", runs["sum/builtin/openmp/134217571"].error)  # failed: an error
        self.assertEqual(runs["probe/memcpy/openmp"].gbps, 28.0)
        self.assertTrue(runs["maximum/mdrange-auto+transfers/cuda/32x32x32"].crosses_link)
        self.assertFalse(runs["maximum/mdrange-auto/cuda/32x32x32"].crosses_link)

    def test_pairs_across_spaces(self):
        cmp = compare.Comparison([self.file], baseline="serial")
        row = next(r for r in cmp.rows if r.experiment == "add_one" and r.variant == "resident")
        self.assertAlmostEqual(row.cells["openmp"].speedup, 0.75 / 0.3)
        self.assertAlmostEqual(row.cells["openmp"].ref_fraction, 50.2 / 28.0)


if __name__ == "__main__":
    unittest.main()
