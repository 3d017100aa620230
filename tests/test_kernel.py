"""The kernel's own contract: rows depend only on (rules, policies, seed, game index).

Not on the number of threads, not on how a run is split into calls; seeds
cover the whole 64-bit range; seats beyond the table stay zero; and the
layout constants the compiled code indexes by agree with the enums and field
orders of rules.py and policies.py.
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest
from naive import first_difference, reference_rows

from unocli.game import cards
from unocli.game import policies as pol_module
from unocli.game.counters import COUNTERS, Outcome
from unocli.game.policies import ColourChoice, Policy, Respond, SwapTarget
from unocli.game.rules import RULE_FIELDS, Rules, Stacking, WildDrawFour, preset
from unocli.kernel import ROW_NAMES, ROW_WIDTH, max_threads, play_rows
from unocli.kernel import encode as layout
from unocli.kernel.encode import INT_KNOBS, PROB_KNOBS, encode_policies, encode_rules

COL = {name: i for i, name in enumerate(ROW_NAMES)}
PARTY = preset("party").replace(players=4)
TABLE = (Policy(), pol_module.preset("basic"), Policy(bluff=0.5, forget_uno=0.5), Policy(colour="next_lacks"))


# ---------------------------------------------------------------- determinism


@pytest.mark.parametrize("match", [False, True])
def test_threads_do_not_change_rows(match: bool) -> None:
    count = 400 if match else 1000
    one = play_rows(PARTY, TABLE, seed=7, count=count, match=match, threads=1)
    two = play_rows(PARTY, TABLE, seed=7, count=count, match=match, threads=2)
    default = play_rows(PARTY, TABLE, seed=7, count=count, match=match)
    assert first_difference(two, one) is None
    assert first_difference(default, one) is None


def test_rows_into_an_array_that_is_not_c_ordered() -> None:
    """The batch writes rows through a raw C-ordered view; a Fortran-ordered or strided ``out`` still gets the right rows."""
    rules = Rules(players=3)
    policies = (Policy(),) * 3
    expected = play_rows(rules, policies, seed=9, count=50, threads=2)
    fortran = np.zeros((50, ROW_WIDTH), dtype=np.int64, order="F")
    play_rows(rules, policies, seed=9, count=50, threads=2, out=fortran)
    assert np.array_equal(fortran, expected)
    wide = np.zeros((100, ROW_WIDTH), dtype=np.int64)
    play_rows(rules, policies, seed=9, count=50, threads=2, out=wide[::2])  # every other row
    assert np.array_equal(wide[::2], expected) and not wide[1::2].any()


def test_threads_play_the_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    # Breaks: ``threads`` would not reach the batch (a 2-thread run on one
    # thread, or a 1-thread run spread over a pool).
    import threading

    import unocli.kernel as kernel

    if max_threads() < 2:
        pytest.skip("one core: the wrapper caps threads at numba's count")
    seen: list[int] = []
    real = kernel.play_batch

    def spy(*args):  # type: ignore[no-untyped-def]
        seen.append(threading.get_ident())
        barrier.wait(timeout=30)  # two chunks at once, or this times out
        return real(*args)

    barrier = threading.Barrier(2)
    monkeypatch.setattr(kernel, "play_batch", spy)
    play_rows(PARTY, TABLE, seed=1, count=10, threads=2)
    assert len(seen) == 8 and len(set(seen)) == 2  # 4 chunks per thread
    assert threading.get_ident() not in seen
    seen.clear()
    barrier = threading.Barrier(1)
    play_rows(PARTY, TABLE, seed=1, count=10, threads=1)
    assert seen == [threading.get_ident()] * 4
    assert max_threads() >= 1


def test_an_error_stops_the_chunks_not_started(monkeypatch: pytest.MonkeyPatch) -> None:
    # Breaks: after Ctrl-C (or any error) in the caller, the pool's threads
    # would go on to play every chunk left of the call before the process could exit.
    import threading
    import time

    import unocli.kernel as kernel

    if max_threads() < 2:
        pytest.skip("one core: no pool")
    calls: list[int] = []
    lock = threading.Lock()

    def spy(*args):  # type: ignore[no-untyped-def]
        with lock:
            calls.append(1)
            first = len(calls) == 1
        if first:
            raise RuntimeError("planted")
        time.sleep(0.2)  # a long chunk: the caller drains the rest meanwhile

    monkeypatch.setattr(kernel, "play_batch", spy)
    with pytest.raises(RuntimeError, match="planted"):
        play_rows(PARTY, TABLE, seed=1, count=100, threads=2)  # 8 chunks
    time.sleep(0.5)  # what was under way has finished
    assert len(calls) <= 3, len(calls)


@pytest.mark.parametrize("match", [False, True])
def test_batching_does_not_change_rows(match: bool) -> None:
    whole = play_rows(PARTY, TABLE, seed=11, start=0, count=1000, match=match)
    tens = np.concatenate([play_rows(PARTY, TABLE, seed=11, start=s, count=100, match=match) for s in range(0, 1000, 100)])
    assert first_difference(tens, whole) is None
    ragged_sizes = [1, 2, 97, 300, 3, 597]
    assert sum(ragged_sizes) == 1000
    parts, at = [], 0
    for size in ragged_sizes:
        parts.append(play_rows(PARTY, TABLE, seed=11, start=at, count=size, match=match, threads=1 + size % 2))
        at += size
    assert first_difference(np.concatenate(parts), whole) is None
    # a window from the middle of the run
    assert first_difference(play_rows(PARTY, TABLE, seed=11, start=250, count=50, match=match), whole[250:300]) is None


def test_out_parameter_is_filled() -> None:
    out = np.full((120, ROW_WIDTH), -99, dtype=np.int64)
    rows = play_rows(PARTY, TABLE, seed=5, start=3, count=100, out=out)
    assert np.shares_memory(rows, out)
    assert first_difference(out[:100], play_rows(PARTY, TABLE, seed=5, start=3, count=100)) is None
    assert (out[100:] == -99).all()


def test_seeds_and_offsets_give_different_games() -> None:
    """Games of another seed or another index are other games: every one of the 200 rows differs.

    The basis: a row holds every §9 counter of a party round (turns, cards drawn, points, every seat's cards left,
    ...), and two independent games almost never share one: among the 19,900 pairs of the 200 games of seed 11
    not one row repeats (measured), so one collision in 200 would be a rate 0.5% against < 0.005% seen. The seeds
    are fixed, so a failure is a change in the code (streams shared between seeds or games), not bad luck.
    """
    base = play_rows(PARTY, TABLE, seed=11, start=0, count=200)
    other_seed = play_rows(PARTY, TABLE, seed=12, start=0, count=200)
    shifted = play_rows(PARTY, TABLE, seed=11, start=1, count=200)
    assert (base != other_seed).any(axis=1).all()
    assert (base[1:] == shifted[:-1]).all()  # the same games, one index along
    assert (base[:-1] != shifted[:-1]).any(axis=1).all()
    # a rerun is identical
    assert (play_rows(PARTY, TABLE, seed=11, start=0, count=200) == base).all()


@pytest.mark.parametrize("seed", [2**64 - 1, 2**64 - 2, 2**63, 2**63 - 1])
def test_extreme_seeds(seed: int) -> None:
    rules = Rules(players=3, stacking="any", seven_o=True)
    policies = (Policy(),) * 3
    rows = play_rows(rules, policies, seed=seed, count=30)
    assert first_difference(rows, reference_rows(rules, policies, seed, 0, 30)) is None
    assert (rows != play_rows(rules, policies, seed=seed ^ 1, count=30)).any()


def test_large_start_index() -> None:
    rules = Rules(players=4)
    policies = (Policy(),) * 4
    start = 2**62 + 12345
    rows = play_rows(rules, policies, seed=3, start=start, count=20)
    assert first_difference(rows, reference_rows(rules, policies, 3, start, 20), start) is None


def test_wrong_number_of_policies() -> None:
    with pytest.raises(ValueError, match="3 policies for 4 players"):
        play_rows(Rules(players=4), (Policy(),) * 3, count=1)


def test_zero_games() -> None:
    assert play_rows(Rules(), (Policy(),) * 4, count=0).shape == (0, ROW_WIDTH)


# ---------------------------------------------------------------- row contents


@pytest.mark.parametrize("match", [False, True])
@pytest.mark.parametrize("players", [2, 3, 5, 9, 10])
def test_unused_seats_are_zero(players: int, match: bool) -> None:
    rules = preset("party").replace(players=players, target_score=150)
    rows = play_rows(rules, (Policy(),) * players, seed=9, count=200, match=match)
    for s in range(players, 10):
        assert (rows[:, COL[f"cards_left_{s}"]] == 0).all()
        assert (rows[:, COL[f"points_{s}"]] == 0).all()
    points = rows[:, [COL[f"points_{s}"] for s in range(players)]]
    outcome, winner = rows[:, COL["outcome"]], rows[:, COL["winner"]]
    assert ((winner >= 0) == (outcome == 0)).all()
    assert (winner < players).all()
    if not match:
        assert (rows[:, COL["rounds"]] == 1).all()
        # a round: only the winner scores, the winner's points
        assert (points.sum(axis=1) == np.where(outcome == 0, rows[:, COL["winner_points"]], 0)).all()
        won = outcome == 0
        assert (rows[won, COL["cards_left_0"] + winner[won]] == 0).all()
    else:
        assert (rows[:, COL["rounds"]] >= 1).all()
        won = outcome == 0
        assert (points[won, winner[won]] >= rules.target_score).all()
        assert (points.sum(axis=1) == rows[:, COL["winner_points"]]).all()


# ---------------------------------------------------------------- layout constants


def test_row_layout() -> None:
    assert ROW_NAMES[: len(COUNTERS)] == COUNTERS
    for i, name in enumerate(COUNTERS):
        assert getattr(layout, name.upper()) == i, name
    assert ROW_NAMES[layout.OUTCOME] == "outcome"
    assert ROW_NAMES[layout.WINNER] == "winner"
    for s in range(layout.NMAX):
        assert ROW_NAMES[layout.CARDS_LEFT + s] == f"cards_left_{s}"
        assert ROW_NAMES[layout.SCORES + s] == f"points_{s}"
    assert ROW_NAMES[layout.ROUNDS] == "rounds"
    assert ROW_NAMES[layout.ROUNDS_BLOCKED] == "rounds_blocked"
    assert ROW_NAMES[layout.ROUNDS_CAPPED] == "rounds_capped"
    assert len(ROW_NAMES) == ROW_WIDTH == layout.ROW_WIDTH
    assert len(set(ROW_NAMES)) == ROW_WIDTH


def test_rule_layout() -> None:
    short = {"draw_until_playable": "DUP", "no_action_finish": "NAF", "wild_draw_four": "WD4", "target_score": "TARGET"}
    for i, name in enumerate(RULE_FIELDS):
        assert getattr(layout, "R_" + short.get(name, name.upper())) == i, name
    order = (Stacking.OFF, Stacking.PLUS2, Stacking.SAME, Stacking.PROGRESSIVE, Stacking.ANY)
    assert [layout.ST_OFF, layout.ST_PLUS2, layout.ST_SAME, layout.ST_PROGRESSIVE, layout.ST_ANY] == [
        list(Stacking).index(s) for s in order
    ]
    assert len(Stacking) == 5
    assert [layout.WD4_RESTRICTED, layout.WD4_FREE] == [
        list(WildDrawFour).index(WildDrawFour.RESTRICTED),
        list(WildDrawFour).index(WildDrawFour.FREE),
    ]
    assert len(WildDrawFour) == 2
    # the kernel's rule array has one slot past the fields: the test-only fault (0: none)
    assert layout.R_FAULT == len(RULE_FIELDS) and layout.N_RULE_SLOTS == len(RULE_FIELDS) + 1
    assert layout.WORKSPACE["ru"].shape == (layout.N_RULE_SLOTS,)
    assert layout.FAULT_NONE == 0
    for stacking in Stacking:
        arr = encode_rules(Rules(stacking=stacking, wild_draw_four="free", players=3, hand_size=9, uno_penalty=5))
        assert arr[layout.R_STACKING] == getattr(layout, "ST_" + stacking.name)
        assert arr[layout.R_WD4] == layout.WD4_FREE
        assert arr[layout.R_PLAYERS] == 3 and arr[layout.R_HAND_SIZE] == 9 and arr[layout.R_UNO_PENALTY] == 5


def test_policy_layout() -> None:
    prob_names = {"forget_uno": "FORGET", "catch_uno": "CATCH", "jump_in": "JUMP"}
    for i, name in enumerate(PROB_KNOBS):
        assert getattr(layout, "P_" + prob_names.get(name, name.upper())) == i, name
    int_names = {"challenge_if_hand": "CHAL_HAND", "challenge_if_own_colour": "CHAL_OWN", "swap_target": "SWAP"}
    for i, name in enumerate(INT_KNOBS):
        assert getattr(layout, "I_" + int_names.get(name, name.upper())) == i, name
    assert layout.N_INTS == len(INT_KNOBS)
    assert [layout.COL_RANDOM, layout.COL_MOST, layout.COL_NEXT_LACKS] == [
        list(ColourChoice).index(c) for c in (ColourChoice.RANDOM, ColourChoice.MOST_HELD, ColourChoice.NEXT_LACKS)
    ]
    assert len(ColourChoice) == 3
    assert [layout.RESP_UNIFORM, layout.RESP_KNOBS] == [list(Respond).index(r) for r in (Respond.UNIFORM, Respond.KNOBS)]
    assert len(Respond) == 2
    assert [layout.SW_RANDOM, layout.SW_FEWEST, layout.SW_MOST, layout.SW_NEXT] == [
        list(SwapTarget).index(s) for s in (SwapTarget.RANDOM, SwapTarget.FEWEST, SwapTarget.MOST, SwapTarget.NEXT)
    ]
    assert len(SwapTarget) == 4


def test_policy_arrays_use_the_layout() -> None:
    pols = (
        Policy(
            colour="next_lacks",
            respond="knobs",
            swap_target="most",
            challenge_if_hand=6,
            attack_at=3,
            attack="skip",
            challenge_if_own_colour=True,
            bluff=0.25,
            forget_uno=0.5,
            play="low",
        ),
        Policy(attack_at=4),  # attack_at without an attack order never applies
    )
    probs, ints, prio = encode_policies(pols)
    assert probs.shape == (2, len(PROB_KNOBS)) and ints.shape == (2, len(INT_KNOBS))
    assert probs[0, layout.P_BLUFF] == 0.25 and probs[0, layout.P_FORGET] == 0.5
    assert probs[1, layout.P_CATCH] == 1.0 and probs[1, layout.P_JUMP] == 0.5
    assert ints[0, layout.I_COLOUR] == layout.COL_NEXT_LACKS
    assert ints[0, layout.I_RESPOND] == layout.RESP_KNOBS
    assert ints[0, layout.I_SWAP] == layout.SW_MOST
    assert ints[0, layout.I_CHAL_HAND] == 6 and ints[0, layout.I_CHAL_OWN] == 1
    assert ints[0, layout.I_ATTACK_AT] == 3 and ints[1, layout.I_ATTACK_AT] == 0
    assert ints[0, layout.I_RANDOM_PLAY] == 0 and ints[1, layout.I_RANDOM_PLAY] == 1
    assert ints[1, layout.I_COLOUR] == layout.COL_RANDOM and ints[1, layout.I_SWAP] == layout.SW_RANDOM
    assert prio.shape == (2, 2, 54) and (prio[1] == 0).all()


def test_workspace_record() -> None:
    """One aligned buffer, small card tables, its tables sized by the constants the kernel loops over."""
    ws = layout.WORKSPACE
    assert ws.isalignedstruct
    # int8 card tables and int16 sizes and priorities (issue 14), int64 elsewhere but the kept
    # play-stream state (xoshiro256** words: uint64), the bit-sliced hands (uint64 words, kernel/plain.py),
    # the held-types masks (uint64, primitives._best_legal), the uniform flags (int8: room for the masks)
    # and the probability knobs (float64)
    int8 = (
        "hands",
        "ccount",
        "lacks",
        "shown",
        "disc",
        "pile",
        "opts",
        "old_hands",
        "old_ccount",
        "old_lacks",
        "old_shown",
        "sopt_card",
        "sopt_colour",
        "cap",
        "known_by",
        "p4_cards",
        "uniform",
    )
    small = {name: np.int8 for name in (*int8, "kept_hands", "kept_lacks", "kept_shown", "kept_disc", "kept_pile")}
    small.update(
        {
            "hsize": np.int16,
            "old_hsize": np.int16,
            "seen_hsize": np.int16,
            "prio": np.int16,
            # a search's totals (at most 9 x 1,240 points x 100,000 rollouts) and a match's scores (to 1,000,000)
            "sopt_score": np.int32,
            "mscore": np.int32,
            "kept_rs": np.uint64,
            "bits": np.uint64,
            "held": np.uint64,
            "probs": np.float64,
        }
    )
    assert all(ws[name].base == small.get(name, np.int64) for name in ws.names)
    assert ws.itemsize < 8 * 1024  # a workspace fits in L1 cache with room to spare
    # a search's total: budget x (players - 1) x a round's points at most, the whole deck's (search._value)
    from unocli.game.policies import MAX_BUDGET

    assert MAX_BUDGET * (layout.NMAX - 1) * int(layout.POINTS[layout.DECK].sum()) < 2**31
    n = layout.NMAX
    shapes = {
        "row": (ROW_WIDTH,),
        "ru": (layout.N_RULE_SLOTS,),
        "hands": (n, layout.N_TYPES),
        "hsize": (n,),
        "bits": (n, 4),  # a count per type is at most 4
        "held": (n,),  # one 64-bit mask of the 54 types per seat
        "ccount": (n, layout.N_COLOURS),
        "lacks": (n,),
        "shown": (n,),
        "disc": (layout.N_TYPES,),
        "pile": (layout.DECK_SIZE,),
        "opts": (layout.DECK_SIZE,),
        "ints": (n, layout.N_INTS),
        "probs": (n, len(PROB_KNOBS)),
        "prio": (n, layout.N_PRIO_TABLES, layout.N_TYPES),
        "kept": (layout.N_KEPT,),
        "kept_hands": (n, layout.N_TYPES),
        "kept_pile": (layout.DECK_SIZE,),
    }
    for name, shape in shapes.items():
        assert ws[name].shape == shape, name
    # the seven_o rotation's scratch has the shape of what it saves
    saved = [name for name in ws.names if name.startswith("old_")]
    assert saved == ["old_hands", "old_hsize", "old_ccount", "old_lacks", "old_shown"]
    assert all(ws[name].shape == ws[name.removeprefix("old_")].shape for name in saved)
    # the workspace is filled from encode_policies' arrays
    _, ints, prio = encode_policies((Policy(),) * 3)
    assert ints.shape[1:] == ws["ints"].shape[1:] and prio.shape[1:] == ws["prio"].shape[1:]


def test_kernel_constants_come_from_the_game_package() -> None:
    """The card numbers and outcomes the kernel compiles in are unocli.game's, not copies that could drift."""
    for name in ("N_COLOURS", "N_RANKS", "N_TYPES", "DECK_SIZE", "SKIP", "REVERSE", "DRAW_TWO", "WILD", "WILD_DRAW_FOUR"):
        assert getattr(layout, name) == getattr(cards, name), name
    assert layout.NO_COLOUR == cards.NO_COLOUR
    assert layout.DRAW_TWO_PENALTY == cards.penalty_value(cards.card_type(cards.BLUE, cards.DRAW_TWO)) == 2
    assert layout.WILD_DRAW_FOUR_PENALTY == cards.penalty_value(cards.WILD_DRAW_FOUR) == 4
    assert (layout.DECK == cards.CANONICAL_DECK).all() and len(layout.DECK) == cards.DECK_SIZE
    assert (layout.POINTS == cards.POINTS_TABLE).all()
    assert [layout.OUTCOME_WON, layout.OUTCOME_BLOCKED, layout.OUTCOME_CAPPED] == [Outcome.WON, Outcome.BLOCKED, Outcome.CAPPED]
    assert layout.N_COUNTERS == len(COUNTERS) == layout.OUTCOME


