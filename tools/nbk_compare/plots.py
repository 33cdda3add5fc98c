"""PNG plots of a Comparison with matplotlib's Agg backend (no display, no pyplot state).

speedup.png      speed-up of every workload against the baseline column, one bar per column
bandwidth.png    GB/s of every benchmark, one panel per column, with the reference (probe/memcpy
                 of the same space and file) drawn as a line and each bar's % of it
sweep-<exp>.png  time against size on log-log axes, one curve per variant+column, for every
                 experiment with several sizes of one variant (the crossover sweeps)
(speedup and bandwidth are paged, speedup-2.png, ..., so that no figure is taller than
MAX_HEIGHT_PX), and for nbk-report's runs, small multiples (a panel per workload):
times.png        best time against elements per CPU run and GPU run, the crossover marked
bandwidth.png    GB/s of each space's best row against that run's reference
sweeps.png       each size sweep of every run, and the crossovers
"""
import math
import os
import re
import struct
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


_MARKERS = ["o", "s", "^", "D", "v", "P", "X", "*"]
_STYLES = ["-", "--", ":", "-."]


DPI = 110
MAX_HEIGHT_PX = 1600  # no figure taller: a page shows it whole


def _save(fig, canvas_cls, path):
    """Writes the PNG; one that comes out taller than MAX_HEIGHT_PX is written again smaller."""
    canvas_cls(fig)
    fig.savefig(path, dpi=DPI, bbox_inches="tight")
    height = png_size(path)[1]
    if height > MAX_HEIGHT_PX:
        fig.savefig(path, dpi=DPI * MAX_HEIGHT_PX / height * 0.99, bbox_inches="tight")
    return path


def png_size(path):
    """(width, height) of a PNG file."""
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    return struct.unpack(">II", head[16:24])


def _row_label(row):
    return f"{row.family}  {row.size_label}".strip()


def plot_speedup(cmp, path, rows=None):
    """Horizontal grouped bars, log scale: baseline time / time for each non-baseline column
    (of `rows`, default all)."""
    Figure, Canvas, ticker = _matplotlib()
    def speedup(r, c):
        return r.cells.get(c.label) and r.cells[c.label].speedup

    others = [c for c in cmp.columns if c is not cmp.baseline]
    rows = [r for r in (cmp.rows if rows is None else rows) if any(speedup(r, c) for c in others)]
    if not rows:
        return None
    used = [c for c in others if any(speedup(r, c) for r in rows)]
    height = 0.8 / len(used)
    fig = Figure(figsize=(10, 1.6 + 0.32 * len(rows) * max(1, len(used) * 0.7)))
    ax = fig.add_subplot()
    cells = [(k, c, i, r.cells[c.label]) for k, c in enumerate(used) for i, r in enumerate(rows) if speedup(r, c)]
    values = [cell.speedup for *_, cell in cells]
    tested = any(cell.significant is not None for *_, cell in cells)
    for k, c in enumerate(used):
        mine = [(i - 0.4 + height * (k + 0.5), cell) for kk, _, i, cell in cells if kk == k]
        # Bars start at 1x, so a slowdown points left and a speed-up right (on a log axis a
        # bar from the axis edge would make 0.5x look like a gain).
        ax.barh([y for y, _ in mine], [cell.speedup - 1.0 for _, cell in mine], left=1.0, height=height * 0.9,
                color=f"C{cmp.columns.index(c) % 10}", label=c.label)
        for y, cell in mine:
            x, mark = cell.speedup, "" if cell.significant is None else "*" if cell.significant else "?"
            ax.annotate(format_ratio(x) + mark, (x, y), xytext=(3 if x >= 1 else -3, 0), textcoords="offset points",
                        va="center", ha="left" if x >= 1 else "right", fontsize=7)
    ax.set_xscale("log")
    lo, hi = min(values + [1.0]), max(values + [1.0])
    left = lo / 4 if lo < 1 else 0.7  # room for labels left of slowdowns, if any
    ax.set_xlim(left, hi * 4)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks(range(len(rows)), [_row_label(r) for r in rows], fontsize=8)
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


