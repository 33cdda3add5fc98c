"""`nbk-compare regress` (nbk-compare A B with a threshold): flagged and not flagged, aggregates only, errors."""
import json
import unittest

from .helpers import fixture, run_tool


def regress(*args):
    return run_tool("nbk-compare", "regress", *args)


class Regress(unittest.TestCase):
    def test_significant_slowdown_beyond_threshold_is_flagged(self):
        rc, out, err = regress(fixture("before.json"), fixture("after.json"), "--threshold", "0.10")
        self.assertEqual(rc, 1, out + err)
        last = out.strip().splitlines()[-1]
        self.assertEqual(last, "1 regression(s): add_one/resident/openmp/1024/manual_time")
        line = next(ln for ln in out.splitlines() if ln.startswith("add_one "))
        self.assertEqual(line.split(), ["add_one", "resident", "openmp", "2^10", "2.000", "ms", "2.600", "ms", "1.30x",
                                        "SLOWER,", "p", "0.008"])

    def test_slower_but_not_significant_is_not_flagged(self):
        rc, out, _ = regress(fixture("before.json"), fixture("after.json"))
        line = next(ln for ln in out.splitlines() if ln.startswith("sum "))
        self.assertIn("1.20x", line)
        self.assertIn("slower, not significant", line)

    def test_slowdown_within_threshold_is_not_flagged(self):
        rc, out, err = regress(fixture("before.json"), fixture("after.json"), "--threshold", "0.5")
        self.assertEqual(rc, 0, out + err)
        self.assertEqual(out.strip().splitlines()[-1], "no regression")

    def test_missing_partners_and_faster(self):
        _, out, _ = regress(fixture("before.json"), fixture("after.json"))
        lines = out.splitlines()
        self.assertIn("only A", next(ln for ln in lines if ln.startswith("probe") and "copy" in ln))
        self.assertIn("only B", next(ln for ln in lines if ln.startswith("probe") and "triad" in ln))
        self.assertIn("faster", next(ln for ln in lines if ln.startswith("product ")))

    def test_aggregates_only_judged_by_threshold(self):
        rc, out, _ = regress(fixture("before_agg.json"), fixture("after_agg.json"), "--threshold", "0.10")
        self.assertEqual(rc, 1)
        self.assertIn("no per-repetition times", out)
        self.assertTrue(out.strip().endswith("add_one/resident/cuda/1024/manual_time"))
        rc, _, _ = regress(fixture("before_agg.json"), fixture("after_agg.json"), "--threshold", "0.25")
        self.assertEqual(rc, 0)

    def test_error_after_is_a_regression(self):
        rc, out, _ = regress(fixture("before.json"), fixture("after_error.json"))
        self.assertEqual(rc, 1)
        self.assertIn("ERROR in B: result does not verify", out)

    def test_json_output(self):
        rc, out, _ = regress(fixture("before.json"), fixture("after.json"), "--json")
        self.assertEqual(rc, 1)
        data = json.loads(out)
        self.assertEqual(data["regressions"], ["add_one/resident/openmp/1024/manual_time"])
        rec = next(r for r in data["results"] if r["name"].startswith("add_one"))
        self.assertAlmostEqual(rec["b_over_a"], 1.30)
        self.assertAlmostEqual(rec["p_value"], 2 / 252)
        self.assertEqual((rec["verdict"], rec["regression"], data["threshold"]), ("SLOWER", True, 0.10))

    def test_bad_threshold_exits_2(self):
        rc, _, err = regress(fixture("before.json"), fixture("after.json"), "--threshold", "-1")
        self.assertEqual(rc, 2)
        self.assertEqual(len(err.strip().splitlines()), 1)


if __name__ == "__main__":
    unittest.main()
