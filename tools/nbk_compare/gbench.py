"""The tools' one row model, Run: a benchmark, a program's result row or a probe, named
experiment/variant/space[/size...][/suffix...] (shorter names load)."""
import json
import math
import re

from . import stats
from .fmt import is_int

TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# Google Benchmark's name suffixes: timing modes leave the pairing key, options (threads:2) keep runs apart.
_TIMING_SUFFIX = re.compile(r"^(manual_time|real_time|process_time)$")
_OPTION_SUFFIX = re.compile(r"^(threads|iterations|repeats|min_time|min_warmup_time):\S+$")
_AGGREGATE_SUFFIX = re.compile(r"_(mean|median|stddev|cv|min|max)$")


class InputError(Exception):
    """A file that cannot be used; str() is one line naming the file."""


def load_json(path):
    """The tools' one JSON reader: the data, or InputError naming the file."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a JSON file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    if not data.strip():
        raise InputError(f"{path}: empty file, not JSON")
    try:
        text = data.decode("utf-8")
        return json.loads(text)
    except UnicodeDecodeError:
        raise InputError(f"{path}: not JSON (not UTF-8 text)") from None
    except json.JSONDecodeError as e:
        truncated = e.pos >= len(text.rstrip()) - 1 or e.msg.startswith("Unterminated")
        raise InputError(f"{path}: {'truncated' if truncated else 'malformed'} JSON ({e.msg} at line {e.lineno} "
                         f"column {e.colno})") from None


def split_name(name):
    """'add_one/resident/openmp/67108864/manual_time' -> dict(experiment, variant, space, size, extra)."""
    parts = name.split("/")
    core = parts[:1] + [p for p in parts[1:] if not (_TIMING_SUFFIX.match(p) or _OPTION_SUFFIX.match(p))]
    fields = {"experiment": core[0], "variant": "", "space": "", "size": "",
              "extra": "/".join(p for p in parts[1:] if _OPTION_SUFFIX.match(p))}
    if len(core) >= 3:
        fields.update(variant=core[1], space=core[2], size="/".join(core[3:]))
    elif len(core) == 2:
        fields[("size" if is_int(core[1]) else "variant")] = core[1]
    return fields


def size_sort_key(size):
    """Numerically part by part (a shape AxBxC by its element count), text after numbers."""
    def part(p):
        if is_int(p):
            return (0, int(p), "")
        if re.fullmatch(r"\d+(x\d+)+", p):
            return (0, math.prod(int(e) for e in p.split("x")), p)
        return (1, 0, p)
    return tuple(part(p) for p in size.split("/")) if size else ()


def _seconds(row):
    t, unit = row.get("real_time"), TIME_UNITS.get(row.get("time_unit", "ns"))
    return t * unit if isinstance(t, (int, float)) and unit is not None and math.isfinite(t) else None


def _gbps(row):
    g, b = row.get("GB/s"), row.get("bytes_per_second")
    return float(g) if isinstance(g, (int, float)) else b * 1e-9 if isinstance(b, (int, float)) else None


# The CPU spaces ('host': one thread outside Kokkos); any other (cuda, hip, sycl, ...) is a device.
CPU_SPACES = ("host", "serial", "openmp", "threads", "hpx", "numpy")
# References measured beside the programs (tools/nbk-numpy): never the best CPU, columns of their own.
REFERENCE_SPACES = {"numpy": "NumPy"}


def on_device(space):
    return space not in CPU_SPACES


def is_reference(space):
    return space in REFERENCE_SPACES


class Run:
    """One row: its repetitions' times (a program's: its best call) or Google Benchmark's aggregates."""

    def __init__(self, name, **fields):
        self.name = name  # run name without the aggregate suffix
        fields = {**split_name(name), **fields}
        self.experiment, self.variant, self.space, self.size, self.extra = (
            fields[k] for k in ("experiment", "variant", "space", "size", "extra"))
        self.samples = []  # seconds per iteration, a repetition each
        self.gbps_samples = []
        self.aggregates = {}  # aggregate name -> row
        self.error = None
        self.crosses_link = False  # host<->device copies are timed
        self.reference = self.run = self.elements = self.link_fraction = None
        self.above_because = {}  # a program's reason for a fraction above 100%, by reference kind

    key = property(lambda self: (self.experiment, self.variant, self.size, self.extra))  # less the space
    family = property(lambda self: f"{self.experiment}/{self.variant}" if self.variant else self.experiment)

    def _of_aggregates(self, value):
        return next((v for v in (value(self.aggregates[n]) for n in ("median", "mean") if n in self.aggregates)
                     if v is not None), None)

    time = property(lambda self: _median(self.samples) if self.samples else self._of_aggregates(_seconds))
    gbps = property(lambda self: _median(self.gbps_samples) if self.gbps_samples else self._of_aggregates(_gbps))

    @property
    def time_source(self):
        if self.samples:
            return f"median of {len(self.samples)}" if len(self.samples) > 1 else "single run"
        return next((f"{n} aggregate" for n in ("median", "mean") if n in self.aggregates), "none")

    @property
    def repetitions(self):
        return len(self.samples) or next((row["repetitions"] for row in self.aggregates.values()
                                          if isinstance(row.get("repetitions"), int)), 0)

    @property
    def spread(self):
        """(kind, relative value, details): 'iqr' / median, else 'cv' (stddev / mean)."""
        if len(self.samples) >= 2:
            q1, med, q3 = (stats.quantile(self.samples, q) for q in (0.25, 0.5, 0.75))
            return "iqr", (q3 - q1) / med if med > 0 else None, {"q1_s": q1, "q3_s": q3, "min_s": min(self.samples),
                                                                 "max_s": max(self.samples)}
        cv = self.aggregates.get("cv")
        if cv is not None and isinstance(cv.get("real_time"), (int, float)):
            return "cv", float(cv["real_time"]), {}
        sd, mean = (_seconds(self.aggregates[n]) if n in self.aggregates else None for n in ("stddev", "mean"))
        return ("cv", sd / mean, {"stddev_s": sd}) if sd is not None and mean else (None, None, {})

    on_device = property(lambda self: on_device(self.space))
    is_reference = property(lambda self: is_reference(self.space))
    usable = property(lambda self: self.error is None and self.time is not None)
    cpu_variant = property(lambda self: not self.on_device and not self.is_reference and not self.crosses_link)

    @property
    def fraction(self):
        """GB/s over the reference's; a call crossing the link: of the link, as its program measured."""
        if self.crosses_link:
            return self.link_fraction
        return None if self.gbps is None or self.reference is None else self.gbps / self.reference.gbps

    @property
    def fraction_of(self):
        return "link" if self.crosses_link else (self.reference.variant if self.reference else None)


