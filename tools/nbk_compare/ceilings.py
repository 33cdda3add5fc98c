"""Each row against the ceiling it could reach (issue 58; docs/comparing.md, "How a row is judged"): the memory
level its working set fits in, its traffic kind's rate there, its flops at the FMA probe; a row no ceiling of its
record bounds says so (`Limit.none`), never a fraction above 1."""
import collections
import math

from .fmt import format_pct
from .gbench import on_device
from .runs import positive

# The programs' traffic kinds (their probes' "gb_per_s" keys): what a row's bytes are.
KIND_TEXT = {"read": "1 read", "update": "1 read 1 write in place", "copy": "1 read 1 write",
             "add": "2 reads 1 write", "copy_nt": "1 read 1 streaming write", "add_nt": "2 reads 1 streaming write"}
OLD_PROBES = ("copy", "in_place", "dot", "triad", "memcpy")  # an old record's DRAM-sized probes, <kind>_gb_per_s
MEMORY_LEVELS = ("DRAM", "HBM")  # the level past the caches, CPU and GPU (an old record's only measured one)


class Level(collections.namedtuple("Level", "name capacity rates by")):
    """A memory level of one space: capacity_bytes (None: the memory past the caches, or unknown), its ceiling per
    traffic kind in GB/s as the memory moves them ({}: not measured) and the probe each came from."""
    best = property(lambda self: max(self.rates.values(), default=None))


class Limit(collections.namedtuple("Limit", "fraction binds level detail none why at_most", defaults=(None, False))):
    """fraction: the time the row cannot beat over its time (None: no ceiling bounds it; `none` says why);
    binds: memory, arithmetic, chain (an in-order reduction's dependent operations on a host thread), latency (a
    device call under 20 us) or link; level: L1, L2, L3, DRAM, HBM, FMA, chain or link;
    detail: the traffic kind or the ceiling's source ("copy probe"); why: its program's reason for an old
    fraction above 100% (for a row without a ceiling); at_most: the row may sit in a cache the record has no size
    for, whose ceiling is higher than the one it is judged by: its fraction of its own is at most `fraction`."""

    def text(self):
        """'81% of L2, 2 reads 1 write', '62% of DRAM, copy probe', 'no ceiling for L2 in this record'."""
        if self.fraction is None:
            return self.none
        return "≤" * self.at_most + f"{format_pct(self.fraction)} of {self.level}" + (f"{' ' if self.level == 'FMA' else ', '}{self.detail}"
                                                                 if self.detail else "") + (
            ", latency" if self.binds == "latency" else "") + ("; level not recorded" if self.at_most else "") + (
            f"; {self.none}" if self.none else "")


def _device(run):
    """The first CUDA device of the record's device_info.json (the one Kokkos selects by default), else {}."""
    devices = ((run.programs.get("device_info", (None, {}))[1].get("cuda") or {}).get("devices") or [{}])
    return devices[0] if isinstance(devices[0], dict) else {}


def theoretical_gb_per_s(run, probe):
    """A device's memory roof: its ceilings' theoretical figure, else memory clock (kHz) x bus width (bits) x 2
    (double data rate) / 8 of device_info.json's attributes; None where the record holds neither."""
    said = positive(((probe.get("ceilings") or {}).get("theoretical") or {}).get("memory_gb_per_s"))
    device = _device(run)
    attributes = device.get("attributes") if isinstance(device.get("attributes"), dict) else {}
    clock = positive(attributes.get("MEMORY_CLOCK_RATE")) or positive(device.get("memory_clock_khz"))
    bits = positive(attributes.get("GLOBAL_MEMORY_BUS_WIDTH")) or positive(device.get("memory_bus_bits"))
    return said or (clock * 1e3 * bits * 2 / 8 * 1e-9 if clock and bits else positive(
        device.get("theoretical_gb_per_s")))


def _cpu_caches(run, threads):
    """[Level] of the CPU's data caches for `threads` threads, from Google Benchmark's context in the record's
    bench.json (a private cache once a thread, a shared one once its sharers), else []: sizes never guessed."""
    found = {}
    for bench in run.bench:
        for c in bench.context.get("caches") or []:
            if isinstance(c, dict) and c.get("type") in ("Data", "Unified") and isinstance(c.get("level"), int) \
                    and positive(c.get("size")) and 0 < c["level"] < 10:
                found[c["level"]] = c["size"] * math.ceil(threads / (positive(c.get("num_sharing")) or 1))
    return [Level(f"L{k}", found[k], {}, {}) for k in sorted(found)]


def levels(run, space, probe):
    """[Level] of `space`, fastest first, the last the memory past the caches: a new record's ceilings.levels; an
    old record's caches (the GPU's L2_CACHE_SIZE, the CPU's from bench.json, where it holds them: no ceiling) and
    its DRAM-sized probes as the memory's ceilings."""
    ceilings = probe.get("ceilings")
    if isinstance(ceilings, dict):
        return [Level(str(lv.get("level")), positive(lv.get("capacity_bytes")),
                      {k: v for k, v in (lv.get("gb_per_s") or {}).items() if positive(v)}, lv.get("by") or {})
                for lv in ceilings.get("levels") or [] if isinstance(lv, dict)]
    rates = {k: probe[f"{k}_gb_per_s"] for k in OLD_PROBES if positive(probe.get(f"{k}_gb_per_s"))}
    if not on_device(space):
        threads = 1 if space in ("serial", "host") else positive(probe.get("concurrency")) or positive(
            run.value("host_concurrency")) or 1
        return _cpu_caches(run, threads) + [Level("DRAM", None, rates, {})]
    l2 = positive(((_device(run).get("attributes") or {}).get("L2_CACHE_SIZE"))) or positive(_device(run).get(
        "l2_bytes"))
    return [Level("L2", l2, {}, {})] * bool(l2) + [Level("HBM", None, rates, {})]


