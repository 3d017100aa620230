"""The skill report's ladder measures read from stored ladders (``unocli ladder`` folders) instead of played again.

``sims/ladder.sh`` writes one folder per rule preset and table size,
``<root>/<rules>-<players>/``, with ``ratings.csv``, ``skill.csv``,
``match-ratings.csv`` (when played as matches too) and a README.md ending in the
exact command. Those ladders rate ``search`` at budget 512, the strongest
player unocli has, which costs hours of rollouts to play again; reading them
lets the skill report measure skill with its best player.

Each cell is checked against the experiment before anything is read: the
folder must exist and be a ladder's, its command must name the same rule
preset, table size, policies file and round robin (``options.ladder_policies``),
else one sentence refuses it. The measures are the ladder's own (its
``skill.csv``): the relative skill (with the best player and the bound it
names), the skill share of a round and of a match, and the rounds and matches
until the best leads ``random``. A folder without lone players (no ``search``,
no bound) has no relative skill, and its best player is a round-robin policy:
the cells table says so (``searched`` false, ``lone`` empty).

*Changes against the baseline.* The stored ladders of different rule sets share
their seed and deal indices (the deal stream is a function of (seed, deal
index) only: ``kernel.batch._play_round``), so they are common deals; but the
folders hold no per-deal figures. The measures that rest on the round robin
alone (the skill shares of a round and of a match, the matches until the best
leads: :data:`REPLAYED`) are paired anyway: :func:`replay` plays each folder's
round robin again from its command (no searching player: seconds a cell),
refuses a replay that does not reproduce the stored values exactly, and the
per-deal influences pair the change deal by deal
(:func:`unocli.study.ladder_skill.paired_change`). The relative skill and the
rounds to lead rest on the stored search player's tables (minutes of rollouts
a cell): their change's standard error is taken at the worst case of the
unknown correlation between the two estimates, ``se_a + se_b`` (the largest
``sqrt(se_a^2 + se_b^2 - 2 rho se_a se_b)`` can be, at rho = -1): an interval
that holds whatever the correlation is, wider than a paired one. Each such
log standard error comes from the stored figures: the relative skill's (Wald,
symmetric) 95% interval half-width over 1.96, over the value (the skill
shares' bootstrap interval likewise, where not replayed); the leads' from the
best player's rating standard error (``random`` is the anchor at 0 with no
error) times the derivative of the log of the lead's normal approximation,
``(1 - 2p) - 2 p (1 - p) / (p - 1/2)`` (as :func:`unocli.study.ladder_skill.lead_linear`).
A measure that rests on the best player (the relative skill, the rounds to
lead) is compared only between cells whose lone players are the same, so a
cell rated without ``search`` is never set against one rated with it.

*Whether the best is clearly best.* "The best player" is the highest point
estimate; whether its lead is more than noise is read from the ladder's own
interval of the rating gap to the next-rated player (its ``lead_second`` row:
the rounds to lead are infinite at the upper end exactly when that gap's 95%
interval reaches 0, :func:`unocli.study.ladder_skill.lead_rows`).
:func:`search_gaps` reads every stored ladder under a folder for the gap of
``search`` over each scripted or tuned player, for reports that say how far
scripted play is from the strongest the ladders rate.
"""

from __future__ import annotations

import math
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from unocli.analysis.skill import Plan, Runner
from unocli.analysis.skill_ladder import LadderMeasures, ratio_table
from unocli.errors import ConfigError
from unocli.game.policies import is_searching
from unocli.game.rules import PRESETS as RULE_PRESETS
from unocli.study.arm import TableSpec, expand_spec, parse_policy
from unocli.study.ladder import ANCHOR, EVERY_TABLE, RATED, fit, plan_tables, play_ladder, play_tables
from unocli.study.ladder_skill import Linear, best_player, lead_linear, lead_probability, paired_change, skill_share_linear
from unocli.study.stats import Z95, Difference, t_quantile, t_sf

MARK = "<!-- written by unocli ladder -->"  # unocli.report.ladder.MARK (not imported: report imports analysis)
#: The measures, in the order of the changes table; those resting on the best player need the same lone players.
MEASURES = ("relative_skill", "share_round", "share_match", "lead_round", "lead_match")
BEST_DEPENDENT = ("relative_skill", "lead_round")
SEARCHER = "search:budget=512"  # the shipped ladders' strongest search (sims/ladder.sh)
LEADS = ("lead_second", "lead")  # the key of a rounds-to-lead row against the second (``lead``: a folder without keys)


