"""PNG plots of a Comparison with matplotlib's Agg backend (no display, no pyplot state).

speedup.png      speed-up of every workload against the baseline column, one bar per column
bandwidth.png    GB/s of every benchmark, one panel per column, with the reference (probe/memcpy
                 of the same space and file) drawn as a line and each bar's % of it
sweep-<exp>.png  time against size on log-log axes, one curve per variant+column, for every
                 experiment with several sizes of one variant (the crossover sweeps)
"""
import math
import os
import re
import sys

from .compare import format_gbps, format_pct, format_ratio
from .gbench import format_size


class PlotsUnavailable(Exception):
    pass


def _matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
        from matplotlib import ticker
    except ImportError as e:
        raise PlotsUnavailable(f"matplotlib is not importable by {sys.executable} ({e}); on Debian: "
                               "apt-get install python3-matplotlib") from None
    return Figure, FigureCanvasAgg, ticker


def available():
    try:
        _matplotlib()
        return True
    except PlotsUnavailable:
        return False


_COLORS = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
           "#bcbd22", "#17becf"]
_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_STYLES = ["-", "--", ":", "-."]


def _save(fig, canvas_cls, path):
    canvas_cls(fig)
    fig.savefig(path, dpi=110, bbox_inches="tight")
    return path


def _row_label(row):
    return f"{row.family}  {row.size_label}".strip()


def plot_speedup(cmp, path):
    """Horizontal grouped bars, log scale: baseline time / time for each non-baseline column."""
    Figure, Canvas, ticker = _matplotlib()
    others = [c for c in cmp.columns if c is not cmp.baseline]
    rows = [r for r in cmp.rows if any(r.cells.get(c.label) and r.cells[c.label].speedup for c in others)]
    if not rows:
        return None
    used = [c for c in others if any(r.cells.get(c.label) and r.cells[c.label].speedup for r in rows)]
    height = 0.8 / len(used)
    fig = Figure(figsize=(10, 1.6 + 0.32 * len(rows) * max(1, len(used) * 0.7)))
    ax = fig.add_subplot()
    values, tested = [], False
    for k, c in enumerate(used):
        ys, xs, marks = [], [], []
        for i, r in enumerate(rows):
            cell = r.cells.get(c.label)
            if cell and cell.speedup:
                ys.append(i - 0.4 + height * (k + 0.5))
                xs.append(cell.speedup)
                marks.append("" if cell.significant is None else "*" if cell.significant else "?")
                tested = tested or cell.significant is not None
        values += xs
        color = _COLORS[cmp.columns.index(c) % len(_COLORS)]
        # Bars start at 1x, so a slowdown points left and a speed-up right (on a log axis a
        # bar from the axis edge would make 0.5x look like a gain).
        ax.barh(ys, [x - 1.0 for x in xs], left=1.0, height=height * 0.9, color=color, label=c.label)
        for y, x, mark in zip(ys, xs, marks):
            ax.annotate(format_ratio(x) + mark, (x, y), xytext=(3 if x >= 1 else -3, 0), textcoords="offset points",
                        va="center", ha="left" if x >= 1 else "right", fontsize=7)
    ax.set_xscale("log")
    lo, hi = min(values + [1.0]), max(values + [1.0])
    left = lo / 4 if lo < 1 else 0.7  # room for labels left of slowdowns, if any
    ax.set_xlim(left, hi * 4)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_row_label(r) for r in rows], fontsize=8)
    ax.invert_yaxis()
    decades = math.log10(hi * 4) - math.log10(left)
    ax.xaxis.set_major_locator(ticker.LogLocator(base=10, subs=(1.0, 2.0, 5.0) if decades <= 3 else (1.0,)))
    ax.xaxis.set_minor_formatter(ticker.NullFormatter())
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}x"))
    note = "; * significant, ? not (U test)" if tested else ""
    ax.set_xlabel(f"speed-up: {cmp.baseline.label} time / time (log scale; right of 1x = faster){note}")
    ax.set_title(f"Speed-up against {cmp.baseline.label}")
    ax.grid(axis="x", which="major", alpha=0.3)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="space")
    return _save(fig, Canvas, path)


