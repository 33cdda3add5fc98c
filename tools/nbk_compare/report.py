"""tools/nbk-report: one page of one run or several side by side (docs/comparing.md)."""
import datetime
import json
import os
import re
import sys

import jinja2
import markdown
from markupsafe import Markup

from . import compare, record, summary
from .fmt import blas_text, format_gbps, format_size, format_time, md_text
from .gbench import InputError, size_sort_key
from .runs import RunRecord, entries_of, experiment_order, open_runs
from .summary import NOT_COMPARABLE

HERE = os.path.dirname(os.path.abspath(__file__))


def code(value):
    """A value as a Markdown code span (as Markdown text where it holds a backtick)."""
    text = re.sub(r"\s", " ", str(value))
    return Markup(f"`{text}`" if "`" not in text else md_text(text))


# Every value a template shows is text (fmt.md_text) unless it is Markup: the tool's own Markdown, never a record's.
TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")), autoescape=True,
                               finalize=lambda v: v if hasattr(v, "__html__") else Markup(md_text(v)),
                               keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
# a table cell: text, its lines as <br>, never empty
TEMPLATES.filters.update(cell=lambda v: Markup("<br>".join(map(md_text, str(v).split("\n"))) or " "), code=code)
TEMPLATES.globals["nl"] = Markup("\n")
SECTIONS = TEMPLATES.get_template("sections.md.j2").module
TEXT = TEMPLATES.overlay(autoescape=False, finalize=None).get_template("sections.md.j2").module  # the terminal's
PAGE = TEMPLATES.overlay(finalize=None).get_template("page.html.j2")


class Doc:
    """The page's blocks: Markdown by templates/report.md.j2, HTML by python3-markdown."""

    def __init__(self):
        self.blocks = []

    def _add(self, kind, **fields):
        self.blocks.append(dict(fields, kind=kind))

    def h(self, level, text): self._add("h", level=level, text=text)
    def p(self, text): self._add("p", text=text)
    def img(self, src, alt): self._add("img", src=src, alt=alt)

    def table(self, headers, rows, right=()):
        self._add("table", headers=headers, rows=rows, right=set(right))

    def md(self, section, *args):
        if text := Markup(re.sub(r"\n{3,}", "\n\n", getattr(SECTIONS, section)(*args))).strip():
            self._add("md", text=text)

    def details(self, summary, pre):
        sub = Doc()
        fence = "`" * max(3, 1 + max(map(len, re.findall("`+", pre)), default=0))  # longer than any in the text
        sub._add("pre", text=Markup(pre.rstrip("\n")), fence=Markup(fence))
        self._add("details", summary=summary, doc=sub)

    def markdown(self):
        return TEMPLATES.get_template("report.md.j2").render(doc=self)

    def html_body(self):
        """The Markdown as HTML: its raw HTML (<details>, <br>) is the templates' own, every record's string text."""
        return markdown.markdown(self.markdown(), extensions=["tables", "fenced_code", "md_in_html"])


def _spaces_text(v):
    if isinstance(v, str) and v.startswith("["):  # Google Benchmark's context: a JSON list as text
        try:
            v = json.loads(v)
        except ValueError:
            pass
    return ", ".join(map(str, v)) if isinstance(v, list) else v


def _device_info(run, key):
    found = run.programs.get("device_info", (None, {}))[1].get(key)
    return found if isinstance(found, dict) else {}


def _gpus(run):
    cuda = _device_info(run, "cuda")
    found = [", ".join([str(d.get("name", "?"))] + [text.format(v) for text, key, scale in (
        ("compute capability {}", "compute_capability", None), ("{} SMs", "multiprocessors", None),
        ("{:.1f} GiB", "total_memory_bytes", 1 << 30), ("{:.0f} GB/s theoretical", "theoretical_gb_per_s", 1))
        if (v := d.get(key) if scale is None else isinstance(d.get(key), (int, float)) and d[key] / scale)])
        for d in (cuda.get("devices") if isinstance(cuda.get("devices"), list) else []) if isinstance(d, dict)]
    if cuda.get("driver_version"):
        found.append(f"CUDA driver / runtime {cuda.get('driver_version')} / {cuda.get('runtime_version', '-')}")
    # else from run.json (nvidia-smi), else Kokkos' configuration text
    return found or list(run.value("gpus") or []) or list(dict.fromkeys(
        f"{m.group(1)}, compute capability {m.group(2)}" for _, c in run.contexts()
        for m in re.finditer(r"Kokkos::Cuda\[ *\d+ *\] (.*?) capability ([\d.]+)",
                             str(c.get("kokkos_configuration", "")))))


