"""tools/nbk-compare: what changed from run A to run B, pairing across spaces and files, regression checks."""
import collections
import csv
import dataclasses
import json
import re
import statistics
import sys
import textwrap

from . import stats
from .fmt import MISSING, format_gbps, format_p, format_pct, format_ratio, format_size, format_time, md_text
from .gbench import InputError, size_sort_key
from .record import Parser, checked
from .runs import choose_labels, open_compare_input, path_labels

DEFAULT_ALPHA = 0.05
DEFAULT_BASELINE = "serial"
WIDTH = 100  # the text's columns at most


class UsageError(Exception):
    """A request that does not fit the inputs (unknown baseline, ...)."""


Column = collections.namedtuple("Column", "file space label")
Row = collections.namedtuple("Row", "experiment variant size extra size_label cells")  # cells: column label -> Cell


@dataclasses.dataclass(eq=False)
class Cell:
    run: object
    speedup: float = None
    p_value: float = None
    test: str = None
    significant: bool = None

    error = property(lambda self: self.run.error)
    time = property(lambda self: None if self.run.error else self.run.time)
    gbps = property(lambda self: None if self.run.error else self.run.gbps)
    spread = property(lambda self: (None, None, {}) if self.run.error else self.run.spread)


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
            for run in (r for r in c.file.runs.values() if r.space == c.space):
                row = rows.setdefault(run.key, Row(*run.key, f"{format_size(run.size)} {run.extra}".strip(), {}))
                row.cells[c.label] = Cell(run)
        self.rows = _sorted_rows(list(rows.values()))
        for row in self.rows:
            self._speedups(row)

    cells = property(lambda self: [c for r in self.rows for c in r.cells.values()])

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
                 "time: the repetitions' median (else Google Benchmark's median aggregate); spread: iqr = quartiles' "
                 "distance / median of the repetitions, cv = stddev / mean of the aggregates (files of aggregates "
                 "only)."]
        if any(c.test for c in self.cells):
            lines.append(f"* = significant, ? = not significant: two-sided Mann-Whitney U test of the "
                         f"repetitions' times, alpha {self.alpha}; no mark = no repetitions to test.")
            lines += _too_few(min(len(c.run.samples) for c in self.cells if c.test), self.alpha, "")
        else:
            lines.append("no per-repetition times in the input (aggregates only or single runs): "
                         "no significance test; rerun without --benchmark_report_aggregates_only.")
        return lines + self.notes


def _too_few(n, alpha, consequence):
    if n is None or stats.min_p_value(n, n) < alpha:
        return []
    return [f"note: with {n} repetitions a side the U test cannot reach p < {alpha} "
            f"(smallest p {stats.min_p_value(n, n):.3f}){consequence}; run 9 repetitions."]


def _contents(runs):
    """'add_one at 2147483648; sum at 134217571'."""
    runs = [r for r in runs if r.experiment != "probe"]
    return "; ".join(f"{e} at {', '.join(sorted({r.size for r in runs if r.experiment == e}, key=size_sort_key))}"
                     for e in dict.fromkeys(r.experiment for r in runs)) or "no results"


def _sorted_rows(rows):
    """Experiments and variants in the order they first appear, sizes ascending."""
    first = {k: i for i, k in enumerate(dict.fromkeys(k for r in rows for k in (r.experiment,
                                                                            (r.experiment, r.variant))))}
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
    return "\n".join(out) + "\n"


def comparison_records(cmp):
    for row in cmp.rows:
        for c, cell in ((c, row.cells[c.label]) for c in cmp.columns if c.label in row.cells):
            (kind, rel, details), link = cell.spread, cell.run.crosses_link  # a call crossing it: judged by the link
            ref = None if link else cell.run.reference
            yield {
                "experiment": row.experiment, "variant": row.variant, "size": row.size, "extra": row.extra,
                "column": c.label, "space": c.space, "file": c.file.path, "name": cell.run.name, "error": cell.error,
                "time_s": cell.time, "repetitions": cell.run.repetitions, "spread_kind": kind, "spread": rel,
                **{k: details.get(k) for k in ("min_s", "max_s", "q1_s", "q3_s")}, "gb_per_s": cell.gbps,
                "reference": ref.name if ref else None, "reference_gb_per_s": ref.gbps if ref else None,
                "fraction_of_reference": None if link or cell.error else cell.run.fraction,
                "baseline": cmp.baseline.label, "speedup": cell.speedup, "p_value": cell.p_value, "test": cell.test,
                "significant": cell.significant}


