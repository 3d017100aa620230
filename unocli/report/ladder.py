"""A ladder's output folder: ratings.csv, skill.csv, a forest chart of the ratings (PNG), a README.md with n and the model."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from unocli.errors import ConfigError
from unocli.files import check_folder_path, write_atomic, write_text_atomic
from unocli.report import fmt
from unocli.report.model import md_table
from unocli.version import __version__

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FILES = ("README.md", "ratings.csv", "gaps.csv", "skill.csv", "ladder.png", "match-ratings.csv")
MARK = "<!-- written by unocli ladder -->"


@dataclass(frozen=True)
class LadderRun:
    """What a ladder played, for captions and the README: rules, size, seed, deals, and the command."""

    rules: str
    players: int
    seed: int
    deals: int
    tables: int
    match: bool
    command: str
    lone_games: int = 0  # deals of the lone-only policies' tables (0: none)
    match_games: int = 0  # deals of the match ladder over the same --policy tables (0: none)
    lone: tuple[str, ...] = ()  # the lone-only policies


def check_out(folder: str | Path) -> Path:
    """Refuse, before any game is played, a folder that cannot be written or holds anything a ladder did not write.

    A ladder's folder lists its files with their SHA-256 (``.unocli-manifest.json``, as a report's): a file added
    or changed since is refused by name. A folder of an older unocli has no manifest: it is taken only when its
    README carries the ladder's mark and it holds the ladder's files alone.
    """
    from unocli.folders import MANIFEST, foreign_entry

    p = check_folder_path(folder)
    if not p.is_dir() or not any(p.iterdir()):
        return p
    refuse = f"--out {str(p)!r} {{}}, and unocli ladder replaces only a folder it wrote, untouched: choose another"
    if (p / MANIFEST).exists():
        problem = foreign_entry(p)
        if problem:
            raise ConfigError(refuse.format(problem) + " --out folder")
        return p
    readme = p / "README.md"
    ours = readme.is_file() and MARK in readme.read_text(encoding="utf-8", errors="replace")
    other = next((e.name for e in sorted(p.iterdir()) if e.name not in FILES), None)
    if not ours or other is not None:
        what = f"holds {other!r}" if ours else "holds files that unocli ladder did not write"
        raise ConfigError(refuse.format(what) + " --out folder")
    return p


def _unit(run: LadderRun) -> str:
    return "match" if run.match else "round"


def chart(frame: pd.DataFrame, run: LadderRun) -> Figure:
    """A forest of the ratings, best at the top, with 95% cluster-robust intervals and a caption with n."""
    from unocli.report import plots  # matplotlib only when drawing

    cap = plots.caption_text(
        [
            f"Luce ratings (log-odds of winning a decided {_unit(run)}) under the {run.rules} rules at {run.players} players",
            f"{fmt.count(run.deals)} deals at each of {run.tables} tables, every deal once per seat rotation, seed {run.seed}"
            + (f" (the lone-only policies' tables: the first {fmt.count(run.lone_games)})" if run.lone else ""),
            *(["a bound (peek, which sees every hidden card) is not a player"] if frame.get("bound", pd.Series()).any() else []),
            "ratings anchored at " + str(frame.loc[frame["anchor"], "policy"].iloc[0]) + " = 0",
            "bars are 95% Wald intervals, cluster-robust over deals",
            f"unocli {__version__}",
        ]
    )
    fig, bottom = plots._figure(max(2.4, 0.42 * len(frame) + 1.2), cap)
    ax = fig.subplots()
    ys = list(range(len(frame)))[::-1]
    err = [(frame["rating"] - frame["low"]).clip(lower=0), (frame["high"] - frame["rating"]).clip(lower=0)]
    ax.errorbar(frame["rating"], ys, xerr=err, fmt="o", ms=5, capsize=3, color=plots.COLOURS[0])
    ax.axvline(0.0, color="#555555", lw=1, ls=":")
    ax.set_yticks(ys)
    bound = frame["bound"] if "bound" in frame else pd.Series(False, index=frame.index)
    ax.set_yticklabels([f"{p} (bound)" if b else str(p) for p, b in zip(frame["policy"], bound, strict=True)])
    ax.set_xlabel(f"rating (log-odds of winning a decided {_unit(run)}; a gap of 0.1 is about 2.5 pp heads-up)", fontsize=9)
    ax.grid(True, axis="x", alpha=0.3, lw=0.6)
    ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(f"Ladder: {run.rules} rules, {run.players} players", fontsize=12, x=0.01, ha="left")
    return plots._finish(fig, bottom)


def _ratings_table(frame: pd.DataFrame, run: LadderRun) -> str:
    rows = []
    for r in frame.itertuples():
        rating = "0 (anchor)" if r.anchor else f"{r.rating:+.3f} [{r.low:+.3f}, {r.high:+.3f}]"
        name = f"`{r.policy}` (bound, not a player)" if getattr(r, "bound", False) else f"`{r.policy}`"
        mixed = "-" if math.isnan(r.mixed_share) else fmt.share_ci(r.mixed_share, r.mixed_low, r.mixed_high, 1)
        field = fmt.share_ci(r.field_share, r.field_low, r.field_high, 1)
        models = [("-" if math.isnan(m) else fmt.share(m, 1)) for m in (r.field_model, r.mixed_model)]
        rows.append([name, rating, fmt.count(r.games), field, models[0], mixed, models[1]])
    heads = ["policy", "rating [95%]", f"{_unit(run)}s played", "lone vs field: win share [95%]", "model"]
    return md_table(pd.DataFrame(rows, columns=[*heads, "mixed: win share [95%]", "model"]))


def skill_value(r: Any) -> str:
    """A skill measure's value and 95% interval (``r``: a row of the skill frame's ``itertuples``), as the README and
    the command print it; a skill share below 0 says what that means (docs/ladder.md: the estimate is not clipped)."""
    if r.key == "skill_share" and math.isnan(r.value):
        return "undefined: every policy won all or none of its rounds as the lone player"
    if r.key == "skill_share":
        below = " (below 0: the shares spread less than luck alone makes them; not clipped)" if r.value < 0 else ""
        return f"{100 * r.value:.2f}% [{100 * r.low:.2f}, {100 * r.high:.2f}]{below}"
    if r.key == "relative_skill":
        return f"{r.value:.3f} [{r.low:.3f}, {r.high:.3f}]"
    return f"{_count(r.value)} [{_count(r.low)}, {_count(r.high)}]"


def _skill_table(skill: pd.DataFrame) -> str:
    rows = [[r.measure, skill_value(r), fmt.count(r.n), r.detail] for r in skill.itertuples()]
    return md_table(pd.DataFrame(rows, columns=["measure", "value [95%]", "n deals", "how"]))


def _count(x: float) -> str:
    return "inf" if math.isinf(x) else fmt.count(int(x))


def lead_text(gaps: pd.DataFrame | None, best: str) -> str:
    """The best player's lead over the next-rated one, with its interval and what the interval says ('' without
    a gaps frame, or with one player)."""
    if gaps is None:
        return ""
    mine = gaps[gaps["better"] == best]
    if mine.empty:
        return ""
    r = mine.loc[mine["gap"].idxmin()]  # the next-rated player: the smallest of the best's gaps
    said = "excludes 0" if r["clear"] else "includes 0: the two are not told apart"
    gap = f"{r['gap']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]"
    return f"; its lead over the next, `{r['other']}`, is {gap}, an interval that {said}"


def readme(frame: pd.DataFrame, skill: pd.DataFrame, run: LadderRun, gaps: pd.DataFrame | None = None) -> str:
    """The folder's README.md: the answer, the model, n, the tables and the exact command."""
    bound = frame["bound"] if "bound" in frame else pd.Series(False, index=frame.index)
    top = frame[~bound].iloc[0]
    anchor = str(frame.loc[frame["anchor"], "policy"].iloc[0])
    unit, lead = _unit(run), lead_text(gaps, str(top["policy"]))
    lone = (
        f" The lone-only policies ({', '.join(f'`{p}`' for p in run.lone)}) play only as the lone player against a field "
        f"of each other policy, on the first {fmt.count(run.lone_games)} deals."
        if run.lone
        else ""
    )
    matches = (
        f" The match-level measures come from the same round-robin tables played as matches to the target score, "
        f"on {fmt.count(run.match_games)} deals (without the lone-only policies)."
        if run.match_games
        else ""
    )
    return f"""# Ladder: {run.rules} rules, {run.players} players
{MARK}

`{top["policy"]}` rates highest: {top["rating"]:+.3f} [{top["low"]:+.3f}, {top["high"]:+.3f}] over `{anchor}` (0){lead}, from
{fmt.count(run.deals)} deals at each of {run.tables} tables, every deal played once per seat rotation ({unit}s).{lone}{matches}

![ratings](ladder.png)

## Ratings

{_ratings_table(frame, run)}

Model: in a {unit} with a winner, seat i wins with chance exp(r_i) / sum_j exp(r_j) over the table's seats (a Luce
first-place model; Bradley-Terry heads-up), fitted by maximum likelihood (scipy.optimize) to the tables of one
policy against a field of another (the lone ones included), where swapping two policies swaps their tables; the
mixed tables keep each policy beside the same neighbours, so they are a check of the model, not part of its fit.
No seat effect: every deal is played once per rotation, so each policy sits at every seat equally often and a seat
term cancels.
Anchor: `{anchor}` = 0. Intervals: 95% Wald, cluster-robust (sandwich) covariance clustered by deal, as every
table plays the same deals. A rating gap d means the better player wins exp(d) / (1 + exp(d)) of the
{unit}s decided between the two. Win shares: a policy's seats' share of the {unit}s it played, as the lone player
against a field of each other policy ("lone vs field"; heads-up, every pair) or at the mixed tables that seat the
policies in turn; 95% t intervals over deals. "model": the share the fitted ratings expect at the same tables;
where it falls outside the observed interval, one rating per policy does not describe that policy at every table
(at the mixed tables, a policy's neighbours may matter as well).
See docs/ladder.md.

## Skill and luck

{_skill_table(skill)}

Skill share: Var(true) = Var(observed) - Var(luck) over the policies' lone-vs-field win shares (Getty et al.,
SIAM Review 2018), divided by one {unit}'s outcome variance, mean share x (1 - mean share); 95% percentile
bootstrap over deals; over the round-robin policies only (not the lone-only ones). Rounds to lead: the smallest
number of decided {unit}s after which the better player has won more of them with 90% chance (binomial, from the
fitted rating gap); interval from the gap's 95% interval. Relative skill (Dreef, Borm and van der Genugten): the
best player's rating gain over `random` divided by the gain of the clairvoyant bound `peek` (the search that sees
every hidden card: a bound, not a player), on the rating scale; 95% Wald interval by the delta method from the
cluster-robust covariance. A bound is never the best player.

## Policies

{chr(10).join(f"- `{r.policy}`: `{r.spec}`" for r in frame.itertuples())}

## Command

```
{run.command}
```

unocli {__version__}, seed {run.seed}.
"""


