"""tools/nbk-report: one page (index.md, and index.html) of one run or several side by side.

Sections: the summary (per workload the best CPU and GPU timings and their speed-up); the
machine and build of each run; the crossover sizes; plots; every experiment's table with a
column per space@run (any experiment, rendered from whatever keys it has), each run's rows
folded below it; the documents' published figures beside ours; the Google Benchmark
comparison. Any of them may be missing: the page says so instead of failing.
"""
import argparse
import datetime
import json
import os
import re
import sys

import jinja2
import markdown
import markdown.extensions
import markdown.treeprocessors
import markupsafe

from . import compare as cmpmod
from . import record, summary
from .compare import format_gbps, format_pct, format_ratio, format_time
from .gbench import BenchFile, InputError, default_labels, format_size, size_sort_key
from nbk_numpy.reference import blas_text
from .runs import RunRecord, experiment_order, on_device, open_runs
from .summary import NOT_COMPARABLE

HERE = os.path.dirname(os.path.abspath(__file__))

PUBLISHED = os.path.join(HERE, "published.json")
ID_KEYS = ["variant", "method", "space", "status"]
MAX_INLINE_ENTRIES = 24  # larger flat objects go into a folded <details> block


# ---------------------------------------------------------------------------------- document

TEMPLATES = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")),
                               keep_trailing_newline=True, undefined=jinja2.StrictUndefined)
# A Markdown table cell: pipes escaped, lines as <br>, never empty.
TEMPLATES.filters["cell"] = lambda v: str(v).replace("|", "\\|").replace("\n", "<br>") or " "
SECTIONS = TEMPLATES.get_template("sections.md.j2").module
# The HTML page: every value escaped unless marked safe (the body, whose record strings the
# Markdown pass has escaped).
PAGE = jinja2.Environment(loader=TEMPLATES.loader, autoescape=True,
                          undefined=jinja2.StrictUndefined).get_template("page.html.j2")


class Doc:
    """The page's blocks (headings, paragraphs, lists, tables, images, preformatted text,
    folded sub-documents): Markdown by templates/report.md.j2, HTML by python3-markdown."""

    def __init__(self):
        self.blocks = []

    def _add(self, kind, **fields):
        self.blocks.append(dict(fields, kind=kind))

    def h(self, level, text): self._add("h", level=level, text=text)
    def p(self, text): self._add("p", text=text)
    def img(self, src, alt): self._add("img", src=src, alt=alt)
    def pre(self, text): self._add("pre", text=text)

    def items(self, items):
        if items := list(items):
            self._add("ul", entries=items)

    def table(self, headers, rows, right=()):
        """`right`: indexes of right-aligned columns (numbers)."""
        self._add("table", headers=headers, rows=rows, right=set(right))

    def md(self, section, *args):
        """A section's words, from the macro of that name in templates/sections.md.j2."""
        self._add("md", text=re.sub(r"\n{3,}", "\n\n", str(getattr(SECTIONS, section)(*args))).strip())

    def details(self, summary, pre=None):
        """A folded sub-document, returned to be filled (or holding `pre`, preformatted)."""
        sub = Doc()
        self._add("details", summary=summary, doc=sub)
        if pre is not None:
            sub.pre(pre)
        return sub

    def markdown(self):
        return TEMPLATES.get_template("report.md.j2").render(doc=self)

    def html(self, title):
        return PAGE.render(title=title, body=markupsafe.Markup(self.html_body()))

    def html_body(self):
        """The blocks as HTML: Markdown without raw HTML (markup from a record stays text), and
        each folded sub-document as <details> with its summary escaped."""
        parts, plain = [], Doc()
        for b in self.blocks + [None]:
            if b is not None and b["kind"] != "details":
                plain.blocks.append(b)
                continue
            if plain.blocks:
                parts.append(markdown.markdown(plain.markdown(), extensions=["tables", "fenced_code", _NoRawHtml()])
                             .replace("&lt;br&gt;", "<br>"))  # table cells' line breaks (the "cell" filter's)
                plain = Doc()
            if b is not None:
                parts.append(f"<details><summary>{markupsafe.escape(b['summary'])}</summary>\n"
                             f"{b['doc'].html_body()}\n</details>")
        return "\n".join(parts)


