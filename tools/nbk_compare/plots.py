"""nbk-report's PNG plots (matplotlib's Agg): a roofline per record, the single-size workloads' times as one bar chart,
the multi-size ones' curves with the crossover table's crossovers (times.png, paged)."""
import math
import os
import struct
import sys

from .fmt import format_size, format_time
from . import ceilings
from .gbench import on_device
from .record import written_whole
from .runs import positive
from .summary import TRANSFERS, _row, best

DPI, FONT = 110, 8
MAX_HEIGHT_PX = 1600  # no figure taller: a page shows it whole


class PlotsUnavailable(Exception):
    pass


def _figure(**kw):
    try:  # a Figure without pyplot saves through Agg: no backend to choose
        from matplotlib.figure import Figure
        from matplotlib import ticker
    except ImportError as e:
        raise PlotsUnavailable(f"matplotlib is not importable by {sys.executable} ({e}); on Debian: "
                               "apt-get install python3-matplotlib") from None
    return Figure(layout="constrained", **kw), ticker


def _save(fig, path):
    with written_whole(path) as temporary:  # whole or absent, as every file the tools write
        fig.savefig(temporary, format="png", dpi=DPI, bbox_inches="tight")
        if (height := png_size(temporary)[1]) > MAX_HEIGHT_PX:
            fig.savefig(temporary, format="png", dpi=DPI * MAX_HEIGHT_PX / height * 0.99, bbox_inches="tight")
    return path


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def _style(ax, title, xlabel="", ylabel="", **legend):
    ax.set_title(title, fontsize=9, loc="left")
    ax.set_xlabel(xlabel, fontsize=FONT), ax.set_ylabel(ylabel, fontsize=FONT), ax.grid(which="major", alpha=0.3)
    ax.minorticks_off()  # no unlabelled ticks: half the time a figure takes to draw
    ax.tick_params(labelsize=FONT - 1)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=FONT - 1, **legend)


def _time_axis(axis, ticker):
    axis.set_major_locator(ticker.LogLocator(base=10))
    axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_time(v, "g")))


PANEL_W, PANEL_H, COLUMNS = 4.6, 3.2, 3  # inches; a page of multi-size panels is COLUMNS wide
STYLES = {"host": ("-", "o", "CPU"), "resident": ("--", "s", "GPU resident"),
          "transfers": (":", "^", "GPU + transfers")}


def plot_curves(found, path):
    """A log-log panel per crossover: the curves it was computed from and its crossovers, on pages path, path-2..."""
    written, per = [], max(1, int((MAX_HEIGHT_PX / DPI - 1.0) // PANEL_H)) * COLUMNS
    for k, page in enumerate(found[first:first + per] for first in range(0, len(found), per)):
        ncols, nrows = min(COLUMNS, len(page)), math.ceil(len(page) / COLUMNS)
        fig, ticker = _figure(figsize=(PANEL_W * ncols, PANEL_H * nrows + 0.5))
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        for ax, c in zip(axes, page):
            for i, (label, curves) in enumerate(c.curves.items()):
                for name, curve in curves.items():
                    ax.plot(*zip(*sorted(curve.items())), linestyle=STYLES[name][0], marker=STYLES[name][1],
                            markersize=3, color=f"C{i}", label=f"{STYLES[name][2]} {label}")
                for n, name in zip(c.own.get(label) or (), ("resident", "transfers")):
                    if n:  # the crossover table's figure, as its table says it
                        ax.axvline(n, color=f"C{i}", linewidth=1, linestyle=STYLES[name][0],
                                   label=f"{STYLES[name][2]} {label} wins from {c.said(label, n)}")
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_size(str(int(round(v))))))
            _time_axis(ax.yaxis, ticker)
            _style(ax, f"{c.experiment} ({c.name}): time per call (log-log)", "elements", loc="upper left")
        for ax in axes[len(page):]:
            ax.set_visible(False)
        root, ext = os.path.splitext(path)
        written.append(_save(fig, path if k == 0 else f"{root}-{k + 1}{ext}"))
    return written


