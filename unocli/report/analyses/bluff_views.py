"""The bluff report's tables and charts: each a view of a frame the analysis returned (its CSV), formatted to read."""

from __future__ import annotations

import pandas as pd

from unocli.analysis.bluff_decision import BEST, DecisionResult, challengers
from unocli.analysis.bluff_grid import Grid, cell
from unocli.analysis.bluff_play import ANY, CHALLENGERS
from unocli.analysis.bluff_situations import MIN_BLUFFS, SituationResult, strategies
from unocli.game.policies import Policy
from unocli.report import fmt
from unocli.report import views as generic
from unocli.report.analyses import bluff_text as text
from unocli.report.analyses.common import caption
from unocli.report.experiment import Experiment
from unocli.report.model import Block, TableBlock, md_table


def level(t: pd.DataFrame) -> str:
    return fmt.fixed(100 * t["sim_level"].dropna().iloc[0], 2)


# ---------------------------------------------------------------- the decision


def chart_frame(t: pd.DataFrame, players: int, every: str, fields: bool) -> pd.DataFrame:
    """The rows of every own hand (own ``any``) at their table size, each named for the forest of panels sims/bluff.toml
    declares (column ``row``): its field (with ``fields``) and the next player's hand (``every``: any hand)."""
    rows = t[t["own_hand"] == ANY]
    names = [
        (f"{r.field}: " if fields else "") + (every if r.next_hand == ANY else f"next holds {r.next_hand}")
        for r in rows.itertuples()
    ]
    return rows.assign(players=players, row=names)


def decision_words(dec: DecisionResult) -> dict[str, str]:
    """What the decision chart's caption and panels name (``{decision_n}``, ``{decision_policies}``, ``{best_rate}``)."""
    every = dec.table[dec.table["next_hand"] == ANY].drop_duplicates("field")
    return {
        "decision_n": ", ".join(f"{fmt.count(int(r.n_positions))} positions under {r.field}" for r in every.itertuples()),
        "decision_policies": ", ".join(f"every seat {f}, nobody bluffing" for f in dec.fields),
        "best_rate": f"{dec.best_rate:.2f}",
    }


def decision_blocks(dec: DecisionResult, exp: Experiment) -> dict[str, Block]:
    """The decision table and the fields' interactions, by view name (its chart is declared in sims/bluff.toml)."""
    t = dec.table.copy()
    t.insert(len(t.columns) - 1, "answer", text.decision_answers(t))
    keys = ["field", "next_hand", "own_hand"]
    shown = t[keys].drop_duplicates().reset_index(drop=True)
    first = t[t["challenger"] == "0"].set_index(keys)
    shown["n (games)"] = [f"{fmt.count(int(r.n_positions))} ({fmt.count(int(r.n_games))})" for r in first.itertuples()]
    for name, _ in challengers(dec.best_rate):
        sub = t[t["challenger"] == name].set_index(keys)
        title = f"c={name}" if name != BEST else f"best response c={dec.best_rate:.2f}"
        # no figure without its interval
        shown[title] = [
            f"{text.pp(r.value_pp, r.sim_low, r.sim_high, 1)} {r.answer}" if isinstance(r.verdict, str) else r.answer
            for r in sub.loc[list(first.index)].itertuples()
        ]
    table = TableBlock(
        "bluff-decision",
        "At the decision: the round-win value of the +4 now minus the best other card, by situation and the victim's "
        f"challenge probability c (pp; simultaneous {level(t)}% intervals clustered by game over the whole table; verdict "
        f"at +/-{fmt.num(dec.margin_pp)} pp)",
        shown.rename(columns={"next_hand": "next holds", "own_hand": "own hand"}),
        t,
        f"n = positions (games) where the acting seat held a +4 and a card of the colour in play; "
        f"{fmt.count(sum(dec.games.values()))} fresh deals, {dec.budget} + {dec.budget} rollouts per option "
        "(selection of the +4's colour and the best other card, then evaluation on rollouts of their own). c applies to "
        "the victim's answer to this +4 only; every later decision follows the field. The best response c is the "
        "equilibrium challenge rate of the grid below. Per-cell 95% intervals and Holm-adjusted p-values are in the CSV.",
    )
    blocks: dict[str, Block] = {"bluff-decision-table": table}
    if len(dec.between):
        blocks["bluff-decision-interactions"] = between_block("bluff-decision-interactions", dec.between, "cell")
    return blocks


def between_block(name: str, between: pd.DataFrame, what: str) -> TableBlock:
    """The fields' interactions: per pair of fields, how many cells get each verdict (every row in the CSV)."""
    counts = between.groupby(["field_a", "field_b"], sort=False)["verdict"].agg(text.verdict_counts).reset_index()
    return TableBlock(
        name,
        f"Does a {what}'s value differ between two fields? The interactions on common deals (one field's value minus "
        f"the other's), simultaneous {level(between)}% intervals over every {what} and pair of fields",
        counts.rename(columns={"verdict": f"{what}s by verdict (+/-{fmt.num(between['margin_pp'].iloc[0])} pp)"}),
        between,
    )