def write(
    folder: str | Path,
    frame: pd.DataFrame,
    skill: pd.DataFrame,
    run: LadderRun,
    match_frame: pd.DataFrame | None = None,
    gaps: pd.DataFrame | None = None,
) -> list[Path]:
    """Write the files (the match ratings with ``match_frame``, the gaps with ``gaps``) into ``folder`` (made if
    missing), each atomically."""
    p = check_out(folder)
    p.mkdir(parents=True, exist_ok=True)
    fig = chart(frame, run)
    written = [
        write_atomic(p / "ratings.csv", lambda tmp: frame.to_csv(tmp, index=False)),
        write_atomic(p / "skill.csv", lambda tmp: skill.to_csv(tmp, index=False)),
        write_atomic(p / "ladder.png", lambda tmp: fig.savefig(tmp, dpi=110, format="png")),
    ]
    optional: tuple[tuple[str, pd.DataFrame | None], ...] = (("match-ratings.csv", match_frame), ("gaps.csv", gaps))
    for name, table in optional:
        if table is not None:
            written.append(write_atomic(p / name, partial(_csv, table)))
        elif (p / name).exists():
            (p / name).unlink()  # a stale file from an earlier run that wrote it
    written.append(write_text_atomic(p / "README.md", readme(frame, skill, run, gaps)))
    from unocli.folders import write_manifest

    write_manifest(p, "unocli ladder")  # so a later run can tell a file changed or added since (check_out)
    return written