class _NoRawHtml(markdown.extensions.Extension):
    """Markdown that passes no HTML through (it is escaped as text) and links or images only to
    relative addresses or http(s)."""

    def extendMarkdown(self, md):
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        md.treeprocessors.register(_SafeUrls(md), "safe_urls", 0)


class _SafeUrls(markdown.treeprocessors.Treeprocessor):
    def run(self, root):
        for el in root.iter():
            for attr in ("href", "src"):
                url = el.get(attr)
                if url is not None and re.match(r"\s*[A-Za-z][A-Za-z0-9+.-]*:", url) and \
                        not re.match(r"\s*https?://", url, re.I):
                    del el.attrib[attr]


# ---------------------------------------------------------------------------------- values

def format_value(key, value):
    """Generic rendering of one JSON value: seconds by key suffix, GB/s and floats compact."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        k = key.lower()
        if "gb_per_s" in k or k.endswith("gbps"):
            return format_gbps(value)
        if k.endswith("_s") and not k.endswith("_per_s"):
            return format_time(value)
        if k == "speedup":
            return f"{value:.2f}x"
        if "error" in k and value != 0:
            return f"{value:.2e}"
        return f"{value:.10g}"
    if isinstance(value, int) and key.lower().endswith("_bytes") and value >= 1 << 20:
        return f"{value} ({_bytes(value)})"
    if isinstance(value, list):
        if all(not isinstance(v, (dict, list)) for v in value):
            return ", ".join(format_value(key, v) for v in value)
        return json.dumps(value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def _bytes(n):
    return next((f"{n / scale:.1f} {unit}" for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10))
                 if n >= scale), f"{n} B")


def _is_scalar(v):
    return not isinstance(v, (dict, list)) or (isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))


def _table_of_records(records):
    """Rows of dicts -> (headers, rows); identity keys first, the rest in order of appearance;
    nested objects left out (returned separately)."""
    keys = list(dict.fromkeys(k for r in records for k, v in r.items() if _is_scalar(v)))
    keys = [k for k in ID_KEYS if k in keys] + [k for k in keys if k not in ID_KEYS]
    rows = [[format_value(k, r.get(k)) if k in r else "-" for k in keys] for r in records]
    return keys, rows


def render_object(doc, obj, level, path="", fold=True):
    """Any JSON object: scalars as a key/value table, objects of objects (probes) as one
    table, lists of objects (results) as one table, other nesting recursively. Long flat
    tables are folded into <details> unless `fold` is false (already inside one)."""
    texts = [(k, v) for k, v in obj.items() if isinstance(v, str) and "\n" in v.strip()]
    scalars = [(k, v) for k, v in obj.items() if _is_scalar(v) and (k, v) not in texts]
    if scalars:
        where = doc.details(f"{path or 'values'} ({len(scalars)} entries)") \
            if fold and len(scalars) > MAX_INLINE_ENTRIES else doc
        where.table(["key", "value"], [[k, format_value(k, v)] for k, v in scalars])
    for k, v in texts:  # multi-line text (Kokkos' configuration): folded, preformatted
        doc.details(f"{path}.{k}" if path else k, pre=v)
    for k, v in obj.items():
        if _is_scalar(v):
            continue
        where = f"{path}.{k}" if path else k
        if isinstance(v, list):
            records = [x for x in v if isinstance(x, dict)]
            doc.h(level, f"{where} ({len(v)} entries)" if len(v) != 1 else where)
            if records:
                doc.table(*_table_of_records(records))
                for i, r in enumerate(records):
                    for nk, nv in r.items():
                        if isinstance(nv, dict) and nv:
                            render_object(doc.details(f"{where}[{i}].{nk} ({len(nv)} entries)"), nv, level + 1,
                                          f"{where}[{i}].{nk}", fold=False)
            others = [x for x in v if not isinstance(x, dict)]
            if others:
                doc.p(f"`{json.dumps(others)[:500]}`")
        elif isinstance(v, dict):
            doc.h(level, where)
            if v and all(isinstance(x, dict) and all(_is_scalar(y) for y in x.values()) for x in v.values()):
                keys = list(dict.fromkeys(kk for x in v.values() for kk in x))
                doc.table([""] + keys, [[name] + [format_value(kk, x.get(kk)) for kk in keys] for name, x in v.items()])
            else:
                render_object(doc, v, level + 1, where)


# Result keys the summary table shows in its own columns; any other scalar key (a sum's
# result and digits, ...) gets a column of its own after them.
_RESULT_COLUMNS = [("variant", "variant"), ("space", "space"), ("size", "size"), ("first_s", "first call"),
                   ("best_s", "best"), ("median_s", "median"), ("gb_per_s", "GB/s"),
                   ("fraction_of_memcpy", "% memcpy"), ("fraction_of_kokkos_copy", "% Kokkos copy")]
_RESULT_HIDDEN = {"reason", "bytes_per_call", "elements", "repetitions", "moves", "document", "first_call_includes",
                  "check", "status", "flops_per_call", "shape", "accumulator", "reproducible", "tolerance",
                  "mismatches", "calls"}


def _is_experiment_run(data):
    rows = data.get("results")
    return isinstance(rows, list) and bool(rows) and all(isinstance(r, dict) and "variant" in r for r in rows)


def experiment_tables(doc, data):
    """A program run of the experiment model: its statement, probes, every result row and its sweeps."""
    facts = [f"{k}: {data[k]}" for k in ("title", "document", "repetitions", "seed") if k in data]
    doc.p("; ".join(facts) + ".")
    if problems := [p for p in data.get("problems", []) if isinstance(p, dict)]:
        doc.table(*_table_of_records(problems))
    probes = data.get("probes")
    if isinstance(probes, dict) and probes:
        gflops = [f"fma_{t}_gflop_per_s" for t in ("f32", "f64")]  # none in records from before the FMA probe
        rows = [[space] + [format_value("gb_per_s", p.get(f"{k}_gb_per_s")) for k in ("memcpy", "copy", "triad")]
                + [str(p.get("memcpy", "-"))] + [f"{p[k]:.1f}" if isinstance(p.get(k), (int, float)) else "-"
                                                 for k in gflops] + [format_value("verified", p.get("verified"))]
                for space, p in probes.items() if isinstance(p, dict)]
        doc.table(["space", "memcpy GB/s", "Kokkos copy GB/s", "triad GB/s", "memcpy is", "FMA f32 GFLOP/s",
                   "FMA f64 GFLOP/s", "probes verified"], rows, right=[1, 2, 3, 5, 6])
    results = data["results"]
    named = dict(_RESULT_COLUMNS)
    extra = list(dict.fromkeys(k for r in results for k, v in r.items()
                               if k not in _RESULT_HIDDEN and k not in named and _is_scalar(v)))
    transfers = any(isinstance(r.get("with_transfers"), dict) for r in results)

    def cell(k, v):
        return format_pct(v) if k.startswith("fraction_of") and isinstance(v, (int, float)) \
            else format_value(k, v)

    rows = []
    for r in results:
        t = r.get("with_transfers") if isinstance(r.get("with_transfers"), dict) else {}
        rows.append([cell(k, r.get(k)) for k in named]
                    + ([format_value("best_s", t.get("best_s")), format_value("gb_per_s", t.get("gb_per_s")),
                        cell("fraction_of_link", t.get("fraction_of_link"))] if transfers else [])
                    + [cell(k, r.get(k)) for k in extra]
                    + [str(r.get("check") or (f"skipped: {r['reason']}" if r.get("reason") else r.get("status", "-")))])
    headers = list(named.values()) + (["with transfers (best)", "GB/s with transfers", "% of the link"]
                                      if transfers else []) + extra + ["check"]
    doc.table(headers, rows, right=range(3, len(headers) - 1))
    failed = [f"{r.get('variant')} on {r.get('space')} at {r.get('size')}" for r in results
              if r.get("status") not in (None, "verified", "skipped")]
    if failed:
        doc.p("**Not verified:** " + ", ".join(failed) + ".")
    for sweep in summary.sweeps_of(data):
        sweep_tables(doc, sweep)


def sweep_tables(doc, sweep):
    host, device = sweep.get("host_space") or "host", sweep.get("device_space") or "device"
    if sweep.get("host_variant"):
        host, device = f"{sweep['host_variant']} on {host}", f"{sweep.get('device_variant')} on {device}"

    def wins(key, how):
        at = sweep.get(key)
        return f"{device} is faster from {at.get('size')} ({at.get('elements')} elements) {how}" \
            if isinstance(at, dict) else f"{host} is faster at the largest size {how}"

    said = [wins("device_wins_from_resident", "with data resident"),
            wins("device_wins_from_with_transfers", "with transfers in every call")] \
        if sweep.get("device_space") else [str(sweep.get("note") or "no device in this build")]
    doc.p(f"**Crossover sweep**, {host} against {device}: " + "; ".join(said) + ".")
    rows = [[p.get("size", "-"), str(p.get("elements", "-")), format_value("host_s", p.get("host_s")),
             format_value("device_s", p.get("device_resident_s")),
             format_value("device_s", p.get("device_with_transfers_s"))]
            for p in sweep["points"] if isinstance(p, dict)]
    doc.table(["size", "elements", f"{host} (best)", f"{device} resident", f"{device} with transfers"], rows,
              right=[1, 2, 3, 4])


def _lookup(programs, spec):
    """A value from the programs' JSON per a published.json 'ours' entry, or None."""
    if not isinstance(spec, dict):
        return None
    if "minus" in spec:
        a, b = (_lookup(programs, s) for s in spec["minus"])
        return a - b if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
    node = programs.get(spec.get("file"), (None, None))[1]
    if node is not None and "where" in spec:
        node = next((r for r in node.get(spec.get("list", "results"), []) if isinstance(r, dict)
                     and all(r.get(k) == v for k, v in spec["where"].items())), None)
    for part in str(spec.get("field", "")).split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            node = node.get(part) if isinstance(node, dict) else None
    if "scale" in spec and isinstance(node, (int, float)) and not isinstance(node, bool):
        node = node * spec["scale"]
    return node


