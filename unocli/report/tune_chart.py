"""The chart of a ``unocli tune`` search: every candidate's gain, and the winner re-measured on fresh deals."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from unocli.study.tune import TuneResult


def _scaled(x: Any, k: float) -> Any:
    """``x`` times ``k`` (an axis' transform: numbers or arrays)."""
    return x * k


def search_chart(result: TuneResult, path: str | Path) -> Path:
    """The last race's candidates sorted by their search estimate (95% CI over the deals each played; the best
    40 when there are more), dropped ones grey; the winner's fresh re-measurement and the references' beside
    them. Written atomically."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # lazily: matplotlib only when a chart is drawn

    from unocli.files import write_atomic
    from unocli.study.tune import candidates_table

    last = len(result.races) - 1
    rows = [r for r in candidates_table(result) if r["stage"] == last][:40]
    fig, ax = plt.subplots(figsize=(8, 0.28 * (len(rows) + 5) + 2.2))
    for y, row in enumerate(reversed(rows)):
        colour = "tab:red" if row["winner"] else ("tab:blue" if row["dropped_in_round"] == 0 else "0.6")
        ax.errorbar(
            row["gain_pp"],
            y,
            xerr=[[row["gain_pp"] - row["ci_low_pp"]], [row["ci_high_pp"] - row["gain_pp"]]],
            fmt="o",
            color=colour,
            ms=4,
            capsize=2,
        )
    fresh = result.fresh
    top = len(rows) + 0.8
    marks = [("winner, fresh deals", fresh.gains["candidate"], "tab:red")]
    marks += [(f"{name}, fresh deals", d, "black") for name, d in fresh.gains.items() if name != "candidate"]
    for offset, (label, d, colour) in enumerate(marks):
        y_fresh = top + offset
        ax.errorbar(
            100 * d.diff, y_fresh, xerr=[[100 * (d.diff - d.low)], [100 * (d.high - d.diff)]], fmt="s", color=colour, capsize=3
        )
        ax.annotate(label, (100 * d.high, y_fresh), xytext=(4, -3), textcoords="offset points", fontsize=8)
    ax.axvline(0, color="0.4", lw=0.8)
    ax.set_yticks(range(len(rows)), [r["candidate"] for r in reversed(rows)], fontsize=7)
    ax.set_xlabel(
        "gain over the field: win share minus a field player's share (pp, 95% CI over deals); n/(n-1) times the edge",
        fontsize=8,
    )
    t = result.table
    n = t.rules.players
    # The edge (share minus the fair share 1/n, docs/statistics.md) on the top axis: with a winner in every round
    # the field's n-1 seats share 1 - s, so gain = s - (1 - s)/(n - 1) = n/(n - 1) * (s - 1/n).
    edge_axis = ax.secondary_xaxis("top", functions=(partial(_scaled, k=(n - 1) / n), partial(_scaled, k=n / (n - 1))))
    edge_axis.set_xlabel(f"edge: win share minus the fair share 1/{n} (pp; x{n} gives it relative to the fair share)", fontsize=8)
    ax.set_title(
        f"tune: the last of {len(result.races)} races, {len(rows)} candidates shown, around {result.space.base} vs field;"
        f" {t.rules.players} players, seed {t.seed}\n"
        f"red: winner; blue: survived the race; grey: dropped (estimates over the deals each played); shipped: "
        f"{'the winner' if result.shipped.winner else result.shipped.label}",
        fontsize=9,
    )
    fig.tight_layout()
    suffix = Path(path).suffix.lower().lstrip(".") or "png"
    try:
        return write_atomic(path, lambda tmp: fig.savefig(tmp, format=suffix, dpi=110))
    finally:
        plt.close(fig)
