"""Order statistics and the two-sided Mann-Whitney U test, standard library only.

The U test is the one Google Benchmark's compare.py runs (scipy.stats.mannwhitneyu,
two-sided). Like scipy's method="auto" it uses the exact null distribution when there are no
ties, but for any sample sizes up to EXACT_MAX (scipy stops at 8): with the 3 to 9 repetitions
benchmarks usually have, the normal approximation is poor. With ties it uses the normal
approximation with tie correction and continuity correction, as scipy does.
"""
import math

EXACT_MAX = 50  # exact distribution up to 50 x 50 samples (polynomial of degree 2500)


def median(values):
    return quantile(values, 0.5)


def quantile(values, q):
    """Linear interpolation between order statistics (numpy's default, 'type 7')."""
    xs = sorted(values)
    if not xs:
        raise ValueError("quantile of an empty sample")
    pos = (len(xs) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def _ranks(values):
    """Average ranks (1-based) and the sizes of the groups of ties."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    ties = []
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = rank
        ties.append(j - i + 1)
        i = j + 1
    return ranks, ties


def _u_counts(n1, n2):
    """Number of arrangements giving each U in 0..n1*n2: the coefficients of the Gaussian
    binomial [n1+n2 choose n1]_q = prod_{k=1..n1} (1 - q^(n2+k)) / (1 - q^k)."""
    degree = n1 * n2
    poly = [0] * (degree + 1)
    poly[0] = 1
    for k in range(1, n1 + 1):
        a = n2 + k  # multiply by (1 - q^a)
        for d in range(degree, a - 1, -1):
            poly[d] -= poly[d - a]
        for d in range(k, degree + 1):  # divide by (1 - q^k): running sum with stride k
            poly[d] += poly[d - k]
    return poly


def mann_whitney_u(x, y):
    """Two-sided Mann-Whitney U test of samples x and y.

    Returns (u, p_value, method) with u the statistic of x (scipy's U1) and method "exact" or
    "normal". Raises ValueError when either sample is empty."""
    n1, n2 = len(x), len(y)
    if n1 == 0 or n2 == 0:
        raise ValueError("the U test needs two non-empty samples")
    ranks, ties = _ranks(list(x) + list(y))
    r1 = sum(ranks[:n1])
    u1 = r1 - n1 * (n1 + 1) / 2
    u2 = n1 * n2 - u1
    u = max(u1, u2)
    has_ties = any(t > 1 for t in ties)
    if not has_ties and max(n1, n2) <= EXACT_MAX:
        counts = _u_counts(n1, n2)
        total = sum(counts)
        upper = sum(counts[int(round(u)):])  # P(U >= u), u is an integer without ties
        return u1, min(1.0, 2.0 * upper / total), "exact"
    n = n1 + n2
    tie_term = sum(t ** 3 - t for t in ties)
    variance = n1 * n2 / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if variance <= 0:  # every value equal: no evidence of any difference
        return u1, 1.0, "normal"
    z = (u - n1 * n2 / 2 - 0.5) / math.sqrt(variance)
    return u1, min(1.0, math.erfc(z / math.sqrt(2))), "normal"


def min_p_value(n1, n2):
    """The smallest two-sided p-value the exact test can give for these sample sizes."""
    return min(1.0, 2.0 / math.comb(n1 + n2, n1))