def published_section(doc, runs, published_path=PUBLISHED):
    try:
        with open(published_path, encoding="utf-8") as f:
            pub = json.load(f)
    except (OSError, ValueError) as e:
        return doc.md("published", runs, [], f"{published_path}: {e}")
    at = [f"@{run.label}" if len(runs) > 1 else "" for run in runs]
    seeds = []
    for seed in pub.get("seeds", []):
        figures = seed.get("figures", [])
        headers = ["figure", f"seed {seed.get('seed')}"] + [h for a in at for h in (f"ours{a}", f"published / ours{a}")]
        ours = [[_lookup(run.programs, fig.get("ours")) for run in runs] for fig in figures]
        rows = [[fig.get("what", "") + (f" ({fig['note']})" if fig.get("note") else ""),
                 _figure_text(fig, fig.get("published"))]
                + [t for v in values for t in (_figure_text(fig, v), _ratio_text(fig, v))]
                for fig, values in zip(figures, ours)]
        seeds.append((seed, headers, rows, any(v is not None for values in ours for v in values)))
    doc.md("published", runs, seeds, None)


def _figure_text(fig, value):
    if fig.get("unit") != "s" or value is None:
        return "-" if value is None else format_value("", value)
    return format_time(value) if isinstance(value, (int, float)) else "-"


