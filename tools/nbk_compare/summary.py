"""Per workload and record: the best CPU and GPU rows of one kind, each against the limit that binds it, NumPy's
beside them, the crossovers and the sentences that say them (docs/comparing.md)."""
import re

from . import ceilings
from .fmt import format_ratio, format_size, format_time
from .gbench import REFERENCE_SPACES, size_sort_key
from .runs import TRANSFERS, entries_of, experiment_order, positive

NOT_COMPARABLE = "not comparable"
LATENCY_S = 20e-6  # a device call this short is bound by launch and fence latency (driver_table.cpp's)
BOTH_WAYS = re.compile(r"both ways at once|two CUDA streams")  # a row's "moves": its copies overlap


def _row(entry):
    """The program row an entry was read from, and its program's probes."""
    data, key = entry.run.programs.get(entry.experiment, (None, {}))[1], (entry.variant.removesuffix(TRANSFERS),
                                                                        entry.space, entry.size)
    return next((r for r in data.get("results") or [] if (r.get("variant"), r.get("space"), str(r.get("size")))
                 == key), {}), data.get("probes") or {}


def limit(entry):
    """The row's ceilings.Limit (its fraction: the time it cannot beat on its space over its time, None where no
    ceiling of its record bounds it), or None for a row without a usable time and a reference's (NumPy's). A call
    over the link: its bytes at the pinned rates, half each way, both ways at once where its copies overlap; else
    ceilings.judge: its bytes at
    its memory level's ceiling or its flops at the FMA probe, the larger, from the same run."""
    if entry is None or not entry.usable or entry.is_reference:  # NumPy's rows: beside the programs, not judged
        return None
    row, probes = _row(entry)
    space = row.get("judged_on") or {"host": "serial"}.get(entry.space, entry.space)
    probe = probes.get(space) or {}
    size = (entry.gbps or 0) * entry.time or (positive(row.get("bytes_per_call")) or 0) * 1e-9  # GB a call
    if entry.crosses_link:  # records without pinned rates: the pageable figure of the program
        link = probe.get("link") or {}
        up, down = positive(link.get("h2d_pinned_gb_per_s")), positive(link.get("d2h_pinned_gb_per_s"))
        both = BOTH_WAYS.search(str(row.get("moves"))) and not entry.variant.endswith(TRANSFERS)
        bound = size / 2 * (max(1 / up, 1 / down) if both else 1 / up + 1 / down) / entry.time if up and down \
            else entry.link_fraction
        return ceilings.Limit(bound, "link", "link", None, None, None) if bound and bound <= 1 else ceilings.Limit(
            None, "link", "link", None, "no ceiling: beats the link's pinned rates" if bound else
            "not judged: no link rates in this record", None)
    found = ceilings.judge(entry.run, space, probe, row, size * 1e9, entry.time,
                           entry.on_device and entry.time < LATENCY_S)
    why = (row.get("fraction_above_100_because") or {}).get  # its program's reason, for the probe that fits it
    return found._replace(why=why("fitting_probe") or why("kokkos_copy")) if found.fraction is None else found


def limit_text(entry):
    return found.text() if (found := limit(entry)) else "-"


def _like(entries, anchor):
    """The entries of `anchor`'s kind, where there are any: its type and parameter tokens (f32, int32, 16 bins)."""
    def kind(e):
        return {t for t in e.variant.removesuffix(TRANSFERS).split("-") if re.fullmatch(r"([fiu]|int|float)\d*|\d+", t)}
    return [e for e in entries if anchor and kind(e) == kind(anchor)] or entries


class Line:
    """One workload in one record (`run`; CPU rows of the CPU-only records where the reader gave some)."""

    def __init__(self, experiment, run):
        self.experiment, self.run, self.size, self.notes, self.references = experiment, run, None, [], {}  # numpy: Run
        self.cpu = self.resident = self.transfers = None

    def speedup(self, gpu):
        return self.cpu.time / gpu.time if self.cpu and gpu else None

    def cpu_speedup(self, space):  # never across two machines
        ref, host = self.references.get(space), lambda run: run.value("host", "host_name") or run.path
        return ref.time / self.cpu.time if self.cpu and ref and host(ref.run) == host(self.cpu.run) else None


def best(entries):
    return min((e for e in entries if e.usable), key=lambda e: e.time, default=None)


def cpu_only(run):
    return not run.has_device and any(e.cpu_variant for e in run.entries)


def cpu_runs(runs):  # the CPU-only records, else all
    return [r for r in runs if cpu_only(r)] or runs


def reference_spaces(runs):
    found = {e.space for r in runs for e in r.entries if e.is_reference}
    return [s for s in REFERENCE_SPACES if s in found]


def reference_runs(runs, space):
    """The CPU runs' with rows of that space, else all runs'."""
    has = [r for r in runs if any(e.space == space for e in r.entries)]
    return [r for r in cpu_runs(runs) if r in has] or has