def test_decision_codes_are_not_cards_or_seats() -> None:
    """The kernel tells a code from a card or a seat by its sign, and the two codes of one function apart."""
    codes = ("NO_CARD", "NO_SEAT", "RESPOND_ACCEPT", "RESPOND_CHALLENGE", "TURN_PASSED", "TURN_BLOCKED")
    assert all(getattr(layout, name) < 0 for name in codes)
    assert layout.RESPOND_ACCEPT != layout.RESPOND_CHALLENGE
    assert layout.TURN_PASSED != layout.TURN_BLOCKED


KERNEL_DIR = Path(layout.__file__).parent
# Card-table numbers (13 ranks, 52 coloured types, 53 the Wild Draw Four, 54
# types, 108 cards) that must not appear as bare literals in the compiled code.
CARD_LITERALS = {13, 52, 53, 54, 108}


@pytest.mark.parametrize(
    "module", ["step.py", "primitives.py", "stuck.py", "bits.py", "lanes.py", "batch.py", "plain.py", "fold.py"]
)
def test_kernel_code_names_its_constants(module: str) -> None:
    """No card-table literal in the compiled modules, and no module-level constant defined there (encode.py has them all)."""
    tree = ast.parse((KERNEL_DIR / module).read_text())
    bare = [
        (node.lineno, node.value) for node in ast.walk(tree) if isinstance(node, ast.Constant) and node.value in CARD_LITERALS
    ]
    assert bare == [], f"{module}: bare card-table literals (line, value) {bare}"
    assigned = [  # a kernel built by a factory (batch.play_batch = _batch_kernel(False)) is not a constant
        ast.unparse(target)
        for node in tree.body
        if not (isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(node.value, ast.Call))
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else [])
    ]
    assert assigned == [], f"{module} defines constants {assigned}: define them in encode.py and import them"


