"""nbk-report's PNG plots (matplotlib's Agg): speedup.png and times.png (small multiples, paged)."""
import math
import os
import struct
import sys

from .fmt import UNITS, format_ratio, format_size, format_time
from .gbench import REFERENCE_SPACES
from .runs import entries_of
from .summary import cpu_runs, crossover, reference_runs, reference_spaces


class PlotsUnavailable(Exception):
    pass


def _matplotlib():
    try:  # a Figure without pyplot saves through Agg: no backend to choose
        from matplotlib.figure import Figure
        from matplotlib import ticker
    except ImportError as e:
        raise PlotsUnavailable(f"matplotlib is not importable by {sys.executable} ({e}); on Debian: "
                               "apt-get install python3-matplotlib") from None
    return Figure, ticker


DPI = 110
MAX_HEIGHT_PX = 1600  # no figure taller: a page shows it whole


def _save(fig, path):
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    height = png_size(path)[1]
    if height > MAX_HEIGHT_PX:
        fig.savefig(path, dpi=DPI * MAX_HEIGHT_PX / height * 0.99, bbox_inches="tight")
    return path


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def _style_time_axes(ax, ticker, title):
    """Log-log, the range whole decades (a few % never fills it)."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_size(str(int(round(v))))))
    ax.yaxis.set_major_locator(ticker.LogLocator(base=10))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_time(v, "g")))
    ax.yaxis.set_minor_formatter(ticker.NullFormatter())
    low, high = ax.get_ylim()
    low, high = math.floor(math.log10(low)), math.ceil(math.log10(high))
    ax.set_ylim(10.0 ** low, 10.0 ** max(high, low + 1))
    ax.grid(which="major", alpha=0.3)
    ax.set_title(title, fontsize=9, loc="left")
    ax.tick_params(labelsize=7)


def _unit_ticks(ticker, largest):
    unit, scale = next((u, s) for u, s in UNITS if largest >= s or u == "ns")
    return ticker.FuncFormatter(lambda v, _: f"{v / scale:g} {unit}")


PANEL_W, PANEL_H, COLUMNS = 4.2, 2.7, 4  # inches; a page of small multiples is COLUMNS wide


def _small_multiples(panels, draw, path, title):
    """A panel per item drawn by draw(ax, item), on pages path, path-2, ..."""
    Figure, _ = _matplotlib()
    written, per = [], max(1, int((MAX_HEIGHT_PX / DPI - 1.0) // PANEL_H)) * COLUMNS  # panels a page
    for k, first in enumerate(range(0, len(panels), per)):
        count = min(per, len(panels) - first)
        ncols = min(COLUMNS, count)
        nrows = math.ceil(count / ncols)
        fig = Figure(figsize=(PANEL_W * ncols, PANEL_H * nrows + 0.7), layout="constrained")
        axes = fig.subplots(nrows, ncols, squeeze=False).ravel()
        for ax, item in zip(axes, panels[first:first + count]):
            draw(ax, item)
        for ax in axes[count:]:
            ax.set_visible(False)
        fig.suptitle(title, fontsize=11)
        root, ext = os.path.splitext(path)
        written.append(_save(fig, path if k == 0 else f"{root}-{k + 1}{ext}"))
    return written


def _curves_by_size(entries, pick):
    best = {}
    for e in entries:
        if e.usable and e.elements and pick(e):
            best[e.elements] = min(best.get(e.elements, e.time), e.time)
    return sorted(best.items())


def plot_run_times(runs, lines, path):
    _, ticker = _matplotlib()
    cpus = cpu_runs(runs)
    gpus = [r for r in runs if r.has_device]

    curves = [(f"CPU {r.label}", "-", "o", lambda e, r=r: e.run is r and e.cpu_variant) for r in cpus]
    curves += [(REFERENCE_SPACES[s] + ("" if r.label == s else f" {r.label}"), "-.", "x",
                lambda e, r=r, s=s: e.run is r and e.space == s)
               for s in reference_spaces(runs) for r in reference_runs(runs, s)]
    curves += [(f"GPU {r.label}{how}", style, marker,
                lambda e, r=r, x=x: e.run is r and e.on_device and e.crosses_link == x)
               for r in gpus for how, style, marker, x in ((" resident", "--", "s", False),
                                                           (" + transfers", ":", "^", True))]

    def bars(ax, line, mine):
        found = [(label, xy[0][1], i) for i, (label, _, _, pick) in enumerate(curves)
                 if (xy := _curves_by_size(mine, pick))]
        ax.barh(range(len(found)), [t for _, t, _ in found], color=[f"C{i % 10}" for _, _, i in found], height=0.6)
        for y, (_, t, _) in enumerate(found):
            ax.annotate(format_time(t), (t, y), xytext=(2, 0), textcoords="offset points", va="center", fontsize=6)
        ax.set_yticks(range(len(found)), [label for label, _, _ in found], fontsize=7)
        ax.invert_yaxis()
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(axis="x", alpha=0.3)
        size = next(e.size for e in mine if e.usable and e.elements)
        ax.set_title(f"{line.experiment} {format_size(size)}: best time", fontsize=9, loc="left")
        largest = max(t for _, t, _ in found)
        ax.set_xlim(0, largest * 1.3)
        ax.xaxis.set_major_formatter(_unit_ticks(ticker, largest))

    def draw(ax, line):
        mine = entries_of(runs, line.experiment)
        if len({e.elements for e in mine if e.usable and e.elements}) == 1:
            return bars(ax, line, mine)
        for i, (label, style, marker, pick) in enumerate(curves):
            if xy := _curves_by_size(mine, pick):
                ax.plot(*zip(*xy), linestyle=style, marker=marker, markersize=4, color=f"C{i % 10}", label=label)
        cpu_best = dict(_curves_by_size(mine, lambda e: e.run in cpus and e.cpu_variant))
        for r in gpus:
            gpu = dict(_curves_by_size(mine, lambda e, r=r: e.run is r and e.on_device and not e.crosses_link))
            at = crossover([(n, cpu_best.get(n), t) for n, t in gpu.items()]) if len(gpu) > 1 else None
            if at:
                ax.axvline(at, color="black", linewidth=0.8, alpha=0.6)
                ax.annotate(f"GPU {r.label} wins from {format_size(str(at))}", (at, 0.02), fontsize=6,
                            xycoords=("data", "axes fraction"), xytext=(2, 0), textcoords="offset points")
        _style_time_axes(ax, ticker, line.experiment)
        ax.legend(fontsize=6, loc="best")

    return _small_multiples(lines, draw, path, "Best time per call against elements (log-log), per workload and run")


def plot_speedups(lines, path):
    """The best GPU rows' and NumPy's speed-up over the best CPU row; None when there is none."""
    Figure, ticker = _matplotlib()
    series = [("best GPU, data resident", lambda line: line.speedup(line.resident)),
              ("best GPU, with transfers", lambda line: line.speedup(line.transfers)),
              ("NumPy", lambda line: 1 / s if (s := line.cpu_speedup("numpy")) else None)]  # one machine only
    lines = [line for line in lines if any(fn(line) for _, fn in series)]
    values = [(name, [fn(line) for line in lines]) for name, fn in series]
    values = [(name, v) for name, v in values if any(v)]
    if not values:
        return None
    fig = Figure(figsize=(10, min(MAX_HEIGHT_PX / DPI - 1, 1.4 + 0.14 * len(lines) * len(values))),
                 layout="constrained")
    ax = fig.subplots()
    height = 0.8 / len(values)
    for k, (name, v) in enumerate(values):
        ys = [i + (k - (len(values) - 1) / 2) * height for i in range(len(lines))]
        ax.barh(ys, [x - 1 if x else 0 for x in v], height=height * 0.9, left=1, color=f"C{k}", label=name)
        for y, x in zip(ys, v):
            if x:
                ax.annotate(format_ratio(x), (x, y), xytext=(3 if x >= 1 else -3, 0), textcoords="offset points",
                            va="center", ha="left" if x >= 1 else "right", fontsize=7)
    found = [x for _, v in values for x in v if x]
    ax.set_xscale("log")
    ax.set_xlim(min(0.5, min(found)) / 2, max(2.0, max(found)) * 4)
    subs = (1.0, 2.0, 5.0) if max(found) / min(found) < 100 else (1.0,)
    ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=subs))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.axvline(1, color="black", linewidth=1)
    ax.set_yticks(range(len(lines)), [f"{line.experiment} {format_size(line.size)}" for line in lines], fontsize=8)
    ax.invert_yaxis()
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel("speed-up over the best CPU row (log scale; right of the black line: faster)")
    ax.legend(fontsize=8, loc="lower left", bbox_to_anchor=(0, 1.0), ncol=len(values), frameon=False)
    return _save(fig, path)


def write_run_plots(runs, lines, out_dir):
    """[(path, title)]."""
    _matplotlib()
    os.makedirs(out_dir, exist_ok=True)
    timed = [line for line in lines if any(e.elements for e in entries_of(runs, line.experiment))]
    paths = plot_run_times(runs, timed, os.path.join(out_dir, "times.png")) if timed else []
    return [(p, "Time against size, per workload and run" + (f" ({i + 1} of {len(paths)})" if len(paths) > 1 else ""))
            for i, p in enumerate(paths)]
