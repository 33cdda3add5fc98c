"""tools/nbk-report: one page (index.md, and index.html) from a run's JSON files.

Sections: the machine and build; every experiment's tables from the programs' JSON (any
experiment, rendered from whatever keys it has); the documents' published figures beside
ours; the Google Benchmark comparison and its plots. Any of them may be missing: the page
says so instead of failing.
"""
import argparse
import datetime
import html
import json
import os
import re
import subprocess
import sys

from . import compare as cmpmod
from .gbench import BenchFile, InputError, ResultsFile, default_labels, format_size, load_json

HERE = os.path.dirname(os.path.abspath(__file__))
PUBLISHED = os.path.join(HERE, "published.json")
FIRST = ["device_info"]  # shown first; the rest alphabetically
ID_KEYS = ["variant", "method", "space", "status"]
MAX_INLINE_ENTRIES = 24  # larger flat objects go into a folded <details> block


# ---------------------------------------------------------------------------------- document

class Doc:
    """Blocks rendered to Markdown and HTML alike."""

    def __init__(self):
        self.blocks = []

    def h(self, level, text):
        self.blocks.append(("h", level, text))

    def p(self, text):
        self.blocks.append(("p", text))

    def items(self, items):
        if items:
            self.blocks.append(("ul", list(items)))

    def table(self, headers, rows, right=None):
        """`right`: indexes of right-aligned columns (numbers)."""
        self.blocks.append(("table", headers, rows, set(right or ())))

    def img(self, src, alt):
        self.blocks.append(("img", src, alt))

    def pre(self, text):
        self.blocks.append(("pre", text))

    def details(self, summary, doc):
        self.blocks.append(("details", summary, doc))

    def markdown(self):
        out = []
        for b in self.blocks:
            kind = b[0]
            if kind == "h":
                out.append("#" * b[1] + " " + b[2])
            elif kind == "p":
                out.append(b[1])
            elif kind == "ul":
                out.append("\n".join(f"- {i}" for i in b[1]))
            elif kind == "table":
                _, headers, rows, right = b
                out.append("\n".join(
                    ["| " + " | ".join(_md_cell(h) for h in headers) + " |",
                     "|" + "|".join("---:" if i in right else "---" for i in range(len(headers))) + "|"]
                    + ["| " + " | ".join(_md_cell(c) for c in r) + " |" for r in rows]))
            elif kind == "img":
                out.append(f"[![{b[2]}]({b[1]})]({b[1]})")
            elif kind == "pre":
                out.append("```\n" + b[1].rstrip("\n") + "\n```")
            elif kind == "details":
                out.append(f"<details><summary>{html.escape(b[1])}</summary>\n\n{b[2].markdown()}\n</details>")
        return "\n\n".join(out) + "\n"

    def html_body(self):
        out = []
        for b in self.blocks:
            kind = b[0]
            if kind == "h":
                out.append(f"<h{b[1]}>{_inline_html(b[2])}</h{b[1]}>")
            elif kind == "p":
                out.append(f"<p>{_inline_html(b[1])}</p>")
            elif kind == "ul":
                out.append("<ul>" + "".join(f"<li>{_inline_html(i)}</li>" for i in b[1]) + "</ul>")
            elif kind == "table":
                _, headers, rows, right = b
                cls = lambda i: ' class="r"' if i in right else ""  # noqa: E731
                out.append("<table><thead><tr>" + "".join(f"<th{cls(i)}>{_inline_html(h)}</th>"
                                                          for i, h in enumerate(headers)) + "</tr></thead><tbody>"
                           + "".join("<tr>" + "".join(f"<td{cls(i)}>{_inline_html(str(c))}</td>"
                                                      for i, c in enumerate(r)) + "</tr>" for r in rows)
                           + "</tbody></table>")
            elif kind == "img":
                src = html.escape(b[1], quote=True)
                out.append(f'<p><a href="{src}"><img src="{src}" alt="{html.escape(b[2], quote=True)}"></a></p>')
            elif kind == "pre":
                out.append(f"<pre>{html.escape(b[1])}</pre>")
            elif kind == "details":
                out.append(f"<details><summary>{html.escape(b[1])}</summary>{b[2].html_body()}</details>")
        return "\n".join(out)

    def html(self, title):
        return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>" + html.escape(title)
                + "</title><style>body{font-family:sans-serif;max-width:1400px;margin:1em auto;padding:0 1em}"
                "table{border-collapse:collapse;margin:0.5em 0;font-size:90%}th,td{border:1px solid #ccc;"
                "padding:2px 6px;text-align:left;vertical-align:top}.r{text-align:right}"
                "img{max-width:100%}code,pre{background:#f4f4f4}</style></head><body>\n"
                + self.html_body() + "\n</body></html>\n")