def comparison_doc(cmp):
    return {"baseline": cmp.baseline.label, "alpha": cmp.alpha,
            "files": [{"label": f.label, "path": f.path} for f in cmp.files],
            "columns": [{"label": c.label, "space": c.space, "file": c.file.path} for c in cmp.columns],
            "notes": cmp.notes, "results": list(comparison_records(cmp))}


@dataclasses.dataclass
class Pair:
    name: str
    before: object  # A's Run
    after: object  # B's
    change: float = None  # B/A - 1
    p_value: float = None
    test: str = None
    verdict: str = ""
    failed: bool = False

    run = property(lambda self: self.before or self.after)


class Regression:
    """Same names in two runs, A (before) and B (after); with a threshold, judged as docs/comparing.md says."""

    def __init__(self, before, after, threshold, alpha):
        self.before_file, self.after_file, self.threshold, self.alpha = before, after, threshold, alpha
        names = list(dict.fromkeys([*before.runs, *after.runs]))
        if not {n for n, r in before.runs.items() if r.experiment != "probe"} & set(after.runs):
            raise UsageError(f"{before.path} and {after.path} have no benchmark in common: {before.label} has "
                             f"{_contents(before.runs.values())}; {after.label} has {_contents(after.runs.values())}")
        self.rows = [self._judge(Pair(n, before.runs.get(n), after.runs.get(n))) for n in names]

    def _judge(self, row):
        b, a = row.before, row.after
        if b is None or a is None:
            row.verdict = f"not comparable: only {'B' if b is None else 'A'}"
        elif a.error or b.error:
            row.failed = bool(a.error and not b.error)
            row.verdict = f"ERROR in B: {a.error}" if row.failed else "error in both" if a.error else \
                f"error in A ({b.error}), fixed"
        elif not b.time or a.time is None:
            row.verdict = "no time"
        else:
            row.change = a.time / b.time - 1
            tested = len(b.samples) >= 2 and len(a.samples) >= 2
            if tested:
                _, row.p_value, row.test = stats.mann_whitney_u(b.samples, a.samples)
            significant = row.p_value < self.alpha if tested else None
            if self.threshold is None:  # the U test's verdict alone
                row.verdict = MISSING if not tested else "slower" if significant and row.change > 0 else \
                    "faster" if significant else "not significant"
            elif row.change > self.threshold:
                row.failed = significant is not False
                row.verdict = "slower, not significant" if not row.failed else "SLOWER" if tested else \
                    "SLOWER (no repetitions to test)"
            elif row.change < -self.threshold:
                row.verdict = "faster" if significant is not False else "faster, not significant"
            else:
                row.verdict = "within threshold"
        return row

    failures = property(lambda self: [r for r in self.rows if r.failed])

    def notes(self):
        fewest = min((min(len(r.before.samples), len(r.after.samples)) for r in self.rows if r.test), default=None)
        return _too_few(fewest, self.alpha, "" if self.threshold is None else ", so no slowdown can fail") + (
            ["no per-repetition times on both sides: slowdowns are judged by the threshold alone."]
            if fewest is None and self.threshold is not None else [])


def _time(run):
    return None if run is None or run.error else run.time


KEYS = ("name", "experiment", "variant", "space", "size", "extra", "a_s", "b_s", "a_repetitions", "b_repetitions",
        "b_over_a", "p_value", "test", "verdict", "regression", "a_error", "b_error")


