"""The bluff at the decision: holding a +4 and a card of the colour, is the +4 now worth more than the best other card?

Games are played by a field (every seat the field's policy, nobody bluffing);
every turn where the acting seat could bluff is measured by rollouts
(:mod:`unocli.kernel.bluff_decision`): the round-win value of the +4 now
(its best colour) minus that of the best other legal card, against a victim
who challenges with probability c, for c in :data:`RATES` and the best-response
challenge rate of the report's grid (its equilibrium's). The positions are
grouped by situation, the bands of :mod:`unocli.report.analyses.bluff_situations`
(the victim's hand, the bluffer's own, the +4 included).

A game gives several positions (a seat holds its +4 over several turns), so a
cell's interval is clustered by game (CR1 sandwich: the positions' deviations
summed per game; t with games - 1 degrees of freedom). Every cell of the
table, every field, is one family: verdicts read the simultaneous
(Bonferroni) interval through :func:`unocli.study.stats.equivalence`, and
p-values against 0 are Holm-adjusted over the family.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from unocli.errors import ConfigError
from unocli.game.policies import Policy, SearchMode
from unocli.game.rules import WildDrawFour
from unocli.report import fmt
from unocli.report.analyses.bluff_fields import CHALLENGE_RESET, challenging, resolve
from unocli.report.analyses.bluff_situations import BIG, NEXT_BANDS, OWN_BANDS
from unocli.report.analyses.common import Context, caption, change_word, forest_chart
from unocli.report.experiment import Experiment
from unocli.report.model import Block, Chart, TableBlock
from unocli.study.stats import LARGER, Difference, equivalence, holm, t_quantile, t_sf

#: The victim's challenge probabilities measured (the best-response rate is added to them).
RATES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.75, 1.0)
RATE_WORDS = {0.0: "never", 0.25: "one in four", 0.5: "one in two", 0.75: "three in four", 1.0: "always"}
BEST = "best response"
ANY = "any"
#: The own-hand bands of the fine situations (``any`` pools them).
FINE_OWN = tuple(band for band in OWN_BANDS if band[0] != ANY)
#: Game indices of the measurement start here: deals no other study of the bluff report plays.
START = 1 << 40
# A cell needs this many games for its interval: the clustered standard error leans on many clusters (with a few,
# t(G - 1) understates it); a cell with fewer is shown with its n and no interval or verdict.
MIN_GAMES = 30


def specs(value: Any) -> str | None:
    """``decision_fields``: an empty list (every field of ``fields``) or a list of policy specs."""
    if value == []:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return f"must be a list of policy specs, not {value!r}"
    return None


def check(exp: Experiment) -> str | None:
    """The decision options: rules where a +4 can be a bluff and is answered at once, fields that play by their knobs."""
    if not int(exp.options["decision_games"] or 0):
        return None
    rules = exp.base.build(players=exp.players[0]).rules
    if not (rules.challenge and not rules.stacking_on and rules.wild_draw_four is WildDrawFour.RESTRICTED):
        return (
            "options.decision_games: the decision table needs rules where a +4 can be a bluff and is challenged at once "
            "(wild_draw_four = restricted, challenge = true, stacking off)"
        )
    for spec in exp.options["decision_fields"] or exp.options["fields"]:
        try:
            policy = resolve(exp, str(spec))
        except ConfigError as exc:
            return f"options.decision_fields: {exc}"
        if policy.search is not SearchMode.OFF:
            return f"options.decision_fields: {spec} searches; the decision table's fields play by their knobs"
    return None


def fields(exp: Experiment) -> list[tuple[str, Policy]]:
    """The decision table's fields: ``decision_fields``, or every field of ``fields``."""
    names = exp.options["decision_fields"] or exp.options["fields"]
    return [(str(name), resolve(exp, str(name))) for name in names]


def responders(field: Policy) -> tuple[Policy, Policy]:
    """The victim's answer to the measured +4: the field's policy accepting it, and challenging it."""
    return challenging(field, CHALLENGE_RESET), challenging(field, {**CHALLENGE_RESET, "challenge": 1.0})