@dataclass(frozen=True)
class Command:
    """What a stored ladder's README says it ran (its ``## Command`` block)."""

    rules: str
    players: int
    policies: str | None
    robin: tuple[str, ...]
    lone: tuple[str, ...]
    seed: int
    out: str
    games: int = 0
    match_games: int = 0
    flags: tuple[str, ...] = ()  # options given without a value (--match, --json): a ladder this report cannot read


@dataclass(frozen=True)
class Wanted:
    """One cell the experiment needs: the rule preset, the table size, the round robin (expanded), the policies file."""

    arm: str
    rules: str
    players: int
    robin: tuple[str, ...]
    policies: str | None
    table: TableSpec | None = None  # the arm's table, to replay the round robin (None: not replayed)


@dataclass(frozen=True)
class Log:
    """A measure on the log scale: ``value`` (not logged), ``se`` of its log, ``n`` deals behind it."""

    value: float
    se: float
    n: int


def parse_command(text: str, where: str) -> Command:
    """The ``unocli ladder ...`` command in a stored README (raises ConfigError in one sentence)."""
    lines = [line.strip() for line in text.splitlines() if line.strip().startswith("unocli ladder ")]
    if len(lines) != 1:
        raise ConfigError(f"{where} holds no `unocli ladder` command: it is not a stored ladder")
    args = shlex.split(lines[0])[2:]
    values: dict[str, list[str]] = {}
    flags = []
    i = 0
    while i < len(args):
        if i + 1 < len(args) and not args[i + 1].startswith("--"):
            values.setdefault(args[i], []).append(args[i + 1])
            i += 2
        else:
            flags.append(args[i])
            i += 1
    try:
        return Command(
            rules=values["--rules"][0],
            players=int(values["--players"][0]),
            policies=values.get("--policies", [None])[0],
            robin=tuple(values.get("--policy", [])),
            lone=tuple(values.get("--lone", [])),
            seed=int(values["--seed"][0]),
            out=values.get("--out", [""])[0],
            games=int(values["--games"][0]),
            match_games=int(values.get("--match-games", ["0"])[0]),
            flags=tuple(flags) + tuple(k for k in values if k == "--set"),
        )
    except (KeyError, ValueError):
        raise ConfigError(f"{where}: its command does not name the rules, players, deals and seed of a ladder") from None


def folder_of(root: Path, wanted: Wanted) -> Path:
    return root / f"{wanted.rules}-{wanted.players}"


def check_cell(root: Path, wanted: Wanted) -> Command:
    """Refuse, in one sentence, a cell whose stored ladder is missing or was made with other rules or policies."""
    folder = folder_of(root, wanted)
    readme = folder / "README.md"
    label = f"the stored ladder for {wanted.rules} at {wanted.players} players ({folder})"
    if not readme.is_file() or not (folder / "ratings.csv").is_file() or not (folder / "skill.csv").is_file():
        raise ConfigError(f"{label} is missing: make it with sims/ladder.sh, or play the ladders (no options.ladders)")
    text = readme.read_text(encoding="utf-8", errors="replace")
    if MARK not in text:
        raise ConfigError(f"{label} was not written by unocli ladder")
    cmd = parse_command(text, label)
    if cmd.flags:
        raise ConfigError(f"{label} was made with {cmd.flags[0]}: only a ladder of single rounds under a preset can stand")
    if (cmd.rules, cmd.players) != (wanted.rules, wanted.players):
        raise ConfigError(f"{label} was made with the {cmd.rules} rules at {cmd.players} players, not the ones it stands for")
    if sorted(cmd.robin) != sorted(wanted.robin):
        raise ConfigError(
            f"{label} rates the round robin {', '.join(cmd.robin)}, not options.ladder_policies ({', '.join(wanted.robin)})"
        )
    if wanted.policies is not None and cmd.policies is not None:
        base = _checkout(folder, cmd.out)
        made = (base / cmd.policies).resolve() if base is not None else None
        if made != Path(wanted.policies).resolve():
            raise ConfigError(f"{label} was made with the policies file {cmd.policies}, not {wanted.policies}")
    return cmd


def _checkout(folder: Path, out: str) -> Path | None:
    """The folder the ladder ran from: ``folder`` less its ``--out`` path (None when they do not match, or no --out)."""
    parts = Path(out).parts
    if not parts or tuple(folder.resolve().parts[-len(parts) :]) != parts:
        return None
    return folder.resolve().parents[len(parts) - 1]