def _ratio_text(fig, ours):
    published = fig.get("published")
    ok = isinstance(ours, (int, float)) and ours > 0 and isinstance(published, (int, float))
    return "" if fig.get("unit") != "s" else format_ratio(published / ours) if ok else "-"


# ---------------------------------------------------------------------------------- machine

def _spaces_text(v):
    if isinstance(v, list):
        return ", ".join(map(str, v))
    if isinstance(v, str) and v.startswith("["):
        try:
            return ", ".join(map(str, json.loads(v)))
        except ValueError:
            pass
    return v


def _gpus(run):
    info = run.programs.get("device_info", (None, {}))[1]
    cuda = info.get("cuda") if isinstance(info.get("cuda"), dict) else {}
    devices = cuda.get("devices") if isinstance(cuda.get("devices"), list) else []
    found = [", ".join([str(d.get("name", "?"))] + [text for text, present in (
        (f"compute capability {d.get('compute_capability')}", d.get("compute_capability")),
        (f"{d.get('multiprocessors')} SMs", d.get("multiprocessors")),
        (f"{(d.get('total_memory_bytes') or 0) / (1 << 30):.1f} GiB", isinstance(d.get("total_memory_bytes"), int)),
        (f"{d.get('theoretical_gb_per_s') or 0:.0f} GB/s theoretical", d.get("theoretical_gb_per_s"))) if present])
        for d in devices if isinstance(d, dict)]
    if cuda.get("driver_version"):
        found.append(f"CUDA driver / runtime {cuda.get('driver_version')} / {cuda.get('runtime_version', '-')}")
    # else from run.json (nvidia-smi), else Kokkos' configuration text
    found = found or list(run.value("gpus") or []) or list(dict.fromkeys(
        f"{m.group(1)}, compute capability {m.group(2)}" for _, c in run.contexts()
        for m in re.finditer(r"Kokkos::Cuda\[ *\d+ *\] (.*?) capability ([\d.]+)",
                             str(c.get("kokkos_configuration", "")))))
    return found