def measure(exp: Experiment, ctx: Context, name: str, field: Policy, games: int, budget: int) -> pd.DataFrame:
    """The measured positions of ``games`` fresh deals played by ``field``: one row each (kernel COLUMNS + field)."""
    from unocli.kernel.bluff_decision import COLUMNS, decisions

    rules = exp.base.build(players=exp.players[0]).rules
    accept, challenge = responders(field)
    ctx.log(f"{exp.name}: decisions, field {name}: {games:,} games, {budget} + {budget} rollouts per option")
    rows = decisions(rules, field, accept, challenge, seed=exp.seed, start=START, count=games, budget=budget, threads=ctx.threads)
    frame = pd.DataFrame(rows, columns=list(COLUMNS))
    frame.insert(0, "field", name)
    return frame


def values(rows: pd.DataFrame, c: float, budget: int) -> np.ndarray:
    """Per position: the +4 now minus the best other card, in win share, against a victim challenging with probability c.

    The +4's colour is the one best at c on the selection rollouts (ties to the first); its value is
    (1 - c) x accepted + c x challenged on the evaluation rollouts, exact per rollout.
    """
    sel = np.stack(
        [(1 - c) * rows[f"accept_select_{k}"].to_numpy() + c * rows[f"challenge_select_{k}"].to_numpy() for k in range(4)]
    )
    colour = np.argmax(sel, axis=0)  # argmax: the first of ties
    acc = np.stack([rows[f"accept_{k}"].to_numpy() for k in range(4)])[colour, np.arange(len(rows))]
    cha = np.stack([rows[f"challenge_{k}"].to_numpy() for k in range(4)])[colour, np.arange(len(rows))]
    return ((1 - c) * acc + c * cha - rows["alt"].to_numpy()) / budget


def clustered_mean(x: np.ndarray, clusters: np.ndarray, level: float = 0.95) -> Difference:
    """The mean of ``x`` with a standard error clustered by ``clusters`` (CR1), t with (clusters - 1) df.

    Var = G / (G - 1) x sum over clusters of (sum of x_i - mean)^2 / n^2: the intercept-only regression's
    cluster-robust variance with the G / (G - 1) small-sample factor.
    """
    n = len(x)
    mean = float(np.mean(x))
    groups = pd.Series(x - mean).groupby(np.asarray(clusters)).sum().to_numpy()
    g = len(groups)
    if g < MIN_GAMES:
        return Difference(mean, math.nan, n, math.nan, math.nan, math.nan, math.nan)
    se = math.sqrt(g / (g - 1) * float(np.sum(groups**2))) / n
    df = float(g - 1)
    half = t_quantile(1 - (1 - level) / 2, df) * se
    p = 2 * t_sf(abs(mean) / se, df) if se > 0 else float(mean != 0)
    return Difference(mean, se, n, mean - half, mean + half, min(1.0, p), df, level=level)


def situations() -> list[tuple[str, str, int, int, int, int]]:
    """(next band, own band, next min, next max, own min, own max): the fine cells, each next band pooled, everything."""
    cells = [(nb, ob, nlo, nhi, olo, ohi) for nb, nlo, nhi in NEXT_BANDS for ob, olo, ohi in FINE_OWN]
    cells += [(nb, ANY, nlo, nhi, 1, BIG) for nb, nlo, nhi in NEXT_BANDS]
    return [*cells, (ANY, ANY, 1, BIG, 1, BIG)]


def challengers(best: float) -> list[tuple[str, float]]:
    """(name, challenge probability) of every column: the rates, then the best response."""
    return [*((f"{c:g}", c) for c in RATES), (BEST, best)]