def _skill_rows(folder: Path) -> pd.DataFrame:
    skill = pd.read_csv(folder / "skill.csv")
    if "key" not in skill:  # a folder written before the measures had keys: the skill share, then the two leads
        skill = skill.assign(key=["skill_share", *["lead"] * (len(skill) - 1)], level="round")
        skill.loc[(skill["key"] == "lead") & (skill["other"] == ANCHOR), "key"] = "lead_anchor"
    return skill


def _best(ratings: pd.DataFrame) -> pd.Series:
    """The highest-rated policy that is not a bound (the first of a tie, in file order)."""
    players = ratings[~ratings["bound"].astype(bool)] if "bound" in ratings else ratings
    return players.loc[players["rating"].idxmax()]


def read_cell(root: Path, wanted: Wanted) -> tuple[dict[str, Any], dict[str, Log]]:
    """One cell's row of the cells table and each measure on the log scale (for the changes)."""
    cmd = check_cell(root, wanted)
    folder = folder_of(root, wanted)
    ratings, skill = pd.read_csv(folder / "ratings.csv"), _skill_rows(folder)
    best = _best(ratings)
    bounds = ratings[ratings["bound"].astype(bool)] if "bound" in ratings else ratings.iloc[:0]
    lone = ratings[ratings["policy"].isin(cmd.lone)]
    row: dict[str, Any] = {
        "players": wanted.players,
        "rules": wanted.arm,
        "n_round": int(ratings["deals"].max()),
        "n_lone": int(lone["deals"].max()) if len(lone) else 0,
        "n_match": 0,
        "lone": " ".join(cmd.lone),
        "searched": any(p.startswith("search") for p in cmd.lone),
        "source": "/".join(folder.resolve().parts[-3:]),  # reports/ladder/<rules>-<players> in a checkout
        "seed": cmd.seed,
    }
    logs: dict[str, Log] = {}
    rounds, matches = skill[skill["level"] == "round"], skill[skill["level"] == "match"]
    rel = rounds[rounds["key"] == "relative_skill"]
    if len(rel):
        r = rel.iloc[0]
        if r["better"] != best["policy"]:
            raise ConfigError(f"{folder}: skill.csv takes the relative skill with {r['better']}, not the best, {best['policy']}")
        row |= {"relative_skill": r["value"], "relative_skill_low": r["low"], "relative_skill_high": r["high"]}
        row |= {"best": r["better"], "bound": r["other"]}
        logs["relative_skill"] = _from_interval(r)
    else:
        row |= {"relative_skill": math.nan, "relative_skill_low": math.nan, "relative_skill_high": math.nan}
        row |= {"best": best["policy"], "bound": bounds["policy"].iloc[0] if len(bounds) else ""}
    row |= _level(rounds, ratings, "round", logs, folder)
    row |= _second(rounds, str(row["best"]))
    match_file = folder / "match-ratings.csv"
    if len(matches) and match_file.is_file():
        mratings = pd.read_csv(match_file)
        row["n_match"] = int(mratings["deals"].max())
        row |= _level(matches, mratings, "match", logs, folder)
    else:
        row |= {f"{k}_match{s}": math.nan for k in ("share", "lead") for s in ("", "_low", "_high")} | {"best_match": ""}
    return row, logs


def _second(rounds: pd.DataFrame, best: str) -> dict[str, Any]:
    """The next-rated player after ``best``, the rating gap to it and that gap's standard error (NaN when the ladder
    stores no such row), from the 95% interval its rounds-to-lead row gives in words; the cells' count reads them
    together (:func:`clear_count`)."""
    lead = rounds[rounds["key"].isin(LEADS) & (rounds["better"] == best) & (rounds["other"] != ANCHOR)]
    gap, se = gap_in_words(str(lead["detail"].iloc[0])) if len(lead) else (math.nan, math.nan)
    return {"second": lead["other"].iloc[0] if len(lead) else "", "best_gap": gap, "best_gap_se": se}


def family_z(family: int, alpha: float = 0.05) -> float:
    """The normal quantile of Bonferroni's simultaneous two-sided intervals over ``family`` estimates."""
    from unocli.study.stats import norm_quantile

    return norm_quantile(1 - alpha / (2 * max(family, 1)))


def _from_interval(r: pd.Series) -> Log:
    """A measure's log-scale standard error from its 95% interval's half-width (Wald or percentile) over its value."""
    se = (float(r["high"]) - float(r["low"])) / (2 * Z95)
    value = float(r["value"])
    return Log(value, se / value if value > 0 else math.nan, int(r["n"]))