def pairs(reg, pattern=re.compile(""), unpaired=True):
    """The rows with a time or an error in A or B whose experiment/variant/space `pattern` finds, as records
    (KEYS), but those of one run only unless `unpaired`; and how many of one run were left out."""
    found = [r for r in reg.rows if any(x and (x.error or x.time) for x in (r.before, r.after))
             and pattern.search(f"{r.run.experiment}/{r.run.variant}/{r.run.space}")]
    shown = [r for r in found if r.before and r.after or unpaired]
    return [dict(zip(KEYS, (r.name, r.run.experiment, r.run.variant, r.run.space, r.run.size, r.run.extra,
                            _time(r.before), _time(r.after), r.before and r.before.repetitions,
                            r.after and r.after.repetitions, None if r.change is None else 1 + r.change, r.p_value,
                            r.test, r.verdict, r.failed, r.before and r.before.error, r.after and r.after.error)))
            for r in shown], len(found) - len(shown)


def cut(text, width):
    text = re.sub(r"\s", " ", str(text))
    return text if len(text) <= width else text[:width - 1] + "…"


def render_pairs(reg, rows, left_out, form, out):
    """A's and B's times side by side, B/A, the verdict, one geometric mean (text, md, csv or json) to `out`."""
    ratios = [r["b_over_a"] for r in rows if r["b_over_a"]]
    mean = statistics.geometric_mean(ratios) if ratios else None
    a, b, fails = reg.before_file, reg.after_file, [r.name for r in reg.failures]
    notes = [f"geometric mean of B/A over {len(ratios)} row(s) with both times: {format_ratio(mean)}",
             f"B/A = B's time / A's (<1: B is faster); U test: two-sided Mann-Whitney U of the repetitions' times, "
             f"alpha {reg.alpha} ('-': not both with repetitions)."] + reg.notes() + \
        [f"{left_out} row(s) of one run only, not shown (--all)"] * bool(left_out) + \
        [f"{r['name']}: {r['verdict']}" for r in rows if r["a_error"] or r["b_error"]] + \
        [f"{side}: {len(f.missing)} row(s) or program(s) not measured (a stopped run), not compared"
         for side, f in (("A", a), ("B", b)) if getattr(f, "missing", ())]
    if reg.threshold is not None:
        notes.append(f"{len(fails)} regression(s): {', '.join(fails)}" if fails else "no regression")
    if form == "json":
        return out.write(json.dumps({"a": {"label": a.label, "path": a.path}, "b": {"label": b.label, "path": b.path},
                                     "alpha": reg.alpha, "threshold": reg.threshold, "geomean_b_over_a": mean,
                                     "notes": notes, "regressions": fails, "results": rows}, indent=1) + "\n")
    if form == "csv":
        return csv.DictWriter(out, KEYS, lineterminator="\n").writerows([dict(zip(KEYS, KEYS)), *rows])
    heads = [f"A: {a.label} = {a.path}", f"B: {b.label} = {b.path}"] + (
        [] if reg.threshold is None else [f"threshold {reg.threshold * 100:g}% slower, alpha {reg.alpha}"])
    table = [["experiment", "variant", "space", "size", "A", "B", "B/A", "U test" if reg.threshold is None else
              "verdict"]] + [[r["experiment"], r["variant"], r["space"], f"{format_size(r['size'])} {r['extra']}"
                              .strip(), *("error" if r[k + "_error"] else format_time(r[k + "_s"]) for k in "ab"),
                              format_ratio(r["b_over_a"]), r["verdict"] + (f", p {format_p(r['p_value'])}" if
                                                                           r["p_value"] is not None else "")]
                             for r in rows]
    if form == "md":
        lines = ["| " + " | ".join(md_text(cut(v, 40)) for v in row) + " |" for row in table]
        lines.insert(1, "|---|---|---|---|---:|---:|---:|---|")
        return out.write("\n".join([*(f"- {md_text(h)}" for h in heads), "", *lines, "",
                                    *(f"- {md_text(n)}" for n in notes)]) + "\n")
    widths = [max(map(len, column)) for column in zip(*table)]
    while sum(widths) + 2 * (len(widths) - 1) > WIDTH and max(widths[:4] + widths[7:]) > 8:  # the widest cut
        widths[widths.index(max(widths[:4] + widths[7:]))] -= 1
    table = [[cut(v, w) for v, w in zip(row, widths)] for row in table]
    text = render_text_table([("", table[0])], table[1:], left=[0, 1, 2, 3, 7]).split("\n", 1)[1]
    out.write("\n".join([*(cut(h, WIDTH) for h in heads), "", text, "", *(textwrap.fill(n, WIDTH) for n in notes)])
              + "\n")