def bandwidth_reference(runs, space):
    """The one reference rule: the memcpy probe of `space` (older files: its copy probe) at its largest size;
    'host' (one thread outside Kokkos) is judged on serial's."""
    space = "serial" if space == "host" else space
    for kind in ("memcpy", "copy"):
        found = [r for r in runs if r.family == f"probe/{kind}" and r.space == space and not r.error and r.gbps]
        if found:
            return max(found, key=lambda r: size_sort_key(r.size))
    return None


def _median(values):
    return values[0] if len(values) == 1 else stats.median(values)


class BenchFile:
    def __init__(self, path, label=None):
        self.path, self.label = path, label
        data = load_json(path)
        what = "not Google Benchmark output"
        if not isinstance(data, dict):
            raise InputError(f"{path}: {what} (top level is not an object)")
        for key, kind in (("benchmarks", list), ("context", dict)):
            if not isinstance(data.get(key), kind):
                raise InputError(f'{path}: {what} (no "{key}" {"list" if kind is list else "object"})')
        if not data["benchmarks"]:
            raise InputError(f'{path}: no benchmarks (the "benchmarks" list is empty)')
        self.context = data["context"]
        self.runs = {}  # run name -> Run, in order of appearance
        for i, row in enumerate(data["benchmarks"]):
            if not isinstance(row, dict) or not isinstance(row.get("name"), str):
                raise InputError(f"{path}: {what} (benchmark {i} has no name)")
            self._add(row)
        refs = {space: bandwidth_reference(self.runs.values(), space) for space in self.spaces}
        for run in self.runs.values():
            run.reference = refs[run.space]

    def _add(self, row):
        aggregate = row.get("run_type") == "aggregate"
        name = row.get("run_name")
        if not isinstance(name, str):
            name = _AGGREGATE_SUFFIX.sub("", row["name"]) if aggregate else row["name"]
        run = self.runs.setdefault(name, Run(name))
        if row.get("error_occurred"):
            run.error = str(row.get("error_message") or "error")
            return
        run.crosses_link |= bool(row.get("crosses_link"))
        if aggregate:
            found = _AGGREGATE_SUFFIX.search(row["name"])
            run.aggregates[row.get("aggregate_name") or (found.group(1) if found else "unknown")] = row
        elif (t := _seconds(row)) is not None:
            run.samples.append(t)
            if (g := _gbps(row)) is not None:
                run.gbps_samples.append(g)

    spaces = property(lambda self: list(dict.fromkeys(run.space for run in self.runs.values())))
