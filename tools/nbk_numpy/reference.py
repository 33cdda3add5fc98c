"""tools/nbk-numpy: each workload as NumPy expresses it, rows named by the programs' matching variant."""
import collections
import dataclasses
import datetime
import fractions
import gc
import json
import math
import os
import platform
import re
import socket
import statistics
import sys
import tempfile
import time
import timeit

from nbk_compare import record
from nbk_compare.fmt import blas_text, format_time

PROG, SPACE = "nbk-numpy", "numpy"
DEFAULT_OUT = os.path.join(record.REPO, "build", "numpy", "results")
DEFAULT_PROBE = 1 << 25  # doubles per array, the programs' default on a CPU
THREAD_VARIABLES = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS",
                    "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")
ONE_THREAD = "NumPy on one thread, host memory"
ALLOCATES = ONE_THREAD + "; temporaries and {} allocated by every call"
U32 = 2.0**-24
RNG = "numpy.random.default_rng(seed)"


class UsageError(Exception):
    """Bad input; str() is one line naming the value."""


Variant = collections.namedtuple("Variant", "name expression document", defaults=("",))
Workload = collections.namedtuple("Workload", "name title document rank variants build repetitions seeded sizes")
Verdict = collections.namedtuple("Verdict", "ok summary details checked", defaults=(True,))


def _verdict(ok, failure, details):
    return Verdict(ok, "ok" if ok else failure, details)


@dataclasses.dataclass(eq=False)
class Case:
    """One timed expression: the clock sees call(); record(result) runs after each call, outside it."""
    variant: Variant
    call: object
    check: object
    bytes_per_call: int
    moves: str = ONE_THREAD
    flops: int = 0
    document: str = ""  # the document's figure where it is not the variant's
    extra: dict = dataclasses.field(default_factory=dict)
    keep: object = None
    last: object = None

    def record(self, result):
        self.last = result
        if self.keep:
            self.keep(result)

    def verdict(self):
        return self.check(self.last)


# facts: the JSON "problems" entry less size, elements and seed; note: why the size run differs from the one asked
Problem = collections.namedtuple("Problem", "facts cases note size", defaults=(None, None))


def parse_size(text, rank, where):
    """The programs' forms: N or 2^K (a square or cube of that edge for rank 2 or 3), AxB, AxBxC."""
    t = text.strip().lower()
    power = re.fullmatch(r"2\^(\d+)", t)
    if power and int(power.group(1)) <= 62 or re.fullmatch(r"\d+", t):
        extents = [1 << int(power.group(1)) if power else int(t)] * rank
    elif re.fullmatch(r"\d+(x\d+)+", t):
        extents = [int(e) for e in t.split("x")]
        if len(extents) != rank:
            raise UsageError(f"{where}: '{text}' has {len(extents)} extents, this experiment takes {rank}")
    else:
        raise UsageError(f"{where}: '{text}' is not a size (N, 2^K" + {2: ", AxB", 3: ", AxBxC"}.get(rank, "") + ")")
    if any(e <= 0 for e in extents):
        raise UsageError(f"{where}: '{text}': every extent must be positive")
    if math.prod(extents) >= 1 << 62:
        raise UsageError(f"{where}: '{text}' is too large")
    return tuple(extents)


def size_text(size):
    return "x".join(str(e) for e in size)


def _chunks(n, step=1 << 22):
    return ((a, min(n, a + step)) for a in range(0, n, step))


def mismatch_verdict(wrong, what="wrong", **details):
    return _verdict(wrong == 0, f"FAILED ({wrong} {what})", {"mismatches": int(wrong), **details})


def _equal(np, expected, what="wrong", part=lambda r: r):
    return lambda r: mismatch_verdict(int(np.count_nonzero(part(r) != expected)), what)


def _within(np, ref, bound, scale, what, worst_key, tolerance_in_u):
    """|got - ref| <= bound everywhere (NaN fails)."""
    def check(got):
        error = np.abs(np.asarray(got).astype(ref.dtype) - ref)
        positive = scale > 0
        worst = float(np.max(error[positive] / scale[positive])) if np.any(positive) else 0.0
        return mismatch_verdict(int(np.count_nonzero(~(error <= bound))), f"beyond {what}",
                                **{worst_key: worst, "tolerance_in_u": tolerance_in_u})
    return check


def _close(np, ref, tolerance_in_u, u=U32, floor=0.0):
    """The programs' check: |got - ref| <= tol u |ref| + floor everywhere."""
    return _within(np, ref, tolerance_in_u * u * np.abs(ref) + floor, np.abs(ref), f"{tolerance_in_u:g} u",
                   "max_relative_error", tolerance_in_u)


