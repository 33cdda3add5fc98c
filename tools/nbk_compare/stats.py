"""scipy's two-sided Mann-Whitney U test, as Google Benchmark's compare.py: exact without ties up to
EXACT_MAX a side (scipy's "auto" stops at 8), else normal."""
import math

EXACT_MAX = 50


def mann_whitney_u(x, y):
    """(U of x, two-sided p, "exact" or "normal")."""
    if not len(x) or not len(y):
        raise ValueError("the U test needs two non-empty samples")
    from scipy.stats import mannwhitneyu  # here: scipy.stats alone takes ~0.4 s to import
    exact = len(set(x) | set(y)) == len(x) + len(y) and max(len(x), len(y)) <= EXACT_MAX
    result = mannwhitneyu(x, y, alternative="two-sided", method="exact" if exact else "asymptotic")
    p = float(result.pvalue)
    return float(result.statistic), 1.0 if math.isnan(p) else min(1.0, p), "exact" if exact else "normal"


def min_p_value(n1, n2):
    return min(1.0, 2.0 / math.comb(n1 + n2, n1))
