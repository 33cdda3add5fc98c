"""Pairing across spaces and files, missing partners, repetitions and aggregates, outputs: the
numbers through nbk-compare --json, the text through its table."""
import json
import unittest

from nbk_compare.gbench import size_sort_key, split_name

from .helpers import fixture, run_tool


def compare_json(*args):
    """nbk-compare ARGS --json: (document, {(experiment, variant, size, column): record})."""
    rc, out, err = run_tool("nbk-compare", *args, "--json")
    assert rc == 0, err
    doc = json.loads(out)
    return doc, {(r["experiment"], r["variant"], r["size"], r["column"]): r for r in doc["results"]}


def table(*args):
    rc, out, err = run_tool("nbk-compare", *args)
    assert rc == 0, err
    return out


class Names(unittest.TestCase):
    def test_space_taken_out_and_suffixes_dropped(self):
        f = split_name("add_one/resident/openmp/67108864/manual_time")
        self.assertEqual((f["experiment"], f["variant"], f["space"], f["size"]),
                         ("add_one", "resident", "openmp", "67108864"))
        self.assertEqual(split_name("hypot/fused/cuda/1024/256/threads:2")["size"], "1024/256")
        self.assertEqual(split_name("hypot/fused/cuda/1024/256/threads:2")["extra"], "threads:2")
        self.assertEqual(split_name("BM_foo/8")["size"], "8")
        self.assertEqual(split_name("lonely")["experiment"], "lonely")