def machine_facts(run):
    """(item, value) of one run's machine and build, from run.json and the files' contexts."""
    v = run.value
    host = run.programs.get("device_info", (None, {}))[1].get("host")
    host = host if isinstance(host, dict) else {}
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
        ("NumPy reference (tools/nbk-numpy)", "; ".join(numpy_text(c) for c in run.reference_contexts()[:1])),
        ("format", upgraded and "rows read from " + upgraded[0])]
    return [(item, str(value)) for item, value in facts if value not in (None, "", [], {}) and value is not False]


def numpy_text(context):
    """NumPy's version, threads and BLAS, as a NumPy reference file's context records them."""
    return (f"NumPy {context.get('numpy_version', '?')}, {context.get('threads', '?')} thread(s); "
            f"BLAS: {blas_text(context)}")


def machine_section(doc, runs):
    doc.h(2, "Machine and build")
    per_run = [dict(machine_facts(r)) for r in runs]
    items = []
    for facts in per_run:
        items += [k for k in facts if k not in items]
    doc.table([""] + [r.label for r in runs], [[k] + [f.get(k, "-") for f in per_run] for k in items])
    for run in runs:
        doc.p(f"{run.label} from: " + ", ".join(f"`{src}`" for src, _ in run.contexts()) + ".")
        config = run.value("kokkos_configuration")
        if config:
            doc.details(f"Kokkos configuration of {run.label}", pre=str(config))


# ---------------------------------------------------------------------------------- summary

def summary_section(doc, runs, lines):
    groups, rows = summary.summary_table(runs, lines) if lines else ([], [])
    headers = [f"{g}: {h}" if g else h for g, subs in groups for h in subs]
    left = summary.text_columns(groups)
    doc.md("summary", runs, headers, rows, [i for i in range(len(headers)) if i not in left],
           summary.legend(runs, lines) if lines else [])


