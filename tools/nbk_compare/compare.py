"""tools/nbk-compare: pairing benchmarks across spaces and files, and regression checks between two runs."""
import argparse
import collections
import dataclasses
import json
import sys

from . import stats
from .fmt import MISSING, format_gbps, format_p, format_pct, format_ratio, format_size, format_time
from .gbench import InputError, size_sort_key
from .record import Parser, checked
from .runs import choose_labels, open_compare_input, path_labels

DEFAULT_ALPHA = 0.05
DEFAULT_BASELINE = "serial"


class UsageError(Exception):
    """A request that does not fit the inputs (unknown baseline, ...)."""


@dataclasses.dataclass(eq=False)
class Column:
    file: object
    space: str
    label: str

    runs = property(lambda self: [r for r in self.file.runs.values() if r.space == self.space])


@dataclasses.dataclass(eq=False)
class Cell:
    run: object
    column: Column
    speedup: float = None
    p_value: float = None
    test: str = None
    significant: bool = None

    error = property(lambda self: self.run.error)
    time = property(lambda self: None if self.run.error else self.run.time)
    gbps = property(lambda self: None if self.run.error else self.run.gbps)
    spread = property(lambda self: (None, None, {}) if self.run.error else self.run.spread)

    # none for a call crossing the link: its bound is the link
    reference = property(lambda self: None if self.run.crosses_link else self.run.reference)
    ref_fraction = property(lambda self: None if self.run.crosses_link or self.error else self.run.fraction)


class Row:
    def __init__(self, run):
        self.experiment, self.variant, self.size, self.extra = run.key
        self.family, self.cells = run.family, {}  # cells: column label -> Cell
        self.size_label = f"{format_size(self.size)} {self.extra or ''}".strip()


class Comparison:
    def __init__(self, files, baseline, alpha, baseline_required):
        self.files, self.alpha, self.notes = files, alpha, []
        count = collections.Counter(space for f in files for space in f.spaces)
        self.columns = [Column(f, space, f"{space}@{f.label}" if count[space] > 1 and space else space or f.label)
                        for f in files for space in f.spaces]
        base = next((c for c in self.columns if c.label == baseline), None) or \
            next((c for c in self.columns if c.space == baseline), None)  # by label, else by space
        if base is None:
            labels = ", ".join(c.label for c in self.columns)
            if baseline_required:
                raise UsageError(f"baseline '{baseline}' is none of the columns ({labels})")
            base = self.columns[0]
            self.notes.append(f"no '{baseline}' column; baseline is {base.label} (columns: {labels})")
        self.baseline = base
        rows = {}
        for c in self.columns:
            for run in c.runs:
                rows.setdefault(run.key, Row(run)).cells[c.label] = Cell(run, c)
        self.rows = _sorted_rows(list(rows.values()))
        for row in self.rows:
            self._speedups(row)
        if len(files) > 1 and not any(len({c.column.file for c in r.cells.values()}) > 1
                                      for r in self.rows if r.experiment != "probe"):
            raise UsageError("nothing to pair: " + "; ".join(f"{f.label} has {_contents(f.runs.values())}" for f in files))

    cells = property(lambda self: [c for r in self.rows for c in r.cells.values()])

    def not_comparable(self):
        found = [(row, [_why_absent(f, row) for f in self.files
                        if f not in {c.column.file for c in row.cells.values()}]) for row in self.rows]
        return [(row, "; ".join(reasons)) for row, reasons in found if reasons]

    def _speedups(self, row):
        base = row.cells.get(self.baseline.label)
        for cell in [c for label, c in row.cells.items() if base and label != self.baseline.label]:
            if base.time and cell.time:
                cell.speedup = base.time / cell.time
            a, b = base.run.samples, cell.run.samples
            if not base.error and not cell.error and len(a) >= 2 and len(b) >= 2:
                _, cell.p_value, cell.test = stats.mann_whitney_u(a, b)
                cell.significant = cell.p_value < self.alpha

    def legend(self):
        lines = [f"baseline: {self.baseline.label}; 'vs {self.baseline.label}' = baseline time / time (>1: faster).",
                 "time: median seconds per iteration over the repetitions (else Google Benchmark's median "
                 "aggregate); spread: iqr = interquartile range / median of the repetitions, cv = stddev / mean "
                 "from the aggregates (files written with aggregates only)."]
        if any(c.test for c in self.cells):
            lines.append(f"* = significant, ? = not significant: two-sided Mann-Whitney U test of the "
                         f"repetitions' times, alpha {self.alpha}; no mark = no repetitions to test.")
            lines += _too_few(min(len(c.run.samples) for c in self.cells if c.test), self.alpha, "")
        else:
            lines.append("no per-repetition times in the input (aggregates only or single runs): "
                         "no significance test; rerun without --benchmark_report_aggregates_only.")
        lines.extend(self.notes)
        return lines