def plot_single_size(lines, path):
    """One bar chart: each single-size workload's best CPU and GPU times (log scale)."""
    bars = [(name, pick) for name, pick in (("best CPU", lambda line: line.cpu), ("best GPU, data resident", lambda
            line: line.resident), ("best GPU, with transfers", lambda line: line.transfers)) if any(map(pick, lines))]
    fig, ticker = _figure(figsize=(10, min(MAX_HEIGHT_PX / DPI - 1, 1.2 + 0.2 * len(lines) * len(bars))))
    ax, height = fig.subplots(), 0.8 / len(bars)
    for k, (name, pick) in enumerate(bars):
        found = [(i + (k - (len(bars) - 1) / 2) * height, pick(line)) for i, line in enumerate(lines) if pick(line)]
        ax.barh([y for y, _ in found], [e.time for _, e in found], height=height * 0.9, color=f"C{k}", label=name)
        for y, e in found:
            ax.annotate(f"{format_time(e.time)} {e.variant.removesuffix(TRANSFERS)}", (e.time, y), xytext=(3, 0),
                        textcoords="offset points", va="center", fontsize=FONT - 1)
    ax.set_xscale("log")  # whole decades, room for the labels on the right
    ax.set_xlim(10 ** math.floor(math.log10(ax.get_xlim()[0])), 10 ** math.ceil(math.log10(ax.get_xlim()[1]) + 0.5))
    _time_axis(ax.xaxis, ticker)
    ax.set_yticks(range(len(lines)), [f"{line.experiment} {format_size(line.size)}" for line in lines])
    ax.invert_yaxis()
    _style(ax, "", "best time per call (log scale; shorter is faster)", loc="lower left", bbox_to_anchor=(0, 1.0),
           ncol=len(bars), frameon=False)
    return _save(fig, path)


LEVEL_STYLES = {"L1": ":", "L2": "-.", "L3": (0, (5, 1, 1, 1, 1, 1)), "DRAM": "-", "HBM": "-"}
THEORETICAL = dict(linestyle=(0, (6, 2)), linewidth=2.2, alpha=0.45)


def roofs(run):
    """{space: ([(level, GB/s)], {precision: GFLOP/s}, theoretical GB/s or None, measured caches?)} of the record's
    first program with probes of that space: a roof per memory level (its fastest traffic kind), the FMA probes and
    a device's theoretical memory peak."""
    found = {}
    for _, data in run.programs.values():
        for space, probe in (data.get("probes") or {}).items():
            if space in found or not isinstance(probe, dict):
                continue
            levels = [(lv.name, lv.best) for lv in ceilings.levels(run, space, probe) if lv.best]
            fma = {p: v for p in ("f32", "f64") if (v := positive(probe.get(f"fma_{p}_gflop_per_s")))}
            found[space] = (levels, fma, ceilings.theoretical_gb_per_s(run, probe) if on_device(space) else None,
                            isinstance(probe.get("ceilings"), dict))
    return found


def _moved(row):
    """The bytes a call moves: its ceiling's, else the bytes its program counts."""
    return positive((row.get("ceiling") or {}).get("bytes_moved_per_call")) or positive(row.get("bytes_per_call"))


