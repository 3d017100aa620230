"""What stacking changes: every stacking variant under several fields of players, paired on the same deals.

A *field* is the policy every seat plays (``random``, ``basic``, an adapted
player, a tuned player per rule set). Per field, table size and variant: round
length (two turn definitions), cards drawn, the chance of drawing 8+ or 12+
cards at once as a penalty (``max_draw``, docs/rules.md §9) and the comeback
chance (the first player left with one card does not win, ``first_to_one``).
Under the main field also: the paired change in turns, cards drawn and the
first player's share, the longest penalty chain (``max_stack``) and balance.
At the strategy table sizes seat 0 also plays the adapted player and the
reference player among each field, on the same deals, which gives the rule x
strategy interaction: (adapted minus reference at seat 0) under a variant
minus the same under the baseline, with a paired interval over deals; and that
interaction under one field minus under another, paired over blocks of common
deals (:func:`strategy_between`).

:func:`play` runs it all from explicit parameters (a :class:`~unocli.analysis.measures.Plan`,
the variants' arms per field and table size, the options) and returns :class:`StackingTables`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd

from unocli.analysis.fields import field_interactions
from unocli.analysis.measures import Plan, arm_diff, arm_mean, total_games
from unocli.analysis.seats import arm_rows, fair_balance, percentile_interval
from unocli.analysis.verdicts import add_verdicts
from unocli.game.policies import parse_policy_spec
from unocli.run.quantities import COMEBACK_PARTS
from unocli.study.arm import Arm, has_placeholders
from unocli.study.arm import template_name as field_name
from unocli.study.compare import Comparison
from unocli.study.interaction import FieldInteraction, contrast_interaction, judge_family
from unocli.study.interaction import contrast as block_contrast
from unocli.study.stats import Difference, equivalence, holm, paired_t, wilson

ADAPTED = "adapted"  # a field named so plays the experiment's ``adapted`` option
DRAW_AT_ONCE = (8, 12)  # P(max_draw >= k)
SEAT0 = ("adapted", "reference")  # the two players compared at seat 0
# the comeback chance is the ratio comeback / one_reached (COMEBACK_PARTS), paired per block of deals
QUANTITIES: tuple[str, ...] = ("turns", "skips", "cards_drawn", "max_stack", "max_draw", "won", "stuck", "capped")
QUANTITIES += ("win_first", "win_dealer", *COMEBACK_PARTS)
STACK_BINS = 9  # longest stack 0..7, and 8 or more
EFFECTS = ("turns", "cards_drawn", "win_first")


def field_spec(field: str, opt: dict[str, Any]) -> str:
    """The policy spec of a field: the ``adapted`` option for the field named ``adapted``."""
    return str(opt["adapted"]) if field == ADAPTED else field


def seat0_name(variant: str, field: str, who: str, opt: dict[str, Any]) -> str:
    """The arm in which seat 0 plays ``who`` (adapted or reference) among ``field``: the field arm itself when equal.

    A ``{rules}``/``{players}`` field is a player from the policies file, never the adapted or the reference preset.
    """
    spec = str(opt["adapted"] if who == "adapted" else opt["reference"])
    if not has_placeholders(field) and parse_policy_spec(spec) == parse_policy_spec(field_spec(field, opt)):
        return variant
    return f"{variant}+{who}"


def play_field(
    plan: Plan, arms: Sequence[Arm], p: int, field: str, base: str, opt: dict[str, Any], name: str | None = None
) -> Comparison:
    """Every variant with the whole table playing ``field`` (``arms``); at strategy sizes also seat 0 swapped, paired.

    ``opt`` holds ``adapted``, ``reference`` and ``versus_players`` (the
    stacking experiment's options); ``name`` is the field's name in the log.
    """
    arms = list(arms)
    variants = [a.name for a in arms]
    pairs = [(v, base) for v in variants if v != base]
    if p in opt["versus_players"]:
        for a in list(arms):
            for who in SEAT0:
                name_ = seat0_name(a.name, field, who, opt)
                if name_ != a.name:
                    seat0 = parse_policy_spec(str(opt["adapted"] if who == "adapted" else opt["reference"]))
                    arms.append(Arm(name_, a.rules, (seat0, *a.policies[1:])))
        for v in variants:  # every pair of the four arms an interaction contrast reads
            four = [seat0_name(x, field, who, opt) for x in (v, base) for who in SEAT0]
            pairs += [(a, b) for a, b in combinations(four, 2) if a != b and (a, b) not in pairs and (b, a) not in pairs]
    quantities = (*QUANTITIES, *(f"win_{s}" for s in range(p)))
    return plan.compare(arms, baseline=base, quantities=quantities, pairs=pairs, label=f"{p} players, field {name or field}")


def contrast(comp: Comparison, coefs: dict[str, int], quantity: str) -> Difference:
    """The per-deal contrast sum_k c_k x_k (a 0/1 ``quantity`` over every deal) with a paired t interval.

    Its sum of squares comes from the arms' sums of squares and the recorded
    pairs' sums of squared differences: sum x_k x_l = (sum x_k^2 + sum x_l^2 -
    sum (x_k - x_l)^2) / 2, so every pair of the arms must have been recorded.
    """
    sums, j = comp.sums, comp.quantities.index(quantity)
    names = [n for n, c in coefs.items() if c != 0]
    idx = {n: comp.index(n) for n in names}
    total = sum(coefs[n] * int(sums.s1[idx[n], j]) for n in names)
    sq = {n: int(sums.s2[idx[n], j]) for n in names}
    total_sq = sum(coefs[n] ** 2 * sq[n] for n in names)
    for a, b in combinations(names, 2):
        ka, kb = idx[a], idx[b]
        pair = (ka, kb) if (ka, kb) in sums.pairs else (kb, ka)
        d2 = int(sums.d2[sums.pairs.index(pair), j])
        total_sq += coefs[a] * coefs[b] * (sq[a] + sq[b] - d2)  # 2 * c_a c_b * sum x_a x_b
    return paired_t(comp.games, total, total_sq)


def _level(successes: int, n: int, key: str) -> dict[str, Any]:
    w = wilson(successes, n)
    return {key: w.share, f"{key}_low": w.low, f"{key}_high": w.high}


def _diff(d: Difference, key: str) -> dict[str, Any]:
    """A difference as row fields; its standard error and degrees of freedom too, for :func:`judge_column`."""
    return {key: d.diff, f"{key}_low": d.low, f"{key}_high": d.high, f"{key}_p": d.p, f"{key}_se": d.se, f"{key}_df": d.df}


def judge_column(frame: pd.DataFrame, column: str, margin: float) -> None:
    """Judge a column of differences as one family, in place: ``{column}_sim_low``, ``_sim_high``, ``_sim_level``
    and ``_verdict`` on the rows that carry a difference (the baseline's rows stay blank).

    Each difference is rebuilt from its ``_se``, ``_df``, ``_p`` and 95% bounds
    (:func:`_diff`) and judged against ``+-margin`` (in the column's units) on
    its simultaneous interval over the family's rows
    (:func:`~unocli.study.stats.equivalence`), because a finding reads them
    together.
    """
    if column not in frame.columns:
        return
    has = frame[column].notna()
    rows = frame[has]
    found = [
        Difference(
            r[column],
            r[f"{column}_se"],
            int(r["n"]),
            r[f"{column}_low"],
            r[f"{column}_high"],
            r[f"{column}_p"],
            r[f"{column}_df"],
        )
        for _, r in rows.iterrows()
    ]
    judged = [equivalence(d, margin, family=len(found)) for d in found]
    for key, values in (
        ("sim_low", [e.low for e in judged]),
        ("sim_high", [e.high for e in judged]),
        ("sim_level", [e.level for e in judged]),
        ("verdict", [e.verdict for e in judged]),
    ):
        name, series = f"{column}_{key}", pd.Series(values, index=rows.index, dtype=object if key == "verdict" else float)
        if name in frame.columns:  # judged again: the new bounds replace the old
            del frame[name]
        if key in ("sim_low", "sim_high"):  # the bounds right after their point, as a reader of the CSV finds them
            frame.insert(frame.columns.get_loc(column) + (1 if key == "sim_low" else 2), name, series)
        else:
            frame[name] = series


def _comeback(comp: Comparison, name: str) -> tuple[int, int]:
    acc = comp.acc(name)
    return acc.one_lost, acc.one_reached


def field_rows(
    comp: Comparison, p: int, field: str, variants: Sequence[str], base: str, replicates: int, seed: int
) -> list[dict[str, Any]]:
    """One row per variant: levels with 95% intervals, and changes from ``base`` (paired where the deals pair)."""
    boot = comp.boot_means(replicates, seed=seed % (2**32) + 7 * p)
    q = comp.quantities
    long = boot[:, :, q.index("turns")] + boot[:, :, q.index("skips")]  # turns counting skipped players
    means = comp.means()
    kb = comp.index(base)
    rows = []
    for v in variants:
        k, acc = comp.index(v), comp.acc(v)
        t = arm_mean(comp, v, "turns")
        d = arm_mean(comp, v, "cards_drawn")
        lost, reached = _comeback(comp, v)
        row: dict[str, Any] = {"players": p, "field": field, "stacking": v, "n": comp.games, "finished": acc.finished}
        row |= {"turns": t.mean, "turns_low": t.low, "turns_high": t.high}
        lo, hi = percentile_interval(long[:, k])
        row |= {"turns_skips": means[k, q.index("turns")] + means[k, q.index("skips")], "turns_skips_low": lo}
        row |= {"turns_skips_high": hi, "cards_drawn": d.mean, "cards_drawn_low": d.low, "cards_drawn_high": d.high}
        for at in DRAW_AT_ONCE:
            row |= _level(int(acc.penalty_hist[at:].sum()), int(acc.penalty_hist.sum()), f"p_draw_{at}")
        row |= {"one_reached": reached} | _level(lost, reached, "comeback")
        if v != base:
            row |= _changes(comp, v, base, long[:, k] - long[:, kb], means[k] - means[kb])
        rows.append(row)
    return rows


def _changes(comp: Comparison, v: str, base: str, boot_long: np.ndarray, dmeans: np.ndarray) -> dict[str, Any]:
    """Changes from ``base``: paired t for turns and cards drawn, bootstrap for turns + skips, and for the comeback
    chance the paired difference of ratios clustered over blocks of deals."""
    q = comp.quantities
    out = _diff(arm_diff(comp, v, base, "turns"), "d_turns") | _diff(arm_diff(comp, v, base, "cards_drawn"), "d_cards_drawn")
    lo, hi = percentile_interval(boot_long)
    out |= {"d_turns_skips": dmeans[q.index("turns")] + dmeans[q.index("skips")]}
    out |= {"d_turns_skips_low": lo, "d_turns_skips_high": hi}
    # A comeback chance is a ratio (comebacks over rounds in which a seat reached one card), so its change is the
    # difference of two ratios on common deals, linearised and clustered over the blocks of deals both arms share.
    return out | _diff(block_contrast(comp, {v: 1, base: -1}, "comeback", per="one_reached"), "d_comeback")


def strategy_rows(comp: Comparison, p: int, field: str, variants: Sequence[str], base: str, opt: dict[str, Any]) -> list:
    """Per variant: adapted minus reference at seat 0 (paired), the interaction against ``base``, the skill gap.

    ``field`` is the field's spec; the rows name it as reports do (:func:`~unocli.report.analyses.fields.field_name`).
    """
    rows = []
    b_a, b_r = (seat0_name(base, field, who, opt) for who in SEAT0)
    for v in variants:
        v_a, v_r = (seat0_name(v, field, who, opt) for who in SEAT0)
        row: dict[str, Any] = {"players": p, "field": field_name(field), "stacking": v, "n": comp.games}
        row |= _diff(arm_diff(comp, v_a, v_r, "win_0"), "edge")
        share = arm_mean(comp, v_a, "win_0")
        row |= {"gap": share.mean - 1 / p, "gap_low": share.low - 1 / p, "gap_high": share.high - 1 / p}
        if v != base:
            row |= _diff(contrast(comp, {v_a: 1, v_r: -1, b_a: -1, b_r: 1}, "win_0"), "interaction")
        else:
            row |= {"interaction": math.nan, "interaction_low": math.nan, "interaction_high": math.nan}
            row["interaction_p"] = math.nan
        rows.append(row)
    return rows


def strategy_coefs(variant: str, base: str, field: str, opt: dict[str, Any]) -> dict[str, int]:
    """The four arms of the seat-0 interaction under ``field`` (a spec) and their signs: (adapted - reference under
    ``variant``) - (the same under ``base``); an arm named twice sums its signs."""
    coefs: dict[str, int] = {}
    for arm, who, sign in ((variant, "adapted", 1), (variant, "reference", -1), (base, "adapted", -1), (base, "reference", 1)):
        name = seat0_name(arm, field, who, opt)
        coefs[name] = coefs.get(name, 0) + sign
    return coefs


def strategy_between(
    by_field: Mapping[tuple[str, int], Comparison],
    specs: Mapping[str, str],
    names: Sequence[str],
    base: str,
    opt: dict[str, Any],
    margin: float,
) -> dict[tuple, list[FieldInteraction]]:
    """The seat-0 interaction (:func:`strategy_rows`) under each field minus under each other field, per variant and
    table size where seat 0 was swapped: one family on simultaneous intervals against ``margin`` (a share).

    Every field plays the same deals, so the difference is paired over blocks of
    common deals (:func:`~unocli.study.interaction.contrast_interaction`); the key
    is (players, variant), as :func:`~unocli.analysis.fields.field_interactions`'s.
    """
    found = []
    for p in sorted({p for _, p in by_field}):
        if p not in opt["versus_players"]:
            continue
        played = [f for f in specs if (f, p) in by_field]
        for a, b in combinations(played, 2):
            for v in names:
                if v == base:
                    continue
                ca, cb = strategy_coefs(v, base, specs[a], opt), strategy_coefs(v, base, specs[b], opt)
                found.append(((p, v), a, b, contrast_interaction(by_field[(a, p)], by_field[(b, p)], ca, cb, "win_0")))
    out: dict[tuple, list[FieldInteraction]] = {}
    for i in judge_family(found, margin):
        out.setdefault(i.key, []).append(i)
    return out


def _between(
    by_field: Mapping[tuple[str, int], Comparison],
    specs: Mapping[str, str],
    names: Sequence[str],
    base: str,
    opt: dict[str, Any],
    turns: float,
    share: float,
) -> dict[str, dict[tuple, list[FieldInteraction]]]:
    """The interactions between fields of :class:`StackingTables`' ``between``, each family against its margin."""
    fields, comps = list(specs), dict(by_field)
    return {
        "turns": field_interactions(comps, fields, names, base, "turns", turns),
        "cards_drawn": field_interactions(comps, fields, names, base, "cards_drawn", 0.0),
        "comeback": field_interactions(comps, fields, names, base, "comeback", share, per="one_reached"),
        "keep_draws": strategy_between(by_field, specs, names, base, opt, share),
    }


def _arm_rows(comp: Comparison, p: int, names: tuple[str, ...], base: str, replicates: int, seed: int) -> list[dict]:
    rows = []
    for name, row, change in arm_rows(comp, p, names, base, replicates, seed, "stacking"):
        skips = arm_mean(comp, name, "skips")
        row |= {"turns_with_skips": row["turns"] + skips.mean, "stuck_share": arm_mean(comp, name, "stuck").mean}
        row |= {"capped_share": arm_mean(comp, name, "capped").mean}
        if name != base:
            for metric in EFFECTS:
                d = arm_diff(comp, name, base, metric)
                row |= {f"d_{metric}": d.diff, f"d_{metric}_low": d.low, f"d_{metric}_high": d.high, f"p_{metric}": d.p}
        rows.append(row | change)
    return rows


def _stack_row(comp: Comparison, p: int, name: str) -> dict:
    hist = comp.acc(name).stack_hist
    total = hist.sum()
    dist = np.append(hist[: STACK_BINS - 1], hist[STACK_BINS - 1 :].sum()) / total
    ms = arm_mean(comp, name, "max_stack")
    at_least = {f"p_at_least_{k}": wilson(int(hist[k:].sum()), int(total)) for k in (2, 3, 4)}
    return {
        "players": p,
        "stacking": name,
        "n": int(total),
        "mean_max_stack": ms.mean,
        "mean_low": ms.low,
        "mean_high": ms.high,
        **{key: w.share for key, w in at_least.items()},
        **{f"{key}_low": w.low for key, w in at_least.items()},
        **{f"{key}_high": w.high for key, w in at_least.items()},
        **{f"share_{k}" if k < STACK_BINS - 1 else f"share_{k}_or_more": dist[k] for k in range(STACK_BINS)},
        "longest_seen": int(np.flatnonzero(hist).max()),
    }


@dataclass(frozen=True)
class StackingTables:
    """Every variant's levels, paired effects, penalty chains, and its effects under each field and on strategy.

    ``table``: one row per (players, stacking): n, turns, first_player_share
    (first_low/high) and balance with intervals; for variants also the paired
    changes d_turns, d_cards_drawn, d_win_first (intervals, p-values p_*) and
    d_balance. ``effects``: the variants' rows with p_*_holm adjusted over all
    of them and simultaneous verdicts on turns and the first player's share.
    ``stacks``: the longest chain per round (mean_max_stack, p_at_least_2..4,
    share_k, longest_seen); these under the main field. ``fields``: per
    (players, field, stacking) the levels and changes of :func:`field_rows`,
    with simultaneous verdicts (:func:`judge_column`) on d_turns, d_cards_drawn
    and d_comeback. ``strategy``: per (players, field, stacking) the adapted
    player's gain over the reference at seat 0 (column ``edge``), its edge over
    the fair share (``gap``) and the interaction (empty when not played), the
    gain and interaction judged likewise. ``stack_hists``: each (players,
    stacking)'s histogram of the longest chain, main field. ``between``: per
    quantity (``turns``, ``cards_drawn``, ``comeback``: the chance, a ratio) the
    interactions between fields, keyed (players, variant), and under
    ``keep_draws`` the seat-0 interaction's difference between fields
    (:func:`strategy_between`). ``field_names``: the fields as reports name them.
    """

    names: tuple[str, ...]
    base: str
    table: pd.DataFrame
    effects: pd.DataFrame
    stacks: pd.DataFrame
    fields: pd.DataFrame
    strategy: pd.DataFrame
    main_field: str
    stack_hists: dict[tuple[int, str], np.ndarray]
    rounds: dict[int, int]
    fair: dict[int, float]
    games: int
    between: dict[str, dict[tuple, list[FieldInteraction]]] = field(default_factory=dict)
    field_names: tuple[str, ...] = ()

    @property
    def variants(self) -> list[str]:
        return [n for n in self.names if n != self.base]

    @property
    def chains(self) -> pd.DataFrame:
        """Per (players, stacking) and chain length k (1 to 8): the share of rounds whose longest penalty chain has k
        or more cards (``share``, Wilson ``low`` and ``high``) of ``n`` rounds, main field."""
        rows = []
        for (p, name), hist in self.stack_hists.items():
            total = int(hist.sum())
            for k in range(1, STACK_BINS):
                w = wilson(int(hist[k:].sum()), total)
                rows.append({"players": p, "stacking": name, "k": k, "n": total, "share": w.share, "low": w.low, "high": w.high})
        return pd.DataFrame(rows)

    @property
    def balance_table(self) -> pd.DataFrame:
        """``table`` with ``fair_balance``: the balance a perfectly fair game shows at its size and n."""
        return self.table.assign(fair_balance=self.table["players"].map(self.fair))


def play(
    plan: Plan,
    names: tuple[str, ...],
    base: str,
    main: str,
    specs: Mapping[str, str],
    sizes: Mapping[str, tuple[int, ...]],
    players: Sequence[int],
    arms: Callable[[int, str], Sequence[Arm]],
    opt: dict[str, Any],
    margins: Mapping[str, float],
) -> StackingTables:
    """Play every variant under every field at every table size on the same deals (seat 0 swapped where asked).

    ``specs``: each field's name -> its policy spec; ``sizes``: the table sizes
    each field is played at; ``arms(p, spec)``: the variants at ``p`` players
    with every seat playing ``spec``; ``main``: the field of the base-policy
    tables; ``opt``: the stacking options (``adapted``, ``reference``,
    ``versus_players``, ``replicates``); ``margins``: ``turns`` and
    ``win_share_pp``.
    """
    comps: dict[int, Comparison] = {}
    played: list[Comparison] = []
    by_field: dict[tuple[str, int], Comparison] = {}
    rows, stacks, found, fields, strategy = [], [], [], [], []
    for p in players:
        for name, spec in specs.items():
            if p not in sizes[name]:  # a template field only where its players exist
                continue
            comp = play_field(plan, arms(p, spec), p, spec, base, opt, name)
            played.append(comp)
            by_field[(name, p)] = comp
            fields += field_rows(comp, p, name, names, base, opt["replicates"], plan.seed)
            if p in opt["versus_players"]:
                strategy += strategy_rows(comp, p, spec, names, base, opt)
            if name == main:
                comps[p] = comp
        comp = comps[p]
        rows += _arm_rows(comp, p, names, base, opt["replicates"], plan.seed)
        found += [(arm_diff(comp, n, base, "turns"), arm_diff(comp, n, base, "win_first")) for n in names if n != base]
        stacks += [_stack_row(comp, p, name) for name in names]
    table = pd.DataFrame(rows)
    effects = table[table["stacking"] != base].copy().reset_index(drop=True)
    for metric in EFFECTS:
        effects[f"p_{metric}_holm"] = holm(effects[f"p_{metric}"].to_numpy())
    add_verdicts(effects, [t for t, _ in found], "turns", margins["turns"])
    add_verdicts(effects, [w for _, w in found], "first", margins["win_share_pp"], scale=100)
    strategy_df = pd.DataFrame(strategy)
    if len(strategy_df):
        has = strategy_df["interaction_p"].notna()
        strategy_df.loc[has, "interaction_p_holm"] = holm(strategy_df.loc[has, "interaction_p"].to_numpy())
    share, turns = margins["win_share_pp"] / 100, margins["turns"]
    fields_df = pd.DataFrame(fields)
    # each column is one family read together; cards drawn has no margin of its own (margin 0, docs/statistics.md)
    for column, margin in (("d_turns", turns), ("d_cards_drawn", 0.0), ("d_comeback", share)):
        judge_column(fields_df, column, margin)
    for column in ("edge", "interaction"):
        judge_column(strategy_df, column, share)
    between = _between(by_field, specs, names, base, opt, turns, share)
    return StackingTables(
        names=names,
        base=base,
        table=table,
        effects=effects,
        stacks=pd.DataFrame(stacks),
        fields=fields_df,
        strategy=strategy_df,
        main_field=main,
        stack_hists={(p, name): c.acc(name).stack_hist for p, c in comps.items() for name in names},
        rounds={p: c.games for p, c in comps.items()},
        fair={p: fair_balance(c.games, p) for p, c in comps.items()},
        games=total_games(played),
        between=between,
        field_names=tuple(field_name(str(f)) for f in opt["fields"]),
    )