def _too_few(n, alpha, consequence):
    if n is None or stats.min_p_value(n, n) < alpha:
        return []
    return [f"note: with {n} repetitions a side the U test cannot reach p < {alpha} "
            f"(smallest p {stats.min_p_value(n, n):.3f}){consequence}; run 9 repetitions."]


def _contents(runs):
    """'add_one at 2147483648; sum at 134217571'."""
    sizes = {}
    for r in runs:
        if r.experiment != "probe":
            sizes.setdefault(r.experiment, set()).add(r.size)
    return "; ".join(f"{e} at {', '.join(sorted(s, key=size_sort_key))}" for e, s in sizes.items()) or "no results"


def _why_absent(bench_file, row):
    mine = [r for r in bench_file.runs.values() if r.experiment == row.experiment]
    if not mine:
        return f"no {row.experiment} in {bench_file.label}"
    same = [r for r in mine if r.variant == row.variant]
    if not same:
        return f"no variant {row.variant} in {bench_file.label}"
    return f"{bench_file.label} has it at {', '.join(sorted({format_size(r.size) for r in same}, key=size_sort_key))}"


def _sorted_rows(rows):
    """Experiments and variants in the order they first appear, sizes ascending."""
    first = {}
    for i, row in enumerate(rows):
        first.setdefault(row.experiment, i)
        first.setdefault((row.experiment, row.variant), i)
    return sorted(rows, key=lambda r: (first[r.experiment], first[r.experiment, r.variant], size_sort_key(r.size),
                                       r.extra))


def comparison_table(cmp):
    kinds = {c.spread[0] for c in cmp.cells if c.spread[0]}
    one_kind = kinds.pop() if len(kinds) == 1 else None
    groups = [("", ["experiment", "variant", "size"])] + [
        (c.label, ["time", one_kind or "spread", "GB/s"] + ([] if c is cmp.baseline else [f"vs {cmp.baseline.label}"]))
        for c in cmp.columns]

    def cells(cell, n):
        if cell is None or cell.error:
            return [MISSING] * n if cell is None else ["error"] + [""] * (n - 1)
        kind, rel, _ = cell.spread
        mark = "" if cell.significant is None else "*" if cell.significant else "?"
        return [format_time(cell.time), MISSING if rel is None else format_pct(rel) if one_kind
                else f"{kind} {format_pct(rel)}", format_gbps(cell.gbps), format_ratio(cell.speedup) + mark][:n]

    rows = [[row.experiment, row.variant or MISSING, row.size_label or MISSING]
            + [v for c in cmp.columns for v in cells(row.cells.get(c.label), 3 if c is cmp.baseline else 4)]
            for row in cmp.rows]
    return groups, rows


def render_text_table(groups, rows, blank_between=None, left=None):
    """Group labels over their sub-columns, then sub-headers; `left` (default: the first group) left-aligned."""
    headers = [h for _, subs in groups for h in subs]
    widths = [max(len(v) for v in column) for column in zip(headers, *rows)]
    spans, i = [], 0  # each group's columns, the last widened to its label
    for label, subs in groups:
        spans.append(range(i, i + len(subs)))
        widths[i + len(subs) - 1] += max(0, len(label) - sum(widths[k] for k in spans[-1]) - 2 * (len(subs) - 1))
        i += len(subs)
    left = set(range(len(groups[0][1])) if left is None else left)

    def join(values):
        return " | ".join("  ".join(values[k].ljust(widths[k]) if k in left else values[k].rjust(widths[k])
                                    for k in span) for span in spans).rstrip()

    lines = [" | ".join(label.ljust(sum(widths[k] for k in span) + 2 * (len(span) - 1))
                        for (label, _), span in zip(groups, spans)).rstrip(), join(headers)]
    lines.append("-" * max(len(line) for line in lines))
    for n, r in enumerate(rows):
        if blank_between is not None and n and r[blank_between] != rows[n - 1][blank_between]:
            lines.append("")
        lines.append(join(r))
    return "\n".join(lines)