def lead_log_se(gap: float, se_gap: float) -> float:
    """The standard error of log(rounds to lead) for a rating gap ``gap`` with standard error ``se_gap``."""
    p = lead_probability(gap)
    return abs((1 - 2 * p) - 2 * p * (1 - p) / (p - 0.5)) * se_gap


def _level(skill: pd.DataFrame, ratings: pd.DataFrame, level: str, logs: dict[str, Log], folder: Path) -> dict[str, Any]:
    """The skill share and the lead over ``random`` at one level (round or match), from a ladder's skill rows and ratings."""
    share = skill[skill["key"] == "skill_share"].iloc[0]
    lead = skill[skill["key"] == "lead_anchor"].iloc[0]
    best = _best(ratings)
    if lead["better"] != best["policy"]:
        raise ConfigError(f"{folder}: its {level} leads are measured with {lead['better']}, not the best, {best['policy']}")
    logs[f"share_{level}"] = _from_interval(share)
    logs[f"lead_{level}"] = Log(float(lead["value"]), lead_log_se(float(best["rating"]), float(best["se"])), int(lead["n"]))
    return {
        f"share_{level}": share["value"],
        f"share_{level}_low": share["low"],
        f"share_{level}_high": share["high"],
        f"lead_{level}": lead["value"],
        f"lead_{level}_low": lead["low"],
        f"lead_{level}_high": lead["high"],
        f"best_{level}": lead["better"],
    }


#: The measures a replay of the round robin pairs deal by deal (those that do not rest on a lone, searching player).
REPLAYED = ("share_round", "share_match", "lead_match")


def replay(root: Path, w: Wanted, row: dict[str, Any], ctx: Runner) -> dict[str, Linear]:
    """The stored ladder's round robin played again (its field tables, and its match ladder), for the per-deal
    influences of the measures in :data:`REPLAYED`; refused unless it reproduces the stored values exactly.

    No searching player sits at these tables, so this takes seconds where the whole ladder took minutes; the
    relative skill and the rounds to lead rest on the lone searcher's tables and are not replayed.
    """
    assert w.table is not None
    cmd = check_cell(root, w)
    label = f"the stored ladder for {w.rules} at {w.players} players"
    rules = w.table.build(name=w.arm, players=w.players).rules
    names = list(cmd.robin)
    pols = [parse_policy(n, w.table.policies) for n in names]
    tables = [t for t in plan_tables(len(names), w.players) if t.kind == "field"]
    ctx.log(f"skill: {label}: its round robin played again, {len(tables)} tables of {cmd.games:,} deals")
    backend, threads = ctx.backend, ctx.threads
    data = play_tables(rules, pols, names, tables, [cmd.games] * len(tables), seed=cmd.seed, backend=backend, threads=threads)
    out = {"share_round": _verified(skill_share_linear(data), row["share_round"], "round skill share", label)}
    if cmd.match_games and not pd.isna(row["share_match"]):
        mdata = play_ladder(
            rules, pols, names, games=cmd.match_games, seed=cmd.seed, match=True, backend=backend, threads=threads
        )
        mres = fit(mdata, kinds=fitted_kinds(folder_of(root, w)))
        best = best_player(mres)
        if mres.names[best] != row["best_match"]:
            raise ConfigError(f"{label}: its matches played again rate {mres.names[best]} best, not {row['best_match']}")
        out["share_match"] = _verified(skill_share_linear(mdata), row["share_match"], "match skill share", label)
        out["lead_match"] = _verified(lead_linear(mdata, mres, best, mres.anchor), row["lead_match"], "match lead", label)
    return out


def fitted_kinds(folder: Path) -> tuple[str, ...]:
    """The kinds of table a stored ladder's ratings were fitted to: the field and lone tables for a folder with
    ``gaps.csv`` (written since the mixed tables were left out of the fit), every table for an older one."""
    return RATED if (folder / "gaps.csv").is_file() else EVERY_TABLE


def _verified(lin: Linear, stored: float, what: str, label: str) -> Linear:
    if not math.isclose(lin.value, float(stored), rel_tol=1e-9):
        raise ConfigError(
            f"{label}: its round robin played again gives a {what} of {lin.value:.6g}, not the stored {float(stored):.6g}: "
            "it was made with other policies or another unocli; remake it with sims/ladder.sh"
        )
    return lin