def _wide(np):
    return np.longdouble if np.finfo(np.longdouble).eps < np.finfo(np.float64).eps else np.float64


def _fits(n, element_bytes):
    """n elements fit in half of MemAvailable (True when unknown)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            kib = next(int(line.split()[1]) for line in f if line.startswith("MemAvailable:"))
    except (OSError, ValueError, IndexError, StopIteration):
        return True
    return n * element_bytes <= kib * 1024 // 2


_ALL = {}
# each workload's title, document, rank, repetitions, sizes and its variants' expressions (a variant:
# expression or [expression, document's figure])
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "workloads.json"), encoding="utf-8") as _f:
    TABLE = json.load(_f)


def workload(name):
    """Registers fn(np, rng, *size) -> Problem as TABLE[name]."""
    t = TABLE[name]
    variants = [Variant(v, *(e if isinstance(e, list) else (e,))) for v, e in t["variants"].items()]

    def register(fn):
        def build(np, size, seed):
            problem = fn(np, np.random.default_rng(seed), *size)
            for case in problem.cases:  # a builder names its cases' variants
                case.variant = next(v for v in variants if v.name == case.variant)
            if t["seeded"]:
                problem.facts["seed"] = seed
            return problem
        _ALL[name] = Workload(name, t["title"], t["document"], t["rank"], variants, build, t["repetitions"],
                              t["seeded"], [parse_size(size, t["rank"], name) for size in t["sizes"].split()])
        return fn
    return register


@workload("add_one")
def build_add_one(np, rng, asked):
    n = asked
    while n > 1 and not _fits(n, 4):
        n //= 2
    note = None if n == asked else (
        f"{asked} int32 ({asked * 4 / 2**30:.1f} GiB) do not fit in half of this machine's available memory: "
        f"ran {n} (2^{n.bit_length() - 1})" if n & (n - 1) == 0 else f"ran {n}")
    x = np.empty(n, np.int32)
    x.fill(0)  # first touch outside the clock, as the programs do
    state = {"calls": 0, "wrong": 0}

    def keep(_):
        state["calls"] += 1
        state["wrong"] += sum(int(np.count_nonzero(x[a:b] != state["calls"])) for a, b in _chunks(n, 1 << 24))

    case = Case("resident", lambda: np.add(x, 1, out=x), lambda _: mismatch_verdict(state["wrong"]), 8 * n,
                moves=ONE_THREAD + "; in place, pages first-touched before timing", keep=keep)
    return Problem({"element_type": "int32", "data": "zeros; every element is c after c calls"}, [case], note,
                   (n,) if note else None)


def _sum_scale(np, x):
    """(exact sum as a Fraction, sum |x|, max |prefix sum|) of float32 x: multiples of 2^-20 summed as
    integers, the rest (below 2^-21) in float64."""
    whole, rest, sum_abs, max_prefix, prefix = 0, 0.0, 0.0, 0.0, 0.0
    for a, b in _chunks(x.size):
        d = x[a:b].astype(np.float64)
        hi = np.rint(d * 2.0**20)
        whole += int(np.sum(hi.astype(np.int64)))
        rest += float(np.sum(d - hi * 2.0**-20))
        sum_abs += float(np.sum(np.abs(d)))
        p = np.cumsum(d) + prefix
        if p.size:
            max_prefix = max(max_prefix, float(np.max(np.abs(p))))
            prefix = float(p[-1])
    return fractions.Fraction(whole, 2**20) + fractions.Fraction(rest), sum_abs, max_prefix


def sum_tolerance(n, sum_abs, max_prefix, u, lam=6.0):
    """nbk/sum/accuracy.hpp: min(worst case gamma_{n-1} sum|x|, lambda u sqrt(n-1) min(2 max|prefix|, sum|x|))."""
    k = float(n - 1)  # n >= 1: parse_size refuses an empty size
    worst = math.inf if k * u >= 1 else k * u / (1 - k * u) * sum_abs
    return min(worst, lam * u * math.sqrt(k) * min(2 * max_prefix, sum_abs) * (1 + 1e-12))


@workload("sum")
def build_sum(np, rng, n):
    x = rng.standard_normal(n, dtype=np.float32)
    exact, sum_abs, max_prefix = _sum_scale(np, x)
    cases = []
    for name, accumulator, u, call in (("builtin", "float", U32, lambda: np.sum(x)),
                                       ("accurate", "double", 2.0**-53, lambda: np.sum(x, dtype=np.float64))):
        tolerance, results = sum_tolerance(n, sum_abs, max_prefix, u), []

        def check(_, results=results, accumulator=accumulator, tolerance=tolerance):
            errors = [float(fractions.Fraction(r) - exact) if math.isfinite(r) else math.inf for r in results]
            i = max(range(len(errors)), key=lambda k: abs(errors[k]))
            ok = abs(errors[i]) <= tolerance
            details = {"result": results[i], "error": errors[i], "tolerance": tolerance, "accumulator": accumulator,
                       "reproducible": len(set(results)) == 1}
            if errors[i] != 0 and exact != 0:
                details["digits"] = -math.log10(abs(errors[i] / float(exact)))
            return Verdict(ok, ("ok" if ok else f"FAILED (error {errors[i]:.3g} > {tolerance:.3g})")
                           + ("" if details["reproducible"] else " (varies)"), details)

        cases.append(Case(name, call, check, 4 * n, keep=lambda r, results=results: results.append(float(r)),
                          moves=ONE_THREAD + f"; pairwise sum, {accumulator} accumulator"))
    return Problem({"element_type": "float32", "distribution": f"N(0,1), {RNG} (PCG64)",
                    "exact_sum": float(exact), "sum_abs": sum_abs, "max_abs_prefix_sum": max_prefix}, cases)


@workload("product")
def build_product(np, rng, n):
    x = rng.random(n)
    values = x.tolist()
    # the independent reference: libm's log through Python's math, summed exactly
    log_sum = math.fsum(map(math.log, values)) if all(v > 0 for v in values) else -math.inf
    underflows = log_sum < math.log(5e-324) - math.log(2.0) - 1.0
    host_product = math.prod(values)
    del values
    u, k = 2.0**-53, float(n - 1)
    gamma = k * u / (1 - k * u) if k * u < 0.5 else 1.0
    product_tolerance = 2.0 * (gamma * abs(host_product) + n * 5e-324)

    def check_prod(result):
        r = float(result)
        ok = r == 0.0 if underflows else abs(r - host_product) <= product_tolerance
        return _verdict(ok and not (underflows and host_product != 0.0), "FAILED", {"product": r})

    def check_log_sum(result):
        r = float(result)
        error = abs(r - log_sum) / abs(log_sum) if log_sum not in (0.0, -math.inf) else abs(r - log_sum)
        return _verdict(error <= 1e-12, f"FAILED (relative error {error:.2e})",
                        {"log_sum": r, "log_sum_relative_error": error})

    return Problem({"element_type": "float64", "distribution": f"U[0,1), {RNG} (PCG64)",
                    "log_sum_reference": log_sum, "underflows": underflows, "host_product": host_product,
                    "log_sum_tolerance": 1e-12},
                   [Case("prod", lambda: np.prod(x), check_prod, 8 * n),
                    Case("log-sum", lambda: np.sum(np.log(x)), check_log_sum, 8 * n)])


def _binary_f32(np, rng, size, ufunc, expected):
    a, b = rng.random(size, dtype=np.float32), rng.random(size, dtype=np.float32)
    c = np.full(size, np.nan, np.float32)
    case = Case("mdrange-auto", lambda: ufunc(a, b, out=c), _equal(np, expected(a, b)), 12 * a.size)
    return Problem({"element_type": "float32", "shape": list(size)}, [case])


@workload("maximum")
def build_maximum(np, rng, *size):
    problem = _binary_f32(np, rng, size, np.maximum, lambda a, b: np.where(a >= b, a, b))
    if size == (32, 32, 32):
        problem.cases[0].document = "np.maximum: 172 us at 32^3"
    return problem


@workload("mat_add")
def build_mat_add(np, rng, *size):
    return _binary_f32(np, rng, size, np.add,
                       lambda a, b: (a.astype(np.float64) + b.astype(np.float64)).astype(np.float32))


@workload("sin_exp")
def build_sin_exp(np, rng, n):
    x64, y64 = np.linspace(0, 2 * math.pi, n), np.full(n, 10.0)
    cases, ld = [], _wide(np)
    for name, t in (("f32", np.float32), ("f64", np.float64)):
        x, y = x64.astype(t), y64.astype(t)
        if t is np.float32 or ld is not np.float64:
            ref = np.sin(x.astype(ld)) * np.exp(y.astype(ld))
            check = _close(np, ref, 16, float(np.finfo(t).eps) / 2, float(np.finfo(t).tiny))
        else:
            def check(_):
                return Verdict(True, "unchecked (no long double wider than float64 here)", {}, False)
        cases.append(Case(name, lambda x=x, y=y: np.sin(x) * np.exp(y), check, 3 * n * np.dtype(t).itemsize,
                          moves=ALLOCATES.format("z")))
    return Problem({"x": "linspace(0, 2 pi, n)", "y": 10.0}, cases)


@workload("hypot")
def build_hypot(np, rng, n):
    u4 = rng.random((4, n))

    def value(sign_mantissa, exponent):
        m = 0.5 + 0.5 * np.abs(2 * sign_mantissa - 1)
        e = np.floor(exponent * 200).astype(np.int64) - 100
        return np.ldexp(np.where(sign_mantissa < 0.5, -m, m), e).astype(np.float32)

    x, y = value(u4[0], u4[1]), value(u4[2], u4[3])
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    reference = np.sqrt(x64 * x64 + y64 * y64)  # no float32 square reaches float64's limits
    h = np.full(n, np.nan, np.float32)
    return Problem({"element_type": "float32", "exponent_range": [-100, 100]},
                   [Case("scaled", lambda: np.hypot(x, y, out=h), _close(np, reference, 8), 12 * n)])


@workload("gaussian")
def build_gaussian(np, rng, n):
    x = (3.0 * (2 * rng.random(n) - 1)).astype(np.float32)
    mean, sigma, sqrt_2pi = np.float32(0), np.float32(1), np.float32(2.5066282746310002)
    z = x.astype(np.float64)
    reference = np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)
    case = Case("pdf", lambda: np.exp(np.float32(-0.5) * ((x - mean) / sigma) ** 2) / (sigma * sqrt_2pi),
                _close(np, reference, 32), 8 * n, moves=ALLOCATES.format("p"))
    return Problem({"element_type": "float32", "mean": 0.0, "sigma": 1.0, "x": "uniform(-3, 3)"}, [case])


@workload("polar")
def build_polar(np, rng, n):
    u4 = rng.random((4, n))
    rho1, rho2 = u4[0].astype(np.float32), u4[2].astype(np.float32)
    theta1, theta2 = ((math.pi * (2 * u4[k] - 1)).astype(np.float32) for k in (1, 3))

    def distance(rho1, theta1, rho2, theta2):
        dx, dy = rho1 * np.cos(theta1) - rho2 * np.cos(theta2), rho1 * np.sin(theta1) - rho2 * np.sin(theta2)
        return np.sqrt(dx * dx + dy * dy)

    reference = distance(*(a.astype(np.float64) for a in (rho1, theta1, rho2, theta2)))
    scale = rho1.astype(np.float64) + rho2.astype(np.float64)
    check = _within(np, reference, 16 * U32 * scale, scale * U32, "16 u (rho1 + rho2)",
                    "max_error_in_u_of_rho_sum", 16.0)
    return Problem({"element_type": "float32", "rho": "uniform(0, 1)", "theta": "uniform(-pi, pi)"},
                   [Case("distance", lambda: distance(rho1, theta1, rho2, theta2), check, 20 * n,
                         moves=ALLOCATES.format("d"))])


@workload("add")
def build_add(np, rng, n):
    x64, x32 = np.arange(n, dtype=np.int64), np.arange(n).astype(np.float32)
    cases = []
    for t, x, y, expected in (("i64", x64, 2 * x64, 3 * x64),
                              ("f32", x32, 2 * x32, (x32.astype(np.float64) + (2 * x32).astype(np.float64))
                               .astype(np.float32))):
        out, check, per = np.empty_like(x), _equal(np, expected), 3 * x.itemsize * n
        cases += [Case(t, lambda x=x, y=y, out=out: np.add(x, y, out=out), check, per),
                  Case(t + "-new", lambda x=x, y=y: x + y, check, per,
                       moves=ONE_THREAD + "; out allocated by every call")]
    return Problem({"x": "arange(n)", "y": "2 x"}, cases)


@workload("row_sum")
def build_row_sum(np, rng, rows, columns):
    ints = rng.integers(-2**31, 2**31, size=(rows, columns), dtype=np.int32)
    floats = rng.random((rows, columns), dtype=np.float32)
    int_sums = np.cumsum(ints, axis=1, dtype=np.int64)[:, -1]
    float_sums = np.cumsum(floats.astype(np.float64), axis=1)[:, -1]
    tolerance = 2.0 * (columns - 1) + 1
    return Problem({"element_types": ["int32", "float32"], "sum_types": ["int64", "float32"],
                    "shape": [rows, columns]},
                   [Case("team-int32", lambda: ints.sum(axis=1, dtype=np.int64), _equal(np, int_sums),
                         ints.size * 4 + rows * 8),
                    Case("team-float32", lambda: floats.sum(axis=1), _close(np, float_sums, tolerance),
                         floats.size * 4 + rows * 4)])


@workload("l2_norm")
def build_l2_norm(np, rng, rows, columns):
    if columns == 2:
        t = -math.pi + 2 * math.pi * rng.random(rows)
        a = np.stack([np.cos(t), np.sin(t)], axis=1).astype(np.float32)
    else:
        a = rng.standard_normal((rows, columns), dtype=np.float32)
    a_wide = a.astype(_wide(np))
    reference, traffic = np.sqrt((a_wide * a_wide).sum(axis=1)), a.size * 4 + rows * 4

    def double_acc():
        a64 = a.astype(np.float64)
        return np.sqrt((a64 * a64).sum(axis=1)).astype(np.float32)

    return Problem({"element_type": "float32", "shape": [rows, columns],
                    "data": "(cos t, sin t), t ~ U(-pi, pi)" if columns == 2 else "N(0, 1)"},
                   [Case("double-acc", double_acc, _close(np, reference, 2.0), traffic, flops=2 * a.size),
                    Case("float-acc", lambda: np.sqrt((a * a).sum(axis=1)), _close(np, reference, columns + 1.5),
                         traffic, flops=2 * a.size)])


@workload("matmul")
def build_matmul(np, rng, m, n, p):
    a, b = rng.standard_normal((m, n), dtype=np.float32), rng.standard_normal((n, p), dtype=np.float32)
    c = np.full((m, p), np.nan, np.float32)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    reference, magnitude = a64 @ b64, np.abs(a64) @ np.abs(b64)
    del a64, b64
    gamma = n * U32 / (1 - n * U32) if n * U32 < 1 else math.inf
    check = _within(np, reference, gamma * magnitude, U32 * magnitude, "n u", "max_error_in_u_of_magnitude",
                    gamma / U32)
    case = Case("tiled", lambda: np.matmul(a, b, out=c), check, 4 * (m * n + n * p + m * p),
                moves="NumPy's BLAS sgemm (see the context's blas and threads), host memory", flops=2 * m * n * p)
    return Problem({"element_type": "float32", "m": m, "n": n, "p": p}, [case])


HISTOGRAM_BINS = tuple(int(v.split("-")[1]) for v in TABLE["histogram"]["variants"])  # private-<bins>


@workload("histogram")
def build_histogram(np, rng, n):
    x = rng.standard_normal(n, dtype=np.float32)
    inside = x[(x >= -4) & (x <= 4)]
    cases = []
    for bins in HISTOGRAM_BINS:
        # np.histogram's bins by definition: edges linspace(-4, 4, bins + 1) rounded to the data's float32
        # (not float64's), each bin [edge, next edge), the last closed; found by a binary search
        edges = np.linspace(-4.0, 4.0, bins + 1).astype(x.dtype)
        expected = np.bincount(np.minimum(np.searchsorted(edges, inside, side="right") - 1, bins - 1), minlength=bins)
        cases.append(Case(f"private-{bins}", lambda bins=bins: np.histogram(x, bins=bins, range=(-4, 4)),
                          _equal(np, expected, "bins differ", lambda r: r[0]), 4 * n))
    return Problem({"element_type": "float32", "range": [-4, 4], "bin_counts": list(HISTOGRAM_BINS),
                    "distribution": f"N(0,1), {RNG} (PCG64)",
                    "edges": "linspace(-4, 4, bins + 1) rounded to float32 (np.histogram's bin type for float32 "
                             "data); the programs bin by floor((x + 4) * bins / 8) in float",
                    "right_edge": "x = 4 counts in the last bin (np.histogram); the programs drop it"}, cases)


PI_CHUNK = 1 << 20  # points drawn at a time, as pi's expression in workloads.json says


@workload("pi")
def build_pi(np, rng, streams, per_stream):
    n = streams * per_stream
    chunk = min(n, PI_CHUNK)
    buffer, squares, mask = np.empty(2 * chunk, np.float32), np.empty(chunk, np.float32), np.empty(chunk, np.bool_)

    def count_inside():
        inside = 0
        for a, b in _chunks(n, chunk):
            r, s, k = buffer[:2 * (b - a)], squares[:b - a], mask[:b - a]
            rng.random(out=r, dtype=np.float32)
            x, y = r[:b - a], r[b - a:]
            np.multiply(x, x, out=s)
            s += y * y
            np.less_equal(s, 1, out=k)
            inside += int(np.count_nonzero(k))
        return inside

    standard_error = 4 * math.sqrt(math.pi / 4 * (1 - math.pi / 4) / n)  # n >= 1 (parse_size)
    bound, estimates = 5 * standard_error, []

    def check(_):
        if not estimates:
            return _verdict(False, "FAILED (no call)", {"bound": bound, "calls": 0})
        worst = max(abs(e - math.pi) for e in estimates)
        return _verdict(worst <= bound, f"FAILED ({worst / standard_error:.1f} standard errors off)",
                        {"estimate_first_call": estimates[0], "worst_error": worst, "bound": bound,
                         "calls": len(estimates)})

    case = Case("xorshift64", count_inside, check, 0,
                moves=ONE_THREAD + f"; PCG64 float32 uniforms in chunks of {PI_CHUNK} points",
                extra={"generator": f"{RNG}: PCG64, float32 uniforms"},
                keep=lambda inside: estimates.append(4.0 * inside / n))
    return Problem({"streams": streams, "samples_per_stream": per_stream, "standard_error": standard_error,
                    "bound_in_standard_errors": 5.0}, [case])


# in experiments.txt's order
WORKLOADS = {name: _ALL[name] for name in record.experiments() or sorted(_ALL) if name in _ALL}


def blas_info():
    try:
        import threadpoolctl
        lib = next(lib for lib in threadpoolctl.threadpool_info() if lib.get("user_api") == "blas")
    except (ImportError, StopIteration):
        return {"blas": "unknown", "blas_library": None, "blas_threads": None}
    return {"blas": f"{lib.get('internal_api')} {lib.get('version') or ''}".strip(),
            "blas_library": lib.get("filepath"), "blas_threads": lib.get("num_threads")}


def run_context(np, threads):
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    np.ones((4, 4), np.float32) @ np.ones((4, 4), np.float32)  # a BLAS loaded lazily is loaded now
    context = {
        "host_name": socket.gethostname(), "cpu_model": record.cpu_model() or platform.processor() or "unknown",
        "date_utc": now, "execution_spaces": [SPACE], "default_execution_space": SPACE,
        "host_concurrency": os.cpu_count(), "threads": threads, "numpy_version": np.__version__,
        "python_version": platform.python_version(), "python_executable": sys.executable, **blas_info(),
        "random_generator": f"{RNG}: PCG64", "tool": "tools/nbk-numpy",
        "label": "numpy",  # the run's name in the tools' tables
        **{name: os.environ.get(name, "unset") for name in ("OMP_PROC_BIND", "OMP_PLACES") + THREAD_VARIABLES}}
    umath = getattr(np.core, "_multiarray_umath", None)
    if hasattr(umath, "__cpu_baseline__"):
        context["numpy_simd_baseline"] = list(umath.__cpu_baseline__)
        context["numpy_simd_dispatch"] = [f for f in umath.__cpu_dispatch__ if umath.__cpu_features__.get(f)]
    return context


def memcpy_probe(np, elements, repetitions=10):
    a, b = np.empty(elements), np.empty(elements)
    a.fill(1.5)
    b.fill(0)
    best = min(timeit.repeat(lambda: np.copyto(b, a), repeat=repetitions + 1, number=1))
    return {"memcpy": "np.copyto of float64 arrays, one thread", "memcpy_gb_per_s": 16 * elements / best * 1e-9,
            "elements_per_array": elements, "repetitions": repetitions, "verified": bool(np.array_equal(a, b))}


def time_case(case, repetitions, budget):
    """A first call, then calls as the programs' --budget says: (first, [timed seconds]); no garbage collector."""
    enabled, seconds = gc.isenabled(), []
    gc.disable()
    try:
        while len(seconds) <= repetitions and not (budget and len(seconds) > min(2, repetitions)
                                                   and sum(seconds) >= budget):
            t0 = time.perf_counter()
            result = case.call()
            seconds.append(time.perf_counter() - t0)
            case.record(result)
            result = None
    finally:
        if enabled:
            gc.enable()
    return seconds[0], seconds[1:]


