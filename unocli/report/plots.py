"""Charts for reports: matplotlib figures (Agg, no GUI) with title, axis labels, intervals and a caption.

Every chart carries its intervals (bands or error bars) and a caption, drawn
under the plot, stating the sample size, the rules, the seed and the unocli
version, so a PNG read alone still says what it shows.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
matplotlib.rcParams["svg.hashsalt"] = "unocli"  # the same figure gives the same SVG bytes

import numpy as np  # noqa: E402 (the backend must be chosen first)
from matplotlib.colors import TwoSlopeNorm  # noqa: E402 (the backend must be chosen first)
from matplotlib.figure import Figure  # noqa: E402 (the backend must be chosen first)

COLOURS = (
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#393b79",
    "#637939",
)
WIDTH = 9.0

# What a chart's coordinates may be given as: a list, a numpy array or (untyped here) a pandas column.
Values = Sequence[float] | np.ndarray


@dataclass
class Series:
    """One line (or set of points) with its 95% interval."""

    label: str
    y: Values
    lo: Values | None = None
    hi: Values | None = None
    x: Values | None = None


def caption_text(parts: Sequence[str]) -> str:
    """Caption parts joined into one sentence-like line."""
    return ". ".join(p.rstrip(".") for p in parts if p) + "."


def _figure(height: float, caption: str) -> tuple[Figure, float]:
    lines = textwrap.wrap(caption, 125) or [""]
    cap_h = 0.16 * len(lines) + 0.15
    fig = Figure(figsize=(WIDTH, height + cap_h), dpi=110)
    fig.text(0.012, 0.012, "\n".join(lines), fontsize=7.5, color="#333333", va="bottom", ha="left")
    return fig, cap_h / (height + cap_h)


def _errors(s: Series, y: np.ndarray) -> np.ndarray | None:
    """Error-bar lengths below and above ``y`` (never negative), or None for a series without an interval."""
    if s.lo is None or s.hi is None:
        return None
    return np.clip(np.vstack([y - np.asarray(s.lo, float), np.asarray(s.hi, float) - y]), 0, None)


def _finish(fig: Figure, bottom: float) -> Figure:
    fig.tight_layout(rect=(0, bottom + 0.01, 1, 1))
    return fig


def line_chart(
    x: Values,
    series: Sequence[Series],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    caption: str,
    band: bool = True,
    hline: float | None = None,
    hline_label: str | None = None,
    xticks: Sequence[float] | None = None,
    xticklabels: Sequence[str] | None = None,
    percent: bool = False,
    reference: Series | None = None,
    log: bool = False,
) -> Figure:
    """Lines with a 95% band (``band``) or error bars per point (``log``: logarithmic y axis)."""
    fig, bottom = _figure(4.6, caption)
    ax = fig.add_subplot()
    offsets = np.linspace(-0.12, 0.12, len(series)) if not band and len(series) > 1 else np.zeros(len(series))
    for i, s in enumerate(series):
        xs = np.asarray(s.x if s.x is not None else x, dtype=float)
        y = np.asarray(s.y, dtype=float)
        colour = COLOURS[i % len(COLOURS)]
        if band:
            ax.plot(xs, y, marker="o", ms=3.5, lw=1.6, color=colour, label=s.label)
            if s.lo is not None and s.hi is not None:
                ax.fill_between(xs, np.asarray(s.lo, float), np.asarray(s.hi, float), color=colour, alpha=0.18, lw=0)
        else:
            ax.errorbar(xs + offsets[i], y, yerr=_errors(s, y), marker="o", ms=4, lw=1.4, capsize=3, color=colour, label=s.label)
    if reference is not None:
        ax.plot(
            np.asarray(reference.x if reference.x is not None else x, float),
            np.asarray(reference.y, float),
            ls="--",
            lw=1.2,
            color="#555555",
            label=reference.label,
        )
    if hline is not None:
        ax.axhline(hline, color="#555555", lw=1, ls=":", label=hline_label)
    if xticks is not None:
        ax.set_xticks(list(xticks), None if xticklabels is None else list(xticklabels))
    if log:
        from matplotlib.ticker import FuncFormatter

        ax.set_yscale("log")
        if percent:
            ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{100 * v:g}%"))
    _labels(ax, title, xlabel, ylabel, percent and not log)
    if len(series) > 1 or reference is not None or hline_label:
        ax.legend(fontsize=8, frameon=False, ncol=2 if len(series) > 5 else 1)
    return _finish(fig, bottom)


def _labels(ax, title: str, xlabel: str, ylabel: str, percent: bool = False) -> None:
    ax.set_title(title, fontsize=12, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.3, lw=0.6)
    ax.spines[["top", "right"]].set_visible(False)
    if percent:
        from matplotlib.ticker import PercentFormatter

        ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))


def dot_chart(
    labels: Sequence[str],
    series: Sequence[Series],
    *,
    title: str,
    xlabel: str,
    caption: str,
    zero: float | None = 0.0,
    percent: bool = False,
    change: bool = False,
) -> Figure:
    """Horizontal points with 95% error bars, one row per label (several series offset within a row).

    ``percent``: the values are shares, labelled in %; with ``change`` they are changes of shares, labelled in pp.
    """
    rows = len(labels)
    fig, bottom = _figure(max(2.4, 0.42 * rows * max(1, len(series)) ** 0.5 + 1.3), caption)
    ax = fig.add_subplot()
    ys = np.arange(rows)[::-1].astype(float)
    offsets = np.linspace(-0.22, 0.22, len(series)) if len(series) > 1 else [0.0]
    for i, s in enumerate(series):
        x, colour = np.asarray(s.y, float), COLOURS[i % len(COLOURS)]
        ax.errorbar(x, ys + offsets[i], xerr=_errors(s, x), fmt="o", ms=5, capsize=3, color=colour, label=s.label)
    if zero is not None:
        ax.axvline(zero, color="#555555", lw=1, ls=":")
    ax.set_yticks(ys, list(labels))
    _labels(ax, title, xlabel, "", False)
    if percent and change:
        ax.xaxis.set_major_formatter(pp_formatter())
    elif percent:
        from matplotlib.ticker import PercentFormatter

        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=1))
    if len(series) > 1:
        ax.legend(fontsize=8, frameon=False)
    return _finish(fig, bottom)


@dataclass(frozen=True)
class Panel:
    """One panel of a forest chart: each row's effect (``series``), its x label and the equivalence margin."""

    xlabel: str
    series: Series
    margin: float
    percent: bool = False