def machine_facts(run):
    v = run.value
    host = _device_info(run, "host")
    memory = host.get("memory_total_bytes")
    dates = sorted({str(c.get(k)) for _, c in run.contexts() for k in ("started_utc", "date_utc", "date") if c.get(k)})
    rev = v("git_revision") or next((c[k] for _, c in run.contexts() for k in c
                                     if re.search(r"git|revision|commit", k, re.I) and c[k]), None)
    upgraded = [d["upgraded_from"] for _, d in run.programs.values() if "upgraded_from" in d]
    facts = [
        ("folder", run.path), ("host", v("host", "host_name")), ("CPU", v("cpu_model")),
        ("host threads (Kokkos host concurrency)", v("host_concurrency")),
        ("cores, sockets", host and f"{host.get('physical_cores', '-')} physical cores, "
                                    f"{host.get('sockets', '-')} socket(s)"),
        ("host memory", isinstance(memory, int) and f"{memory / (1 << 30):.1f} GiB"),
        ("GPU", "; ".join(_gpus(run)) or "none reported"), ("preset", v("preset")),
        ("Kokkos version", v("kokkos_version")),
        ("Kokkos execution spaces (backends)", _spaces_text(v("kokkos_execution_spaces", "execution_spaces"))),
        ("default execution space", v("default_execution_space")),
        *[(var, v(var)) for var in ("OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS")],
        ("compiler", v("compiler")), ("Google Benchmark library build", v("library_build_type")),
        ("CPU frequency scaling (Google Benchmark)", {True: "on", False: "off"}.get(v("cpu_scaling_enabled"))),
        ("dates (UTC)", dates and (dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}")),
        ("git revision (from the run)", f"{rev}{' (uncommitted changes)' if v('git_dirty') else ''}" if rev
         else "unknown: the run records none"),
        ("command", v("command")),
        ("NumPy reference (tools/nbk-numpy)", "; ".join(
            f"NumPy {c.get('numpy_version', '?')}, {c.get('threads', '?')} thread(s); BLAS: {blas_text(c)}"
            for c in run.reference_contexts()[:1])),
        ("format", upgraded and "rows read from " + upgraded[0])]
    return [(item, str(value)) for item, value in facts if value not in (None, "", [], {}) and value is not False]


def _machine_name(run):
    """'Intel(R) Xeon(R) Processor, 16 cores; NVIDIA H200; revision ede4246'."""
    facts, cores = dict(machine_facts(run)), _device_info(run, "host").get("physical_cores")
    cpu = facts.get("CPU", "CPU not recorded")
    return "; ".join([cpu + (f", {cores} cores" if cores and "core" not in cpu else "")] + [
        g.split(",")[0] for g in _gpus(run)[:1]] + ["revision " + facts["git revision (from the run)"]])


def machine_section(doc, runs):
    doc.h(2, "Machine and build")
    per_run = [dict(machine_facts(r)) for r in runs]
    items = list(dict.fromkeys(k for facts in per_run for k in facts))
    doc.table([""] + [r.label for r in runs], [[k] + [f.get(k, "-") for f in per_run] for k in items])
    for run in runs:
        doc.p(Markup(f"Facts of {md_text(run.label)} from: {', '.join(code(src) for src, _ in run.contexts())}."))
        if config := run.value("kokkos_configuration"):
            doc.details(f"Kokkos configuration of {run.label}", pre=str(config))


def summary_section(doc, runs, lines):
    groups, rows = summary.summary_table(runs, lines) if lines else ([], [])
    headers = [g if g and not i else h for g, subs in groups for i, h in enumerate(subs)]  # cells: the legend's
    doc.md("summary", runs, headers, rows, range(2, len(headers)), summary.legend(runs, lines) if lines else None)


def crossover_section(doc, runs, found):
    def cell(c, run):
        return "not run" if run.label not in c.own else "no device" if c.own[run.label] is None else " / ".join(
            c.said(run.label, n) for n in c.own[run.label])
    doc.md("crossover", ["workload"] + [f"{r.label}: resident / with transfers" for r in runs],
           [[f"{c.experiment} {c.name}".strip()] + [cell(c, r) for r in runs] for c in found],
           [r.label for r in runs if summary.cpu_only(r)])


def _cell_text(entry):
    return f"{NOT_COMPARABLE}: {entry.error}" if entry.error else format_time(entry.time) + (
        f"\n{format_gbps(entry.gbps)} GB/s, {summary.limit_text(entry)}" if entry.gbps else "")


def experiment_comparison(doc, runs, experiment):
    """Every row: its time, GB/s and % of limit, a column per record and space (speed-ups: the summary's)."""
    entries, several = entries_of(runs, experiment), len(runs) > 1
    columns = list(dict.fromkeys((e.run, e.space) for e in entries))
    keys = list(dict.fromkeys((e.variant, e.size) for e in entries))
    order = {v: i for i, v in enumerate(dict.fromkeys(v for v, _ in keys))}
    keys.sort(key=lambda k: (order[k[0]], size_sort_key(k[1])))
    cells = {(e.variant, e.size, e.run.label, e.space): e for e in entries}
    headers = ["variant", "size"] + [f"{space}@{run.label}" if several else space for run, space in columns]
    doc.table(headers, [[variant, format_size(size)] + [_cell_text(e) if (e := cells.get((
        variant, size, run.label, space))) else "-" for run, space in columns] for variant, size in keys],
              right=range(2, len(headers)))
    doc.md("experiment_notes", [r.label for r in runs if experiment not in {**r.programs, **r.references}], several)


def workload_notes(experiment):
    """The Notes of lib/nbk/<experiment>/notes.md, else None."""
    try:
        with open(os.path.join(record.REPO, "lib", "nbk", experiment, "notes.md"), encoding="utf-8") as f:
            _, found, rest = f.read().partition("\n## Notes\n")
    except OSError:
        return None
    return rest.split("\n## ")[0].strip() if found else None


def experiments_section(doc, runs):
    names = experiment_order(runs)
    doc.md("experiments", runs, bool(names))
    for experiment in names:
        doc.h(3, experiment)
        if entries_of(runs, experiment):
            experiment_comparison(doc, runs, experiment)
        if notes := workload_notes(experiment):
            doc.details(f"{experiment}: notes (lib/nbk/{experiment}/notes.md)", pre=notes)


def _plots(doc, plots_wanted, write, nothing=None, quiet=False):
    if not plots_wanted:
        return doc.p("Plots not requested (--no-plots).")
    from . import plots
    try:
        written = write(plots)
    except plots.PlotsUnavailable as e:  # said once, on stderr too, by the plots' section (the first screen: quiet)
        quiet or print(f"nbk-report: plots skipped: {e}", file=sys.stderr)
        return None if quiet else doc.p(f"Plots skipped: {e}.")
    if not written and nothing:
        doc.p(nothing)
    for path, title in written:
        doc.p(Markup(f"**{title}** ({code(os.path.basename(path))})"))
        doc.img(os.path.basename(path), title)


def build(runs, out_dir, plots_wanted=True):
    """Returns (written paths, summary text)."""
    title = "Report: " + " vs ".join(r.label for r in runs)
    os.makedirs(out_dir, exist_ok=True)
    lines, doc = summary.summarize(runs), Doc()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    found = summary.crossovers(runs, lines)
    doc.md("header", title, now, runs, [Markup(f"{code(p)}: {md_text(why)}") for r in runs for p, why in r.skipped],
           [(r.label, _machine_name(r)) for r in runs], [(line, *summary.answer(line, found)) for line in lines])
    if missing := [(r.label, experiment, line) for r in runs for experiment, line in r.missing]:
        doc.h(2, "Not measured: a run was stopped")  # one line each: the rows and programs a signal left out
        doc.table(["run", "experiment", "not measured"], missing)
    summary_section(doc, runs, lines)
    if plots_wanted and lines:  # the answer at a glance, beside the summary
        _plots(doc, True, lambda plots: plots.write_rooflines(runs, lines, out_dir), quiet=True)
    machine_section(doc, runs)
    crossover_section(doc, runs, found)
    doc.h(2, "Plots")
    _plots(doc, plots_wanted, lambda plots: plots.write_run_plots(runs, lines, found, out_dir), "Nothing to plot.")
    experiments_section(doc, runs)
    doc.md("bench", runs, [b.path for r in runs for b in r.bench])
    written = [os.path.join(out_dir, name) for name in ("index.md", "index.html")]
    page = PAGE.render(title=title, body=Markup(doc.html_body()))
    for path, text in zip(written, (doc.markdown(), page)):
        record.write_whole(path, text)
    return written, summary_text(runs, lines) if lines else ""


def summary_text(runs, lines):
    groups, rows = summary.summary_table(runs, lines)
    left = [i for i, h in enumerate(h for _, subs in groups for h in subs) if h != "speed-up"]
    return compare.render_text_table(groups, rows, left=left) + "\n" \
        + TEXT.legend(summary.legend(runs, lines), "") + "\n"


def default_out(folder):
    real, repo = os.path.realpath(folder), os.path.realpath(record.REPO)
    if real.startswith(repo + os.sep) and not real.startswith(os.path.join(repo, "build") + os.sep):
        return os.path.join(record.REPO, "build", "reports", os.path.basename(real))
    return os.path.join(folder, "report")


DESCRIPTION = """\
Write a report (index.md, index.html, PNG plots) of runs side by side, print its summary
(docs/comparing.md). Without --out: RUN/report, or build/reports/<name> for a RUN in the
git tree outside build/. Bad input: one line naming it, exit 2.
"""


def main(argv):
    p = record.Parser(prog="nbk-report", description=DESCRIPTION)
    p.add_argument("runs", nargs="*", metavar="RUN", help="run folders (or JSON files)")
    p.add_argument("--label", action="append", default=[], metavar="NAME", help="name of each RUN, in order")
    p.add_argument("--results", nargs="+", default=[], metavar="PATH", help="JSON files or folders of them, as one run")
    p.add_argument("--out", metavar="DIR", help="output folder")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("--quiet", action="store_true", help="do not print the summary")
    args = p.parse_args(argv)
    if bool(args.runs) == bool(args.results):
        p.error("give RUN folders or --results (one of the two)")
    if not args.out and (args.results or len(args.runs) > 1):
        p.error("--out is needed with several runs or --results")
    out = args.out or default_out(args.runs[0] if os.path.isdir(args.runs[0]) else
                                  os.path.dirname(os.path.abspath(args.runs[0])))
    try:
        runs = open_runs(args.runs, args.label) if args.runs else [
            RunRecord(None, (args.label or ["results"])[0], files=args.results, allow_empty=True)]
        written, text = build(runs, out, plots_wanted=not args.no_plots)
    except InputError as e:
        print(f"nbk-report: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"nbk-report: error: {e.filename or out}: {e.strerror}", file=sys.stderr)
        return 2
    for path, why in (skipped for r in runs for skipped in r.skipped):
        print(f"nbk-report: skipped {path}: {why}", file=sys.stderr)
    for r in runs:
        print(*(f"nbk-report: {r.label}: not measured: {x}: {line}" for x, line in r.missing), sep="\n",
              file=sys.stderr, end="\n" if r.missing else "")
    if text and not args.quiet:
        sys.stdout.write(text)
    print(f"nbk-report: wrote {written[0]} (and index.html)", file=sys.stderr)
    return 0