def result_row(case, size, repetitions, budget, memcpy, note):
    first, timed = time_case(case, repetitions, budget)
    verdict, best, v, elements = case.verdict(), min(timed), case.variant, math.prod(size)

    def rate(amount):
        return amount / best if best > 0 else 0.0

    row = {"variant": v.name, "space": SPACE, "size": size_text(size), "elements": elements,
           "expression": v.expression, "moves": case.moves, "document": case.document or v.document,
           "first_call_includes": "", "repetitions": len(timed), "repetitions_planned": repetitions,
           "calls": len(timed) + 1, "stopped_early": len(timed) < repetitions, "budget_s": budget or None,
           "status": ("verified" if verdict.ok else "failed") if verdict.checked else "unchecked",
           "check": verdict.summary, "first_s": first, "best_s": best, "median_s": statistics.median(timed),
           "bytes_per_call": case.bytes_per_call, "gb_per_s": rate(case.bytes_per_call) * 1e-9,
           "elements_per_s": rate(elements)}
    row["fraction_of_memcpy"] = row["gb_per_s"] / memcpy if case.bytes_per_call else None
    if case.flops:
        row.update(flops_per_call=case.flops, gflop_per_s=rate(case.flops) * 1e-9)
    row.update(case.extra, **({"note": note} if note else {}))
    return dict(row, **verdict.details), verdict


