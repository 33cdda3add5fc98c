"""Per workload across runs: the best CPU and GPU rows, NumPy's beside them, the crossovers (docs/comparing.md)."""
import dataclasses
import itertools

from .fmt import format_pct, format_ratio, format_size, format_time
from .gbench import REFERENCE_SPACES, size_sort_key
from .runs import TRANSFERS, entries_of, experiment_order

NOT_COMPARABLE = "not comparable"


class Line:
    def __init__(self, experiment):
        self.experiment, self.size, self.notes = experiment, None, []
        self.cpu = self.resident = self.transfers = None
        self.references = {}  # reference space (numpy) -> Run

    def speedup(self, gpu):
        return None if self.cpu is None or gpu is None else self.cpu.time / gpu.time

    def cpu_speedup(self, space):
        """Never across two machines."""
        ref = self.references.get(space)
        return None if self.cpu is None or ref is None or machine(ref.run) != machine(self.cpu.run) \
            else ref.time / self.cpu.time


def machine(run):
    return run.value("host", "host_name") or run.path


def best(entries):
    return min((e for e in entries if e.usable), key=lambda e: e.time, default=None)


def _cpu_run(run):
    return not run.has_device and any(e.cpu_variant for e in run.entries)


def cpu_runs(runs):
    return [r for r in runs if _cpu_run(r)] or runs


def reference_spaces(runs):
    found = {e.space for r in runs for e in r.entries if e.is_reference}
    return [s for s in REFERENCE_SPACES if s in found]


def reference_runs(runs, space):
    """The CPU runs' with rows of that space, else all runs'."""
    def has(r):
        return any(e.space == space for e in r.entries)
    return [r for r in cpu_runs(runs) if has(r)] or [r for r in runs if has(r)]


def reference_label(runs, space):
    """'NumPy (ws, 1 thread)'."""
    found = reference_runs(runs, space)
    threads = {c.get("threads") for r in found for c in r.reference_contexts()
               if space in (c.get("execution_spaces") or [])}
    n = next(iter(threads)) if len(threads) == 1 else None
    said = [found[0].label] * (len(found) == 1) + [f"{n} thread{'' if n == 1 else 's'}"] * isinstance(n, int)
    return REFERENCE_SPACES.get(space, space) + (f" ({', '.join(said)})" if said else "")


def summarize(runs):
    cpus = cpu_runs(runs)
    spaces = {s: reference_runs(runs, s) for s in reference_spaces(runs)}
    lines = []
    for experiment in experiment_order(runs):
        mine = entries_of(runs, experiment)
        if not mine:
            continue
        line = Line(experiment)
        cpu = [e for e in mine if e.cpu_variant and e.run in cpus]
        gpu = [e for e in mine if e.on_device]
        refs = [e for e in mine if e.is_reference and e.run in spaces[e.space]]
        ok_cpu, ok_gpu = {e.size for e in cpu if e.usable}, {e.size for e in gpu if e.usable}
        if ok_cpu and ok_gpu and not ok_cpu & ok_gpu:
            line.notes.append(f"{NOT_COMPARABLE}: CPU at {_sizes(ok_cpu)}, GPU at {_sizes(ok_gpu)}")
        sizes = ok_cpu & ok_gpu or ok_cpu or ok_gpu or {e.size for e in refs if e.usable} or \
            {e.size for e in cpu + gpu + refs}
        line.size = max(sizes, key=size_sort_key) if sizes else ""
        at = [e for e in cpu + gpu + refs if e.size == line.size]
        line.cpu = best(e for e in at if e.cpu_variant)
        line.resident = best(e for e in at if e.on_device and not e.crosses_link)
        line.transfers = best(e for e in at if e.on_device and e.crosses_link)
        for space in spaces:  # the best CPU variant's variant, else the fastest
            mine = [e for e in at if e.space == space and e.usable]
            line.references[space] = best([e for e in mine if line.cpu and e.variant == line.cpu.variant] or mine)
            measured = {e.size for e in refs if e.space == space and e.usable}
            if line.references[space] is None and measured:
                line.notes.append(f"{REFERENCE_SPACES[space]} not at {format_size(line.size)} "
                                  f"(measured at {_sizes(measured)})")
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


def _elements(point):
    return point.get("elements") if isinstance(point, dict) and isinstance(point.get("elements"), int) else None


def _points(sweep, key):
    return {_elements(p): p[key] for p in sweep["points"] if _elements(p) is not None
            and isinstance(p.get(key), (int, float))}


@dataclasses.dataclass
class Crossover:
    """`own`: label -> (resident from, transfers from) or None (no device); `across`: (cpu, gpu, from, from)."""
    experiment: str
    name: str
    own: dict = dataclasses.field(default_factory=dict)
    across: list = dataclasses.field(default_factory=list)
    sweeps: dict = dataclasses.field(default_factory=dict)


