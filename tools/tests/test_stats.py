import random
import unittest

from nbk_compare import stats
from nbk_compare.gbench import Run


class MannWhitney(unittest.TestCase):
    def test_exact_small_samples(self):
        # Disjoint samples: P = 2 / C(n1+n2, n1), the smallest two-sided p there is.
        u, p, method = stats.mann_whitney_u([1, 2, 3], [4, 5, 6])
        self.assertEqual((u, method), (0.0, "exact"))
        self.assertAlmostEqual(p, 2 / 20)
        _, p, _ = stats.mann_whitney_u([1, 2, 3, 4, 5], [6, 7, 8, 9, 10])
        self.assertAlmostEqual(p, 2 / 252)
        self.assertAlmostEqual(stats.min_p_value(5, 5), 2 / 252)

    def test_identical_distributions_give_p_one(self):
        _, p, _ = stats.mann_whitney_u([1, 3, 5], [2, 4, 6])
        self.assertGreater(p, 0.5)
        _, p, method = stats.mann_whitney_u([1.0] * 4, [1.0] * 4)
        self.assertEqual((p, method), (1.0, "normal"))

    def test_ties_use_the_normal_approximation(self):
        # Value from scipy.stats.mannwhitneyu(x, y, alternative="two-sided") (scipy 1.10):
        # asymptotic with tie and continuity correction.
        u, p, method = stats.mann_whitney_u([1, 2, 2, 3, 4], [2, 3, 5, 5, 6, 7])
        self.assertEqual(method, "normal")
        self.assertEqual(u, 4.5)
        self.assertAlmostEqual(p, 0.06414661873440437, places=12)

    def test_symmetric(self):
        x, y = [0.1, 0.5, 0.7, 0.2], [0.3, 0.9, 0.8]
        self.assertAlmostEqual(stats.mann_whitney_u(x, y)[1], stats.mann_whitney_u(y, x)[1])

    def test_empty_sample_is_an_error(self):
        with self.assertRaises(ValueError):
            stats.mann_whitney_u([], [1.0])

    def test_agrees_with_scipy_when_present(self):
        try:
            from scipy.stats import mannwhitneyu
        except ImportError:
            self.skipTest("scipy not installed (optional cross-check)")
        rng = random.Random(7)
        for trial in range(200):
            x = [rng.random() for _ in range(rng.randint(1, 12))]
            y = [rng.random() + rng.choice([0, 0.3]) for _ in range(rng.randint(1, 12))]
            if trial % 3 == 0:  # force ties
                x, y = [round(v, 1) for v in x], [round(v, 1) for v in y]
            u, p, method = stats.mann_whitney_u(x, y)
            ref = mannwhitneyu(x, y, alternative="two-sided", method="exact" if method == "exact" else "asymptotic")
            self.assertAlmostEqual(u, ref.statistic)
            self.assertAlmostEqual(p, ref.pvalue, places=12)


class Quantiles(unittest.TestCase):
    def test_linear_interpolation(self):
        """The quartiles of the spread: numpy's default (type 7), by statistics.quantiles(method="inclusive")."""
        run = Run("x")
        run.samples = [4.0, 1.0, 3.0, 2.0]
        kind, rel, details = run.spread
        self.assertEqual((kind, details["q1_s"], details["q3_s"], rel), ("iqr", 1.75, 3.25, 1.5 / 2.5))
        run.samples = [5.0]
        self.assertEqual(run.time, 5.0)


if __name__ == "__main__":
    unittest.main()