# ---------------------------------------------------------------- the situations


def situation_blocks(sit: SituationResult, exp: Experiment, policies: dict[str, Policy]) -> dict[str, Block]:
    """The situation table, the fields' interactions and the best-response search, by view name (the situations'
    chart is declared in sims/bluff.toml)."""
    t = sit.situations.copy()
    t.insert(list(t.columns).index("gain_verdict"), "verdict", text.situation_words(t))
    n = fmt.count(sit.sizes.situations)
    keys = ["field", "next_hand", "own_hand"]
    shown = t[keys].drop_duplicates().reset_index(drop=True)
    for ch, _ in CHALLENGERS:
        sub = t[t["challenge_policy"] == ch].reset_index(drop=True)
        shown[ch] = [f"{text.pp(r.gain_pp, r.gain_sim_low, r.gain_sim_high)} {r.verdict}" for r in sub.itertuples()]
    table = TableBlock(
        "bluff-by-situation",
        "Seat 0's win-share gain from bluffing only in a situation, by field and the opponents' challenge policy "
        f"(simultaneous {level(t)}% intervals over the whole table, every field; verdict at +/-{fmt.num(sit.margin_pp)} pp)",
        shown.rename(columns={"next_hand": "next holds", "own_hand": "own hand"}),
        t,
        f"n = {n} paired deals per cell; next `any`, own `any` = bluffing at every chance; {text.INFORMED}. "
        f"{text.note(policies)} Per-cell 95% intervals, bluffs and caught bluffs per game, the opponents' exact policy "
        f"and the gain per bluff (block bootstrap, shown where a cell saw at least {MIN_BLUFFS} bluffs) are in the CSV.",
    )
    blocks: dict[str, Block] = {"bluff-by-situation-table": table}
    if len(sit.between):
        blocks["bluff-field-interactions"] = between_block("bluff-field-interactions", sit.between, "situation")
    return blocks | {"best-response-iterations": _iterations(sit), "best-response-ends": _fixed_points(sit)}


def own_challenges(policies: dict[str, Policy]) -> str:
    """The fields' own challenge behaviour, for the deviations table's note (declared in sims/bluff.toml)."""
    return "; ".join(f"{f} {text.own_challenge(p)}" for f, p in policies.items())


def _iterations(sit: SituationResult) -> TableBlock:
    it = sit.iterations
    gains = zip(it["best"], it["current"], it["gain_pp"], it["gain_low"], it["gain_high"], strict=True)
    shown = it[["field", "start", "round", "seat", "current"]].rename(columns={"current": "plays"})
    shown = shown.assign(
        **{
            "win share": it["current_win_share"].map(lambda x: fmt.share(x, 1)),
            "best on these deals": it["best"],
            "best's gain [simultaneous CI]": ["-" if b == c else text.pp(g, lo, hi) for b, c, g, lo, hi in gains],
            "switches": it["switches"].map({True: "yes", False: "no"}),
        }
    )
    return TableBlock(
        "best-response-iterations",
        "Best-response iteration per field, seat by seat, from two start points: convergence",
        shown,
        it,
        f"Each turn plays the seat's {len(strategies())} strategies (the field's policy with the strategy's knobs) "
        f"against the others' current ones on {fmt.count(sit.sizes.turn)} fresh deals; the seat switches only when the "
        f"best beats its current strategy on a simultaneous interval, Bonferroni over the {len(strategies()) - 1} "
        "alternatives (95% for the turn).",
    )


def _fixed_points(sit: SituationResult) -> str:
    """Where each start point's search ended, as a Markdown table (a profile of strategies has no interval)."""
    ends = sit.fixed_points.assign(fixed_point=sit.fixed_points["fixed_point"].map({True: "yes", False: "no"}))
    ends = ends.rename(columns={f"seat_{s}": f"seat {s}" for s in range(sit.players)} | {"fixed_point": "fixed point"})
    return "**Where the best-response search ended**\n\n" + md_table(ends)


# ---------------------------------------------------------------- the grid


