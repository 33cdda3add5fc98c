"""Runs read from their folders (docs/comparing.md), checked at load; each result row a gbench.Run."""
import json
import os
import re
import sys

from . import record
from .gbench import (INT, NUMBER, TEXT, TIME, BenchFile, InputError, InvalidRecord, Run, bandwidth_reference, bounded,
                     is_reference, load_json)

TRANSFERS = "+transfers"
SUBFOLDERS = ("results", record.NUMPY_FOLDER)  # part of a run: older runs' results/, nbk-numpy's numpy/


def positive(v):
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else None


def rows_of(run, data):
    """A program's rows as Runs (the best call one sample), with-transfers timings as variant+transfers."""
    experiment, probes, out = data.get("experiment"), [], []
    for space, probe in (data.get("probes") or {}).items():
        for kind in ("memcpy", "copy"):
            if (probe.get(f"{kind}_gb_per_s") or 0) > 0:
                probes.append(Run(f"probe/{kind}/{space}"))
                probes[-1].gbps_samples = [float(probe[f"{kind}_gb_per_s"])]
    for row in data.get("results") or []:
        if not isinstance(row, dict) or row.get("status") == "skipped" or "variant" not in row:
            continue
        for transfers in (False, True)[:1 + isinstance(row.get("with_transfers"), dict)]:
            timing = row["with_transfers"] if transfers else row
            variant, space = str(row.get("variant")) + TRANSFERS * transfers, str(row.get("space"))
            size = str(row.get("size", ""))
            r = Run(f"{experiment}/{variant}/{space}/{size}", experiment=experiment, variant=variant, space=space,
                    size=size, extra="")
            time, gbps = positive(timing.get("best_s")), positive(timing.get("gb_per_s"))
            r.samples, r.gbps_samples = [time] if time else [], [gbps] if gbps else []
            r.run, r.crosses_link = run, transfers or "fraction_of_link" in row
            r.elements = row.get("elements") if isinstance(row.get("elements"), int) else None
            r.link_fraction = positive(timing.get("fraction_of_link"))
            r.error = None if row.get("status") == "verified" else \
                f"not verified: {row.get('check') or row.get('status') or 'no status'}"
            # judged_on: the space whose probes judge the row (a vendor call on every core: openmp's)
            r.reference = bandwidth_reference(probes, row.get("judged_on") or space)
            because = {} if transfers else row.get("fraction_above_100_because") or {}
            r.above_because = {"memcpy": because.get("memcpy"), "copy": because.get("kokkos_copy")}
            out.append(r)
    return out


# The fields the tools read, as gbench.bounded's schemas.
_CONTEXT = {**dict.fromkeys(("host", "host_name", "label", "name", "preset", "git_revision", "cpu_model", "command",
                             "compiler", "kokkos_version", "started_utc", "finished_utc", "date_utc", "date",
                             "kokkos_configuration", "default_execution_space"), TEXT),
            "gpus": [TEXT], "git_dirty": (bool,), "execution_spaces": (list, str),
            "kokkos_execution_spaces": (list, str), "threads": INT, "programs": [TEXT], "exit_codes": (dict,)}
_ROW = {"variant": TEXT, "space": TEXT, "size": TEXT + INT, "elements": INT, "status": TEXT, "check": TEXT,
        "reason": TEXT, "judged_on": TEXT, "fraction_above_100_because": (dict,),
        "with_transfers": {"best_s": TIME, "gb_per_s": NUMBER, "fraction_of_link": NUMBER},
        **dict.fromkeys(("first_s", "best_s", "median_s"), TIME),
        **dict.fromkeys(("gb_per_s", "fraction_of_memcpy", "fraction_of_kokkos_copy", "fraction_of_link",
                         "fraction_of_limit", "bytes_per_call", "flops_per_call"), NUMBER),
        "fitting_probe": TEXT, "flop_precision": TEXT, "limit_level": TEXT,  # issue 58's ceiling: ceilings.py
        "ceiling": {**dict.fromkeys(("level", "kind", "kind_text"), TEXT), **dict.fromkeys((
            "working_set_bytes", "bytes_moved_per_call", "gb_per_s", "fraction"), NUMBER)}}
_CEILINGS = {"levels": [{"level": TEXT, "capacity_bytes": NUMBER, "probe_bytes": NUMBER, "gb_per_s": {"*": NUMBER},
                         "by": {"*": TEXT}}],
             "theoretical": {"memory_gb_per_s": NUMBER, "fp32_gflop_per_s": NUMBER, "fp64_gflop_per_s": NUMBER,
                             "from": TEXT},
             "sweep": [{"bytes": NUMBER, "kind": TEXT, "gb_per_s": NUMBER}]}
