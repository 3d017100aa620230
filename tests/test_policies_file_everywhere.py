"""``--policies FILE`` on ``compare`` and ``sweep``, and ``policies = FILE`` in experiment files.

A policy named in a file must play exactly as the same knobs written inline:
every comparison here is on common deals (same seed, same game indices), so
"the same" means identical numbers, not numbers within a tolerance.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner

from unocli.cli.main import cli
from unocli.errors import ConfigError
from unocli.game.policies import preset
from unocli.report.experiment import load_experiment
from unocli.study.arm import PolicyFile, TableSpec, UnknownPolicy, parse_policy
from unocli.study.sweep import parse_axis

TUNED = "basic:bluff=0.3,challenge=0.6"  # what [tuned] below says, inline
WILD = "basic:bluff=1,challenge=0"  # what [tuned] in the overriding file says, inline
GAMES = "300"


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def one_error_line(result) -> str:
    """The output is one ``Error: ...`` line and no traceback."""
    assert "Traceback" not in result.output, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    """A policies file, another defining ``tuned`` differently, and experiments naming the first relative to themselves."""
    exp_dir = tmp_path / "study"
    (exp_dir / "pols").mkdir(parents=True)
    mine = exp_dir / "pols" / "mine.toml"
    mine.write_text('[tuned]\nbase = "basic"\nbluff = 0.3\nchallenge = 0.6\n', encoding="utf-8")
    other = tmp_path / "other.toml"
    other.write_text('[tuned]\nbase = "basic"\nbluff = 1.0\nchallenge = 0.0\n', encoding="utf-8")
    head = f'policies = "pols/mine.toml"\ngames = {GAMES}\nseed = 3\nmetrics = ["turns", "win_0", "cards_drawn"]\n'
    compare_exp = exp_dir / "cmp.toml"
    compare_exp.write_text(
        head + '[base]\npolicy = "basic"\n[arms.basic]\n[arms.tuned]\nseats = { 0 = "tuned" }\n', encoding="utf-8"
    )
    sweep_exp = exp_dir / "swp.toml"
    sweep_exp.write_text(head + '[base]\npolicy = "basic"\n[grid]\n"policy@0" = ["basic", "tuned"]\n', encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    return {"mine": mine, "other": other, "compare": compare_exp, "sweep": sweep_exp, "elsewhere": elsewhere}


def rows(result) -> list[dict]:
    """The JSON rows of ``compare --json`` with the arm names dropped (names differ; the numbers must not)."""
    assert result.exit_code == 0, result.output
    return [{k: v for k, v in r.items() if k not in ("arm", "baseline")} for r in json.loads(result.stdout)["rows"]]


# ---------------------------------------------------------------- compare


def test_compare_file_policy_equals_the_same_knobs_inline(files) -> None:
    common = ["compare", "--games", GAMES, "--seed", "7", "--json", "--quiet", "--arm", "basic"]
    from_file = run(*common, "--arm", "tuned", "--policies", str(files["mine"]))
    inline = run(*common, "--arm", TUNED)
    assert rows(from_file) == rows(inline)
    # not vacuous: the tuned arm differs from basic on these deals
    assert any(r["diff"] not in (0, None) for r in rows(inline))


def test_compare_file_policy_in_a_seat_of_an_arm(files) -> None:
    common = ["compare", "--games", GAMES, "--json", "--quiet", "--policy", "basic", "--arm", "basic"]
    from_file = run(*common, "--arm", "t: --seat 0=tuned", "--policies", str(files["mine"]))
    inline = run(*common, "--arm", f"t: --seat 0={TUNED}")
    assert rows(from_file) == rows(inline)


def test_compare_base_policy_from_the_file(files) -> None:
    """``--policy tuned`` sets the base every arm starts from; a rules-preset arm keeps it."""
    common = ["compare", "--games", GAMES, "--json", "--quiet", "--arm", "official", "--arm", "stacking"]
    from_file = run(*common, "--policy", "tuned", "--policies", str(files["mine"]))
    inline = run(*common, "--policy", TUNED)
    assert rows(from_file) == rows(inline)
    assert rows(from_file) != rows(run(*common, "--policy", "basic"))


# ---------------------------------------------------------------- sweep


def sweep_means(result, folder: Path) -> list[float]:
    assert result.exit_code == 0, result.output
    return pd.read_csv(folder / "sweep.csv")["mean"].tolist()


def test_sweep_policy_axis_with_a_file_policy(files, tmp_path) -> None:
    common = ["sweep", "--games", GAMES, "--quiet", "--policy", "basic"]
    a, b = tmp_path / "a", tmp_path / "b"
    from_file = run(*common, "--grid", "policy@0=basic,tuned", "--policies", str(files["mine"]), "--out", str(a))
    # --grid splits values on commas, so TUNED cannot be a value: its second cell is a knob grid's instead
    knobs = run(*common, "--grid", "bluff@0=0,0.3", "--seat", "0=basic:challenge=0.6", "--out", str(b))
    file_means, knob_means = sweep_means(from_file, a), sweep_means(knobs, b)
    n = len(file_means) // 2
    assert file_means[n:] == knob_means[n:]  # the second cell: tuned at seat 0 either way
    assert file_means[:n] != knob_means[:n]  # not vacuous: the first cells differ (challenge 0.25 against 0.6)


def test_sweep_knob_axis_over_a_file_base_policy(files, tmp_path) -> None:
    common = ["sweep", "--games", GAMES, "--quiet", "--grid", "bluff=0,1"]
    a, b = tmp_path / "a", tmp_path / "b"
    from_file = run(*common, "--policy", "tuned", "--policies", str(files["mine"]), "--out", str(a))
    inline = run(*common, "--policy", TUNED, "--out", str(b))
    assert sweep_means(from_file, a) == sweep_means(inline, b)


# ---------------------------------------------------------------- experiment files


def test_experiment_names_its_policies_file_relative_to_itself(files, monkeypatch) -> None:
    monkeypatch.chdir(files["elsewhere"])  # the file's folder is not the working folder
    exp = load_experiment(files["compare"])
    assert exp.base.policies is not None and Path(exp.base.policies.path) == files["mine"]
    assert exp.arms_for(4)[1].policies[0] == preset("basic").replace(bluff=0.3, challenge=0.6)
    from_file = run("compare", str(files["compare"]), "--json", "--quiet")
    inline = run(
        *("compare", "--games", GAMES, "--seed", "3", "--json", "--quiet", "--policy", "basic"),
        *("--metrics", "turns,win_0,cards_drawn", "--arm", "basic", "--arm", f"t: --seat 0={TUNED}"),
    )
    assert rows(from_file) == rows(inline)


def test_sweep_experiment_with_its_policies_file(files, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(files["elsewhere"])
    result = run("sweep", str(files["sweep"]), "--quiet", "--out", str(tmp_path / "s"))
    table = pd.read_csv(tmp_path / "s" / "sweep.csv")
    assert result.exit_code == 0, result.output
    assert sorted(set(table["policy@0"])) == ["basic", "tuned"]


def test_report_plays_an_experiment_with_its_policies_file(files, monkeypatch, tmp_path) -> None:
    monkeypatch.chdir(files["elsewhere"])
    result = run("report", str(files["compare"]), "--out", str(tmp_path / "r"), "--quiet")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "r" / "README.md").read_text(encoding="utf-8")
    assert "Policies from mine.toml: `tuned` = `basic:bluff=0.3,challenge=0.6`." in text  # the report says what it played


def test_cli_option_overrides_the_experiment_policies_file(files, monkeypatch) -> None:
    monkeypatch.chdir(files["elsewhere"])
    metrics = ("--metrics", "turns,win_0,cards_drawn")
    overridden = run("compare", str(files["compare"]), "--json", "--quiet", "--policies", str(files["other"]))
    inline = run(
        *("compare", "--games", GAMES, "--seed", "3", "--json", "--quiet", "--policy", "basic", *metrics),
        *("--arm", "basic", "--arm", f"t: --seat 0={WILD}"),
    )
    assert rows(overridden) == rows(inline)
    assert rows(overridden) != rows(run("compare", str(files["compare"]), "--json", "--quiet"))
    # given, not truthy: --policies "" takes the file's policies away, so its 'tuned' names nothing
    emptied = run("compare", str(files["compare"]), "--quiet", "--policies", "")
    assert emptied.exit_code == 2
    assert "unknown policy 'tuned'" in one_error_line(emptied)


def test_experiment_policies_key_errors_name_the_key(files) -> None:
    bad = files["compare"].with_name("bad.toml")
    bad.write_text('policies = "missing.toml"\n[arms.a]\n[arms.b]\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="key 'policies'"):
        load_experiment(bad)
    bad.write_text("policies = 3\n[arms.a]\n[arms.b]\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="key 'policies': must name a policies file"):
        load_experiment(bad)


# ---------------------------------------------------------------- unknown names and refused files


@pytest.mark.parametrize(
    "args",
    [
        ["compare", "--arm", "basic", "--arm", "tuned"],
        ["compare", "--arm", "basic", "--arm", "x: --seat 0=tunned", "--policies", "{mine}"],
        ["compare", "--arm", "basic", "--arm", "official", "--policy", "tunned", "--policies", "{mine}"],
        ["sweep", "--grid", "policy@0=basic,tunned", "--policies", "{mine}"],
        ["sweep", "--grid", "bluff=0,1", "--seat", "1=tunned", "--policies", "{mine}"],
    ],
)
def test_unknown_policy_name_is_one_sentence_exit_2(files, tmp_path, args) -> None:
    filled = [a.replace("{mine}", str(files["mine"])) for a in args]
    result = run(*filled, "--games", "10", "--quiet", *(["--out", str(tmp_path / "o")] if args[0] == "sweep" else []))
    assert result.exit_code == 2, result.output
    line = one_error_line(result)
    assert "basic" in line and "smart" in line  # the presets are listed
    if "{mine}" in args:
        assert "tuned" in line and "mine.toml" in line  # and the file's own names, with the file
    assert not (tmp_path / "o").exists()


def test_unknown_name_in_an_experiment_file_is_exit_2(files) -> None:
    files["compare"].write_text(files["compare"].read_text().replace('"tuned"', '"tunned"'), encoding="utf-8")
    result = run("compare", str(files["compare"]), "--quiet")
    assert result.exit_code == 2
    line = one_error_line(result)
    assert "arms.tuned.seats.0" in line and "mine.toml', tuned" in line


def test_file_redefining_a_preset_is_refused(files, tmp_path) -> None:
    f = tmp_path / "redefine.toml"
    f.write_text('[basic]\nbase = "basic"\nbluff = 0.5\n', encoding="utf-8")
    result = run("compare", "--arm", "basic", "--arm", "smart", "--games", "10", "--policies", str(f))
    assert result.exit_code == 1
    assert "redefines the preset 'basic'" in one_error_line(result)
    exp = files["compare"]
    exp.write_text(exp.read_text().replace("pols/mine.toml", str(f)), encoding="utf-8")
    with pytest.raises(ConfigError, match="redefines the preset 'basic'"):
        load_experiment(exp)


# ---------------------------------------------------------------- the library


def test_table_spec_carries_the_file_to_every_arm(files) -> None:
    pf = PolicyFile.load(files["mine"])
    arm = TableSpec(policy="basic", seats=((2, "tuned:bluff=0.5"),), policies=pf).build(players=3)
    assert arm.policies[2] == preset("basic").replace(bluff=0.5, challenge=0.6)
    assert arm.labels[2] == "tuned:bluff=0.5"
    # the sweep chart's caption says so, naming the file without the folders above it (outside the working folder)
    described = TableSpec(policies=pf).describe()
    assert "policies from mine.toml" in described and str(files["mine"].parent) not in described
    with pytest.raises(UnknownPolicy, match="unknown policy 'tuned'; the policies are: random, basic"):
        TableSpec(policy="tuned").build()


def test_summary_writes_each_own_policy_on_its_nearest_preset(tmp_path) -> None:
    f = tmp_path / "p.toml"
    f.write_text('[basic]\nbase = "basic"\n[keen]\nbase = "smart"\nattack_at = 2\n[plain]\nbase = "random"\n', encoding="utf-8")
    assert PolicyFile.load(f).summary() == "Policies from p.toml: `keen` = `smart:attack_at=2`; `plain` = `random`."


def test_summary_specs_play_the_file_policies(tmp_path) -> None:
    """Every spec a report prints reads back as the file's policy (enums, orders and floats included)."""
    f = tmp_path / "p.toml"
    f.write_text(
        '[a]\nbase = "hoarder"\ncolour = "next_lacks"\nbluff = 0.123456789\n'
        '[b]\nbase = "basic"\nplay = "low>wild>skip>reverse>draw_two>wild_draw_four"\nswap_target = "most"\n',
        encoding="utf-8",
    )
    pf = PolicyFile.load(f)
    specs = dict(part.split(" = ") for part in pf.summary().removeprefix("Policies from p.toml: ").rstrip(".").split("; "))
    assert {k.strip("`"): parse_policy(v.strip("`")) for k, v in specs.items()} == pf.policies