def render_comparison_text(cmp):
    out = ["files: " + ", ".join(f"{f.label} = {f.path}" for f in cmp.files), "",
           render_text_table(*comparison_table(cmp), blank_between=0), ""] + cmp.legend()
    if errs := [f"  {c.run.name}: {c.run.error}" for c in cmp.cells if c.error]:
        out += ["errors (not comparable):"] + errs
    if lacking := cmp.not_comparable():
        out += ["not comparable ('-' in the table):"] + [f"  {row.family} {row.size_label}: {why}"
                                                          for row, why in lacking]
    return "\n".join(out) + "\n"


def comparison_records(cmp):
    records = []
    for row in cmp.rows:
        for c in cmp.columns:
            cell = row.cells.get(c.label)
            if cell is None:
                continue
            kind, rel, details = cell.spread
            ref = cell.reference
            records.append({
                "experiment": row.experiment, "variant": row.variant, "size": row.size, "extra": row.extra,
                "column": c.label, "space": c.space, "file": c.file.path, "name": cell.run.name, "error": cell.error,
                "time_s": cell.time, "time_source": None if cell.error else cell.run.time_source,
                "repetitions": cell.run.repetitions, "spread_kind": kind, "spread": rel,
                **{k: details.get(k) for k in ("min_s", "max_s", "q1_s", "q3_s")}, "gb_per_s": cell.gbps,
                "reference": ref.name if ref else None, "reference_gb_per_s": ref.gbps if ref else None,
                "fraction_of_reference": cell.ref_fraction, "baseline": cmp.baseline.label, "speedup": cell.speedup,
                "p_value": cell.p_value, "test": cell.test, "significant": cell.significant})
    return records


def comparison_doc(cmp):
    return {"baseline": cmp.baseline.label, "alpha": cmp.alpha,
            "files": [{"label": f.label, "path": f.path} for f in cmp.files],
            "columns": [{"label": c.label, "space": c.space, "file": c.file.path} for c in cmp.columns],
            "notes": cmp.notes, "results": comparison_records(cmp)}


@dataclasses.dataclass
class RegressRow:
    name: str
    before: object
    after: object
    change: float = None
    p_value: float = None
    test: str = None
    verdict: str = ""
    failed: bool = False


class Regression:
    """Same names in two runs, judged as docs/comparing.md says."""

    def __init__(self, before, after, threshold, alpha):
        self.before_file, self.after_file, self.threshold, self.alpha = before, after, threshold, alpha
        names = list(dict.fromkeys([*before.runs, *after.runs]))
        if not {n for n, r in before.runs.items() if r.experiment != "probe"} & set(after.runs):
            raise UsageError(f"{before.path} and {after.path} have no benchmark in common: before has "
                             f"{_contents(before.runs.values())}; after has {_contents(after.runs.values())}")
        self.rows = [self._judge(RegressRow(n, before.runs.get(n), after.runs.get(n))) for n in names]

    def _judge(self, row):
        b, a = row.before, row.after
        if b is None or a is None:
            row.verdict = f"not comparable: only {'after' if b is None else 'before'}"
        elif a.error or b.error:
            row.failed = bool(a.error and not b.error)
            row.verdict = f"ERROR after: {a.error}" if row.failed else "error in both" if a.error else \
                f"error before ({b.error}), fixed"
        elif not b.time or a.time is None:
            row.verdict = "no time"
        else:
            row.change = a.time / b.time - 1
            tested = len(b.samples) >= 2 and len(a.samples) >= 2
            if tested:
                _, row.p_value, row.test = stats.mann_whitney_u(b.samples, a.samples)
            significant = row.p_value < self.alpha if tested else None
            if row.change > self.threshold:
                row.failed = significant is not False
                row.verdict = "slower, not significant" if not row.failed else "SLOWER" if tested else \
                    "SLOWER (no repetitions to test)"
            elif row.change < -self.threshold:
                row.verdict = "faster" if significant is not False else "faster, not significant"
            else:
                row.verdict = "within threshold"
        return row

    @property
    def failures(self):
        return [r for r in self.rows if r.failed]

    def notes(self):
        ns = [min(len(r.before.samples), len(r.after.samples)) for r in self.rows if r.test]
        out = _too_few(min(ns, default=None), self.alpha, ", so no slowdown can fail")
        if not ns:
            out.append("no per-repetition times on both sides: slowdowns are judged by the threshold alone.")
        return out