_SWEEP = {**dict.fromkeys(("host_space", "device_space", "host_variant", "device_variant", "note"), TEXT),
          "points": [{"*": NUMBER + TEXT}]}
_PROGRAM = {"context": _CONTEXT, "results": [_ROW], "sweeps": [_SWEEP],
            "probes": {"*": {**dict.fromkeys([f"{k}_gb_per_s" for k in ("memcpy", "copy", "in_place", "dot", "triad")]
                                             + ["fma_f32_gflop_per_s", "fma_f64_gflop_per_s", "concurrency"], NUMBER),
                             "ceilings": _CEILINGS}}}


def check_program(path, data):
    if not re.fullmatch(r"\w+", data["experiment"]):
        raise InvalidRecord(f"{path}: experiment: not a name (letters, digits, _): "
                            f"{json.dumps(data['experiment'])[:40]}")
    # "sweep" in older files
    bounded(path, dict(data, sweeps=data.get("sweeps") or ([data["sweep"]] if data.get("sweep") else None)), _PROGRAM)
    for i, row in enumerate(data.get("results") or []):
        if not re.fullmatch(r"[0-9]+(x[0-9]+)*", str(row.get("size", "0"))):
            raise InvalidRecord(f"{path}: results[{i}].size: not a size (N, AxB, AxBxC): "
                                f"{json.dumps(row['size'])[:40]}")


def _kind(data):
    if isinstance(data, dict) and "benchmarks" in data:
        return "bench"
    if isinstance(data, dict) and isinstance(data.get("experiment"), str):
        return "program" if isinstance(data.get("results", []), list) else \
            "not a program result (\"results\" is not a list)"
    if isinstance(data, dict) and "testsuites" in data:
        return "GoogleTest output, not a program result"
    return "neither a program result (no \"experiment\") nor Google Benchmark output"


class RunRecord:
    """One run: its context, its programs' and references' (NumPy's) files by experiment, its benchmarks."""

    def __init__(self, path, label=None, files=(), allow_empty=False):
        """A run folder or JSON file (`path`), or (path None) `files`: files and folders of them."""
        self.path = path if path is not None else ", ".join(files)
        self.programs, self.references = {}, {}  # experiment -> (path, data)
        self.bench, self.skipped, self.context, self.label = [], [], {}, label  # skipped: (path, why)
        if path is not None and os.path.isdir(path):
            context = record.read_context(path)
            if context is None:
                raise InputError(f"{os.path.join(path, record.RUN_FILE)}: not a run context (unreadable JSON object)")
            bounded(os.path.join(path, record.RUN_FILE), context, _CONTEXT)
            self.context = context
            for folder in [path] + [os.path.join(path, name) for name in SUBFOLDERS]:
                for p in record.json_files(folder):
                    self.add_file(p)
            seen = {os.path.basename(p) for p, _ in [*self.programs.values(), *self.skipped]}  # what run.json names
            unwritten = record.unwritten(context)  # named as not measured instead (self.missing)
            named = [*(context.get("programs") or []),
                     *(f"{e}.json" for e in context.get("exit_codes") or {} if e not in unwritten)]
            self.skipped += [(os.path.join(path, n), "named by run.json, not in the folder") for n in
                             dict.fromkeys(named) if n not in seen]
        elif path is not None and not os.path.exists(path):
            raise InputError(f"{path}: no such file or run folder")
        for f in files if path is None else [] if os.path.isdir(path) else [path]:  # given files, strictly read
            if not os.path.exists(f):
                raise InputError(f"{f}: no such file or directory")
            for p in record.json_files(f) if os.path.isdir(f) else [f]:
                self.add_file(p, strict=not os.path.isdir(f))
        # A record stopped before any program wrote a row is still a run: its report names what is missing.
        stopped_empty = bool(record.missing_programs(self.context))
        if not self.programs and not self.references and not self.bench and not allow_empty and not stopped_empty:
            raise InputError(f"{self.path}: {'a directory' if path and os.path.isdir(path) else 'files'} with no "
                             "program result (<experiment>.json with \"experiment\" and \"results\") and no Google "
                             "Benchmark JSON: not a run")
        self.entries = [e for files in (self.programs, self.references) for _, data in files.values()
                        for e in rows_of(self, data)]
        # What an interrupted run did not measure (record.missing_rows, missing_programs): (experiment, line) each.
        self.missing = [(x, line) for files in (self.programs, self.references) for x, (_, data) in files.items()
                        for line in record.missing_rows(data)] + record.missing_programs(self.context)

    def add_file(self, path, strict=False):
        """A program result or Google Benchmark file; anything else skipped (strict: refused)."""
        try:
            data = load_json(path)
            kind = _kind(data)
            if kind == "bench":
                self.bench.append(BenchFile(path))
            elif kind == "program":
                check_program(path, data)
                spaces = {r.get("space") for r in data.get("results") or [] if isinstance(r, dict)} or \
                    set((data.get("context") or {}).get("execution_spaces") or [])
                files = self.references if spaces and all(map(is_reference, spaces)) else self.programs
                if data["experiment"] in files:
                    raise InputError(f"{path}: a second result of {data['experiment']} in one run "
                                     f"(also {files[data['experiment']][0]}); give them as two runs")
                files[data["experiment"]] = (path, data)
            else:
                raise InputError(f"{path}: {kind}")
        except InputError as e:
            if strict or isinstance(e, InvalidRecord):
                raise
            self.skipped.append((path, str(e).split(": ", 1)[-1]))

    def reference_contexts(self):
        return [d["context"] for _, d in self.references.values() if isinstance(d.get("context"), dict)]

    def contexts(self):
        """(source, context): run.json, the programs' and benchmarks'; NumPy's only where alone."""
        out = [(record.RUN_FILE, self.context)] if self.context else []
        files = self.programs or ({} if self.context else self.references)
        out += [(os.path.basename(p), d["context"]) for p, d in files.values() if isinstance(d.get("context"), dict)]
        return out + [(os.path.basename(b.path), b.context) for b in self.bench]

    def value(self, *keys):
        return next((c[k] for _, c in self.contexts() for k in keys if c.get(k) not in (None, "", [])), None)

    spaces = BenchFile.spaces
    has_device = property(lambda self: any(e.on_device for e in self.entries))

    def label_candidates(self):
        host, preset, rev = self.value("label") or self.value("host", "host_name"), self.value("preset"), \
            self.value("git_revision")
        name = self.value("name") or os.path.basename(os.path.normpath(self.path))
        return [c for c in (host, preset and f"{host}-{preset}", rev and f"{host}-{preset}-{rev}", name) if c]


