"""The tools' one row model, Run: a benchmark, a program's result row or a probe, named
experiment/variant/space[/size...][/suffix...] (shorter names load)."""
import json
import math
import re
import statistics

from .fmt import is_int

TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}
# Google Benchmark's name suffixes: timing modes leave the pairing key, options (threads:2) keep runs apart.
_TIMING_SUFFIX = re.compile(r"^(manual_time|real_time|process_time)$")
_OPTION_SUFFIX = re.compile(r"^(threads|iterations|repeats|min_time|min_warmup_time):\S+$")
_AGGREGATE_SUFFIX = re.compile(r"_(mean|median|stddev|cv|min|max)$")


class InputError(Exception):
    """A file that cannot be used; str() is one line naming the file."""


class InvalidRecord(InputError):
    """A field of the wrong type or past a bound: exit 2 even for a file that would be skipped."""


# What one file may hold (docs/comparing.md); past a bound, InvalidRecord names the file and the field.
MAX_BYTES, MAX_DEPTH, MAX_TEXT, MAX_ITEMS, MAX_VALUES = 64 << 20, 32, 16384, 100_000, 1_000_000
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # in no string: tab, newline and return only
NUMBER, TIME, TEXT, INT = (int, float), (float, int), (str,), (int,)  # a schema's types; TIME: seconds, > 0


def load_json(path):
    """The tools' one JSON reader: the data, or InputError naming the file (and the field past a bound)."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory, not a JSON file") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read ({e.strerror})") from None
    if len(data) > MAX_BYTES:
        raise InvalidRecord(f"{path}: larger than {MAX_BYTES >> 20} MiB")
    if not data.strip():
        raise InputError(f"{path}: empty file, not JSON")
    try:
        text = data.decode("utf-8")
        return bounded(path, json.loads(text))
    except UnicodeDecodeError:
        raise InputError(f"{path}: not JSON (not UTF-8 text)") from None
    except RecursionError:
        raise InvalidRecord(f"{path}: nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as e:
        truncated = e.pos >= len(text.rstrip()) - 1 or e.msg.startswith("Unterminated")
        raise InputError(f"{path}: {'truncated' if truncated else 'malformed'} JSON ({e.msg} at line {e.lineno} "
                         f"column {e.colno})") from None


def bounded(path, data, schema=None):
    """data, else InvalidRecord naming the file and the first field past a bound or, where `schema` has it (a
    tuple of types, [an item's schema] or {key: its schema}, "*" any key; null allowed), of another type."""
    todo, count = [(data, "", 0, schema)], 0
    while todo:
        value, where, depth, kind = todo.pop()
        count += 1
        text = value if isinstance(value, str) else max(value, key=len, default="") if isinstance(value, dict) else ""
        many = len(value) if isinstance(value, (list, dict)) else 0
        why = (f"more than {MAX_VALUES:,} values" if count > MAX_VALUES else f"nested deeper than {MAX_DEPTH} levels"
               if depth > MAX_DEPTH else f"{many:,} items (at most {MAX_ITEMS:,})" if many > MAX_ITEMS else
               f"{len(text):,} characters (at most {MAX_TEXT:,})" if len(text) > MAX_TEXT else
               f"a control character (U+{ord(c[0]):04X})" if (c := _CONTROL.search(text)) else
               None if kind is None or value is None else _wrong(value, kind if isinstance(kind, tuple) else
                                                                 (type(kind),)))
        if why:
            raise InvalidRecord(f"{path}: {where or 'the file'}: {why}")
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        todo += [(v, (f"{where}.{k[:40]}" if where else k[:40]) if isinstance(k, str) else f"{where}[{k}]", depth + 1,
                  kind[0] if isinstance(kind, list) else kind.get(k, kind.get("*")) if isinstance(kind, dict) else None)
                 for k, v in children]
    return data


def _wrong(value, types):
    if not isinstance(value, types) or isinstance(value, bool) and bool not in types and int in types:
        return f"expected {' or '.join(t.__name__ for t in types)}, found {type(value).__name__} " \
            f"{json.dumps(value)[:40]}"
    if types in (NUMBER, TIME, INT) and not (math.isfinite(value) and (value > 0 or types is not TIME and value == 0)):
        return f"expected a finite number {'>' if types is TIME else '>='} 0, found {value}"


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

    time = property(lambda self: statistics.median(self.samples) if self.samples else self._of_aggregates(_seconds))
    gbps = property(lambda self: statistics.median(self.gbps_samples) if self.gbps_samples else
                    self._of_aggregates(_gbps))

    @property
    def repetitions(self):
        return len(self.samples) or next((row["repetitions"] for row in self.aggregates.values()
                                          if isinstance(row.get("repetitions"), int)), 0)

    @property
    def spread(self):
        """(kind, relative value, details): 'iqr' / median, else 'cv' (stddev / mean)."""
        if len(self.samples) >= 2:
            q1, med, q3 = statistics.quantiles(self.samples, method="inclusive")  # numpy's default, "type 7"
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


def bandwidth_reference(runs, space):
    """The one reference rule: the memcpy probe of `space` (older files: its copy probe) at its largest size;
    'host' (one thread outside Kokkos) is judged on serial's."""
    space = "serial" if space == "host" else space
    for kind in ("memcpy", "copy"):
        found = [r for r in runs if r.family == f"probe/{kind}" and r.space == space and not r.error and r.gbps]
        if found:
            return max(found, key=lambda r: size_sort_key(r.size))
    return None


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
            self._add(row, i)
        refs = {space: bandwidth_reference(self.runs.values(), space) for space in self.spaces}
        for run in self.runs.values():
            run.reference = refs[run.space]

    def _add(self, row, i):
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
        elif (t := _seconds(row)) is None or t <= 0:
            raise InvalidRecord(f"{self.path}: benchmarks[{i}].real_time: expected a time > 0, "
                                f"found {row.get('real_time')}")
        else:
            run.samples.append(t)
            if (g := _gbps(row)) is not None:
                run.gbps_samples.append(g)

    spaces = property(lambda self: list(dict.fromkeys(run.space for run in self.runs.values())))