def crossover_section(doc, runs, found):
    headers = ["workload"] + [f"{r.label}: resident / with transfers" for r in runs]
    pairs = sorted({(cpu, gpu) for c in found for cpu, gpu, _, _ in c.across})
    headers += [f"CPU {cpu} vs GPU {gpu}: resident / with transfers" for cpu, gpu in pairs]
    rows = []
    for c in found:
        own = [c.own.get(r.label, "absent") for r in runs]
        across = {(cpu, gpu): (res, tr) for cpu, gpu, res, tr in c.across}
        rows.append([f"{c.experiment} {c.name}".strip()]
                    + ["not run" if o == "absent" else "no device" if o is None else _from_text(*o) for o in own]
                    + [_from_text(*across[p]) if p in across else "-" for p in pairs])
    doc.md("crossover", headers, rows)


def _from_text(resident, transfers):
    return f"{summary.format_elements(resident) if resident else 'never'} / " \
           f"{summary.format_elements(transfers) if transfers else 'never'}"


# ---------------------------------------------------------------------------------- experiments

def _cell_text(entry):
    if entry.error:
        return f"{NOT_COMPARABLE}: {entry.error}"
    text = format_time(entry.time)
    if entry.gbps:
        pct = entry.fraction
        text += f"\n{format_gbps(entry.gbps)} GB/s" + (f", {format_pct(pct)} {entry.fraction_of}"
                                                           if pct is not None else "")
    return text


def experiment_comparison(doc, runs, experiment):
    """One table: a row per variant and size, a column per space@run, and for device columns
    the speed-up against the CPU runs' best at that size."""
    entries = [e for r in runs for e in r.entries if e.experiment == experiment]
    several = len(runs) > 1
    columns = list(dict.fromkeys((e.run, e.space) for e in entries))
    keys = list(dict.fromkeys((e.variant, e.size) for e in entries))
    order = {v: i for i, v in enumerate(dict.fromkeys(v for v, _ in keys))}
    keys.sort(key=lambda k: (order[k[0]], size_sort_key(k[1])))
    cells = {(e.variant, e.size, e.run.label, e.space): e for e in entries}
    cpus = summary.cpu_runs(runs)
    best_cpu = {size: summary._best(e for e in entries if e.size == size and e.cpu_variant and e.run in cpus)
                for _, size in keys}

    def name(run, space):
        return f"{space}@{run.label}" if several else space

    def values(run, space, e, base):
        """A column's cell, and the speed-up over the best CPU beside a device's."""
        return [_cell_text(e) if e else "-"] + ([format_ratio(base.time / e.time) if e and e.usable and base
                                                 else "-"] if on_device(space) else [])

    headers = ["variant", "size"] + [h for run, space in columns for h in [name(run, space)] + (
        [f"vs best CPU ({name(run, space)})"] if on_device(space) else [])]
    rows = [[variant, format_size(size)] + [v for run, space in columns for v in values(
        run, space, cells.get((variant, size, run.label, space)), best_cpu.get(size))] for variant, size in keys]
    doc.table(headers, rows, right=range(2, len(headers)))
    refs = {f"{e.reference.kind} {e.reference.space}@{e.run.label}": e.reference.gbps for e in entries if e.reference}
    notes = ["Each % is of its own run's probe of that space: " + "; ".join(
        f"{k} {format_gbps(v)} GB/s" for k, v in refs.items()) + "; transfers rows: of the link."] \
        if refs else []
    best = [f"{format_size(s)}: {b.variant} {b.space}@{b.run.label} {format_time(b.time)}"
            for s, b in best_cpu.items() if b]
    if best and any(on_device(space) for _, space in columns):
        notes.append("vs best CPU = the fastest of the programs' CPU rows at that size in "
                     + ", ".join(r.label for r in cpus) + " / this time (" + "; ".join(best) + ").")
    if missing := [r.label for r in runs if not r.files_of(experiment)]:
        notes.append(f"Not run in {', '.join(missing)}.")
    if several:
        notes.append("`-`: not measured in that run at that size (a variant or size the other runs lack).")
    doc.items(notes)