def write_json(path, doc):
    """Strict JSON: NaN and infinities as null; whole or absent (record.write_whole)."""
    record.write_whole(path, json.dumps(json.loads(json.dumps(doc), parse_constant=lambda _: None), indent=2,
                                        sort_keys=True, allow_nan=False) + "\n")


def run_workload(np, workload, sizes, repetitions, budget, seed, context, probe, out_dir):
    """Writes <experiment>.json; False when a check failed."""
    doc = {"experiment": workload.name, "title": f"NumPy reference: {workload.title}", "document": workload.document,
           "tool": PROG, "context": context, "repetitions": repetitions, "budget_s": budget or None,
           "probes": {SPACE: probe}, "problems": [], "results": [], **({"seed": seed} if workload.seeded else {})}
    ok = True
    for size in sizes:
        where = {"size": size_text(size), "elements": math.prod(size)}
        print(f"{PROG}: {workload.name} at {where['size']} ...", file=sys.stderr, flush=True)
        try:
            problem = workload.build(np, size, seed)
        except MemoryError:
            note = f"not enough memory for {where['size']}"
            doc["problems"].append(dict(where, note=note))
            doc["results"] += [dict(where, variant=v.name, space=SPACE, expression=v.expression,
                                    status="skipped", reason=note) for v in workload.variants]
            print(f"  {workload.name} {where['size']}: skipped ({note})", flush=True)
            continue
        actual = problem.size or size
        doc["problems"].append({"size": size_text(actual), "elements": math.prod(actual), **problem.facts,
                                **({"note": problem.note} if problem.note else {})})
        for case in problem.cases:
            row, verdict = result_row(case, actual, repetitions, budget, probe["memcpy_gb_per_s"],
                                      problem.note)
            doc["results"].append(row)
            ok = ok and (verdict.ok or not verdict.checked)
            print(f"  {workload.name:<10} {case.variant.name:<14} {row['size']:>17}  "
                  + "".join(f"{k} {format_time(row[k + '_s']):>9}  " for k in ("first", "best", "median"))
                  + f"{row['repetitions']} of {repetitions}{', budget' if row['stopped_early'] else ''}  "
                  + (f"{row['gb_per_s']:8.2f} GB/s  " if case.bytes_per_call else " " * 15) + verdict.summary,
                  flush=True)
        del problem
        gc.collect()
    write_json(os.path.join(out_dir, f"{workload.name}.json"), doc)
    return ok


