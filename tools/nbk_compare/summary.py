"""Across runs: per workload the best CPU and GPU timings and their speed-up, and the size
from which the GPU wins.

The CPU side is taken from the runs without a device (the CPU runs); when every run has a
device, from all of them. The GPU side is taken from every run with a device: the fastest
verified call with data resident, and the fastest whose timed call copies between host and
device (with transfers). Each is set at one size per workload: the largest size measured on
both sides (the largest measured at all when one side is missing).
"""
from . import compare as cmpmod
from .gbench import format_size, size_sort_key
from .runs import experiment_order

NOT_COMPARABLE = "not comparable"


class Line:
    """The summary of one workload."""

    def __init__(self, experiment):
        self.experiment = experiment
        self.size = None
        self.cpu = self.resident = self.transfers = None  # Entry
        self.notes = []

    def speedup(self, gpu):
        if self.cpu is None or gpu is None:
            return None
        return self.cpu.time / gpu.time


def _best(entries):
    usable = [e for e in entries if e.usable]
    return min(usable, key=lambda e: e.time) if usable else None


def cpu_runs(runs):
    return [r for r in runs if not r.has_device] or runs


def summarize(runs):
    """A Line per workload measured in any run (device_info has no timings: left out)."""
    cpus = cpu_runs(runs)
    lines = []
    for experiment in experiment_order(runs):
        mine = [e for r in runs for e in r.entries if e.experiment == experiment]
        if not mine:
            continue
        line = Line(experiment)
        cpu = [e for e in mine if not e.on_device and not e.crosses_link and e.run in cpus]
        gpu = [e for e in mine if e.on_device]
        line.size = _common_size(line, cpu, gpu)
        at = [e for e in cpu + gpu if e.size == line.size]
        line.cpu = _best(e for e in at if not e.on_device)
        line.resident = _best(e for e in at if e.on_device and not e.crosses_link)
        line.transfers = _best(e for e in at if e.on_device and e.crosses_link)
        failed = [e for e in at if e.error]
        if failed:
            line.notes.append(f"{len(failed)} row(s) {failed[0].error}: left out")
        lines.append(line)
    return lines


def _common_size(line, cpu, gpu):
    ok_cpu = {e.size for e in cpu if e.usable}
    ok_gpu = {e.size for e in gpu if e.usable}
    common = ok_cpu & ok_gpu
    if common:
        return max(common, key=size_sort_key)
    if ok_cpu and ok_gpu:
        line.notes.append(f"{NOT_COMPARABLE}: CPU at {_sizes(ok_cpu)}, GPU at {_sizes(ok_gpu)}")
        return max(ok_cpu, key=size_sort_key)
    every = ok_cpu | ok_gpu or {e.size for e in cpu + gpu}
    return max(every, key=size_sort_key) if every else ""


def _sizes(sizes):
    return ", ".join(format_size(s) for s in sorted(sizes, key=size_sort_key))


# ---------------------------------------------------------------------------------- crossover

def crossover(points):
    """Smallest elements from which the device is faster at every larger size of
    [(elements, host_s, device_s)]; None when it is not faster at the largest."""
    points = sorted(p for p in points if p[1] and p[2])
    wins_from = None
    for elements, host, device in points:
        if device < host:
            wins_from = elements if wins_from is None else wins_from
        else:
            wins_from = None
    return wins_from


def _sweeps(data):
    found = data.get("sweeps") if isinstance(data.get("sweeps"), list) else [data.get("sweep")]
    return [s for s in found if isinstance(s, dict) and isinstance(s.get("points"), list) and s["points"]]


def _points(sweep, key):
    return {p["elements"]: p.get(key) for p in sweep["points"]
            if isinstance(p, dict) and isinstance(p.get("elements"), int) and isinstance(p.get(key), (int, float))}


class Crossover:
    """One sweep (a workload, or a precision of one) across runs."""

    def __init__(self, experiment, name):
        self.experiment, self.name = experiment, name
        self.own = {}  # run label -> (resident from, with transfers from) or None (no device)
        self.across = []  # (cpu label, gpu label, resident from, with transfers from)
        self.sweeps = {}  # run label -> sweep


