"""Who wins, by seat and by role: the first player, the dealer, every place after the dealer, over rounds and matches.

Computed from a played design (:class:`Played`: the tidy frame of
``unocli.report.design`` and the comparisons behind it, every field an arm on
the same deals): every seat's share with the chi-square test of equal shares,
the first player's, the dealer's and seat 0's shares with balance
(block-bootstrap interval), each seat's match edge judged against the margin
(:func:`match_verdicts`), and the difference of the first player's (or the
dealer's) edge between two fields, paired on the common deals and judged as one
family (:func:`field_differences`), the only ground for saying a field differs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

import pandas as pd
from scipy import stats as sps

from unocli.analysis.frames import Played, wide
from unocli.analysis.seats import balance, percentile_interval, seat_columns
from unocli.analysis.verdicts import add_verdicts
from unocli.study.compare import Comparison
from unocli.study.interaction import FieldInteraction, judge_family
from unocli.study.stats import holm, paired_t

# The design frame's quantities as the first-player table's columns (mean, low, high).
ROLES = {
    "win_first": ("first_player_share", "ci_low", "ci_high"),
    "win_0": ("seat0_share",),
    "win_dealer": ("dealer_share", "dealer_low", "dealer_high"),
}


def field_differences(
    cells: Mapping[int, Comparison], fields: Sequence[str], quantity: str, margin: float
) -> dict[int, list[FieldInteraction]]:
    """Per table size, the difference of ``quantity`` (a role's win share) between every pair of fields.

    The fields are arms of one comparison per table size, on the same deals, so
    the difference of two fields' edges (share minus 1/n: the 1/n cancels) is
    their paired difference deal by deal. Every pair at every size is one
    family (:func:`~unocli.study.interaction.judge_family`: simultaneous
    intervals against ``+-margin``, a share, and Holm's p).
    """
    found = [((p,), a, b, comp.diff(a, b, quantity)) for p, comp in cells.items() for a, b in combinations(fields, 2)]
    out: dict[int, list[FieldInteraction]] = {}
    for i in judge_family(found, margin):
        out.setdefault(i.key[0], []).append(i)
    return out


def round_quantities(players: int) -> tuple[str, ...]:
    """What a round records at a table of ``players``: the roles (first player, dealer, each place) and every seat."""
    roles = ("win_first", "win_dealer", *(f"win_place_{k}" for k in range(1, players + 1)))
    return ("won", "turns", *roles, *(f"win_{s}" for s in range(players)))


def match_quantities(players: int) -> tuple[str, ...]:
    """What a match records: whether it was won, and by which seat."""
    return ("won", *(f"win_{s}" for s in range(players)))


def equal_shares_p(wins: list[int]) -> float:
    """Chi-square test that every seat wins equally often, over the won games (NaN with fewer than 2 seats or no wins).

    The seats' counts are one multinomial sample, so the test respects that
    the shares sum to one (unlike comparing seats pairwise).
    """
    total = sum(wins)
    if len(wins) < 2 or total == 0:
        return math.nan
    return float(sps.chisquare(wins).pvalue)


def match_verdicts(matches: pd.DataFrame, margin_pp: float) -> pd.DataFrame:
    """``matches`` with each seat's edge (share minus 1/n) judged against ``+-margin_pp`` and Holm's chi-square p.

    A seat's edge is the mean of (won - 1/n) over its ``n`` matches, so its
    interval is Student's t on those 0/1-minus-1/n values; every seat of every
    table size and field is one family (:func:`~unocli.study.stats.equivalence`,
    simultaneous intervals). "The seats even out over a match" may be said only
    where every seat's verdict lies within the margin. ``chi2_p_holm`` adjusts
    the chi-square p of each (players, field) over the table's groups.
    Adds ``edge`` with ``edge_sim_low``/``edge_sim_high`` (shares), ``sim_level``,
    ``edge_verdict`` and ``edge_p_tost``.
    """
    out = matches.copy()
    if not len(out):
        return out
    fair = 1 / out["players"]
    out["edge"] = out["share"] - fair
    diffs = []
    for r in out.itertuples():
        f = 1 / r.players
        diffs.append(paired_t(int(r.n), r.wins - r.n * f, r.wins * (1 - f) ** 2 + (r.n - r.wins) * f * f))
    add_verdicts(out, diffs, "edge", margin_pp, scale=100)
    groups = out.groupby(["players", "field"], sort=False)["chi2_p"].first()
    adjusted = dict(zip(groups.index, holm(groups.to_numpy()), strict=True))
    out["chi2_p_holm"] = [adjusted[(p, f)] for p, f in zip(out["players"], out["field"], strict=True)]
    return out


def seat_rows(played: Played) -> pd.DataFrame:
    """Every seat's share of the games (Wilson), its place after the dealer of the first round, and the chi-square p."""
    f = played.frame[played.frame["quantity"].str.fullmatch(r"win_\d+")]
    seats = f.assign(seat=f["quantity"].str.removeprefix("win_").astype(int))
    wins = [int(played.cells[(r.field, r.players)].acc(r.arm).wins[r.seat]) for r in seats.itertuples()]
    out = pd.DataFrame({"players": seats["players"], "field": seats["arm"], "seat": seats["seat"], "place": seats["seat"] + 1})
    out = out.assign(n=seats["n"], wins=wins, share=seats["mean"], ci_low=seats["low"], ci_high=seats["high"])
    out = out.sort_values(["players", "field", "seat"], kind="stable", key=_in_order(played)).reset_index(drop=True)
    chi2 = {k: equal_shares_p(list(g["wins"])) for k, g in out.groupby(["players", "field"], sort=False)}
    out["chi2_p"] = [chi2[k] for k in zip(out["players"], out["field"], strict=True)]
    return out


def _in_order(played: Played) -> Callable[[pd.Series], pd.Series]:
    """A sort key keeping the design's order of fields (the arms) and table sizes rather than the alphabet's."""
    order = {name: i for i, name in enumerate(played.names)}
    return lambda col: col.map(order) if col.name == "field" else col


def first_player_rows(played: Played, replicates: int, seed: int) -> pd.DataFrame:
    """Per table size and field: the first player's, the dealer's and seat 0's shares, the chi-square p, balance."""
    t = wide(played.frame, ROLES, arm="field", n="won")
    rows = []
    for r in t.itertuples():
        comp = played.cells[("", r.players)]
        boot = comp.boot_means(replicates, seed=seed % (2**32) + r.players)
        cols = seat_columns(comp, r.players)
        k = comp.index(r.field)
        bl, bh = percentile_interval(balance(boot[:, k, cols]))
        rows.append(
            {
                "chi2_p": equal_shares_p([int(w) for w in comp.acc(r.field).wins[: r.players]]),
                "balance": balance(comp.means()[:, cols])[k],
                "balance_low": bl,
                "balance_high": bh,
            }
        )
    p = t["players"]
    t = t.assign(fair_share=1 / p, ratio_to_fair=t["first_player_share"] * p, ratio_low=t["ci_low"] * p)
    t = t.assign(ratio_high=t["ci_high"] * p)
    head = ["players", "field", "n", "first_player_share", "ci_low", "ci_high", "seat0_share", "dealer_share"]
    rest = ["dealer_low", "dealer_high", "fair_share", "ratio_to_fair", "ratio_low", "ratio_high"]
    return pd.concat([t[head + rest], pd.DataFrame(rows)], axis=1)


def differences_frame(between: Mapping[str, Mapping[int, Sequence[FieldInteraction]]]) -> pd.DataFrame:
    """:func:`field_differences` of every role as one table: role, players, the two fields, the difference of their
    edges with its simultaneous interval and level, the verdict against the margin, deals, raw and Holm p."""
    rows = [
        {"role": role, "players": p, "field_a": i.field_a, "field_b": i.field_b, "difference": i.diff}
        | {"sim_low": i.low, "sim_high": i.high, "sim_level": i.level, "margin": i.margin, "verdict": i.verdict}
        | {"n": i.n, "p_raw": i.p, "p_holm": i.p_holm, "family": i.family}
        for role, by_size in between.items()
        for p, items in by_size.items()
        for i in items
    ]
    return pd.DataFrame(rows)