def path_labels(path):
    parts = os.path.normpath(os.path.abspath(path)).split(os.sep)
    stem = re.sub(r"\.json$", "", parts[-1])
    return [stem] + [p for p in (parts[-2:-1] + ["/".join(parts[-2:-1] + [stem]), "/".join(parts[-3:-1] + [stem])])
                     if p]


def choose_labels(candidates, labels=()):
    """The given labels, else each input's first candidate no other shares; a label taken twice gets #<i>."""
    if labels:
        if len(labels) != len(candidates):
            raise InputError(f"--label given {len(labels)} times for {len(candidates)} inputs")
        if not all(label.strip() for label in labels):
            raise InputError("--label: an empty name")
        chosen = list(labels)
    else:
        chosen = []
        for i, mine in enumerate(candidates):
            others = {c for j, theirs in enumerate(candidates) if j != i for c in theirs[:len(mine)]}
            chosen.append(next((c for c in mine if c not in others), mine[-1]))
    return [label if chosen.index(label) == i else f"{label}#{i + 1}" for i, label in enumerate(chosen)]


def open_runs(paths, labels=None):
    runs, seen = [], {}
    for p in paths:
        if os.path.realpath(p) in seen:
            raise InputError(f"{p}: the same run as {seen[os.path.realpath(p)]}")
        seen[os.path.realpath(p)] = p
        runs.append(RunRecord(p))
    for run, label in zip(runs, choose_labels([r.label_candidates() for r in runs], labels)):
        run.label = label
    return runs


def open_compare_input(path, label=None):
    """Google Benchmark JSON, or a RunRecord whose `runs` are its rows and their probes."""
    if os.path.isfile(path) and _kind(load_json(path)) == "bench":
        return BenchFile(path, label)
    run = RunRecord(path, label)
    if not run.entries and len(run.bench) == 1:  # a folder holding only bench.json
        run.bench[0].label = label
        return run.bench[0]
    if not any(e.time for e in run.entries):
        raise InputError(f"{path}: no result row with a time (best_s) to compare")
    for b in run.bench:
        print(f"nbk-compare: {b.path}: Google Benchmark output beside the programs' rows, not compared with "
              f"them (give it as an input of its own)", file=sys.stderr)
    run.runs = {}
    for e in run.entries:
        if e.name not in run.runs:
            run.runs[e.name] = e
            if e.reference and not e.crosses_link:
                run.runs.setdefault(e.reference.name, e.reference)
    return run


def entries_of(runs, experiment):
    return [e for r in runs for e in r.entries if e.experiment == experiment]


def experiment_order(runs):
    names = sorted({x for r in runs for files in (r.programs, r.references) for x in files})
    order = record.experiments() or ["device_info"]
    return sorted(names, key=lambda n: (order.index(n) if n in order else len(order), n))