def table(rows: pd.DataFrame, budget: int, best: float, margin_pp: float) -> pd.DataFrame:
    """One row per field x situation x challenger: n positions and games, the mean in pp, its 95% clustered interval,
    the simultaneous interval over the whole table, the Holm-adjusted p and the verdict (margin in pp)."""
    out, diffs = [], []
    for field in rows["field"].drop_duplicates():
        sub = rows[rows["field"] == field]
        for name, c in challengers(best):
            v = values(sub, c, budget)
            for nb, ob, nlo, nhi, olo, ohi in situations():
                mask = sub["next_hand"].between(nlo, nhi).to_numpy() & sub["own_hand"].between(olo, ohi).to_numpy()
                games = sub["game"].to_numpy()[mask]
                n_games = len(np.unique(games))
                if n_games == 0:
                    continue
                d = clustered_mean(v[mask], games)
                diffs.append(d)
                out.append(
                    {"field": field, "next_hand": nb, "own_hand": ob, "challenger": name, "challenge_rate": c}
                    | {"n_positions": int(mask.sum()), "n_games": n_games, "value_pp": 100 * d.diff}
                    | {"ci_low": 100 * d.low, "ci_high": 100 * d.high, "p": d.p, "se_pp": 100 * d.se}
                )
    frame = pd.DataFrame(out)
    if not len(frame):
        return frame
    # the family: every cell with an interval, every field
    ok = frame["n_games"].to_numpy() >= MIN_GAMES
    family = int(ok.sum())
    judged = [equivalence(d, margin_pp / 100, family=family) if k else None for d, k in zip(diffs, ok, strict=True)]
    frame["sim_low"] = [100 * e.low if e else math.nan for e in judged]
    frame["sim_high"] = [100 * e.high if e else math.nan for e in judged]
    frame["sim_level"] = [e.level if e else math.nan for e in judged]
    frame["p_holm"] = math.nan
    if family:
        frame.loc[ok, "p_holm"] = holm(frame.loc[ok, "p"].to_numpy())
    frame["verdict"] = [e.verdict if e else None for e in judged]
    few = f"too few games (< {MIN_GAMES})"
    frame["answer"] = [change_word(e.verdict, e.diff, "the +4 pays", "the other card pays") if e else few for e in judged]
    # the standard error last: a table's checks read the number before an interval as its point
    return frame[[c for c in frame.columns if c != "se_pp"] + ["se_pp"]]


@dataclass(frozen=True)
class DecisionResult:
    """The measured positions (``rows``, kernel columns with ``field``) and the decision table (:func:`table`)."""

    players: int
    games: dict[str, int]
    budget: int
    best_rate: float
    margin_pp: float
    rows: pd.DataFrame
    table: pd.DataFrame

    @property
    def fields(self) -> list[str]:
        return list(self.games)


def compute(
    exp: Experiment, ctx: Context, fields: Sequence[tuple[str, Policy]], best: float, games: int, budget: int
) -> DecisionResult:
    """Measure the positions of ``games`` fresh deals under every field and build the decision table."""
    frames = [measure(exp, ctx, name, policy.replace(bluff=0.0), games, budget) for name, policy in fields]
    rows = pd.concat(frames, ignore_index=True)
    margin = float(exp.margins["win_share_pp"])
    return DecisionResult(
        players=exp.players[0],
        games={name: games for name, _ in fields},
        budget=budget,
        best_rate=best,
        margin_pp=margin,
        rows=rows,
        table=table(rows, budget, best, margin),
    )


# ---------------------------------------------------------------- the rule


def _holds(nb: str) -> str:
    return f"{nb} card" if nb == "1" else f"{nb} cards"


def _where(cells: list[tuple[str, str]]) -> str:
    """Fine cells (next band, own band) in words: a whole next band as one clause."""
    parts = []
    for nb, _, _ in NEXT_BANDS:
        own = [ob for n, ob in cells if n == nb]
        if not own:
            continue
        if len(own) == len(FINE_OWN):
            parts.append(f"the next player holds {_holds(nb)}")
        else:
            parts.append(f"the next player holds {_holds(nb)} and you hold {' or '.join(own)}")
    return "; or ".join(parts)


def _rate_text(names: list[str], best: float) -> str:
    words = [RATE_WORDS[float(n)] if n != BEST else f"at the best-response rate {best:.2f}" for n in names]
    rates = [w for w in words if not w.startswith("at")]
    text = rates[0] if len(rates) == 1 else (f"{rates[0]} to {rates[-1]}" if rates else "")
    extra = [w for w in words if w.startswith("at")]
    return " and ".join(t for t in [text and f"who challenges {text}", *extra] if t)