def crossovers(runs):
    found = {}
    for run in runs:
        for experiment, (_, data) in run.programs.items():
            # "sweep" in older files
            for sweep in data.get("sweeps") if isinstance(data.get("sweeps"), list) else [data.get("sweep")]:
                if not isinstance(sweep, dict) or not isinstance(sweep.get("points"), list) or not sweep["points"]:
                    continue
                c = found.setdefault((experiment, sweep.get("host_variant") or ""),
                                     Crossover(experiment, sweep.get("host_variant") or ""))
                c.sweeps[run.label] = sweep
                c.own[run.label] = tuple(_elements(sweep.get(f"device_wins_from_{k}")) for k in (
                    "resident", "with_transfers")) if sweep.get("device_space") else None
    for c in found.values():
        for cpu in cpu_runs(runs):
            for gpu in runs:
                if gpu is cpu or not c.sweeps.get(gpu.label, {}).get("device_space") or cpu.label not in c.sweeps:
                    continue
                host = _points(c.sweeps[cpu.label], "host_s")
                c.across.append((cpu.label, gpu.label) + tuple(
                    crossover([(n, host.get(n), t) for n, t in _points(c.sweeps[gpu.label], key).items()])
                    for key in ("device_resident_s", "device_with_transfers_s")))
    order = experiment_order(runs)
    return sorted(found.values(), key=lambda c: (order.index(c.experiment), c.name))


def _cells(entry, runs_shown, space=True):
    where = entry.variant.replace(TRANSFERS, "") + (f" {entry.space}" if space else "")
    where += f"@{entry.run.label}" if runs_shown > 1 else ""
    if not space:
        return [where, format_time(entry.time)]
    kind = "" if entry.fraction_of in ("memcpy", "link") else f" {entry.fraction_of}"
    return [where, format_time(entry.time), "-" if entry.fraction is None else format_pct(entry.fraction) + kind]


def summary_table(runs, lines):
    """Header groups and rows; a group no row fills is left out."""
    cpus, gpus, references = cpu_runs(runs), [r for r in runs if r.has_device], reference_spaces(runs)
    gpu_label = f" ({gpus[0].label})" if len(gpus) == 1 else ""
    groups = [("", ["workload", "size"]),
              (f"best CPU ({cpus[0].label})" if len(cpus) == 1 else "best CPU", ["variant", "time", "% ref"])]
    groups += [(reference_label(runs, space), ["variant", "time", "CPU speed-up"]) for space in references]
    groups += [("best GPU" + gpu_label + ", data resident", ["variant", "time", "% ref", "speed-up"]),
               ("best GPU" + gpu_label + ", with transfers", ["variant", "time", "% link", "speed-up"])]
    rows = []
    for line in lines:
        row = [line.experiment, format_size(line.size) or "-"] + (_cells(line.cpu, len(cpus)) if line.cpu else
                                                                   ["-"] * 3)
        for space in references:
            ref = line.references.get(space)
            row += _cells(ref, len(reference_runs(runs, space)), False) + [format_ratio(line.cpu_speedup(space))] \
                if ref else ["-"] * 3
        for gpu in (line.resident, line.transfers):
            row += _cells(gpu, len(gpus)) + [format_ratio(line.speedup(gpu))] if gpu else ["-"] * 4
        rows.append(row)
    starts = [0, *itertools.accumulate(len(subs) for _, subs in groups)]
    kept = [i for i, (a, b) in enumerate(zip(starts, starts[1:])) if i == 0 or any(r[a:b] != ["-"] * (b - a)
                                                                                   for r in rows)]
    columns = [c for i in kept for c in range(starts[i], starts[i + 1])]
    return [groups[i] for i in kept], [[r[c] for c in columns] for r in rows]


def text_columns(groups):
    return [i for i, h in enumerate(h for _, subs in groups for h in subs) if h in ("workload", "size", "variant")]


def legend(runs, lines):
    """What the notes under the summary's table state (templates/sections.md.j2 says it)."""
    def apart(space):
        return [line.experiment for line in lines if line.cpu and line.references.get(space)
                and line.cpu_speedup(space) is None]
    return dict(
        device=any(r.has_device for r in runs), cpus=[r.label for r in cpu_runs(runs)],
        cpu_alone=any(_cpu_run(r) for r in runs), gpus=[r.label for r in runs if r.has_device],
        references=[(reference_label(runs, space), [r.label for r in reference_runs(runs, space)], apart(space))
                    for space in reference_spaces(runs)],
        above=[(line.experiment, e.variant, e.space, e.above_because.get(e.fraction_of)) for line in lines
               for e in (line.cpu, line.resident) if e and (e.fraction or 0) > 1 and e.fraction_of != "link"],
        over=[f"{line.experiment} {format_pct(line.transfers.fraction)}" for line in lines
              if line.transfers and (line.transfers.fraction or 0) > 1],
        notes=[f"{line.experiment}: {note}" for line in lines for note in line.notes])