def _md_cell(value):
    text = str(value).replace("|", "\\|").replace("\n", "<br>")
    return text if text else " "


def _inline_html(text):
    """Markdown's `code`, **bold** and [text](link) in otherwise escaped text."""
    out, pos = [], 0
    for m in re.finditer(r"`([^`]+)`|\[([^\]]+)\]\(([^)\s]+)\)|\*\*([^*]+)\*\*", text):
        out.append(html.escape(text[pos:m.start()]))
        if m.group(1) is not None:
            out.append(f"<code>{html.escape(m.group(1))}</code>")
        elif m.group(4) is not None:
            out.append(f"<b>{html.escape(m.group(4))}</b>")
        else:
            out.append(f'<a href="{html.escape(m.group(3), quote=True)}">{html.escape(m.group(2))}</a>')
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return "".join(out)


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
            return cmpmod.format_gbps(value)
        if k.endswith("_s") and not k.endswith("_per_s"):
            return cmpmod.format_time(value)
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
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _is_scalar(v):
    return not isinstance(v, (dict, list)) or (isinstance(v, list) and all(not isinstance(x, (dict, list)) for x in v))


def _table_of_records(records):
    """Rows of dicts -> (headers, rows); identity keys first, the rest in order of appearance;
    nested objects left out (returned separately)."""
    keys = []
    for r in records:
        for k, v in r.items():
            if k not in keys and _is_scalar(v):
                keys.append(k)
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
        rows = [[k, format_value(k, v)] for k, v in scalars]
        if fold and len(rows) > MAX_INLINE_ENTRIES:
            sub = Doc()
            sub.table(["key", "value"], rows)
            doc.details(f"{path or 'values'} ({len(rows)} entries)", sub)
        else:
            doc.table(["key", "value"], rows)
    for k, v in texts:  # multi-line text (Kokkos' configuration): folded, preformatted
        sub = Doc()
        sub.pre(v)
        doc.details(f"{path}.{k}" if path else k, sub)
    for k, v in obj.items():
        if _is_scalar(v):
            continue
        where = f"{path}.{k}" if path else k
        if isinstance(v, list):
            records = [x for x in v if isinstance(x, dict)]
            doc.h(level, f"{where} ({len(v)} entries)" if len(v) != 1 else where)
            if records:
                headers, rows = _table_of_records(records)
                doc.table(headers, rows)
                for i, r in enumerate(records):
                    for nk, nv in r.items():
                        if isinstance(nv, dict) and nv:
                            sub = Doc()
                            render_object(sub, nv, level + 1, f"{where}[{i}].{nk}", fold=False)
                            doc.details(f"{where}[{i}].{nk} ({len(nv)} entries)", sub)
            others = [x for x in v if not isinstance(x, dict)]
            if others:
                doc.p(f"`{json.dumps(others)[:500]}`")
        elif isinstance(v, dict):
            if v and all(isinstance(x, dict) and all(_is_scalar(y) for y in x.values()) for x in v.values()):
                doc.h(level, where)
                keys = []
                for x in v.values():
                    keys += [kk for kk in x if kk not in keys]
                doc.table([""] + keys, [[name] + [format_value(kk, x.get(kk)) for kk in keys] for name, x in v.items()])
            else:
                doc.h(level, where)
                render_object(doc, v, level + 1, where)


# ---------------------------------------------------------------------------------- inputs

class Inputs:
    def __init__(self):
        self.programs = {}  # experiment file stem -> (path, data)
        self.bench = []  # BenchFile
        self.skipped = []  # (path, why)