def crossovers(runs):
    """Per sweep: each run's own crossover, and the CPU runs' host times against the GPU
    runs' device times at the sizes both measured."""
    found = {}
    for run in runs:
        for experiment, (_, data) in run.programs.items():
            for sweep in _sweeps(data):
                key = (experiment, sweep.get("host_variant") or "")
                c = found.setdefault(key, Crossover(*key))
                c.sweeps[run.label] = sweep
                c.own[run.label] = (_elements(sweep.get("device_wins_from_resident")),
                                    _elements(sweep.get("device_wins_from_with_transfers"))) \
                    if sweep.get("device_space") else None
    cpus = cpu_runs(runs)
    for c in found.values():
        for cpu in cpus:
            for gpu in runs:
                if gpu is cpu or not c.sweeps.get(gpu.label, {}).get("device_space") or cpu.label not in c.sweeps:
                    continue
                host = _points(c.sweeps[cpu.label], "host_s")
                c.across.append((cpu.label, gpu.label) + tuple(
                    crossover([(n, host.get(n), t) for n, t in _points(c.sweeps[gpu.label], key).items()])
                    for key in ("device_resident_s", "device_with_transfers_s")))
    order = experiment_order(runs)
    return sorted(found.values(), key=lambda c: (order.index(c.experiment), c.name))


def _elements(at):
    return at.get("elements") if isinstance(at, dict) and isinstance(at.get("elements"), int) else None


def format_elements(n):
    return "-" if n is None else format_size(str(n))


# ---------------------------------------------------------------------------------- text

def _where(entry, runs_shown):
    """'variant on space' (and '@run' when several runs could have given it)."""
    text = f"{entry.variant.replace('+transfers', '')} {entry.space}"
    return f"{text}@{entry.run.label}" if runs_shown > 1 else text


def _pct(entry):
    frac = entry.fraction
    if frac is None:
        return "-"
    return cmpmod.format_pct(frac) + ("" if entry.fraction_of in ("memcpy", "link") else f" {entry.fraction_of}")


def summary_table(runs, lines):
    """Header groups and rows of the summary (for text and HTML alike)."""
    cpus = cpu_runs(runs)
    gpus = [r for r in runs if r.has_device]
    cpu_label = f"best CPU ({cpus[0].label})" if len(cpus) == 1 else "best CPU"
    gpu_label = f" ({gpus[0].label})" if len(gpus) == 1 else ""
    groups = [("", ["workload", "size"]), (cpu_label, ["variant", "time", "% ref"]),
              ("best GPU" + gpu_label + ", data resident", ["variant", "time", "% ref", "speed-up"]),
              ("best GPU" + gpu_label + ", with transfers", ["variant", "time", "% link", "speed-up"])]
    rows = []
    for line in lines:
        row = [line.experiment, format_size(line.size) or "-"]
        row += _cells(line.cpu, len(cpus)) if line.cpu else ["-", "-", "-"]
        for gpu in (line.resident, line.transfers):
            row += (_cells(gpu, len(gpus)) + [cmpmod.format_ratio(line.speedup(gpu))]) if gpu else ["-"] * 4
        rows.append(row)
    return groups, rows


def _cells(entry, runs_shown):
    return [_where(entry, runs_shown), cmpmod.format_time(entry.time), _pct(entry)]


def legend(runs, lines):
    cpus = cpu_runs(runs)
    out = [f"speed-up = best CPU time / GPU time (>1: the GPU is faster), at the size shown: the largest "
           f"measured on both. CPU: {', '.join(r.label for r in cpus)}"
           + ("" if len(cpus) < len(runs) else " (every run has a device: CPU rows of all runs)")
           + f"; GPU: {', '.join(r.label for r in runs if r.has_device) or 'no run with a device'}.",
           "% ref: GB/s as a share of the same run's memcpy probe of that space (copy: its Kokkos copy probe, "
           "in records without memcpy); % link: of the host-device link the program measured."]
    out += [f"{line.experiment}: {note}" for line in lines for note in line.notes]
    return out


def render_text(runs, lines):
    groups, rows = summary_table(runs, lines)
    left = [0, 1, 2, 5, 9]
    text = cmpmod.render_text_table(groups, rows, left=left)
    return text + "\n" + "\n".join(legend(runs, lines)) + "\n"