def plot_bandwidth(cmp, path, rows=None):
    """One panel per column: GB/s bars (of `rows`, default all), the reference as a dashed
    line, % of it per bar."""
    Figure, Canvas, _ = _matplotlib()
    panels = []
    for c in cmp.columns:
        cells = [(r, r.cells[c.label]) for r in (cmp.rows if rows is None else rows) if c.label in r.cells and r.cells[c.label].gbps]
        if cells:
            panels.append((c, cells))
    if not panels:
        return None
    heights = [max(len(cells), 3) + 1.5 for _, cells in panels]
    fig = Figure(figsize=(10, 0.28 * sum(heights) + 0.8 * len(panels)), layout="constrained")
    axes = fig.subplots(len(panels), 1, squeeze=False, gridspec_kw={"height_ratios": heights})[:, 0]
    for ax, (c, cells) in zip(axes, panels):
        color = f"C{cmp.columns.index(c) % 10}"
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
        ax.set_yticks(range(len(cells)), [_row_label(r) for r, _ in cells], fontsize=8)
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
    def sizes(row, c):
        return {r.size for r in cmp.rows if (r.experiment, r.variant) == (row.experiment, row.variant)
                and re.fullmatch(r"\d+", r.size or "") and c.label in r.cells and r.cells[c.label].time}
    return list(dict.fromkeys(row.experiment for row in cmp.rows if any(len(sizes(row, c)) >= 2 for c in cmp.columns)))


def plot_sweep(cmp, experiment, path):
    """Time against size, log-log: colour per variant, line style and marker per column."""
    Figure, Canvas, ticker = _matplotlib()
    rows = [r for r in cmp.rows if r.experiment == experiment and re.fullmatch(r"\d+", r.size or "")]
    variants = list(dict.fromkeys(r.variant for r in rows))
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
            ax.plot(xs, ys, color=f"C{vi % 10}", linestyle=_STYLES[ci % len(_STYLES)],
                    marker=_MARKERS[ci % len(_MARKERS)], label=label)
            curves += 1
    if not curves:
        return None
    times = [y for line in ax.get_lines() for y in line.get_ydata()]
    _style_time_axes(ax, ticker)
    ax.set_ylim(10 ** math.floor(math.log10(min(times))), 10 ** math.ceil(math.log10(max(times))))
    ax.set(xlabel="size (benchmark argument: elements)", ylabel="median time per iteration (log scale)",
           title=f"{experiment}: time against size (log-log)")
    ax.grid(which="minor", alpha=0.1)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, title="variant / space")
    return _save(fig, Canvas, path)


def _style_time_axes(ax, ticker, title=None):
    """Log-log, powers of two along x, times along y; a small panel's title when given."""
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.xaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: format_size(str(int(round(v))))))
    ax.yaxis.set_major_formatter(ticker.FuncFormatter(_time_tick))
    ax.grid(which="major", alpha=0.3)
    if title:
        ax.set_title(title, fontsize=9, loc="left")
        ax.tick_params(labelsize=7)


def _time_tick(seconds, _):
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if seconds >= scale * 0.999 or unit == "ns":
            return f"{seconds / scale:g} {unit}"
    return ""


BARS_PER_PAGE = 36  # bars a figure holds and stays under MAX_HEIGHT_PX at a readable size


def _pages(rows, limit):
    """Rows in pages of at most `limit`, an experiment's rows kept together when they fit."""
    pages, page = [], []
    for experiment in dict.fromkeys(r.experiment for r in rows):
        mine = [r for r in rows if r.experiment == experiment]
        while mine:
            if page and len(page) + min(len(mine), limit) > limit:
                pages.append(page)
                page = []
            take = limit - len(page)
            page, mine = page + mine[:take], mine[take:]
    return pages + ([page] if page else [])


def write_plots(cmp, out_dir, prefix=""):
    """Every plot that has data, file names starting with `prefix`; returns [(path, title)]
    of the files written."""
    _matplotlib()
    os.makedirs(out_dir, exist_ok=True)
    written = []
    bars = len(cmp.columns)  # bars a row may have, across the bandwidth panels or speed-up groups
    for name, title, fn in (("speedup", f"Speed-up against {cmp.baseline.label}", plot_speedup),
                            ("bandwidth", "Bandwidth per kernel and % of the reference", plot_bandwidth)):
        pages = _pages(cmp.rows, max(4, int(BARS_PER_PAGE / bars)))
        for i, rows in enumerate(pages):
            part = f" ({i + 1} of {len(pages)}: {', '.join(dict.fromkeys(r.experiment for r in rows))})" \
                if len(pages) > 1 else ""
            p = fn(cmp, os.path.join(out_dir, f"{prefix}{name}{'' if i == 0 else f'-{i + 1}'}.png"), rows)
            if p:
                written.append((p, title + part))
    for exp in sweep_experiments(cmp):
        safe = re.sub(r"[^A-Za-z0-9_.-]", "_", exp)
        p = plot_sweep(cmp, exp, os.path.join(out_dir, f"{prefix}sweep-{safe}.png"))
        if p:
            written.append((p, f"{exp}: time against size"))
    return written