def classify(paths, inputs, strict_bench=()):
    """Sort JSON files into program results, Google Benchmark output and others."""
    for path in paths:
        try:
            data = load_json(path)
        except InputError as e:
            inputs.skipped.append((path, str(e).split(": ", 1)[-1]))
            continue
        if isinstance(data, dict) and "benchmarks" in data:
            try:
                inputs.bench.append(BenchFile(path))
            except InputError as e:
                if path in strict_bench:
                    raise
                inputs.skipped.append((path, str(e).split(": ", 1)[-1]))
        elif isinstance(data, dict) and isinstance(data.get("experiment"), str):
            stem = re.sub(r"\.json$", "", os.path.basename(path))
            inputs.programs[stem] = (path, data)
        elif isinstance(data, dict) and "testsuites" in data:
            inputs.skipped.append((path, "GoogleTest output, not a program result"))
        else:
            inputs.skipped.append((path, "neither a program result (no \"experiment\") nor Google Benchmark output"))


def _ordered(programs):
    return sorted(programs, key=lambda s: (FIRST.index(s) if s in FIRST else len(FIRST), s))


# ---------------------------------------------------------------------------------- sections

def _contexts(inputs):
    out = []
    for stem in _ordered(inputs.programs):
        path, data = inputs.programs[stem]
        if isinstance(data.get("context"), dict):
            out.append((os.path.basename(path), data["context"]))
    for b in inputs.bench:
        out.append((os.path.basename(b.path), b.context))
    return out


def _distinct(values):
    """[(value, source)] -> 'v' or 'v1 (a, b); v2 (c)' when the sources disagree."""
    seen = {}
    for v, src in values:
        if v in (None, ""):
            continue
        seen.setdefault(v, []).append(src)
    if not seen:
        return None
    if len(seen) == 1:
        return next(iter(seen))
    return "; ".join(f"{v} ({', '.join(s)})" for v, s in seen.items())