DESCRIPTION = """\
NumPy's expression of each workload at the programs' sizes, timed and checked like them, as
<experiment>.json in their format (docs/comparing.md). Exit status: 0 done, 1 a check failed,
2 no NumPy (python3-numpy) or bad input (one line, nothing written).
"""


_COUNT = record.checked(lambda t: 1 << int(t[2:]) if re.fullmatch(r"2\^\d{1,2}", t) else int(t) if t.isdigit()
                        else 0, lambda v: v > 0, "not a positive integer")
_SEED = record.checked(lambda t: int(t) if t.isdigit() else None, lambda v: True, "not a non-negative integer")
_SCALE = record.checked(float, lambda v: math.isfinite(v) and v > 0, "must be a positive finite number")
_BUDGET = record.checked(float, lambda v: math.isfinite(v) and v >= 0, "must be a non-negative number of seconds")


def parse_args(argv):
    p = record.Parser(prog=PROG, description=DESCRIPTION)
    p.add_argument("--out", metavar="DIR", default=DEFAULT_OUT, help="where <experiment>.json go (build/numpy/results)")
    p.add_argument("--only", action="append", default=[], metavar="EXP[,EXP]", help="run only these experiments")
    p.add_argument("--list", action="store_true", help="list the experiments, sizes and expressions")
    p.add_argument("--size", action="append", default=[], metavar="EXP=SIZE[,SIZE]", help="N, 2^K, AxB or AxBxC")
    p.add_argument("--scale", metavar="F", type=_SCALE, help="multiply the first extent of every default size by F")
    p.add_argument("--repetitions", metavar="N", type=_COUNT, help="timed calls after the first (the program's)")
    p.add_argument("--budget", metavar="S", type=_BUDGET,
                   help="no more calls once they took S seconds, two timed (default 1; none with --repetitions)")
    p.add_argument("--threads", metavar="N", type=_COUNT, default=1, help="BLAS/OpenMP threads (default 1)")
    p.add_argument("--seed", metavar="N", type=_SEED, default=1, help="seed of the inputs (default 1)")
    p.add_argument("--probe-size", metavar="N", type=_COUNT, default=DEFAULT_PROBE,
                   help="doubles per array of the np.copyto probe (default 2^25)")
    a = p.parse_args(argv)

    def known(name, said):
        if name not in WORKLOADS:
            raise UsageError(f"{said} (known: {', '.join(WORKLOADS)})")
        return name

    a.names = list(dict.fromkeys(known(n.strip(), f"--only {n.strip() or repr(item)}: unknown experiment")
                                 for item in a.only for n in item.split(","))) or list(WORKLOADS)
    a.sizes = {}
    for item in a.size:
        name, eq, sizes = (t.strip() for t in item.partition("="))
        if not eq or not sizes:
            raise UsageError(f"--size {item}: expected EXP=SIZE[,SIZE]")
        known(name, f"--size {item}: unknown experiment '{name}'")
        a.sizes[name] = [parse_size(s, WORKLOADS[name].rank, f"--size {item}") for s in sizes.split(",")]
    if not a.out.strip():
        raise UsageError("--out: empty path")
    return a