DESCRIPTION = """\
A B: the rows both have, A's and B's times, B/A, the U test, their geometric mean; regress A B: also exit 1
where B is slower past --threshold. One input, three or more, --columns: a column per space and input,
against --baseline. Exit status: 0 done, 1 a regression, 2 bad input (one line). docs/comparing.md."""


def parser(regress=False):
    p = Parser(prog="nbk-compare" + " regress" * regress, description=DESCRIPTION)
    p.add_argument("files", nargs=2 if regress else "+", metavar="INPUT",
                   help="Google Benchmark JSON, a program's JSON or a run folder")
    p.add_argument("--alpha", type=checked(float, lambda v: 0 < v < 1, "must lie between 0 and 1"),
                   default=DEFAULT_ALPHA, metavar="A", help="significance level of the U test (default %(default)s)")
    p.add_argument("--threshold", type=checked(float, lambda v: v >= 0, "must be 0 or more"), metavar="F",
                   default=0.10 if regress else None, help="B's slowdown tolerated, a fraction (regress: 0.10)")
    p.add_argument("--format", choices=("text", "md", "csv", "json"), default="text",
                   help="md and csv: of two inputs only (default %(default)s)")
    p.add_argument("--json", dest="format", action="store_const", const="json", help="--format json")
    p.add_argument("--filter", metavar="REGEX", help="the rows whose experiment/variant/space it matches")
    p.add_argument("--all", action="store_true", help="also the rows of one input only (regress: always)")
    p.add_argument("--columns", action="store_true", help="a column per space and input (implied by --baseline)")
    p.add_argument("--baseline", metavar="SPACE", help="space or column label (such as openmp@before) to compare "
                   f"with (default {DEFAULT_BASELINE})")
    p.add_argument("--label", action="append", default=[], metavar="NAME", help="label of each input, in order")
    return p


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    regress = argv[:1] == ["regress"]
    args = parser(regress).parse_args(argv[1:] if argv[:1] in (["compare"], ["regress"]) else argv)
    try:
        try:
            pattern = re.compile(args.filter or "")
        except re.error as e:
            raise UsageError(f"--filter: not a regular expression ({e}): '{args.filter}'") from None
        labels = choose_labels([path_labels(p) for p in args.files], args.label)
        files, rc = [open_compare_input(path, label) for path, label in zip(args.files, labels)], 0
        if len(files) == 2 and not args.columns and not args.baseline:
            reg = Regression(*files, alpha=args.alpha, threshold=args.threshold)
            render_pairs(reg, *pairs(reg, pattern, regress or args.all), args.format, sys.stdout)
            rc = 1 if reg.failures and reg.threshold is not None else 0
        elif args.format in ("md", "csv") or args.filter or args.all or args.threshold is not None:
            raise UsageError("--format md or csv, --filter, --all, --threshold: of two inputs only (no --columns, "
                             "--baseline)")
        else:
            cmp = Comparison(files, alpha=args.alpha, baseline=args.baseline or DEFAULT_BASELINE,
                             baseline_required=bool(args.baseline))
            sys.stdout.write(json.dumps(comparison_doc(cmp), indent=1) + "\n" if args.format == "json" else
                             render_comparison_text(cmp))
        for path, why in (skipped for f in files for skipped in getattr(f, "skipped", ())):
            print(f"nbk-compare: skipped {path}: {why}", file=sys.stderr)
        for f in files:  # an interrupted run's rows not measured: counted apart from those compared, one line each
            if missing := getattr(f, "missing", ()):
                print(f"nbk-compare: {f.label}: {len(missing)} row(s) or program(s) not measured (a stopped run), not "
                      "compared:", *(f"  {x}: {line}" for x, line in missing), sep="\n", file=sys.stderr)
        return rc
    except (InputError, UsageError) as e:
        print(f"nbk-compare{' regress' * regress}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 0