def _git_revision():
    repo = os.path.dirname(os.path.dirname(HERE))
    try:
        rev = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=10)
        if rev.returncode != 0:
            return None
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return rev.stdout.strip() + (" (uncommitted changes)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return None


def _spaces_text(v):
    if isinstance(v, list):
        return ", ".join(map(str, v))
    if isinstance(v, str) and v.startswith("["):
        try:
            return ", ".join(map(str, json.loads(v)))
        except ValueError:
            pass
    return v


def machine_section(doc, inputs):
    doc.h(2, "Machine and build")
    ctxs = _contexts(inputs)
    if not ctxs:
        doc.p("No context: no program result or benchmark file was found.")
        return

    def pick(*keys, fmt=lambda v: v):
        """The first of `keys` each context has; distinct values with their sources."""
        values = []
        for src, c in ctxs:
            key = next((k for k in keys if k in c), None)
            if key is not None:
                values.append((fmt(c[key]), src))
        return _distinct(values)

    rows = []

    def add(item, value):
        if value is not None:
            rows.append([item, str(value)])

    add("host", pick("host_name"))
    add("CPU", pick("cpu_model"))
    add("host threads (Kokkos host concurrency)", pick("host_concurrency", fmt=str))
    info = inputs.programs.get("device_info", (None, {}))[1]
    host = info.get("host") if isinstance(info.get("host"), dict) else {}
    if host:
        add("cores, sockets", f"{host.get('physical_cores', '-')} physical cores, {host.get('sockets', '-')} socket(s)")
        if isinstance(host.get("memory_total_bytes"), int):
            add("host memory", f"{host['memory_total_bytes'] / (1 << 30):.1f} GiB")
    gpus = []
    cuda = info.get("cuda") if isinstance(info.get("cuda"), dict) else {}
    for d in cuda.get("devices", []) if isinstance(cuda.get("devices"), list) else []:
        if isinstance(d, dict):
            parts = [str(d.get("name", "?"))]
            if d.get("compute_capability"):
                parts.append(f"compute capability {d['compute_capability']}")
            if d.get("multiprocessors"):
                parts.append(f"{d['multiprocessors']} SMs")
            if isinstance(d.get("total_memory_bytes"), int):
                parts.append(f"{d['total_memory_bytes'] / (1 << 30):.1f} GiB")
            if d.get("theoretical_gb_per_s"):
                parts.append(f"{d['theoretical_gb_per_s']:.0f} GB/s theoretical")
            gpus.append(", ".join(parts))
    if not gpus:  # from Kokkos' configuration text
        for _, c in ctxs:
            for m in re.finditer(r"Kokkos::Cuda\[ *\d+ *\] (.*?) capability ([\d.]+)", str(c.get("kokkos_configuration", ""))):
                text = f"{m.group(1)}, compute capability {m.group(2)}"
                if text not in gpus:
                    gpus.append(text)
    add("GPU", "; ".join(gpus) if gpus else "none reported")
    if cuda.get("driver_version"):
        add("CUDA driver / runtime", f"{cuda.get('driver_version')} / {cuda.get('runtime_version', '-')}")
    add("Kokkos version", pick("kokkos_version"))
    add("Kokkos execution spaces (backends)", pick("execution_spaces", fmt=_spaces_text))
    add("default execution space", pick("default_execution_space"))
    for var in ("OMP_PROC_BIND", "OMP_PLACES", "OMP_NUM_THREADS"):
        add(var, pick(var))
    add("Google Benchmark library build", pick("library_build_type"))
    add("CPU frequency scaling (Google Benchmark)", pick("cpu_scaling_enabled", fmt=lambda v: "on" if v else "off"))
    add("dates (UTC)", pick("date_utc", "date"))
    git = pick(*[k for _, c in ctxs for k in c if re.search(r"git|revision|commit", k, re.I)])
    if git:
        add("git revision (from the run)", git)
    else:
        own = _git_revision()
        add("git revision", f"{own} (of the checkout writing this report; the JSON records none)" if own
            else "unknown (the JSON records none and no git checkout is at hand)")
    doc.table(["", "value"], rows)
    doc.p("From: " + ", ".join(f"`{src}`" for src, _ in ctxs) + ".")
    configurations = {}
    for src, c in ctxs:
        if c.get("kokkos_configuration"):
            configurations.setdefault(str(c["kokkos_configuration"]), []).append(src)
    for text, srcs in configurations.items():
        sub = Doc()
        sub.pre(text)
        doc.details(f"Kokkos configuration ({', '.join(srcs)})", sub)


def experiments_section(doc, inputs, results_where, out_dir=None, plots_wanted=True):
    doc.h(2, "Experiments")
    if not inputs.programs:
        doc.p(f"No program results found ({results_where}): run `scripts/run-experiments.sh` "
              "(or a program with `--json`).")
        return []
    doc.p("One table per program (`--json`): each variant's first call, best and median of the "
          "repeated calls, its bandwidth and its share of the memcpy and Kokkos-copy probes of the "
          "same space and run, and its check. The whole JSON follows each table, folded.")
    written = []
    for stem in _ordered(inputs.programs):
        path, data = inputs.programs[stem]
        doc.h(3, f"{data.get('experiment', stem)} (`{os.path.basename(path)}`)")
        body = {k: v for k, v in data.items() if k not in ("context", "experiment")}
        if not body:
            doc.p("(no results in this file)")
            continue
        if _is_experiment_run(data):
            written += experiment_tables(doc, stem, data, out_dir, plots_wanted)
            sub = Doc()
            render_object(sub, body, 4, fold=False)
            doc.details(f"{os.path.basename(path)}, every field", sub)
        else:
            render_object(doc, body, 4)
    return written


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


def experiment_tables(doc, stem, data, out_dir, plots_wanted):
    """A program run of the experiment model: its statement, probes, results and sweep."""
    facts = [f"{k}: {data[k]}" for k in ("title", "document", "repetitions", "seed") if k in data]
    doc.p("; ".join(facts) + ".")
    problems = [p for p in data.get("problems", []) if isinstance(p, dict)]
    if problems:
        headers, rows = _table_of_records(problems)
        doc.table(headers, rows)
    probes = data.get("probes")
    if isinstance(probes, dict) and probes:
        rows = [[space, format_value("gb_per_s", p.get("memcpy_gb_per_s")), format_value("gb_per_s", p.get("copy_gb_per_s")),
                 format_value("gb_per_s", p.get("triad_gb_per_s")), str(p.get("memcpy", "-")),
                 format_value("verified", p.get("verified"))]
                for space, p in probes.items() if isinstance(p, dict)]
        doc.table(["space", "memcpy GB/s", "Kokkos copy GB/s", "triad GB/s", "memcpy is", "probes verified"], rows,
                  right=[1, 2, 3])
    results = data["results"]
    extra = []
    for r in results:
        extra += [k for k, v in r.items() if k not in extra and k not in _RESULT_HIDDEN and _is_scalar(v)
                  and k not in dict(_RESULT_COLUMNS)]
    transfers = any(isinstance(r.get("with_transfers"), dict) for r in results)
    headers = [h for _, h in _RESULT_COLUMNS]
    if transfers:
        headers += ["with transfers (best)", "GB/s with transfers", "% of the link"]
    headers += extra + ["check"]
    rows = []
    for r in results:
        row = []
        for k, _ in _RESULT_COLUMNS:
            v = r.get(k)
            row.append(cmpmod.format_pct(v) if k.startswith("fraction_of") and isinstance(v, (int, float))
                       else format_value(k, v))
        if transfers:
            t = r.get("with_transfers") if isinstance(r.get("with_transfers"), dict) else {}
            frac = t.get("fraction_of_link")
            row += [format_value("best_s", t.get("best_s")), format_value("gb_per_s", t.get("gb_per_s")),
                    cmpmod.format_pct(frac) if isinstance(frac, (int, float)) else "-"]
        row += [format_value(k, r.get(k)) for k in extra]
        row.append(str(r.get("check") or (f"skipped: {r['reason']}" if r.get("reason") else r.get("status", "-"))))
        rows.append(row)
    doc.table(headers, rows, right=range(3, len(headers) - 1))
    failed = [f"{r.get('variant')} on {r.get('space')} at {r.get('size')}" for r in results
              if r.get("status") not in (None, "verified", "skipped")]
    if failed:
        doc.p("**Not verified:** " + ", ".join(failed) + ".")
    # "sweeps": one per host/device variant pair; "sweep": files written before there could be several.
    sweeps = data.get("sweeps") if isinstance(data.get("sweeps"), list) else [data.get("sweep")]
    sweeps = [s for s in sweeps if isinstance(s, dict) and isinstance(s.get("points"), list) and s["points"]]
    images = []
    for i, sweep in enumerate(sweeps):
        name = stem if i == 0 else f"{stem}-{sweep.get('host_variant', i)}"
        images += sweep_tables(doc, name, data.get("experiment", stem), sweep, out_dir, plots_wanted)
    return images


def sweep_tables(doc, stem, experiment, sweep, out_dir, plots_wanted):
    host, device = sweep.get("host_space") or "host", sweep.get("device_space") or "device"
    if sweep.get("host_variant"):
        experiment = f"{experiment} {sweep['host_variant']}"
        host, device = f"{sweep['host_variant']} on {host}", f"{sweep.get('device_variant')} on {device}"
    def wins(key, how):
        at = sweep.get(key)
        if isinstance(at, dict):
            return f"{device} is faster from {at.get('size')} ({at.get('elements')} elements) {how}"
        return f"{host} is faster at the largest size {how}" if sweep.get("device_space") else None
    said = [t for t in (wins("device_wins_from_resident", "with data resident"),
                        wins("device_wins_from_with_transfers", "with transfers in every call")) if t]
    if not sweep.get("device_space"):
        said = [str(sweep.get("note") or "no device in this build")]
    doc.p(f"**Crossover sweep**, {host} against {device}: " + "; ".join(said) + ".")
    rows = [[p.get("size", "-"), str(p.get("elements", "-")), format_value("host_s", p.get("host_s")),
             format_value("device_s", p.get("device_resident_s")),
             format_value("device_s", p.get("device_with_transfers_s"))]
            for p in sweep["points"] if isinstance(p, dict)]
    doc.table(["size", "elements", f"{host} (best)", f"{device} resident", f"{device} with transfers"], rows,
              right=[1, 2, 3, 4])
    if not plots_wanted or out_dir is None:
        return []
    from . import plots
    try:
        path = plots.plot_program_sweep(experiment, sweep, os.path.join(out_dir, f"crossover-{stem}.png"))
    except plots.PlotsUnavailable as e:
        doc.p(f"Plot skipped: {e}.")
        return []
    if path:
        doc.img(os.path.basename(path), f"{experiment}: crossover sweep")
        return [(path, f"{experiment}: crossover sweep")]
    return []


def _lookup(programs, spec):
    """A value from the programs' JSON per a published.json 'ours' entry, or None."""
    if not isinstance(spec, dict):
        return None
    if "minus" in spec:
        a, b = (_lookup(programs, s) for s in spec["minus"])
        return a - b if isinstance(a, (int, float)) and isinstance(b, (int, float)) else None
    entry = programs.get(spec.get("file"))
    if entry is None:
        return None
    node = entry[1]
    if "where" in spec:
        node = next((r for r in node.get(spec.get("list", "results"), []) if isinstance(r, dict)
                     and all(r.get(k) == v for k, v in spec["where"].items())), None)
        if node is None:
            return None
    for part in str(spec.get("field", "")).split("."):
        if isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        else:
            return None
    if "scale" in spec and isinstance(node, (int, float)) and not isinstance(node, bool):
        node = node * spec["scale"]
    return node


def published_section(doc, inputs, published_path=PUBLISHED):
    doc.h(2, "The documents' figures beside ours")
    try:
        with open(published_path, encoding="utf-8") as f:
            pub = json.load(f)
    except (OSError, ValueError) as e:
        doc.p(f"Published figures unavailable ({published_path}: {e}).")
        return
    doc.p("The tutorial documents (`../shared/seeds/`) ran on other machines, at other times, with "
          "other software: their figures are context, not targets. \"published / ours\" > 1 means ours "
          "took less time. `tools/nbk_compare/published.json` holds the figures and where ours are.")
    for seed in pub.get("seeds", []):
        doc.h(3, f"Seed {seed.get('seed')}: {seed.get('title', '')}")
        doc.items([f"source: `{seed.get('source', '-')}`; machine: {seed.get('machine', '-')}",
                   f"timer: {seed.get('timer', '-')}"] + list(seed.get("notes", [])))
        figures = seed.get("figures", [])
        if not figures:
            continue
        rows = []
        found = 0
        for fig in figures:
            unit = fig.get("unit")
            published = fig.get("published")
            ours = _lookup(inputs.programs, fig.get("ours"))
            found += ours is not None
            if unit == "s":
                pub_text = cmpmod.format_time(published)
                ours_text = cmpmod.format_time(ours) if isinstance(ours, (int, float)) else "-"
                ratio = (cmpmod.format_ratio(published / ours)
                         if isinstance(ours, (int, float)) and ours > 0 and isinstance(published, (int, float)) else "-")
            else:
                pub_text = format_value("", published)
                ours_text = "-" if ours is None else format_value("", ours)
                ratio = ""
            what = fig.get("what", "")
            if fig.get("note"):
                what += f" ({fig['note']})"
            rows.append([what, pub_text, ours_text, ratio])
        doc.table(["figure", f"seed {seed.get('seed')}", "ours", "published / ours"], rows, right=[1, 2, 3])
        if not found:
            exp = seed.get("experiment")
            have = f"`{exp}.json` has none of them" if exp in inputs.programs else f"no `{exp}.json` result here"
            doc.p(f"No figure of ours to set beside these ({have}).")


def results_plots_section(doc, inputs, out_dir, baseline, plots_wanted=True):
    """Speed-up and bandwidth plots from the programs' own runs (best of their calls), so
    that a run of the programs alone has them; the benchmarks' follow below when present."""
    doc.h(2, "The programs' runs compared")
    results = ResultsFile(inputs.programs)
    if not results.runs:
        doc.p("No verified program results to compare.")
        return []
    cmp = cmpmod.Comparison([results], baseline=baseline, reference=cmpmod.DEFAULT_REFERENCE)
    doc.p(f"Each program's verified rows, best call, against {cmp.baseline.label}; GB/s against the same "
          "program's memcpy probe of that space (no % for calls that cross the host-device link). "
          "One run each, so no significance test: the benchmarks below repeat them.")
    if not plots_wanted:
        doc.p("Plots not requested (--no-plots).")
        return []
    from . import plots
    try:
        written = plots.write_plots(cmp, out_dir, prefix="programs-")
    except plots.PlotsUnavailable as e:
        doc.p(f"Plots skipped: {e}.")
        return []
    for path, title in written:
        doc.p(f"**{title}** (`{os.path.basename(path)}`)")
        doc.img(os.path.basename(path), title)
    return written


def bench_section(doc, inputs, out_dir, baseline, reference, alpha, plots_wanted=True):
    doc.h(2, "Benchmarks (Google Benchmark)")
    if not inputs.bench:
        doc.p("No Google Benchmark output: `bench.json` is absent (run `scripts/bench.sh <preset>`, "
              "which writes `build/<preset>/bench.json`).")
        return []
    files = inputs.bench
    for f, label in zip(files, default_labels([f.path for f in files])):
        f.label = label
    cmp = cmpmod.Comparison(files, baseline=baseline, alpha=alpha, reference=reference)
    doc.p("Compared with `tools/nbk-compare " + " ".join(os.path.basename(f.path) for f in files)
          + f" --baseline {cmp.baseline.label}`: files " + ", ".join(f"`{f.path}` ({f.label})" for f in files) + ".")
    groups, rows = cmpmod.comparison_table(cmp)
    headers = groups[0][1] + [f"{label} {sub}" for label, subs in groups[1:] for sub in subs]
    doc.table(headers, rows, right=range(3, len(headers)))
    doc.items(cmp.legend())
    errs = cmpmod.errors_of(cmp)
    if errs:
        doc.p("Benchmarks that reported an error instead of a time:")
        doc.items(f"`{n}`: {m}" for n, m in errs)
    doc.h(3, f"Bandwidth against {reference}")
    brow = []
    for c in cmp.columns:
        ref = c.reference
        for row in cmp.rows:
            cell = row.cells.get(c.label)
            if cell is None or cell.gbps is None:
                continue
            brow.append([c.label, row.family, row.size_label, cmpmod.format_gbps(cell.gbps),
                         cmpmod.format_pct(cell.ref_fraction) if cell.ref_fraction is not None
                         else "link" if cell.run.crosses_link else "-",
                         f"{ref.family} of {ref.space} {format_size(ref.size)}" if ref else f"no {reference} here"])
    if brow:
        doc.table(["column", "kernel", "size", "GB/s", f"% of {reference}", "reference"], brow, right=[3, 4])
        doc.p(f"The reference is the {reference} benchmark of the same space in the same file (its largest "
              f"size; {cmpmod.FALLBACK_REFERENCE} in files without it; serial's for the one-thread `host` "
              "variants). A copy counts 16 bytes per element; kernels whose data fits in cache can exceed "
              "100%. \"link\": the timed call copies between host and device memory, so its bound is the "
              "link, not the device's memory, and no % is given.")
    else:
        doc.p("No benchmark reports GB/s.")
    written = []
    doc.h(3, "Plots")
    if not plots_wanted:
        doc.p("Plots not requested (--no-plots).")
        return written
    from . import plots
    try:
        written = plots.write_plots(cmp, out_dir)
    except plots.PlotsUnavailable as e:
        doc.p(f"Plots skipped: {e}.")
        return written
    if not written:
        doc.p("Nothing to plot.")
    for path, title in written:
        doc.p(f"**{title}** (`{os.path.basename(path)}`)")
        doc.img(os.path.basename(path), title)
    return written


# ---------------------------------------------------------------------------------- main

def build(inputs, out_dir, title, results_where, baseline=cmpmod.DEFAULT_BASELINE,
          reference=cmpmod.DEFAULT_REFERENCE, alpha=cmpmod.DEFAULT_ALPHA, plots_wanted=True, html_too=True):
    os.makedirs(out_dir, exist_ok=True)
    doc = Doc()
    doc.h(1, title)
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    doc.p(f"Written by `tools/nbk-report` on {now}. Sections: machine and build, experiments, the "
          "documents' figures beside ours, benchmarks and plots.")
    if inputs.skipped:
        doc.p("Files not used:")
        doc.items(f"`{p}`: {why}" for p, why in inputs.skipped)
    machine_section(doc, inputs)
    experiments_section(doc, inputs, results_where, out_dir, plots_wanted)
    results_plots_section(doc, inputs, out_dir, baseline, plots_wanted)
    published_section(doc, inputs)
    bench_section(doc, inputs, out_dir, baseline, reference, alpha, plots_wanted)
    md = os.path.join(out_dir, "index.md")
    with open(md, "w", encoding="utf-8") as f:
        f.write(doc.markdown())
    written = [md]
    if html_too:
        page = os.path.join(out_dir, "index.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write(doc.html(title))
        written.append(page)
    return written


DESCRIPTION = """\
Write a report (index.md and index.html, PNG plots beside them) from a run's JSON files:
the programs' results (results/<experiment>.json), Google Benchmark output (bench.json), the
machine and build context they record, and the tutorial documents' published figures.

  nbk-report --preset-dir build/openmp
      reads build/openmp/results/*.json and build/openmp/bench.json (if present), writes
      build/openmp/report/
  nbk-report --results DIR_OR_FILES... [--bench FILE...] --out DIR
      explicit inputs; a results directory may hold bench.json too (as .device's $OUT does)

Missing inputs are reported in the page, not treated as errors; an explicitly named file
that cannot be read exits 2 with one line naming it. Plots need matplotlib (else skipped).
"""


def main(argv):
    p = argparse.ArgumentParser(prog="nbk-report", description=DESCRIPTION,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.error = lambda message: p.exit(2, f"nbk-report: error: {message}\n")
    p.add_argument("--preset-dir", metavar="DIR", help="build/<preset>: results/, bench.json, writes report/")
    p.add_argument("--results", nargs="+", default=[], metavar="PATH",
                   help="program result JSON files, or directories of them")
    p.add_argument("--bench", nargs="+", default=[], metavar="FILE", help="Google Benchmark JSON files")
    p.add_argument("--out", metavar="DIR", help="output directory (default: <preset-dir>/report)")
    p.add_argument("--title", help="page title")
    p.add_argument("--baseline", default=cmpmod.DEFAULT_BASELINE, metavar="SPACE",
                   help="baseline space of the benchmark comparison (default %(default)s)")
    p.add_argument("--reference", default=cmpmod.DEFAULT_REFERENCE, metavar="FAMILY",
                   help="achievable-bandwidth benchmark family (default %(default)s)")
    p.add_argument("--alpha", type=float, default=cmpmod.DEFAULT_ALPHA, help="U test significance level")
    p.add_argument("--no-plots", action="store_true", help="tables only")
    p.add_argument("--no-html", action="store_true", help="Markdown only")
    args = p.parse_args(argv)
    if not args.preset_dir and not args.results and not args.bench:
        p.error("give --preset-dir, or --results and/or --bench")
    if not args.preset_dir and not args.out:
        p.error("--out is needed without --preset-dir")
    out = args.out or os.path.join(args.preset_dir, "report")
    inputs = Inputs()
    paths, where = [], []
    try:
        if args.preset_dir:
            if not os.path.isdir(args.preset_dir):
                raise InputError(f"{args.preset_dir}: no such directory")
            results = os.path.join(args.preset_dir, "results")
            where.append(f"`{results}/`")
            if os.path.isdir(results):
                paths += sorted(os.path.join(results, n) for n in os.listdir(results) if n.endswith(".json"))
            bench = os.path.join(args.preset_dir, "bench.json")
            if os.path.exists(bench):
                paths.append(bench)
        for r in args.results:
            if os.path.isdir(r):
                where.append(f"`{r}/`")
                paths += sorted(os.path.join(r, n) for n in os.listdir(r) if n.endswith(".json"))
            elif os.path.exists(r):
                where.append(f"`{r}`")
                paths.append(r)
            else:
                raise InputError(f"{r}: no such file or directory")
        for b in args.bench:
            BenchFile(b)  # named explicitly: must be valid
            paths.append(b)
        classify(list(dict.fromkeys(paths)), inputs, strict_bench=tuple(args.bench))
        title = args.title or ("Report: " + (os.path.basename(os.path.normpath(args.preset_dir))
                                              if args.preset_dir else os.path.basename(os.path.normpath(out))))
        written = build(inputs, out, title, ", ".join(where) or "none given", baseline=args.baseline,
                        reference=args.reference, alpha=args.alpha, plots_wanted=not args.no_plots,
                        html_too=not args.no_html)
    except InputError as e:
        print(f"nbk-report: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"nbk-report: error: {e.filename or out}: {e.strerror}", file=sys.stderr)
        return 2
    for path, why in inputs.skipped:
        print(f"nbk-report: skipped {path}: {why}", file=sys.stderr)
    print(f"nbk-report: wrote {written[0]}" + (f" (and {', '.join(os.path.basename(w) for w in written[1:])})"
                                               if len(written) > 1 else ""), file=sys.stderr)
    return 0