def grid_blocks(g: Grid, exp: Experiment) -> dict[str, Block]:
    """The gain heatmap (verdicts on simultaneous intervals) and the grid's tables, by view name (the per-seat table
    is declared in sims/bluff.toml)."""
    n_text = f"{fmt.count(g.deals)} deals per cell, {g.gain.size} cells on the same deals ({g.players} players)"
    cap = caption(
        exp,
        "Bluffer's win share minus its honest twin's on the same deals, in pp, with the verdict of each cell's "
        f"simultaneous {level(g.gains)}% interval (every cell with b > 0) against +/-{fmt.num(exp.margins['win_share_pp'])} pp",
        n_text,
        rules=exp.base.rules,
        policies=text.grid_policies(g, exp),
        intervals="verdicts read simultaneous intervals, 95% for the grid's b > 0 cells together; per-cell paired 95% "
        "intervals in bluff-gain.csv",
    )
    heat = generic.heatmap(
        g.gains,
        "bluff_rate",
        "challenge_rate",
        caption=cap,
        name="bluff-gain-heatmap",
        title="Does bluffing a +4 pay? Bluffer's win-share gain (pp)",
        unit="win-share change vs honest twin (pp)",
    )
    pivot = pd.DataFrame({"bluff rate": [f"{b:g}" for b in g.bvals[::-1]]})
    for j, c in enumerate(g.cvals):
        pivot[f"c={c:g}"] = [text.cell_text(g, i, j) if i else "0" for i in range(len(g.bvals))][::-1]
    bluff_gain = TableBlock(
        "bluff-gain",
        "Bluffer's win-share change against its honest twin, percentage points (* significant after Holm)",
        pivot,
        g.table,
        f"n = {fmt.count(g.deals)} paired deals per cell; full intervals and p-values in the CSV.",
    )
    blocks: dict[str, Block] = {"bluff-gain-heatmap": heat, "bluff-gain": bluff_gain, "break-even": _break_even(g)}
    return blocks | {"per-bluff": _per_bluff(g), "equilibrium": _equilibrium(g)}


def _break_even(g: Grid) -> TableBlock:
    top, rates = g.cvals[-1], g.break_even_by_rate
    texts = [text.rate_ci_text(lo, hi, top, g.replicates) for lo, hi in zip(rates["ci_low"], rates["ci_high"], strict=True)]
    data = rates[["bluff_rate", "break_even_challenge"]].assign(ci=texts, n=rates["n"])
    shown = data.assign(break_even_challenge=data["break_even_challenge"].map(lambda x: text.rate_text(x, top)))
    return TableBlock(
        "break-even",
        "Break-even challenge rate by bluff rate (bootstrap 95% CI)",
        shown.assign(n=data["n"].map(fmt.count)),
        data,
    )


def _per_bluff(g: Grid) -> TableBlock:
    pb = g.per_bluff
    shown = pd.DataFrame(
        {
            "challenge rate": pb["challenge_rate"].map("{:g}".format),
            "share of bluffs caught": [
                fmt.share_ci(*x, 1) for x in zip(pb["caught"], pb["caught_low"], pb["caught_high"], strict=True)
            ],
            "cards the bluffer draws per bluff": (4 * pb["caught"]).map(lambda x: fmt.fixed(x, 2)),
            "cards the victim draws per bluff": (4 * (1 - pb["caught"])).map(lambda x: fmt.fixed(x, 2)),
        }
    )
    return TableBlock(
        "per-bluff",
        "Cards per bluff, by challenge rate (pooled over bluff rates > 0)",
        shown,
        pb,
        "A caught bluff makes the bluffer draw 4; an uncaught one makes the victim draw 4.",
    )


def _equilibrium(g: Grid) -> TableBlock:
    eq = g.equilibrium
    bi, cj = eq.nearest
    shown = {
        "bluff rate [spread]": fmt.interval(eq.bluff_rate, eq.bluff_low, eq.bluff_high, 2),
        "challenge rate [spread]": fmt.interval(eq.challenge_rate, eq.challenge_low, eq.challenge_high, 2),
        "bluffer's win share [spread]": fmt.share_ci(eq.value, eq.value_low, eq.value_high, 2),
        "nearest grid point": cell(g.bvals[bi], g.cvals[cj]),
        "bluffer's gain from deviating there [spread]": fmt.pp_ci(*eq.bluffer_gain, 2),
        "an opponent's gain from deviating there [spread]": fmt.pp_ci(*eq.opponent_gain, 2),
    }
    keys = ("bluff_rate", "bluff_low", "bluff_high", "challenge_rate", "challenge_low", "challenge_high", "value")
    data = {k: getattr(eq, k) for k in keys} | {"n": g.deals, "replicates": g.replicates}
    data["bounds"] = "middle 95% of the equilibrium over block-bootstrap resamples (a spread, not a CI)"
    path = " -> ".join(f"(b={g.bvals[i]:g}, c={g.cvals[j]:g})" for i, j in eq.path)
    return TableBlock(
        "equilibrium",
        "Equilibrium of the blind bluff rate and the shared challenge rate on the grid (fictitious play)",
        pd.DataFrame([shown]),
        pd.DataFrame([data]),
        f"Brackets are the spread of the equilibrium over {g.replicates} block-bootstrap resamples of the deals "
        "(the middle 95%), not confidence intervals: an equilibrium is an argmax, and a percentile range around an "
        "argmax covers nothing at a known rate. This game has the three opponents share one rate; the best-response "
        f"tables above let each seat deviate alone. Plain alternating best responses from (0, 0): {path}.",
    )