def _csv(frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path, index=False)


def index(root: str | Path) -> str:
    """``reports/ladder/README.md``: one row per ladder folder under ``root`` (rules, size, the best, the skill measures)."""
    rows = []
    for folder in sorted(Path(root).iterdir()):
        if not (folder / "ratings.csv").is_file() or not (folder / "skill.csv").is_file():
            continue
        ratings, skill = pd.read_csv(folder / "ratings.csv"), pd.read_csv(folder / "skill.csv")
        if "bound" in ratings:
            ratings = ratings[~ratings["bound"].astype(bool)]
        if "key" not in skill:  # a folder written before the measures had keys
            skill = skill.assign(key=["skill_share", *["lead"] * (len(skill) - 1)], level="round")
        best, second = ratings.iloc[0], ratings.iloc[1]
        rounds = skill[skill["level"] == "round"]
        share = rounds[rounds["key"] == "skill_share"].iloc[0]
        leads = [_lead_text(r) for _, r in rounds[rounds["key"].str.startswith("lead")].iterrows()]
        rel = rounds[rounds["key"] == "relative_skill"]
        rel_text = "-" if rel.empty else f"{rel['value'].iloc[0]:.3f} [{rel['low'].iloc[0]:.3f}, {rel['high'].iloc[0]:.3f}]"
        m = skill[(skill["level"] == "match") & (skill["key"] == "skill_share")]
        m_text = (
            "-" if m.empty else f"{100 * m['value'].iloc[0]:.2f}% [{100 * m['low'].iloc[0]:.2f}, {100 * m['high'].iloc[0]:.2f}]"
        )
        rows.append(
            f"| [{folder.name}]({folder.name}/README.md) | {int(best['players'])} | {fmt.count(int(best['deals']))} | "
            f"`{best['policy']}` {best['rating']:+.3f} [{best['low']:+.3f}, {best['high']:+.3f}]; next `{second['policy']}` "
            f"{second['rating']:+.3f} | {rel_text} | {100 * share['value']:.2f}% [{100 * share['low']:.2f}, "
            f"{100 * share['high']:.2f}] | {m_text} | " + " ; ".join(leads) + " |"
        )
    head = (
        "| ladder | players | deals per table | best rating [95%] (anchor random = 0) | relative skill [95%] | "
        "skill share of a round [95%] | of a match [95%] | rounds until the best leads with 90% chance [95%] |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    return f"""# Ladders
{MARK}

Policies rated by a Luce first-place model under each rule set and table size (`unocli ladder`; the model, the
intervals and the skill measures: docs/ladder.md). Each folder holds the ratings, every pair's rating gap with its
interval (gaps.csv; a folder made before it was written has none), the skill measures, a chart and the exact
command; sims/ladder.sh remakes them all. The skill share depends on the policies rated (here
`random` among them): it is the share of one round's (or match's) outcome variance explained by which of these
policies plays. The relative skill is the best player's rating gain over `random` divided by the clairvoyant bound
`peek`'s (a bound, not a player). At more than two players the rounds to lead count the rounds won by one of the two.
The best player is never the bound.

{head}
{chr(10).join(rows)}
"""


def _lead_text(r: pd.Series) -> str:
    return f"vs `{r['other']}`: {_count(float(r['value']))} [{_count(float(r['low']))}, {_count(float(r['high']))}]"


def write_index(root: str | Path) -> Path:
    """Write ``root/README.md`` (:func:`index`)."""
    return write_text_atomic(Path(root) / "README.md", index(root))