def working_set(row, counted_bytes):
    """The bytes a call's steady state touches: its ceiling's where the program says it, else the bytes it counts
    (half of them for a row judged in place: one array read and written)."""
    said = positive((row.get("ceiling") or {}).get("working_set_bytes"))
    return said or counted_bytes / (2 if row.get("fitting_probe") == "in_place" else 1)


def _memory(run, space, probe, row, counted_bytes, time):
    """(fraction, level, detail, none, at most?) of the row's bytes against its level's ceiling."""
    new = row.get("ceiling")
    if "ceiling" in row and not isinstance(new, dict):  # a new record's row its program found no ceiling for
        level = row.get("limit_level")
        return None, level, None, f"no ceiling for {level} in this record" if level and level not in (
            "FMA", "link") else "no ceiling: its program names none", False
    if isinstance(new, dict):
        moved, rate = positive(new.get("bytes_moved_per_call")), positive(new.get("gb_per_s"))
        floor = positive(new.get("floor_s")) or 0  # no call of its kind is faster: launch, fork, fence
        fraction = max(floor, moved * 1e-9 / rate) / time if moved and rate else positive(new.get("fraction"))
        level, detail = str(new.get("level")), new.get("kind_text") or KIND_TEXT.get(new.get("kind"))
        if fraction is None:
            return None, level, None, f"no ceiling for {level} in this record", False
        return (fraction, level, detail, None, False) if fraction <= 1 else (
            None, level, None, f"no ceiling: beats its {level} ceiling (a bug, in the row or in the probe)", False)
    found = levels(run, space, probe) if probe else []
    if not found:
        return None, None, None, f"no ceiling: no {space} {'ceilings' if probe else 'probes'} in this record", False
    ws = working_set(row, counted_bytes)
    level = next((lv for lv in found if lv.capacity and ws <= lv.capacity), found[-1])
    if not level.rates:
        return None, level.name, None, f"no ceiling for {level.name} in this record", False
    # no cache sizes: a row smaller than the probes that measured the memory (3 arrays) may sit in a cache
    unplaced = len(found) == 1 and ws < 3 * 8 * (positive(probe.get("elements_per_array")) or float("inf"))
    theoretical = theoretical_gb_per_s(run, probe) if level.name == "HBM" else None
    fits = row.get("fitting_probe") or "copy"
    ladder = [(level.rates.get(fits), f"{fits} probe")] + [(level.best, f"{max(level.rates, key=level.rates.get)} "
                                                                          "probe"), (theoretical, "theoretical peak")]
    rate = counted_bytes * 1e-9 / time
    for ceiling, source in ladder:  # the probe of its traffic; where the row beats it, the strongest one; the peak
        if ceiling and rate <= ceiling and (not theoretical or ceiling <= theoretical):
            return rate / ceiling, level.name, source, None, unplaced
    return None, level.name, None, f"no ceiling: beats every {level.name} ceiling", False


def _chain(row, time):
    """The Limit of the dependent chain the row's program says its operations make on a host thread (its "chain":
    links a thread, ns a link from the same run's chain probe), or None where it names none."""
    chain = row.get("chain")
    if not isinstance(chain, dict):
        return None
    links, link = positive(chain.get("links_per_thread")), positive(chain.get("link_ns"))
    if not links or not link:
        return None
    fraction, operations = links * link * 1e-9 / time, str(chain.get("operations") or "")
    return Limit(fraction, "chain", "chain", operations, None) if fraction <= 1 else Limit(
        None, "chain", "chain", None, "no ceiling: beats its chain of " + (operations or "operations") +
        " (a bug, in the row or in the probe)")


def judge(run, space, probe, row, counted_bytes, time, latency):
    """The row's Limit: memory, arithmetic and its chain, the largest fraction binding; None where it counts
    neither bytes nor flops."""
    flops, precision = positive(row.get("flops_per_call")), row.get("flop_precision")
    fma = positive(probe.get(f"fma_{precision}_gflop_per_s"))
    if not counted_bytes and not flops:
        return Limit(None, "memory", None, None, "not judged: no bytes or flops counted", None)
    mem = _memory(run, space, probe, row, counted_bytes, time) if counted_bytes else (None, None, None, None, False)
    if flops and not fma:
        ari = (None, f"no ceiling: no FMA {precision} probe in this record")
    elif flops:
        f = flops * 1e-9 / fma / time
        ari = (f, None) if f <= 1 else (None, f"no ceiling: beats the FMA {precision} probe")
    else:
        ari = None
    binds = "latency" if latency else "memory"
    chain = _chain(row, time)
    if chain and chain.binds == "chain" and (chain.fraction is None or chain.fraction > max(
            mem[0] or 0, (ari or (0,))[0] or 0)):  # an in-order reduction's links take longer than the rest
        return chain
    if ari and ari[0] is None:  # flops faster than the FMA probe, or none to judge them by: no bound
        return Limit(None, "arithmetic", "FMA", None, ari[1], None)
    if ari and (mem[0] is None or ari[0] > mem[0]):  # arithmetic binds, or the memory side is not judged
        return Limit(ari[0], "arithmetic", "FMA", precision, mem[3])
    return Limit(mem[0], binds, *mem[1:4], None, mem[4])