def workload_notes(experiment):
    """Section Notes of the workload's lib/nbk/<experiment>/notes.md (what its figures mean and where the
    document goes wrong, as the program prints it after its table); None where there is no such file."""
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
        if any(e.experiment == experiment for r in runs for e in r.entries):
            experiment_comparison(doc, runs, experiment)
        if notes := workload_notes(experiment):
            doc.details(f"{experiment}: notes (lib/nbk/{experiment}/notes.md)", pre=notes)
        for run, (path, data) in [(r, f) for r in runs for f in r.files_of(experiment)]:
            sub = doc.details(f"{experiment}@{run.label}: every row, probes, sweeps ({os.path.basename(path)})")
            body = {k: v for k, v in data.items() if k not in ("context", "experiment")}
            if _is_experiment_run(data):
                experiment_tables(sub, data)
            elif body:
                render_object(sub, body, 4)
            else:
                sub.p("(no results in this file)")


# ---------------------------------------------------------------------------------- plots

def _plots(doc, plots_wanted, write, nothing=None):
    """The PNGs write(plots) makes, each with its title; or why there are none."""
    if not plots_wanted:
        return doc.p("Plots not requested (--no-plots).")
    from . import plots
    try:
        written = write(plots)
    except plots.PlotsUnavailable as e:
        return doc.p(f"Plots skipped: {e}.")
    if not written and nothing:
        doc.p(nothing)
    for path, title in written:
        doc.p(f"**{title}** (`{os.path.basename(path)}`)")
        doc.img(os.path.basename(path), title)


def bench_section(doc, runs, extra=()):
    """Google Benchmark output is compared by nbk-compare, not here: the page names the files."""
    files = [b.path for r in runs for b in r.bench] + [p for p in extra if os.path.isfile(p)]
    doc.md("bench", runs, files)


# ---------------------------------------------------------------------------------- main