def _advice(result: DecisionResult, field: str) -> str:
    """The advice under one field, from its fine cells' verdicts: "bluff ... when ...; otherwise ..." or "never bluff".

    "Bluff" is said only where the +4 now beats the best other card beyond the margin (verdict larger); a
    run of challenge rates with the same cells is one clause; everything else is "otherwise".
    """
    t = result.table
    fine = t[(t["field"] == field) & (t["next_hand"] != ANY) & (t["own_hand"] != ANY)]
    clauses: list[tuple[list[str], list[tuple[str, str]]]] = []
    for name, _ in challengers(result.best_rate):
        sub = fine[fine["challenger"] == name]
        pays = [(r.next_hand, r.own_hand) for r in sub.itertuples() if r.verdict == LARGER and r.value_pp > 0]
        if clauses and clauses[-1][1] == pays and name != BEST:
            clauses[-1][0].append(name)
        else:
            clauses.append(([name], pays))
    said = [f"against a victim {_rate_text(names, result.best_rate)}, when {_where(cells)}" for names, cells in clauses if cells]
    if not said:
        return "never bluff; play your best other card"
    return "bluff " + "; ".join(said) + "; otherwise play your best other card"


def _span(result: DecisionResult, challenger: str) -> str:
    """The value over every position at one challenger, from the lowest field's to the highest's (one field: its own)."""
    t = result.table
    every = t[(t["next_hand"] == ANY) & (t["challenger"] == challenger)].sort_values("value_pp")
    low, high = every.iloc[0], every.iloc[-1]
    if len(every) == 1:
        return _pp(low)
    return f"{_pp(low)} ({low['field']}) to {_pp(high)} ({high['field']})"


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def rule(result: DecisionResult) -> str:
    """The rule a player can use (under ~80 words), written from the verdicts of the fine cells (:func:`_advice`);
    one clause for the fields whose advice agrees, then the value over every position if never and always challenged."""
    groups: dict[str, list[str]] = {}
    for f in result.fields:
        groups.setdefault(_advice(result, f), []).append(f)
    names = {advice: _and([f"`{f}`" for f in fields]) for advice, fields in groups.items()}
    if len(groups) == 1:
        advice = next(iter(groups))
        alike = " alike" if len(result.fields) > 1 else ""
        body = f"({names[advice]} players{alike}, {result.players} at the table): {advice}."
    else:
        body = f"({result.players} at the table): " + "; ".join(f"under {names[a]}, {a}" for a in groups) + "."
    return (
        "**Rule.** Holding a +4 and a card of the colour in play "
        + body
        + f" Over every position the +4 now minus the best other card is {_span(result, '0')} of round wins if never "
        f"challenged, {_span(result, '1')} if always."
    )


def _pp(r: Any) -> str:
    return fmt.pp_ci(r["value_pp"] / 100, r["sim_low"] / 100, r["sim_high"] / 100, 1)


# ---------------------------------------------------------------- render


def _situation_label(nb: str, ob: str) -> str:
    if nb == ANY:
        return "every position"
    return f"next holds {nb}" + ("" if ob == ANY else f", own {ob}")


