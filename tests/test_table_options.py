"""One way from options to a table, one parser of ``--seat``: simulate, compare and sweep read them alike.

``cli/options.py table_spec`` turns ``--rules/--set/--players/--policy/--seat/--policies``
into a :class:`~unocli.study.arm.TableSpec`, whose ``build()`` is the
:class:`~unocli.study.arm.Arm` that ``simulate()``, ``compare()`` and ``sweep()``
play; ``game.policies.parse_seats`` is the one reader of ``S=SPEC``.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from unocli.cli.main import cli
from unocli.cli.options import table_spec
from unocli.errors import ConfigError
from unocli.game.policies import parse_seats, preset, resolve_policies
from unocli.game.rules import Rules
from unocli.study.arm import Arm
from unocli.study.simulate import simulate


def _error(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return result.exit_code, lines[0]


def test_parse_seats_reads_each_item_once() -> None:
    assert parse_seats(["0=basic", " 2 = smart:bluff=0.5 "]) == ((0, "basic"), (2, "smart:bluff=0.5"))
    with pytest.raises(ConfigError, match="--seat takes SEAT=POLICY, not 'basic'"):
        parse_seats(["basic"])
    with pytest.raises(ConfigError, match="--seat needs a seat number, not 'x'"):
        parse_seats(["x=basic"])
    with pytest.raises(ConfigError, match="--seat needs a seat number"):
        parse_seats(["\u0663=basic"])  # an Arabic-Indic three: int() reads it, a seat number is ASCII


def test_a_seat_given_twice_is_refused_whatever_its_spelling() -> None:
    """``0`` and ``00`` are one seat: the text was compared before, so the last silently won."""
    with pytest.raises(ConfigError, match=r"--seat 0 is given twice \('0=basic' and '00=smart'\)"):
        resolve_policies(3, "random", ["0=basic", "00=smart"])
    for command in (("simulate", "--games", "5"), ("compare", "--arm", "basic", "--arm", "smart", "--games", "5")):
        code, line = _error(*command, "--seat", "0=basic", "--seat", "00=smart")
        assert code == 1 and "--seat 0 is given twice" in line, line


def test_an_arm_seat_is_read_by_the_same_parser() -> None:
    code, line = _error("compare", "--arm", "basic", "--arm", "b: --seat x=smart", "--games", "5")
    assert code == 1 and line == "Error: --arm 'b: --seat x=smart': --seat needs a seat number, not 'x'"


def test_the_options_become_the_arm_compare_plays() -> None:
    arm = table_spec("official", ("hand_size=5",), 3, "basic", ("1=smart",)).build("t")
    assert arm.rules == Rules(players=3, hand_size=5)
    assert arm.policies == (preset("basic"), preset("smart"), preset("basic"))
    assert arm.labels == ("basic", "smart", "basic")
    with pytest.raises(ConfigError, match="seat 3 is not at the table: seats are 0 to 2"):
        table_spec(players=3, seats=("3=basic",))


def test_simulate_takes_an_arm_and_plays_what_its_parts_play() -> None:
    rules = Rules(players=3)
    pols = (preset("basic"), preset("smart"), preset("random"))
    by_parts = simulate(rules, pols, games=200, seed=4, labels=("a", "b", "c"), rotate_seats=True)
    by_arm = simulate(Arm("x", rules, pols, labels=("a", "b", "c"), rotate_seats=True), games=200, seed=4)
    assert by_arm.acc.fingerprint == by_parts.acc.fingerprint and by_arm.games == by_parts.games == 600
    assert by_arm.rotation is not None and by_arm.rotation.labels == ("a", "b", "c")
    with pytest.raises(ConfigError, match="an Arm holds its policies"):
        simulate(Arm("x", rules, pols), pols, games=10)


def test_a_search_player_is_a_policy_of_every_table() -> None:
    """simulate took ``--policy search``; compare's and sweep's tables refused it as unknown. Now all take it."""
    from unocli.cli.analysis import parse_arm
    from unocli.study.arm import TableSpec

    name, table = parse_arm("search:budget=1", TableSpec())
    assert name == "search:budget=1" and table.build(players=2).policies[0].budget == 1
    assert table_spec(players=2, policy="peek:budget=2").build().policies[1].search == "peek"