def reference_label(runs, space):
    """'NumPy (ws, 1 thread)'."""
    found = reference_runs(runs, space)
    threads = {c.get("threads") for r in found for c in r.reference_contexts()
               if space in (c.get("execution_spaces") or [])}
    n = next(iter(threads)) if len(threads) == 1 else None
    said = [found[0].label] * (len(found) == 1) + [f"{n} thread{'' if n == 1 else 's'}"] * isinstance(n, int)
    return REFERENCE_SPACES.get(space, space) + (f" ({', '.join(said)})" if said else "")


def summarize(runs):
    """A line per workload and GPU record, its CPU rows those of the CPU-only records the reader gave, else its own:
    never a best across records the reader did not set side by side."""
    spaces, gpus = {s: reference_runs(runs, s) for s in reference_spaces(runs)}, [r for r in runs if r.has_device]
    lines = []
    for experiment in experiment_order(runs):
        for gpu_run, cpus in [(g, [r for r in runs if cpu_only(r)] or [g]) for g in gpus] or [(None, cpu_runs(runs))]:
            mine = [e for e in entries_of(runs, experiment) if e.run in cpus or e.run is gpu_run or e.is_reference]
            if not mine:
                continue
            line = Line(experiment, gpu_run)
            cpu = [e for e in mine if e.cpu_variant and e.run in cpus]
            gpu = [e for e in mine if e.on_device and e.run is gpu_run]
            refs = [e for e in mine if e.is_reference and e.run in spaces[e.space]]
            ok_cpu, ok_gpu = {e.size for e in cpu if e.usable}, {e.size for e in gpu if e.usable}
            if ok_cpu and ok_gpu and not ok_cpu & ok_gpu:
                line.notes.append(f"{NOT_COMPARABLE}: CPU at {_sizes(ok_cpu)}, GPU at {_sizes(ok_gpu)}")
            sizes = ok_cpu & ok_gpu or ok_cpu or ok_gpu or {e.size for e in refs if e.usable} or \
                {e.size for e in cpu + gpu + refs}
            line.size = max(sizes, key=size_sort_key) if sizes else ""
            at = [e for e in cpu + gpu + refs if e.size == line.size]
            line.resident = best(e for e in at if e.on_device and not e.crosses_link)
            line.cpu = best(_like([e for e in at if e.cpu_variant and e.usable], line.resident))
            line.transfers = best(_like([e for e in at if e.on_device and e.crosses_link and e.usable], line.cpu))
            for space in spaces:  # the best CPU variant's variant, else the fastest
                found = [e for e in at if e.space == space and e.usable]
                line.references[space] = best([e for e in found if line.cpu and e.variant == line.cpu.variant] or found)
                if not found and (measured := {e.size for e in refs if e.space == space and e.usable}):
                    line.notes.append(f"{REFERENCE_SPACES[space]} not at {format_size(line.size)} (measured at "
                                      f"{_sizes(measured)})")
            if failed := [e for e in at if e.error]:
                line.notes.append(f"{len(failed)} row(s) {failed[0].error}: left out")
            lines.append(line)
    return lines


def _sizes(sizes):
    return ", ".join(format_size(s) for s in sorted(sizes, key=size_sort_key))


def crossover(points):
    """The smallest elements from which the device is faster at every larger size; None if never."""
    wins_from = None
    for elements, host, device in sorted(p for p in points if p[1] and p[2]):
        wins_from = (elements if wins_from is None else wins_from) if device < host else None
    return wins_from


class Crossover:
    """One comparison across sizes: `curves` label -> {host, resident, transfers: {elements: seconds}} (a sweep's
    points, else the rows' best of one kind per size); `own`: label -> (resident from, transfers from), None where
    the record has no device, its host times the CPU-only record's where the reader gave one (as the summary's).
    The table, the plots and the sentences read only these."""

    def __init__(self, experiment, name):
        self.experiment, self.name, self.curves, self.own = experiment, name, {}, {}

    def said(self, label, n):
        """'2^15', 'never' or '2^24 (every size)', of crossover n of the curves of `label`'s host."""
        smallest = min(self.curves.get(label, {}).get("host") or [0])
        return "never" if not n else format_size(str(n)) + (" (every size)" if n <= smallest else "")

    def wins_from(self, host, device):
        return crossover([(n, self.curves[host]["host"].get(n), t) for n, t in device.items()]) \
            if host in self.curves and len(device) > 1 else None


PICKS = {"host": lambda e: e.cpu_variant, "resident": lambda e: e.on_device and not e.crosses_link,
         "transfers": lambda e: e.on_device and e.crosses_link}
SWEPT = {"host": "host_s", "resident": "device_resident_s", "transfers": "device_with_transfers_s"}