def forest_chart(labels: Sequence[str], panels: Sequence[Panel], *, title: str, caption: str) -> Figure:
    """Each row's effect with its interval in one panel per quantity, the band +-margin shaded grey.

    Each panel is centred on 0 and spans the widest interval or the margin,
    whichever is further out; a ``percent`` panel (a change of a share) is
    labelled in percentage points. Rows read top to bottom in ``labels`` order.
    """
    rows = len(labels)
    fig, bottom = _figure(max(2.6, 0.38 * rows + 1.4), caption)
    ys = np.arange(rows)[::-1].astype(float)
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for i, (ax, panel) in enumerate(zip(axes, panels, strict=True)):
        s = panel.series
        x = np.asarray(s.y, float)
        ax.axvspan(-panel.margin, panel.margin, color="#dddddd", alpha=0.7, lw=0, label="equivalence band")
        ax.axvline(0.0, color="#555555", lw=1, ls=":")
        ax.errorbar(x, ys, xerr=_errors(s, x), fmt="o", ms=5, capsize=3, color=COLOURS[i % len(COLOURS)])
        # Centred on 0 and just wide enough for every interval and the band: the effects read, not absolute levels.
        ends = np.abs(np.concatenate([np.asarray(s.lo, float), np.asarray(s.hi, float), x]))
        reach = max(float(np.nanmax(ends)) if np.isfinite(ends).any() else 0.0, panel.margin)
        ax.set_xlim(-1.15 * reach, 1.15 * reach)
        ax.set_xlabel(panel.xlabel, fontsize=9)
        ax.grid(True, axis="x", alpha=0.3, lw=0.6)
        ax.spines[["top", "right"]].set_visible(False)
        if panel.percent:  # a change of a share is in percentage points, never "%"
            ax.xaxis.set_major_formatter(pp_formatter())
    axes[0].set_yticks(ys, list(labels))
    fig.suptitle(title, fontsize=12, x=0.01, ha="left")
    return _finish(fig, bottom)