# ---------------------------------------------------------------------------------- runs

PANEL_W, PANEL_H, COLUMNS = 4.2, 2.7, 4  # inches; a page of small multiples is COLUMNS wide


def _grid_pages(n):
    """[(first, count)] of n panels on pages whose height stays under MAX_HEIGHT_PX."""
    rows = max(1, int((MAX_HEIGHT_PX / DPI - 1.0) // PANEL_H))
    per = rows * COLUMNS
    return [(i, min(per, n - i)) for i in range(0, n, per)]


def _small_multiples(panels, draw, path, title):
    """One panel per item of `panels`, drawn by draw(ax, item); pages of them (path, path-2,
    ...) so that none is taller than MAX_HEIGHT_PX. Returns the paths written."""
    Figure, Canvas, _ = _matplotlib()
    written = []
    for k, (first, count) in enumerate(_grid_pages(len(panels))):
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
        written.append(_save(fig, Canvas, path if k == 0 else f"{root}-{k + 1}{ext}"))
    return written



def _curves_by_size(entries, pick):
    """{elements: best time} of the usable entries `pick` keeps."""
    best = {}
    for e in entries:
        if e.usable and e.elements and pick(e):
            best[e.elements] = min(best.get(e.elements, e.time), e.time)
    return sorted(best.items())


def plot_run_times(runs, lines, path):
    """Per workload: best time against elements, for each CPU run's CPU rows, the NumPy
    reference's rows (dash-dot, not in the crossover) and each GPU run's device rows, resident
    and with transfers; a vertical line where the GPU (resident) becomes faster at every larger
    size."""
    from .runs import REFERENCE_SPACES
    from .summary import cpu_runs, crossover, reference_runs, reference_spaces
    _, _, ticker = _matplotlib()
    cpus = cpu_runs(runs)
    gpus = [r for r in runs if r.has_device]

    def draw(ax, line):
        mine = [e for r in runs for e in r.entries if e.experiment == line.experiment]
        cpu_best = {}
        curves = [(f"CPU {r.label}", "-", "o", lambda e, r=r: e.run is r and e.cpu_variant) for r in cpus]
        curves += [(REFERENCE_SPACES[s] + ("" if r.label == s else f" {r.label}"), "-.", "x",
                    lambda e, r=r, s=s: e.run is r and e.space == s)
                   for s in reference_spaces(runs) for r in reference_runs(runs, s)]
        curves += [(f"GPU {r.label}{how}", style, marker, lambda e, r=r, x=x: e.run is r and e.on_device and e.crosses_link == x)
                   for r in gpus for how, style, marker, x in ((" resident", "--", "s", False),
                                                               (" + transfers", ":", "^", True))]
        for i, (label, style, marker, pick) in enumerate(curves):
            xy = _curves_by_size(mine, pick)
            if xy:
                ax.plot(*zip(*xy), linestyle=style, marker=marker, markersize=4, color=f"C{i % 10}",
                        label=label)
            if label.startswith("CPU"):
                for n, t in xy:
                    cpu_best[n] = min(cpu_best.get(n, t), t)
        for r in gpus:
            gpu = dict(_curves_by_size(mine, lambda e, r=r: e.run is r and e.on_device and not e.crosses_link))
            at = crossover([(n, cpu_best.get(n), t) for n, t in gpu.items()]) if len(gpu) > 1 else None
            if at:
                ax.axvline(at, color="black", linewidth=0.8, alpha=0.6)
                ax.annotate(f"GPU {r.label} wins from {format_size(str(at))}", (at, 0.02), xycoords=("data", "axes fraction"),
                            fontsize=6, xytext=(2, 0), textcoords="offset points")
        _style_time_axes(ax, ticker, f"{line.experiment}")
        ax.legend(fontsize=6, loc="best")

    return _small_multiples(lines, draw, path, "Best time per call against elements (log-log), per workload and run")


def plot_run_bandwidth(runs, lines, path):
    """Per workload: the best row's GB/s of every space of every run, with that run's
    reference for the space as a black tick and the share of it as text."""
    def draw(ax, line):
        bars = []
        for r in runs:
            for space in dict.fromkeys(e.space for e in r.entries if e.experiment == line.experiment):
                best = [e for e in r.entries if e.experiment == line.experiment and e.space == space and e.usable
                        and e.gbps and e.size == line.size and not e.crosses_link]
                if best:
                    bars.append(min(best, key=lambda e: e.time))
        if not bars:
            ax.set_title(f"{line.experiment}: no GB/s", fontsize=9, loc="left")
            ax.set_axis_off()
            return
        ys = range(len(bars))
        ax.barh(ys, [e.gbps for e in bars], color=[f"C{runs.index(e.run) % 10}" for e in bars], height=0.6)
        for y, e in zip(ys, bars):
            if e.reference:
                ax.plot([e.reference.gbps] * 2, [y - 0.4, y + 0.4], color="black", linewidth=1.5)
            frac = e.fraction
            ax.annotate(f"{format_gbps(e.gbps)}" + (f" ({format_pct(frac)} {e.fraction_of})" if frac else ""),
                        (e.gbps, y), xytext=(2, 0), textcoords="offset points", va="center", fontsize=6)
        values = [e.gbps for e in bars] + [e.reference.gbps for e in bars if e.reference]
        if max(values) > 30 * min(values):  # a GPU beside CPUs: a log axis keeps the CPU bars visible
            ax.set_xscale("log")
            ax.set_xlim(min(values) / 2, max(values) * 8)
        else:
            ax.set_xlim(0, max(values) * 1.45)
        ax.set_yticks(list(ys), [f"{e.space}@{e.run.label}" for e in bars], fontsize=7)
        ax.invert_yaxis()
        ax.tick_params(axis="x", labelsize=7)
        ax.set_title(f"{line.experiment} {format_size(line.size)}: GB/s", fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)

    return _small_multiples(lines, draw, path, "GB/s of each space's best row; black tick = that run's memcpy "
                                               "(else copy) probe of the space")


def plot_run_sweeps(found, path):
    """Per size sweep: host times of every run, device times resident and with transfers,
    and the crossovers (each run's own and CPU run against GPU run) as vertical lines."""
    _, _, ticker = _matplotlib()

    def draw(ax, c):
        i = 0
        for label, sweep in c.sweeps.items():
            keys = [("host_s", f"{sweep.get('host_space') or 'host'}@{label}", "-", "o")]
            if sweep.get("device_space"):
                keys += [("device_resident_s", f"{sweep['device_space']}@{label} resident", "--", "s"),
                         ("device_with_transfers_s", f"{sweep['device_space']}@{label} + transfers", ":", "^")]
            for key, name, style, marker in keys:
                xy = sorted((p["elements"], p[key]) for p in sweep["points"] if isinstance(p, dict)
                            and isinstance(p.get("elements"), int) and isinstance(p.get(key), (int, float)) and p[key] > 0)
                if xy:
                    ax.plot(*zip(*xy), linestyle=style, marker=marker, markersize=3, color=f"C{i % 10}",
                            label=name)
                i += 1
        marks = [(res, f"{gpu} resident beats {cpu}") for cpu, gpu, res, _ in c.across if res]
        marks += [(own[0], f"{label}'s own") for label, own in c.own.items() if own and own[0]]
        for at, text in marks:
            ax.axvline(at, color="black", linewidth=0.8, alpha=0.6)
            ax.annotate(f"{text} from {format_size(str(at))}", (at, 0.02), xycoords=("data", "axes fraction"),
                        fontsize=6, rotation=90, xytext=(2, 0), textcoords="offset points")
        _style_time_axes(ax, ticker, f"{c.experiment} {c.name}".strip() + ": sweep")
        ax.legend(fontsize=6, loc="upper left")

    return _small_multiples(found, draw, path, "Size sweeps: time against elements (log-log) and the crossovers")


def write_run_plots(runs, lines, found, out_dir):
    """The report's plots of runs: [(path, title)]."""
    _matplotlib()
    os.makedirs(out_dir, exist_ok=True)
    written = []
    timed = [line for line in lines if any(e.elements for r in runs for e in r.entries if e.experiment == line.experiment)]
    for paths, title in ((plot_run_times(runs, timed, os.path.join(out_dir, "times.png")) if timed else [],
                          "Time against size, per workload and run"),
                         (plot_run_bandwidth(runs, lines, os.path.join(out_dir, "bandwidth.png")) if lines else [],
                          "Bandwidth against each run's reference, per workload"),
                         (plot_run_sweeps(found, os.path.join(out_dir, "sweeps.png")) if found else [],
                          "Size sweeps and crossovers")):
        written += [(p, title if len(paths) == 1 else f"{title} ({i + 1} of {len(paths)})") for i, p in enumerate(paths)]
    return written