def decision_table(result: DecisionResult) -> TableBlock:
    """Field x situation rows, one column per challenger: value of the +4 now minus the best other card, with verdicts."""
    t = result.table
    keys = ["field", "next_hand", "own_hand"]
    shown = t[keys].drop_duplicates().reset_index(drop=True)
    shown["n (games)"] = ""
    for name, _ in challengers(result.best_rate):
        sub = t[t["challenger"] == name].set_index(keys)
        cells = []
        for r in shown.itertuples():
            row = sub.loc[(r.field, r.next_hand, r.own_hand)]
            judged = isinstance(row["verdict"], str)
            cells.append(f"{_pp(row)} {row['answer']}" if judged else row["answer"])  # no figure without its interval
        title = f"c={name}" if name != BEST else f"best response c={result.best_rate:.2f}"
        shown[title] = cells
    first = t[t["challenger"] == "0"].set_index(keys)
    shown["n (games)"] = [
        f"{fmt.count(int(first.loc[k]['n_positions']))} ({fmt.count(int(first.loc[k]['n_games']))})"
        for k in zip(shown["field"], shown["next_hand"], shown["own_hand"], strict=True)
    ]
    shown = shown.rename(columns={"next_hand": "next holds", "own_hand": "own hand"})
    level = fmt.fixed(100 * t["sim_level"].dropna().iloc[0], 2)
    return TableBlock(
        "bluff-decision",
        "At the decision: the round-win value of the +4 now minus the best other card, by situation and the victim's "
        f"challenge probability c (pp; simultaneous {level}% intervals clustered by game over the whole table; verdict "
        f"at +/-{fmt.num(result.margin_pp)} pp)",
        shown,
        t,
        f"n = positions (games) where the acting seat held a +4 and a card of the colour in play; "
        f"{fmt.count(sum(result.games.values()))} fresh deals, {result.budget} + {result.budget} rollouts per option "
        "(selection of the +4's colour and the best other card, then evaluation on rollouts of their own). c applies to "
        "the victim's answer to this +4 only; every later decision follows the field. The best response c is the "
        "equilibrium challenge rate of the grid below. Per-cell 95% intervals and Holm-adjusted p-values are in the CSV.",
    )


def decision_chart(result: DecisionResult, exp: Experiment) -> Chart:
    """The headline: the value per next-player band (own hand pooled), one panel per challenger, the margin as a band."""
    t = result.table
    pooled = t[t["own_hand"] == ANY]
    keys = pooled[["field", "next_hand"]].drop_duplicates()
    multi = len(result.fields) > 1
    pairs = list(zip(keys["field"], keys["next_hand"], strict=True))
    labels = [(f"{f}: " if multi else "") + _situation_label(nb, ANY) for f, nb in pairs]
    wide = keys.reset_index(drop=True).assign(label=labels)
    panels = []
    for name in ("0", "0.5", "1", BEST):
        sub = pooled[pooled["challenger"] == name].set_index(["field", "next_hand"])
        rows = [sub.loc[key] for key in pairs]
        for col in ("value_pp", "sim_low", "sim_high"):
            wide[f"{col}_{name}"] = [r[col] for r in rows]
        xlabel = f"c = {name}" if name != BEST else f"best response c = {result.best_rate:.2f}"
        panels.append((xlabel, f"value_pp_{name}", f"sim_low_{name}", f"sim_high_{name}", result.margin_pp, False))
    level = fmt.fixed(100 * t["sim_level"].dropna().iloc[0], 2)
    every = t[t["next_hand"] == ANY].drop_duplicates("field")
    n_text = ", ".join(f"{fmt.count(int(r.n_positions))} positions under {r.field}" for r in every.itertuples())
    cap = caption(
        exp,
        "Round-win value of the +4 now minus the best other card, in pp, at positions holding a +4 and a card of the "
        f"colour in play, by the next player's hand; grey band: the +/-{fmt.num(result.margin_pp)} pp margin",
        n_text,
        rules=exp.base.rules,
        policies=", ".join(f"every seat {f}, nobody bluffing" for f in result.fields),
        intervals=f"bars are simultaneous {level}% intervals clustered by game (95% for the whole table, every field)",
    )
    return forest_chart(wide, "label", panels, cap, name="bluff-decision", title="Bluff now or play the best other card?")


def blocks(result: DecisionResult, exp: Experiment) -> tuple[list[Block], list[str]]:
    """The decision chart and table, and one finding per field (its rule, for every field after the first)."""
    findings = []
    t = result.table
    for f in result.fields:
        cells = t[(t["field"] == f) & (t["next_hand"] != ANY) & (t["own_hand"] != ANY)]
        counts = ", ".join(f"{w} {int((cells['answer'] == w).sum())}" for w in cells["answer"].drop_duplicates())
        findings.append(
            f"At the decision under `{f}`, {_advice(result, f)}; over the {len(cells)} situation x challenger cells: "
            f"{counts} (margin "
            f"+/-{fmt.num(result.margin_pp)} pp of round wins; a position's value is the +4 now minus the best other "
            "card, not a policy's effect divided by its bluffs)."
        )
    return [decision_chart(result, exp), decision_table(result)], findings