def pp_formatter():
    """Tick labels for a change of a share (0.012 -> "+1.2 pp"): percentage points, signed, never "%"."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _: "0" if abs(v) < 1e-12 else f"{100 * v:+.1f} pp")


def heatmap(
    values: np.ndarray,
    xvals: Sequence[str],
    yvals: Sequence[str],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    caption: str,
    colour_label: str,
    annotations: np.ndarray | None = None,
    diverging: bool = True,
) -> Figure:
    """A grid of cells (rows ``yvals`` bottom to top, columns ``xvals``), annotated; ``diverging``: coloured
    around 0."""
    fig, bottom = _figure(5.6, caption)
    ax = fig.add_subplot()
    v = np.asarray(values, float)
    finite = v[np.isfinite(v)]
    if diverging:
        lim = float(np.max(np.abs(finite))) if finite.size else 1.0
        lim = lim or 1.0
        norm = TwoSlopeNorm(vcenter=0.0, vmin=-lim, vmax=lim)
        image = ax.imshow(v, origin="lower", cmap="RdBu_r", norm=norm, aspect="auto")
    else:
        image = ax.imshow(v, origin="lower", cmap="viridis", aspect="auto")
    cbar = fig.colorbar(image, ax=ax, fraction=0.045, pad=0.02)
    cbar.set_label(colour_label)
    ax.set_xticks(range(len(xvals)), list(xvals), rotation=0 if len(xvals) < 12 else 45)
    ax.set_yticks(range(len(yvals)), list(yvals))
    if annotations is not None:
        small = 7 if v.shape[1] > 8 else 8.5
        for i in range(v.shape[0]):
            for j in range(v.shape[1]):
                text = annotations[i, j]
                if text:
                    # matplotlib types a norm's value as ArrayLike; for one cell it is one number
                    level = float(np.asarray(image.norm(v[i, j]))) if np.isfinite(v[i, j]) else 0.5
                    dark = abs(level - 0.5) > 0.33 if diverging else level < 0.55
                    ax.text(j, i, text, ha="center", va="center", fontsize=small, color="white" if dark else "black")
    ax.set_title(title, fontsize=12, loc="left")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    return _finish(fig, bottom)


def distribution_chart(
    series: Sequence[tuple[str, np.ndarray]],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    caption: str,
    bin_width: int = 1,
    xmax: int | None = None,
) -> Figure:
    """Step histograms of counts (share of games per bin of ``bin_width``) with 95% Wilson bands per bin."""
    fig, bottom = _figure(4.6, caption)
    ax = fig.add_subplot()
    for i, (label, counts) in enumerate(series):
        c = np.asarray(counts, float)
        top = xmax if xmax is not None else len(c)
        c = c[:top]
        nb = int(np.ceil(len(c) / bin_width))
        binned = np.add.reduceat(c, np.arange(0, nb * bin_width, bin_width)[:nb]) if len(c) else c
        n = max(np.asarray(counts, float).sum(), 1.0)
        share = binned / n
        edges = np.arange(nb + 1) * bin_width
        colour = COLOURS[i % len(COLOURS)]
        z = 1.959963984540054
        centre = (share + z * z / (2 * n)) / (1 + z * z / n)
        half = z * np.sqrt(share * (1 - share) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        ax.stairs(
            np.clip(centre + half, 0, 1), edges, baseline=np.clip(centre - half, 0, 1), fill=True, color=colour, alpha=0.18, lw=0
        )
        ax.stairs(share, edges, lw=1.6, color=colour, label=label)
    _labels(ax, title, xlabel, ylabel, True)
    ax.legend(fontsize=8, frameon=False)
    return _finish(fig, bottom)


def ecdf_chart(
    series: Sequence[tuple[str, np.ndarray, float]],
    *,
    title: str,
    xlabel: str,
    caption: str,
    xmax: int | None = None,
) -> Figure:
    """Empirical CDFs from histograms, each with a Dvoretzky-Kiefer-Wolfowitz 95% band (half-width ``eps``)."""
    fig, bottom = _figure(4.6, caption)
    ax = fig.add_subplot()
    for i, (label, counts, eps) in enumerate(series):
        c = np.asarray(counts, float)
        cdf = np.cumsum(c) / max(c.sum(), 1.0)
        top = xmax if xmax is not None else len(c)
        x = np.arange(top)
        colour = COLOURS[i % len(COLOURS)]
        ax.step(x, cdf[:top], where="post", lw=1.6, color=colour, label=label)
        ax.fill_between(
            x, np.clip(cdf[:top] - eps, 0, 1), np.clip(cdf[:top] + eps, 0, 1), step="post", color=colour, alpha=0.15, lw=0
        )
    ax.set_ylim(0, 1.01)
    _labels(ax, title, xlabel, "share of rounds at or below", True)
    ax.legend(fontsize=8, frameon=False, loc="lower right")
    return _finish(fig, bottom)


def grouped_bars(
    categories: Sequence[str],
    series: Sequence[Series],
    *,
    title: str,
    xlabel: str,
    ylabel: str,
    caption: str,
    percent: bool = False,
    hline: float | None = None,
    hline_label: str | None = None,
) -> Figure:
    """Bars per category and series, with 95% error bars (``hline``: a dotted reference line)."""
    fig, bottom = _figure(4.6, caption)
    ax = fig.add_subplot()
    k = len(series)
    width = 0.8 / max(k, 1)
    xs = np.arange(len(categories), dtype=float)
    for i, s in enumerate(series):
        y = np.asarray(s.y, float)
        ax.bar(
            xs + (i - (k - 1) / 2) * width,
            y,
            width=width,
            yerr=_errors(s, y),
            capsize=2,
            color=COLOURS[i % len(COLOURS)],
            label=s.label,
            error_kw={"lw": 0.9},
        )
    if hline is not None:
        ax.axhline(hline, color="#333333", lw=1.2, ls=":", label=hline_label)
    ax.set_xticks(xs, list(categories))
    _labels(ax, title, xlabel, ylabel, percent)
    if k > 1 or hline_label:
        ax.legend(fontsize=8, frameon=False)
    return _finish(fig, bottom)


def save(fig: Figure, folder: Path, name: str) -> tuple[Path, Path]:
    """Write ``name.png`` and ``name.svg`` into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    png, svg = folder / f"{name}.png", folder / f"{name}.svg"
    fig.savefig(png, dpi=110)
    fig.savefig(svg, metadata={"Date": None})
    return png, svg