def crossovers(runs, lines):
    found = {}
    for run in runs:
        for experiment, (_, data) in run.programs.items():  # "sweep" in older files
            for sweep in data.get("sweeps") if isinstance(data.get("sweeps"), list) else [data.get("sweep")]:
                if isinstance(sweep, dict) and isinstance(sweep.get("points"), list) and sweep["points"]:
                    name = sweep.get("host_variant") or ""
                    found.setdefault((experiment, name), Crossover(experiment, name)).curves[run.label] = {
                        k: {p["elements"]: p[key] for p in sweep["points"] if isinstance(p, dict) and isinstance(
                            p.get("elements"), int) and positive(p.get(key))} for k, key in SWEPT.items()
                        if sweep.get("device_space") or k == "host"}
    for line in lines:  # a workload without a sweep: its rows' best of the line's kind per size, as the summary's
        mine, curves = [e for e in entries_of(runs, line.experiment) if e.usable and e.elements], {k: {} for k in PICKS}
        for k, pick in PICKS.items():
            for e in _like([e for e in mine if pick(e) and e.run is (line.cpu.run if line.cpu and k == "host"
                                                                     else line.run)], line.resident or line.cpu):
                curves[k][e.elements] = min(curves[k].get(e.elements, e.time), e.time)
        if all(e != line.experiment for e, _ in found) and len(curves["host"]) > 1 and line.run:
            found.setdefault((line.experiment, "best rows"), Crossover(line.experiment, "best rows")).curves[
                line.run.label] = {k: c for k, c in curves.items() if c}
    cpus = [r.label for r in runs if cpu_only(r)]
    for c in found.values():
        for label, curves in c.curves.items():
            host = next((cpu for cpu in cpus if cpu in c.curves), label)
            c.own[label] = tuple(c.wins_from(host, curves.get(k, {})) for k in ("resident", "transfers")) \
                if "resident" in curves else None
    return sorted(found.values(), key=lambda c: (experiment_order(runs).index(c.experiment), c.name))


def _cell(entry, runs_shown):
    """'resident cuda 20.00 ms, 42% memory'."""
    return "-" if entry is None else f"{entry.variant.replace(TRANSFERS, '')} {entry.space}" + (
        f"@{entry.run.label}" * runs_shown) + f" {format_time(entry.time)}, {limit_text(entry)}"


def summary_table(runs, lines):
    """Header groups and rows, at most 8 columns; a column no row fills is left out."""
    several, cpus, refs = len({line.run for line in lines}) > 1, cpu_runs(runs), reference_spaces(runs)[:1]
    groups = [("", ["workload", "size"]), ("best CPU" + (f" ({cpus[0].label})" if len(cpus) == 1 else ""),
                                           ["row, % of limit"])]
    groups += [(reference_label(runs, s), ["row, CPU speed-up"]) for s in refs]
    groups += [(f"best GPU, {how}", ["row, % of limit", "speed-up"]) for how in ("data resident", "with transfers")]
    rows = [[line.experiment + (f" @{line.run.label}" if several and line.run else ""), format_size(line.size) or "-",
             _cell(line.cpu, len(cpus) > 1 and not several),
             *[f"{r.variant} {format_time(r.time)}, {format_ratio(line.cpu_speedup(s))}"
               if (r := line.references.get(s)) else "-" for s in refs],
             _cell(line.resident, False), format_ratio(line.speedup(line.resident)),
             _cell(line.transfers, False), format_ratio(line.speedup(line.transfers))] for line in lines]
    starts = [0] + [len(subs) for _, subs in groups]
    kept = [(g, range(sum(starts[:k + 1]), sum(starts[:k + 2]))) for k, g in enumerate(groups)]  # a group's columns
    kept = [(g, cols) for g, cols in kept if cols.start < 3 or any(r[i] != "-" for r in rows for i in cols)]
    return [g for g, _ in kept], [[r[i] for _, cols in kept for i in cols] for r in rows]


def answer(line, found):
    """The figures of the line's sentence (templates/sections.md.j2 words it), from the summary's and the crossover
    table's: the size; (GPU faster?, how many times, how, crossover or None) resident and with transfers; the limits."""
    c = next((c for c in found if line.run and c.experiment == line.experiment and c.own.get(line.run.label)), None)
    speeds = [(x >= 1, format_ratio(max(x, 1 / x)), how, c and c.said(line.run.label, c.own[line.run.label][k]))
              for k, how, gpu in ((0, "with data resident", line.resident), (1, "with transfers", line.transfers))
              if (x := line.speedup(gpu))]
    return format_size(line.size) or "-", speeds, [(who, limit_text(e)) for who, e in (
        ("GPU", line.resident), ("CPU", line.cpu)) if limit(e)]


def legend(runs, lines):
    """What the notes under the summary's table state (templates/sections.md.j2 says it)."""
    return dict(cpus=[r.label for r in cpu_runs(runs)], cpu_alone=any(map(cpu_only, runs)),
                gpus=[r.label for r in runs if r.has_device], references=[(
                    reference_label(runs, space), [r.label for r in reference_runs(runs, space)], [
                        line.experiment for line in lines if line.cpu and line.references.get(space)
                        and line.cpu_speedup(space) is None]) for space in reference_spaces(runs)],
                unbounded=[(line.experiment, e.variant, e.space, found.none,
                            re.sub(r"^\d+% of [^:]*: ", "", found.why))  # its program's, less its old figure
                           for line in lines for e in (line.cpu, line.resident, line.transfers)
                           if (found := limit(e)) and found.fraction is None and found.why],
                notes=[f"{line.experiment}: {note}" for line in lines for note in line.notes])