def _ref_label(ref, column):
    where = f" of {ref.space}" if ref.space != column.space else ""
    return f"{ref.family}{where} {format_size(ref.size)}"


def plot_bandwidth(cmp, path):
    """One panel per column: GB/s bars, the reference as a dashed line, % of it per bar."""
    Figure, Canvas, _ = _matplotlib()
    panels = []
    for c in cmp.columns:
        cells = [(r, r.cells[c.label]) for r in cmp.rows if c.label in r.cells and r.cells[c.label].gbps]
        if cells:
            panels.append((c, cells))
    if not panels:
        return None
    heights = [max(len(cells), 3) + 1.5 for _, cells in panels]
    try:
        fig = Figure(figsize=(10, 0.28 * sum(heights) + 0.8 * len(panels)), layout="constrained")
    except TypeError:  # matplotlib < 3.5
        fig = Figure(figsize=(10, 0.28 * sum(heights) + 0.8 * len(panels)), constrained_layout=True)
    axes = fig.subplots(len(panels), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, (c, cells) in zip(axes, panels):
        color = _COLORS[cmp.columns.index(c) % len(_COLORS)]
        ref = c.reference
        xs = [cell.gbps for _, cell in cells]
        colors = [("#444444" if ref is not None and cell.run is ref else color) for _, cell in cells]
        ax.barh(range(len(cells)), xs, color=colors, height=0.7)
        for i, (_, cell) in enumerate(cells):
            frac = cell.ref_fraction
            text = f"{format_gbps(cell.gbps)} GB/s" + (f"  ({format_pct(frac)})" if frac is not None else
                                                       "  (host<->device copies timed: bound by the link)"
                                                       if cell.run.crosses_link else "")
            ax.annotate(text, (cell.gbps, i), xytext=(3, 0), textcoords="offset points", va="center", fontsize=7,
                        zorder=5, bbox={"facecolor": "white", "edgecolor": "none", "pad": 0.5, "alpha": 0.85})
        top = max(xs)
        if ref is not None:
            ax.axvline(ref.gbps, color="#444444", linestyle="--", linewidth=1)
            top = max(top, ref.gbps)
        ax.set_xlim(0, top * 1.3)
        ax.set_yticks(range(len(cells)))
        ax.set_yticklabels([_row_label(r) for r, _ in cells], fontsize=8)
        pad = (max(len(cells), 3) - len(cells)) / 2  # a lone bar stays thin, centred
        ax.set_ylim(len(cells) - 0.5 + pad, -0.5 - pad)  # first row at the top
        ref_text = (f"dashed = {_ref_label(ref, c)}, {format_gbps(ref.gbps)} GB/s = 100%"
                    if ref is not None else f"no {cmp.reference} in this space: no %")
        ax.set_title(f"{c.label}: GB/s ({ref_text})", fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
    axes[-1].set_xlabel("GB/s (10^9 bytes/s, from each kernel's minimum traffic)")
    fig.suptitle("Bandwidth per kernel and % of the achievable reference", fontsize=11)
    return _save(fig, Canvas, path)


def sweep_experiments(cmp):
    """Experiments where one variant was measured at two or more numeric sizes in one column
    (a curve, not a lone point)."""
    found = []
    for row in cmp.rows:
        if row.experiment in found:
            continue
        for c in cmp.columns:
            sizes = {r.size for r in cmp.rows if r.experiment == row.experiment and r.variant == row.variant
                     and re.fullmatch(r"\d+", r.size or "") and c.label in r.cells and r.cells[c.label].time}
            if len(sizes) >= 2:
                found.append(row.experiment)
                break
    return found


def plot_sweep(cmp, experiment, path):
    """Time against size, log-log: colour per variant, line style and marker per column."""
    Figure, Canvas, ticker = _matplotlib()
    rows = [r for r in cmp.rows if r.experiment == experiment and re.fullmatch(r"\d+", r.size or "")]
    variants = []
    for r in rows:
        if r.variant not in variants:
            variants.append(r.variant)
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    curves = 0
    for vi, variant in enumerate(variants):
        for ci, c in enumerate(cmp.columns):
            points = sorted((int(r.size), r.cells[c.label].time) for r in rows
                            if r.variant == variant and c.label in r.cells and r.cells[c.label].time)
            if not points:
                continue
            xs, ys = zip(*points)
            label = f"{variant} / {c.label}" if variant else c.label
            ax.plot(xs, ys, color=_COLORS[vi % len(_COLORS)], linestyle=_STYLES[ci % len(_STYLES)],
                    marker=_MARKERS[ci % len(_MARKERS)], label=label)
            curves += 1
    if not curves:
        return None
    times = [y for line in ax.get_lines() for y in line.get_ydata()]
    _time_against_size(ax, ticker, times, "size (benchmark argument: elements)",
                       "median time per iteration (log scale)", f"{experiment}: time against size (log-log)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="variant / space")
    return _save(fig, Canvas, path)


def _time_against_size(ax, ticker, times, xlabel, ylabel, title):
    """Log-log axes of time against size: powers of two along x, whole decades of time along y."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_ylim(10 ** math.floor(math.log10(min(times))), 10 ** math.ceil(math.log10(max(times))))
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_size(str(int(round(v))))))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(_time_tick))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.grid(which="major", alpha=0.3)
    ax.grid(which="minor", alpha=0.1)


def _time_tick(seconds, _):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale * 0.999 or unit == "ns":
            return f"{seconds / scale:g} {unit}"
    return ""


def write_plots(cmp, out_dir, prefix=""):
    """Every plot that has data, file names starting with `prefix`; returns [(path, title)]
    of the files written."""
    _matplotlib()
    os.makedirs(out_dir, exist_ok=True)
    written = []
    for name, title, fn in (("speedup.png", f"Speed-up against {cmp.baseline.label}", plot_speedup),
                            ("bandwidth.png", "Bandwidth per kernel and % of the reference", plot_bandwidth)):
        p = fn(cmp, os.path.join(out_dir, prefix + name))
        if p:
            written.append((p, title))
    for exp in sweep_experiments(cmp):
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", exp)
        p = plot_sweep(cmp, exp, os.path.join(out_dir, f"{prefix}sweep-{safe}.png"))
        if p:
            written.append((p, f"{exp}: time against size"))
    return written


def plot_program_sweep(experiment, sweep, path):
    """A program's crossover sweep (results JSON): best time against elements, log-log, one
    curve each for the host space, the device resident and the device with transfers."""
    Figure, Canvas, ticker = _matplotlib()
    points = [p for p in sweep.get("points", []) if isinstance(p, dict) and isinstance(p.get("elements"), int)]
    host, device = sweep.get("host_space") or "host", sweep.get("device_space") or "device"
    curves = [("host_s", f"{host}", "-", "o"), ("device_resident_s", f"{device}, data resident", "--", "s"),
              ("device_with_transfers_s", f"{device}, with transfers", ":", "^")]
    fig = Figure(figsize=(9, 5.5))
    ax = fig.add_subplot()
    times = []
    for i, (key, label, style, marker) in enumerate(curves):
        xy = sorted((p["elements"], p[key]) for p in points if isinstance(p.get(key), (int, float)) and p[key] > 0)
        if not xy:
            continue
        xs, ys = zip(*xy)
        times += ys
        ax.plot(xs, ys, color=_COLORS[i], linestyle=style, marker=marker, label=label)
    if not times:
        return None
    for key, label, color in (("device_wins_from_resident", "device wins, resident", _COLORS[1]),
                              ("device_wins_from_with_transfers", "device wins, with transfers", _COLORS[2])):
        at = sweep.get(key)
        if isinstance(at, dict) and isinstance(at.get("elements"), int):
            ax.axvline(at["elements"], color=color, alpha=0.5, linewidth=1)
            ax.annotate(f"{label}\nfrom {at.get('size')}", (at["elements"], min(times)), fontsize=8,
                        xytext=(4, 4), textcoords="offset points", color=color)
    _time_against_size(ax, ticker, times, "elements", "best time per call (log scale)",
                       f"{experiment}: host against device by size (log-log)")
    ax.legend(loc="upper left", fontsize=9)
    return _save(fig, Canvas, path)