def change(a: Log | Linear, b: Log | Linear) -> Difference:
    """``log a - log b``: paired deal by deal when both are replayed on the same deals, else the worst case."""
    if isinstance(a, Linear) and isinstance(b, Linear) and a.deals == b.deals:
        return paired_change(a, b, log=True)
    return unpaired_change(_as_log(a), _as_log(b))


def _as_log(x: Log | Linear) -> Log:
    return x if isinstance(x, Log) else Log(x.value, x.se / x.value, x.deals)


def unpaired_change(a: Log, b: Log) -> Difference:
    """``log a - log b`` with the worst-case standard error ``se_a + se_b`` (any correlation), t on the fewer deals."""
    diff = math.log(a.value) - math.log(b.value)
    se = a.se + b.se
    df = float(min(a.n, b.n) - 1)
    half = t_quantile(0.975, df) * se
    p = 2 * t_sf(abs(diff) / se, df) if se > 0 else (1.0 if diff == 0.0 else 0.0)
    return Difference(diff, se, a.n + b.n, diff - half, diff + half, min(1.0, p), df, math.nan)


def changes(
    cells: pd.DataFrame,
    logs: dict[tuple[int, str], dict[str, Log | Linear]],
    players: Sequence[int],
    names: Sequence[str],
    baseline: str,
    margin: float,
) -> pd.DataFrame:
    """Each (players, rule set, measure) against the baseline: a ratio, not paired (worst-case correlation), Bonferroni-judged."""
    lone = {(int(r.players), str(r.rules)): str(r.lone) for r in cells.itertuples()}
    keys = []
    for p in players:
        for name in names:
            if name == baseline:
                continue
            for m in MEASURES:
                a, b = logs[(p, name)].get(m), logs[(p, baseline)].get(m)
                if a is None or b is None or not (a.value > 0 and b.value > 0 and math.isfinite(_as_log(a).se + _as_log(b).se)):
                    continue
                if m in BEST_DEPENDENT and lone[(p, name)] != lone[(p, baseline)]:
                    continue  # measured with best players of different strength: not comparable
                keys.append((p, name, m))
    diffs = [change(logs[(p, name)][m], logs[(p, baseline)][m]) for p, name, m in keys]
    if not diffs:
        return pd.DataFrame()
    ns = [min(_as_log(logs[(p, name)][m]).n, _as_log(logs[(p, baseline)][m]).n) for p, name, m in keys]
    return ratio_table(keys, ns, diffs, margin)


def without_search(cells: pd.DataFrame) -> list[str]:
    """The cells measured without any ``search`` player, as ``rules at n players`` (their best is a round-robin policy)."""
    return [f"{r.rules} at {r.players} players" for r in cells.itertuples() if not bool(r.searched)]


def measure(root: Path, wanted: Sequence[Wanted], baseline: str, margin: float, ctx: Runner | None = None) -> LadderMeasures:
    """Every wanted cell read from ``root``, and each rule set's change of each measure against ``baseline``.

    With ``ctx`` each cell's round robin is played again (:func:`replay`) and the measures of :data:`REPLAYED`
    are paired deal by deal; without, every change takes the worst case.
    """
    rows, logs = [], {}
    for w in wanted:
        row, log = read_cell(root, w)
        merged: dict[str, Log | Linear] = dict(log)
        if ctx is not None and w.table is not None:
            merged |= replay(root, w, row, ctx)
        rows.append(row)
        logs[(w.players, w.arm)] = merged
    cells = pd.DataFrame(rows)
    players = list(dict.fromkeys(w.players for w in wanted))
    names = list(dict.fromkeys(w.arm for w in wanted))
    return LadderMeasures(cells, changes(cells, logs, players, names, baseline, margin), margin)


def root_of(exp_path: Path, value: str) -> Path:
    """``options.ladders`` as a folder: relative to the experiment file's folder (as its ``policies`` key is)."""
    p = Path(value)
    return p if p.is_absolute() else exp_path.parent / p


def wanted(exp: Plan) -> list[Wanted]:
    """The cells the experiment needs, one per table size and rule set (its arms), in the report's order."""
    out = []
    for p in exp.players:
        for arm in exp.arms:
            table = arm.table
            if table.rules not in RULE_PRESETS or table.sets:
                raise ConfigError(
                    f"arms.{arm.name}: stored ladders stand for a rule preset as it is ({', '.join(RULE_PRESETS)}), "
                    f"not {table.rules!r}{' with changes' if table.sets else ''}"
                )
            robin = tuple(expand_spec(s, table.rules, p, table.policies) for s in exp.options["ladder_policies"])
            out.append(Wanted(arm.name, table.rules, p, robin, table.policies.path if table.policies else None, table))
    return out