def _compiled_functions(tree: ast.Module) -> set[str]:
    """The functions of a module compiled as real calls: ``@njit(...)`` without ``inline=``."""
    return {
        node.name
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef)
        for d in node.decorator_list
        if isinstance(d, ast.Call) and getattr(d.func, "id", "") == "njit" and not any(k.arg == "inline" for k in d.keywords)
    }


def test_no_compiled_call_passes_a_literal() -> None:
    """A real call never passes a bare 0, 1 or True: numba types it ``Literal[int](0)`` and compiles the callee again.

    Each such call site compiled a second copy of its callee (``step.play`` called with a literal True
    cost 12 s of a 35 s first compile); the call sites pass ``np.int64(0)`` or ``np.bool_(True)``.
    The slow cache-stamp test checks the compiled signatures themselves.
    """
    trees = {p.name: ast.parse(p.read_text()) for p in KERNEL_DIR.glob("*.py")}
    compiled = set().union(*(_compiled_functions(t) for t in trees.values()))
    assert {"play", "deal_shuffled", "_respond", "_seen_draws"} <= compiled  # the parse finds the kernel's functions
    literal = [
        f"{name}:{node.lineno} {ast.unparse(node)}"
        for name, tree in sorted(trees.items())
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in compiled
        if any(isinstance(a, ast.Constant) and isinstance(a.value, bool | int | float) for a in node.args)
    ]
    assert literal == [], literal