def render_regress_text(reg):
    def time(run):
        return "error" if run and run.error else format_time(_time(run))

    rows = [[r.name, time(r.before), time(r.after), MISSING if r.change is None else f"{r.change * 100:+.1f}%",
             format_p(r.p_value), r.verdict] for r in reg.rows]
    text = render_text_table([("", ["benchmark"]), ("", ["before", "after", "change", "p", "verdict"])], rows,
                             left=[0, 5]).split("\n", 1)[1]  # no group line
    fails = reg.failures
    out = [f"before: {reg.before_file.path}", f"after:  {reg.after_file.path}",
           f"threshold {reg.threshold * 100:g}% slower, alpha {reg.alpha} (two-sided Mann-Whitney U "
           f"on the repetitions' times)", "", text, "", *reg.notes(),
           f"{len(fails)} regression(s): " + ", ".join(r.name for r in fails) if fails else "no regression"]
    return "\n".join(out) + "\n"


def regress_doc(reg):
    return {"before": reg.before_file.path, "after": reg.after_file.path, "threshold": reg.threshold,
            "alpha": reg.alpha, "notes": reg.notes(), "regressions": [r.name for r in reg.failures],
            "results": [{"name": r.name, "before_s": _time(r.before), "after_s": _time(r.after),
                         "before_repetitions": r.before.repetitions if r.before else None,
                         "after_repetitions": r.after.repetitions if r.after else None, "change": r.change,
                         "p_value": r.p_value, "test": r.test, "verdict": r.verdict, "regression": r.failed}
                        for r in reg.rows]}


def _time(run):
    return None if run is None or run.error else run.time


COMPARE_DESCRIPTION = """\
Pair rows that differ only in the space, across spaces and runs (docs/comparing.md).
Also: nbk-compare regress --help. Exit status: 0 done, 2 bad input (one line on stderr).
"""

REGRESS_DESCRIPTION = """\
Check AFTER against BEFORE, paired by full name (docs/comparing.md).
Exit status: 0 no regression, 1 some (listed last), 2 bad input.
"""


def parser():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--alpha", type=checked(float, lambda v: 0 < v < 1, "must lie between 0 and 1"),
                        default=DEFAULT_ALPHA, metavar="A",
                        help="significance level of the U test (default %(default)s)")
    common.add_argument("--json", action="store_true", help="print JSON instead of the table")
    p = Parser(prog="nbk-compare")
    sub = p.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("compare", prog="nbk-compare", parents=[common], description=COMPARE_DESCRIPTION)
    c.add_argument("files", nargs="+", metavar="INPUT", help="Google Benchmark JSON, a program's JSON or a run folder")
    c.add_argument("--baseline", metavar="SPACE", help="space or column label (such as openmp@before) to compare "
                   f"with (default {DEFAULT_BASELINE})")
    c.add_argument("--label", action="append", default=[], metavar="NAME", help="label of each file, in order")
    r = sub.add_parser("regress", prog="nbk-compare regress", parents=[common], description=REGRESS_DESCRIPTION)
    r.add_argument("before", metavar="BEFORE", help="JSON file or run folder")
    r.add_argument("after", metavar="AFTER", help="JSON file or run folder")
    r.add_argument("--threshold", type=checked(float, lambda v: v >= 0, "must be 0 or more"), default=0.10,
                   metavar="F", help="slowdown tolerated, a fraction (default %(default)s)")
    return p


def open_inputs(paths, labels=()):
    for path, label in zip(paths, choose_labels([path_labels(p) for p in paths], labels)):
        yield open_compare_input(path, label)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    args = parser().parse_args(argv if argv[:1] in (["compare"], ["regress"]) else ["compare"] + argv)
    try:
        if args.mode == "regress":
            reg = Regression(*open_inputs([args.before, args.after]), threshold=args.threshold, alpha=args.alpha)
            text, doc, rc = render_regress_text(reg), regress_doc(reg), 1 if reg.failures else 0
        else:
            cmp = Comparison(list(open_inputs(args.files, args.label)), alpha=args.alpha,
                             baseline=args.baseline or DEFAULT_BASELINE, baseline_required=bool(args.baseline))
            text, doc, rc = render_comparison_text(cmp), comparison_doc(cmp), 0
        sys.stdout.write(json.dumps(doc, indent=1) + "\n" if args.json else text)
        return rc
    except (InputError, UsageError) as e:
        print(f"nbk-compare{' regress' * (args.mode == 'regress')}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 0