def build(runs, out_dir, title, plots_wanted=True, html_too=True, bench=()):
    """Writes index.md (and index.html, PNGs) into out_dir; returns (written paths, summary text)."""
    os.makedirs(out_dir, exist_ok=True)
    lines = summary.summarize(runs)
    found = summary.crossovers(runs)
    doc = Doc()
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc.md("header", title, now, runs, [f"`{p}`: {why}" for r in runs for p, why in r.skipped])
    summary_section(doc, runs, lines)
    machine_section(doc, runs)
    crossover_section(doc, runs, found)
    doc.h(2, "Plots")
    _plots(doc, plots_wanted, lambda plots: plots.write_run_plots(runs, lines, found, out_dir), "Nothing to plot.")
    experiments_section(doc, runs)
    published_section(doc, runs)
    bench_section(doc, runs, bench)
    md = os.path.join(out_dir, "index.md")
    with open(md, "w", encoding="utf-8") as f:
        f.write(doc.markdown())
    written = [md]
    if html_too:
        page = os.path.join(out_dir, "index.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(doc.html(title))
        written.append(page)
    return written, summary.render_text(runs, lines) if lines else ""


DESCRIPTION = """\
Write a report (index.md and index.html, PNG plots beside them) of one run or of several
side by side, and print its summary: per workload the best CPU and GPU timings, their
speed-up and their share of each run's bandwidth reference.

  nbk-report RUN [RUN...] [--label NAME...] [--out DIR]
      run folders (scripts/run-experiments.sh writes build/<preset>/runs/<name>/; reference
      records are in results/): one table per experiment with a column per space@run, the
      GPU runs' rows against the CPU runs' best, crossover sizes, the documents' figures.
      --out defaults to RUN/report for one run and is needed for several.
  nbk-report --preset-dir build/openmp
      the newest run of build/openmp/runs/ (else build/openmp/results/), writes build/openmp/report/
  nbk-report --results DIR_OR_FILES... --out DIR
      explicit files taken as one run

Without --out the report goes into RUN/report, or build/reports/<RUN's name> for a RUN in the
repository outside build/ (results/): never into the git tree. Google Benchmark output (bench.json)
is named in the page, and compared by tools/nbk-compare.

A missing folder, a run with nothing to read, an unreadable run.json, the same run twice or
an explicitly named file that cannot be read: one line naming it, exit 2. Files of a run
that are not results are listed in the page. Plots need matplotlib (else skipped).
"""


def _newest_run(preset_dir):
    """The newest folder of preset_dir/runs (by run.json's start, then name), else preset_dir."""
    root = os.path.join(preset_dir, "runs")
    folders = [f for f in (os.path.join(root, n) for n in os.listdir(root)) if os.path.isdir(f)] \
        if os.path.isdir(root) else []
    return max(folders, key=lambda f: (str((record.read_context(f) or {}).get("started_utc", "")), f),
               default=preset_dir)


def _parser():
    p = record.Parser(prog="nbk-report", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("runs", nargs="*", metavar="RUN", help="run folders (or program/benchmark JSON files)")
    p.add_argument("--label", action="append", default=[], metavar="NAME", help="name of each RUN, in order")
    p.add_argument("--preset-dir", metavar="DIR", help="build/<preset>: its newest run, writes report/")
    p.add_argument("--results", nargs="+", default=[], metavar="PATH",
                   help="program result JSON files, or directories of them (one run)")
    p.add_argument("--out", metavar="DIR", help="output directory")
    p.add_argument("--title", help="page title")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("--no-html", action="store_true", help="Markdown only")
    p.add_argument("--quiet", action="store_true", help="do not print the summary")
    return p


def default_out(folder):
    """Where a report goes without --out: FOLDER/report, unless FOLDER lies in the repository
    outside its build/ (results/, the tests' fixtures): then build/reports/<its name>, so that
    no report lands in the git tree."""
    real, repo = os.path.realpath(folder), os.path.realpath(record.REPO)
    if real.startswith(repo + os.sep) and not real.startswith(os.path.join(repo, "build") + os.sep):
        return os.path.join(record.REPO, "build", "reports", os.path.basename(real))
    return os.path.join(folder, "report")


def _runs_and_out(p, args):
    """The RunRecords to report, the output folder and other bench.json files, per the three
    ways of naming them."""
    if sum(map(bool, (args.runs, args.preset_dir, args.results))) != 1:
        p.error("give RUN folders, or --preset-dir, or --results (one of the three)")
    if args.runs:
        if len(args.runs) > 1 and not args.out:
            p.error("--out is needed with several runs")
        out = args.out or default_out(args.runs[0] if os.path.isdir(args.runs[0]) else
                                      os.path.dirname(os.path.abspath(args.runs[0])))
        return open_runs(args.runs, args.label), out, ()
    if args.preset_dir:
        if not os.path.isdir(args.preset_dir):
            raise InputError(f"{args.preset_dir}: no such directory")
        newest = _newest_run(args.preset_dir)
        run = RunRecord(newest, allow_empty=True)
        run.label = args.label[0] if args.label else run.label_candidates()[0]
        bench = [os.path.join(args.preset_dir, "bench.json")] if newest != args.preset_dir else []
        return [run], args.out or default_out(args.preset_dir), bench
    if not args.out:
        p.error("--out is needed with --results")
    run = RunRecord(None, files=args.results, allow_empty=True)
    run.label = args.label[0] if args.label else "results"
    return [run], args.out, ()


def main(argv):
    p = _parser()
    args = p.parse_args(argv)
    out = args.out
    try:
        runs, out, bench = _runs_and_out(p, args)
        title = args.title or ("Report: " + " vs ".join(r.label for r in runs))
        written, text = build(runs, out, title, plots_wanted=not args.no_plots, html_too=not args.no_html,
                              bench=bench)
    except InputError as e:
        print(f"nbk-report: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"nbk-report: error: {e.filename or out}: {e.strerror}", file=sys.stderr)
        return 2
    for path, why in [(p_, w) for r in runs for p_, w in r.skipped]:
        print(f"nbk-report: skipped {path}: {why}", file=sys.stderr)
    if text and not args.quiet:
        sys.stdout.write(text)
    print(f"nbk-report: wrote {written[0]}" + (f" (and {', '.join(os.path.basename(w) for w in written[1:])})"
                                               if len(written) > 1 else ""), file=sys.stderr)
    return 0