def test_parse_policy_and_axes_know_the_file(files) -> None:
    pf = PolicyFile.load(files["mine"])
    assert parse_policy("tuned", pf) == parse_policy(TUNED)
    axis = parse_axis("policy@0", ["basic", "tuned"], pf)
    assert axis.values == ("basic", "tuned")
    with pytest.raises(UnknownPolicy, match="grid axis 'policy@0', value 'tuned'"):
        parse_axis("policy@0", ["basic", "tuned"])


def test_dask_backend_plays_file_policies_as_inline(files) -> None:
    """Arms reach the workers as resolved knobs: a file policy plays the same on a Dask cluster as here."""
    pytest.importorskip("distributed")
    common = ["compare", "--games", GAMES, "--json", "--quiet", "--arm", "basic"]
    remote = run(*common, "--arm", "tuned", "--policies", str(files["mine"]), "--backend", "dask")
    local = run(*common, "--arm", TUNED)
    assert rows(remote) == rows(local)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--policy", "nosuch", "--games", "10"],
        ["simulate", "--seat", "0=nosuch:bluff=0.5", "--games", "10"],
        ["trace", "--policy", "nosuch"],
        ["compare", "--arm", "a: --policy nosuch", "--arm", "basic", "--games", "10"],
        ["tune", "sims/spaces/strong.toml", "--field", "nosuch"],
    ],
)
def test_an_unknown_policy_name_exits_2_on_every_command(args):
    """README: "A policy name that names nothing exits 2" — the same on every command that takes policies."""
    root = Path(__file__).resolve().parent.parent
    args = [str(root / a) if a.startswith("sims/") else a for a in args]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert "unknown policy 'nosuch'" in result.output and "Traceback" not in result.output