@dataclass(frozen=True)
class Gap:
    """A searching player's rating gap over one scripted or tuned player in one stored ladder, with its standard
    error. ``exact``: the ladder's own, from the cluster-robust covariance (its ``gaps.csv``, or the 95% interval of
    its rounds-to-lead row for the pair); else the worst case over the two ratings' unknown correlation,
    ``se_a + se_b``, which holds whatever the correlation is."""

    ladder: str  # the folder's name, <rules>-<players>
    other: str
    gap: float
    se: float
    exact: bool

    def sign(self, z: float = Z95) -> int:
        """+1 when the interval ``gap -/+ z se`` lies above 0, -1 below, 0 when it includes 0."""
        return 1 if self.gap - z * self.se > 0 else (-1 if self.gap + z * self.se < 0 else 0)


def search_gaps(root: Path, searcher: str = SEARCHER) -> dict[str, list[Gap]]:
    """Per stored ladder under ``root`` (by folder name, sorted) the gaps of ``searcher`` over every scripted or
    tuned player it rates. A folder that is no ladder's, cannot be read or does not rate ``searcher`` is left out;
    a missing ``root`` gives none."""
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return {}
    out = {}
    for folder in folders:
        try:
            gaps = _gaps(folder, searcher)
        except (OSError, ValueError, KeyError, TypeError, IndexError, ConfigError):
            continue  # not a ladder this can read: say nothing of it
        if gaps:
            out[folder.name] = gaps
    return out


def _gaps(folder: Path, searcher: str) -> list[Gap]:
    if MARK not in (folder / "README.md").read_text(encoding="utf-8", errors="replace"):
        return []
    ratings, skill = pd.read_csv(folder / "ratings.csv"), _skill_rows(folder)
    if "bound" in ratings:
        ratings = ratings[~ratings["bound"].astype(bool)]
    mine = ratings[ratings["policy"] == searcher]
    if len(mine) != 1:
        return []
    s = mine.iloc[0]
    exact = _stored_gaps(folder, skill)
    out = []
    for t in ratings[~ratings["policy"].astype(str).map(is_searching)].itertuples():
        gap = float(s["rating"]) - float(t.rating)
        se = exact.get(frozenset((searcher, str(t.policy))))
        if se is not None:
            out.append(Gap(folder.name, str(t.policy), gap, se, True))
        else:
            out.append(Gap(folder.name, str(t.policy), gap, float(s["se"]) + float(t.se), False))
    if any(not (math.isfinite(g.gap) and math.isfinite(g.se)) for g in out):
        return []
    return out


# "rating gap 0.036 [-0.008, 0.080]" in a rounds-to-lead row's detail (study.ladder_skill.lead_rows)
_GAP_TEXT = re.compile(r"rating gap (-?\d+(?:\.\d+)?) \[(-?\d+(?:\.\d+)?), (-?\d+(?:\.\d+)?)\]")


def _stored_gaps(folder: Path, skill: pd.DataFrame) -> dict[frozenset[str], float]:
    """The standard errors of the rating gaps a ladder stores, by pair: every pair from its ``gaps.csv``; from an
    older folder's rounds-to-lead rows, their gap's 95% Wald interval (in the row's words) over 2 x 1.96."""
    path = folder / "gaps.csv"
    if path.is_file():
        gaps = pd.read_csv(path)
        return {frozenset((str(r.better), str(r.other))): float(r.se) for r in gaps.itertuples()}
    out = {}
    for r in skill[(skill["level"] == "round") & skill["key"].isin(LEADS)].itertuples():
        _, se = gap_in_words(str(r.detail))
        if math.isfinite(se):
            out[frozenset((str(r.better), str(r.other)))] = se
    return out


def gap_in_words(detail: str) -> tuple[float, float]:
    """The rating gap a rounds-to-lead row gives in words ("rating gap 0.036 [-0.008, 0.080]") and its standard
    error, the 95% Wald interval's width over 2 x 1.96 (three decimals: to about 1e-3 / 3.92, enough for a count);
    NaNs when the row says none."""
    m = _GAP_TEXT.search(detail)
    return (float(m[1]), (float(m[3]) - float(m[2])) / (2 * Z95)) if m else (math.nan, math.nan)