def sizes_of(args, workload):
    """--size's, else those of the programs' JSON in RUN for --out RUN/numpy, else the defaults."""
    if workload.name in args.sizes:
        return args.sizes[workload.name]
    try:
        with open(os.path.join(os.path.dirname(os.path.abspath(args.out)), workload.name + ".json"),
                  encoding="utf-8") as f:
            texts = [r["size"] for r in json.load(f).get("results") or [] if isinstance(r, dict) and r.get("size")]
        sizes = list(dict.fromkeys(parse_size(str(t), workload.rank, workload.name) for t in texts)) or workload.sizes
    except (OSError, ValueError, AttributeError, UsageError):
        sizes = workload.sizes
    if args.scale is not None:  # two sizes may scale to one
        return list(dict.fromkeys((max(1, int(round(s[0] * args.scale))),) + tuple(s[1:]) for s in sizes))
    return list(sizes)


def main(argv=None):
    try:
        return run(sys.argv[1:] if argv is None else argv)
    except UsageError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return 2


def run(argv):
    args = parse_args(argv)
    plan = {name: sizes_of(args, WORKLOADS[name]) for name in args.names}
    if args.list:
        print("experiment: what (document); sizes; repetitions\n  variant (the programs' name it sits beside)  "
              "expression")
        for name, sizes in plan.items():
            w = WORKLOADS[name]
            print(f"{w.name}: {w.title} ({w.document}); sizes {', '.join(size_text(s) for s in sizes)}; "
                  f"{args.repetitions or w.repetitions} repetitions",
                  *(f"  {v.name:<14} {v.expression}" for v in w.variants), sep="\n")
        return 0
    os.environ.update(dict.fromkeys(THREAD_VARIABLES, str(args.threads)))
    try:
        import numpy as np
    except ImportError as e:
        print(f"{PROG}: NumPy is not available to {sys.executable} ({e}; Debian: apt-get install python3-numpy): "
              "no reference run, nothing written", file=sys.stderr)
        return 2
    try:  # --out writable, else one line naming it
        os.makedirs(args.out, exist_ok=True)
        tempfile.TemporaryFile(dir=args.out).close()
    except OSError as e:
        raise UsageError(f"--out {args.out}: cannot write there ({e.strerror or e})") from None
    context = run_context(np, args.threads)
    print(f"NumPy {np.__version__} on Python {context['python_version']}, BLAS: {blas_text(context)}, "
          f"{args.threads} thread(s); {context['cpu_model']}, {context['host_concurrency']} CPUs", flush=True)
    probe = memcpy_probe(np, args.probe_size)
    print(f"np.copyto probe: {probe['memcpy_gb_per_s']:.2f} GB/s ({args.probe_size} doubles per array)", flush=True)
    budget = (0.0 if args.repetitions else 1.0) if args.budget is None else args.budget  # the programs' rule
    failed = [name for name, sizes in plan.items() if not run_workload(np, WORKLOADS[name], sizes, args.repetitions
              or WORKLOADS[name].repetitions, budget, args.seed, context, probe, args.out)]
    print(f"{PROG}: wrote {len(args.names)} file(s) to {args.out}", file=sys.stderr)
    if failed:
        print(f"{PROG}: verification FAILED in {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