class Pairing(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.doc, cls.rec = compare_json(fixture("spaces.json"))
        cls.text = table(fixture("spaces.json"))

    def test_columns_are_the_spaces_of_the_file(self):
        self.assertEqual([c["label"] for c in self.doc["columns"]], ["serial", "openmp", "cuda", "host"])
        self.assertEqual(self.doc["baseline"], "serial")

    def test_pairs_by_experiment_variant_and_size(self):
        cols = {k[3] for k in self.rec if k[:3] == ("add_one", "resident", "1024")}
        self.assertEqual(cols, {"serial", "openmp", "cuda"})
        self.assertAlmostEqual(self.rec["add_one", "resident", "1024", "serial"]["time_s"], 10.1e-3)
        self.assertAlmostEqual(self.rec["add_one", "resident", "1024", "openmp"]["speedup"], 10.1 / 2.0)
        self.assertAlmostEqual(self.rec["add_one", "resident", "1024", "cuda"]["speedup"], 10.1 / 0.5)
        self.assertIsNone(self.rec["add_one", "resident", "1024", "serial"]["speedup"])  # the baseline itself

    def test_sizes_sort_numerically_within_a_variant(self):
        sizes = [r["size"] for r in self.doc["results"] if r["experiment"] == "add_one" and r["variant"] == "resident"
                 and r["column"] == "serial"]
        self.assertEqual(sizes, ["1024", "4096"])

    def test_missing_partners_show_as_dash(self):
        self.assertEqual({k[3] for k in self.rec if k[:3] == ("add_one", "managed", "1024")}, {"cuda"})
        self.assertIsNone(self.rec["add_one", "managed", "1024", "cuda"]["speedup"])
        line = next(ln for ln in self.text.splitlines() if "managed" in ln and "2^10" in ln)
        self.assertEqual(line.split("|")[1].split(), ["-", "-", "-"])

    def test_errors_are_shown_as_errors_not_timings(self):
        r = self.rec["sum", "builtin", "1000", "cuda"]
        self.assertEqual(r["error"], "result does not verify")
        self.assertIsNone(r["time_s"])
        self.assertIsNone(r["speedup"])
        self.assertIn("sum/builtin/cuda/1000/manual_time: result does not verify", self.text)
        line = next(ln for ln in self.text.splitlines() if ln.startswith("sum") and "builtin" in ln)
        self.assertIn("error", line.split("|")[3])

    def test_reference_is_the_copy_probe_of_the_same_space(self):
        # The fixture has no probe/memcpy (older files): the default falls back to probe/copy.
        r = self.rec["add_one", "resident", "4096", "cuda"]
        self.assertEqual(r["reference"], "probe/copy/cuda/2048/manual_time")
        self.assertAlmostEqual(r["fraction_of_reference"], r["gb_per_s"] / r["reference_gb_per_s"])
        # One host thread outside Kokkos is judged against the serial space's probe.
        host = next(r for r in self.doc["results"] if r["column"] == "host")
        self.assertEqual(host["reference"], "probe/copy/serial/2048/manual_time")

    def test_a_call_that_crosses_the_link_gets_no_fraction_of_device_memory(self):
        # the registrar's crosses_link counter: managed's timed call copies host<->device
        self.assertIsNone(self.rec["add_one", "managed", "1024", "cuda"]["fraction_of_reference"])
        self.assertIsNotNone(self.rec["add_one", "resident", "1024", "cuda"]["fraction_of_reference"])


class Repetitions(unittest.TestCase):
    def test_median_and_iqr_from_the_repetitions(self):
        _, rec = compare_json(fixture("spaces.json"))
        r = rec["add_one", "resident", "1024", "serial"]
        self.assertEqual((r["repetitions"], r["spread_kind"]), (5, "iqr"))
        self.assertAlmostEqual(r["time_s"], 10.1e-3)  # median of the samples = the median aggregate
        self.assertAlmostEqual(r["spread"], (10.2 - 10.0) / 10.1)
        self.assertAlmostEqual(r["min_s"], 9.9e-3)

    def test_significance_marks(self):
        _, rec = compare_json(fixture("spaces.json"))
        fast = rec["add_one", "resident", "1024", "openmp"]
        self.assertEqual(fast["test"], "exact")
        self.assertAlmostEqual(fast["p_value"], 2 / 252)
        self.assertTrue(fast["significant"])
        self.assertFalse(rec["sum", "builtin", "1000", "openmp"]["significant"])
        text = table(fixture("spaces.json"))
        self.assertIn("5.05x*", text)
        self.assertIn("1.00x?", text)

    def test_aggregates_only(self):
        doc, rec = compare_json(fixture("before_agg.json"))
        r = rec["add_one", "resident", "1024", "cuda"]
        self.assertIsNone(r["q1_s"])  # no samples
        self.assertAlmostEqual(r["time_s"], 0.5e-3)
        self.assertEqual((r["spread_kind"], r["repetitions"]), ("cv", 3))  # the median aggregate's time
        self.assertTrue(any("no 'serial' column" in n for n in doc["notes"]))  # fell back to cuda
        self.assertIn("no significance test", table(fixture("before_agg.json")))


class SeveralFiles(unittest.TestCase):
    def test_same_space_in_two_files_is_labelled_by_file(self):
        doc, rec = compare_json(fixture("spaces.json"), fixture("second.json"), "--baseline", "openmp@second")
        labels = [c["label"] for c in doc["columns"]]
        self.assertIn("openmp@spaces", labels)
        self.assertIn("openmp@second", labels)
        self.assertIn("serial", labels)  # only in one file: plain
        self.assertEqual(doc["baseline"], "openmp@second")
        self.assertAlmostEqual(rec["add_one", "resident", "1024", "openmp@spaces"]["speedup"], 1.0 / 2.0)

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
    """A run of the programs compared as one benchmark file: a benchmark per result row (its best
    call), failed rows as errors, the memcpy probes as references."""

    def test_rows_become_benchmarks(self):
        doc, rec = compare_json(fixture("results"), "--baseline", "serial")
        names = {r["name"]: r for r in doc["results"]}
        self.assertEqual(names["add_one/resident/serial/2147483648"]["time_s"], 0.75)
        self.assertEqual(names["add_one/resident/openmp/2147483648"]["gb_per_s"], 50.2)
        self.assertNotIn("add_one/managed/cuda/2147483648", names)  # skipped rows are not results
        self.assertIn("not verified: FAILED", names["sum/builtin/openmp/134217571"]["error"])
        self.assertEqual(names["probe/memcpy/openmp"]["gb_per_s"], 28.0)
        self.assertIsNone(names["maximum/mdrange-auto+transfers/cuda/32x32x32"]["fraction_of_reference"])
        r = rec["add_one", "resident", "2147483648", "openmp"]
        self.assertAlmostEqual(r["speedup"], 0.75 / 0.3)
        self.assertAlmostEqual(r["fraction_of_reference"], 50.2 / 28.0)


if __name__ == "__main__":
    unittest.main()