def plot_roofline(run, lines, path):
    """Each workload's best row per space against a roof per memory level and space, the FMA roofs and a GPU's
    theoretical peak, CPU and GPU on the same axes: GFLOP/s against flops per byte moved where a program counts
    flops, else GB/s moved against the levels' roofs."""
    fig, ticker = _figure(figsize=(12.7, 6.2))
    flops_ax, bytes_ax = fig.subplots(1, 2, width_ratios=(3, 2))
    found, shown = roofs(run), []
    colors = {s: f"C{i}" for i, s in enumerate(found)}
    for line in lines:
        entries = [e for e in run.entries if e.experiment == line.experiment and e.size == line.size
                   and e.usable and not e.crosses_link and not e.is_reference]
        for e in (best(x for x in entries if x.space == space) for space in dict.fromkeys(e.space for e in entries)):
            if not (moved := _moved(row := _row(e)[0])):
                continue
            shown += [line.experiment] * (line.experiment not in shown)
            mark = dict(marker="os^Dv<>pPX*hHd8"[shown.index(line.experiment) % 15], color=colors.get(e.space, "gray"),
                        linestyle="", markersize=7)
            if flops := positive(row.get("flops_per_call")):
                flops_ax.plot(flops / moved, flops / e.time * 1e-9, **mark)
            else:
                bytes_ax.plot(line.experiment, moved / e.time * 1e-9, **mark)
    for k, name in enumerate(shown):  # the workloads' marks, in the legend once
        flops_ax.plot([], [], marker="os^Dv<>pPX*hHd8"[k % 15], color="black", linestyle="", label=name)
    xs = [10 ** (k / 8) for k in range(-16, 25)]
    for space, (levels, fma, theoretical, measured) in found.items():
        top = max(fma.values(), default=float("inf"))
        for level, bw in levels:
            style = dict(linestyle=LEVEL_STYLES.get(level, "--"), color=colors[space], linewidth=1.2)
            flops_ax.plot(xs, [min(top, bw * x) for x in xs], **style, label=f"{space} {level}: {bw:.0f} GB/s")
            bytes_ax.axhline(bw, **style)
        if theoretical:
            flops_ax.plot(xs, [min(top, theoretical * x) for x in xs], color=colors[space], **THEORETICAL,
                          label=f"{space} theoretical memory peak: {theoretical:.0f} GB/s")
            bytes_ax.axhline(theoretical, color=colors[space], **THEORETICAL)
        fastest = max((bw for _, bw in levels), default=None)
        for precision, peak in fma.items():
            start = [x for x in xs if not fastest or fastest * x >= peak]
            flops_ax.plot(start, [peak] * len(start), "-" if precision == "f32" else "--", color=colors[space],
                          linewidth=1.8, label=f"{space} FMA {precision}: {peak:.0f} GFLOP/s")
    bytes_ax.plot([], [], "o", color="gray", label="host: one thread outside Kokkos")
    for ax in (flops_ax, bytes_ax):
        ax.set_yscale("log" if any(len(d.get_xdata()) for d in ax.get_lines()) else "linear")
    flops_ax.set_xscale(flops_ax.get_yscale())
    for axis in (flops_ax.xaxis, flops_ax.yaxis, bytes_ax.yaxis):  # plain numbers: no mathtext to lay out
        axis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
    said = "a roof per memory level (its fastest traffic kind)" if any(m for *_, m in found.values()) else \
        "cache levels not measured in this record: DRAM-sized probes only"
    _style(flops_ax, f"{run.label}: workloads that count flops (colour: space; {said})",
           "flops per byte moved (arithmetic intensity, log)", "GFLOP/s (log)", loc="upper left",
           bbox_to_anchor=(0, -0.12), ncol=3)
    _style(bytes_ax, f"{run.label}: workloads that count bytes only (line style: level)", "",
           "GB/s moved (log)", loc="upper left", bbox_to_anchor=(0, -0.22))
    bytes_ax.tick_params(axis="x", labelrotation=60)
    return _save(fig, path) if shown else None


def write_rooflines(runs, lines, out_dir):
    """[(path, title)]: one picture per record (a machine), of its lines (a CPU-only record: of every workload's)."""
    return [(p, f"Roofline{f' of run {i + 1}' * (len(runs) > 1)}: each workload's best row per space against a "
             "roof per memory level and space from the same run")
            for i, run in enumerate(runs) if (p := plot_roofline(run, [
                 line for line in lines if line.run is run] or list({line.experiment: line for line in lines}.values()),
                 os.path.join(out_dir, f"roofline{f'-{i + 1}' * (len(runs) > 1)}.png")))]


def write_run_plots(runs, lines, found, out_dir):
    """[(path, title)]: the single-size workloads' bars, the multi-size ones' curves (the crossover table's)."""
    single = [line for line in lines if line.experiment not in {c.experiment for c in found} and (line.cpu or
                                                                                                  line.resident)]
    written = [(plot_single_size(single, os.path.join(out_dir, "single-size.png")),
                "Workloads measured at one size: best time per call")] if single else []
    paths = plot_curves(found, os.path.join(out_dir, "times.png")) if found else []
    return written + [(p, "Time against size, with the crossover table's crossovers" + (
        f" ({i + 1} of {len(paths)})" if len(paths) > 1 else "")) for i, p in enumerate(paths)]
