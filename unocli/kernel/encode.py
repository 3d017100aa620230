"""How cards, rules, policies and results are encoded in the kernel's arrays.

Everything the kernel compiles in as a constant is defined or derived here,
and the kernel modules import it from here and nowhere else: the card numbers
(taken from ``unocli.game.cards``), the outcomes (``unocli.game.counters``),
the layout of the per-game output row, the order of the rule fields and policy
knobs in their arrays, the integer code of every enum member, the codes the
kernel's decision functions return, and the workspace record (``WORKSPACE``).
``encode_rules`` and ``encode_policies`` build the arrays from the frozen
dataclasses.

Plain Python integers (and a few constant arrays and a dtype): numba freezes
module globals as compile-time constants, so indexing by these names costs
nothing. Because they are frozen
into the compiled code, the kernel's disk cache is stamped with every module
this one imports (see ``_cache.py``): change a field order and the stale
kernel is not loaded.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

import numpy as np

from unocli.game import cards, rng
from unocli.game.counters import COUNTERS, Outcome
from unocli.game.policies import ColourChoice, MatchPreference, Objective, Policy, Respond, SearchMode, SwapTarget
from unocli.game.rules import RULE_FIELDS, Rules, Stacking, WildDrawFour

# --- cards (docs/rules.md §1): the kernel's names for unocli.game.cards -------
# A card type is ``colour * N_RANKS + rank`` for coloured cards, then the two
# Wilds; a hand is a count per type.
N_COLOURS = cards.N_COLOURS
N_RANKS = cards.N_RANKS
N_TYPES = cards.N_TYPES
DECK_SIZE = cards.DECK_SIZE
SKIP = cards.SKIP  # the action ranks are SKIP and above
REVERSE = cards.REVERSE
DRAW_TWO = cards.DRAW_TWO
WILD = cards.WILD  # every type from WILD up is a Wild
WILD_DRAW_FOUR = cards.WILD_DRAW_FOUR
NO_COLOUR = cards.NO_COLOUR
DRAW_TWO_PENALTY = cards.penalty_value(cards.card_type(cards.RED, DRAW_TWO))
WILD_DRAW_FOUR_PENALTY = cards.penalty_value(WILD_DRAW_FOUR)
CHALLENGE_EXTRA = 2  # §5: an honest +4 challenged costs the victim the penalty and 2 more
ROTATE_RANK = 0  # §8 seven_o: a 0 passes every hand on
SWAP_RANK = 7  # §8 seven_o: a 7 swaps hands with an opponent
# int64 copies of the card tables (the workspace is int64)
DECK = cards.CANONICAL_DECK.astype(np.int64)
# the most copies of one coloured type in the deck (two of each but the zeros): primitives._refill
# writes that many of every coloured type into the pile without a branch
COLOURED_COPIES = int(np.bincount(DECK, minlength=N_TYPES)[:WILD].max())
DEAL_LANES = 8  # lanes.shuffle_block: deal streams stepped side by side in one vector (8 x 64 bits: AVX-512's width)
SWAP_BYTES = 64  # bits._swap_items: the most bytes it exchanges (a hand's row of 54 types is the largest use)
POINTS = cards.POINTS_TABLE.astype(np.int64)
COPIES = np.bincount(cards.CANONICAL_DECK, minlength=N_TYPES).astype(np.int64)  # copies of each type in the deck

# Hands as bits (kernel/plain.py): bit t stands for card type t
COLOUR_BITS = np.array(
    [sum(1 << (c * N_RANKS + r) for r in range(N_RANKS)) for c in range(N_COLOURS)], dtype=np.uint64
)  # the types of each colour
RANK_BITS = np.array(
    [sum(1 << (c * N_RANKS + r) for c in range(N_COLOURS)) for r in range(N_RANKS)], dtype=np.uint64
)  # the types of each rank
WILD_BIT = np.uint64(1 << WILD)
WD4_BIT = np.uint64(1 << WILD_DRAW_FOUR)
POINT_PLANES = np.array(
    [sum(1 << t for t in range(N_TYPES) if (int(POINTS[t]) >> b) & 1) for b in range(6)], dtype=np.uint64
)  # bit plane b of the card points (all below 64): the types whose points have bit b set

# --- random streams (unocli.game.rng) ----------------------------------------
PURPOSE_DEAL = rng.PURPOSE_DEAL
PURPOSE_PLAY = rng.PURPOSE_PLAY
PURPOSE_DETERMINISE = rng.PURPOSE_DETERMINISE
PURPOSE_ROLLOUT = rng.PURPOSE_ROLLOUT

# --- outcomes (docs/rules.md §9), as plain ints: numba freezes them ----------
OUTCOME_WON = int(Outcome.WON)
OUTCOME_BLOCKED = int(Outcome.BLOCKED)
OUTCOME_CAPPED = int(Outcome.CAPPED)
OUTCOME_STUCK = int(Outcome.STUCK)

# --- knob order in the policy arrays (policies.Policy) -----------------------
# Derived from ``Policy`` as the rule order is from ``Rules``: every ``float``
# knob (a probability) gets a slot of ``probs``, in declaration order; every
# other knob a slot of ``ints``, in declaration order, as its integer (a bool
# as 0/1, an enum by ``code``). Two knobs are text the kernel cannot hold, so
# they are encoded through a slot of another name (KNOB_SLOTS): ``play`` as
# ``random_play`` (1: uniform over the legal cards; a play order is in the
# priority tables), and ``attack`` through ``attack_at`` (0 when there is no
# attack order; the order itself is the PRIO_ATTACK table). A new knob of any
# other type stops the import until it is given an encoding here.
NO_SLOT = ""  # KNOB_SLOTS value of a knob with no slot of its own
KNOB_SLOTS: dict[str, str] = {"play": "random_play", "attack": NO_SLOT}
SLOT_VALUES: dict[str, Any] = {
    "random_play": lambda pol: 1 if pol.play == "random" else 0,
    "attack_at": lambda pol: pol.attack_at if pol.attack else 0,
}


def knob_order(policy_cls: type = Policy) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(probability slots, integer slots) of the policy arrays, derived from the knobs of ``policy_cls``.

    Raises ``TypeError`` for a knob whose type the arrays cannot hold (text, a
    list) and that ``KNOB_SLOTS`` does not map: it would otherwise never reach
    the kernel.
    """
    probs: list[str] = []
    ints: list[str] = []
    for name, kind in policy_cls.kinds().items():
        if name in KNOB_SLOTS:
            if KNOB_SLOTS[name] != NO_SLOT:
                ints.append(KNOB_SLOTS[name])
        elif kind is float:
            probs.append(name)
        elif kind is bool or kind is int or (isinstance(kind, type) and issubclass(kind, enum.Enum)):
            ints.append(name)
        else:
            raise TypeError(
                f"policy knob {name!r} ({getattr(kind, '__name__', kind)}) has no encoding in the policy arrays: "
                "give it a slot in kernel/encode.py (KNOB_SLOTS, SLOT_VALUES)"
            )
    return tuple(probs), tuple(ints)


PROB_KNOBS, INT_KNOBS = knob_order()

NMAX = 10  # most players at a table

# --- per-game output row (int64) -------------------------------------------
(
    CARDS_PLAYED,
    PASSES,
    TURNS,
    CARDS_DRAWN,
    WINNER_POINTS,
    RESHUFFLES,
    PLUS4_PLAYED,
    BLUFFS,
    CHALLENGES,
    CHALLENGES_WON,
    UNO_FORGOTTEN,
    UNO_CAUGHT,
    MAX_STACK,
    JUMP_INS,
    SWAPS,
    ROTATIONS,
    SKIPS,
    MAX_DRAW,
) = range(len(COUNTERS))
N_COUNTERS = len(COUNTERS)
OUTCOME = N_COUNTERS  # an OUTCOME_* code
WINNER = OUTCOME + 1  # a seat, or NO_SEAT
FIRST_PLAYER = WINNER + 1  # the seat that took the first turn (a match: of its first round)
DEALER = FIRST_PLAYER + 1  # the dealer (a match: of its first round)
FIRST_TO_ONE = DEALER + 1  # the seat first left with one card by its own play, or NO_SEAT (a match: of its first round)
CARDS_LEFT = FIRST_TO_ONE + 1  # NMAX columns
ROUNDS = CARDS_LEFT + NMAX
ROUNDS_BLOCKED = ROUNDS + 1
ROUNDS_CAPPED = ROUNDS + 2
ROUNDS_STUCK = ROUNDS + 3
SCORES = ROUNDS + 4  # NMAX columns: points per seat (a round: the winner's points)
ROW_WIDTH = SCORES + NMAX

ROW_NAMES: tuple[str, ...] = (
    *COUNTERS,
    "outcome",
    "winner",
    "first_player",
    "dealer",
    "first_to_one",
    *(f"cards_left_{s}" for s in range(NMAX)),
    "rounds",
    "rounds_blocked",
    "rounds_capped",
    "rounds_stuck",
    *(f"points_{s}" for s in range(NMAX)),
)
assert len(ROW_NAMES) == ROW_WIDTH

# --- per-chunk accumulator (uint64; unocli.run.accumulate.Accumulator) -------
# The parallel kernel folds every game into its chunk's accumulator row, so a
# run needs no per-game Python work. Counts are plain uint64 words; sums and
# sums of squares are 128-bit two's-complement (lo, hi) word pairs, exact
# however many games a chunk holds; the fingerprint wraps modulo 2**64 like
# Accumulator.fingerprint.
METRICS: tuple[str, ...] = (*COUNTERS, "rounds", "rounds_blocked", "rounds_capped", "rounds_stuck")
METRIC_COLS = np.array([ROW_NAMES.index(m) for m in METRICS], dtype=np.int64)
N_METRICS = len(METRICS)
N_OUTCOMES = len(Outcome)
FOLD_BLOCK = 64  # games played before they are folded together (fold.fold_block hashes them side by side)
# A block's values below 2**27 in size sum, and square (in 32 bits), exactly in int64:
# FOLD_BLOCK squares stay under 2**63 (fold._add_column).
FOLD_SMALL = np.int64(1 << 27)
assert FOLD_BLOCK * int(FOLD_SMALL) ** 2 < 2**63
TURNS_BINS = 1001  # turns 0..999, the last bin holds 1000 and more
DRAWN_BINS = 501
STACK_BINS = 33
PENALTY_BINS = 49  # the most cards drawn at once as a penalty: 0..47, and 48 or more
A_GAMES = 0
A_FINISHED = 1
A_FIRST_PLAYER_WINS = 2
A_DEALER_WINS = 3
A_FINGERPRINT = 4
A_ONE_REACHED = 5  # finished games in which someone was left with one card by a play
A_ONE_LOST = 6  # ... and the first such seat did not win (a comeback)
A_OUTCOMES = 7  # N_OUTCOMES words
A_WINS = A_OUTCOMES + N_OUTCOMES  # NMAX words
A_PLACE_WINS = A_WINS + NMAX  # NMAX words
A_SUMS = A_PLACE_WINS + NMAX  # (lo, hi) per metric
A_SUMSQ = A_SUMS + 2 * N_METRICS  # (lo, hi) per metric
A_POINTS = A_SUMSQ + 2 * N_METRICS  # (lo, hi) per seat
A_POINTS_SQ = A_POINTS + 2 * NMAX  # (lo, hi) per seat
A_TURNS_HIST = A_POINTS_SQ + 2 * NMAX
A_DRAWN_HIST = A_TURNS_HIST + TURNS_BINS
A_STACK_HIST = A_DRAWN_HIST + DRAWN_BINS
A_PENALTY_HIST = A_STACK_HIST + STACK_BINS
ACC_WIDTH = A_PENALTY_HIST + PENALTY_BINS
# The game hash (Accumulator.fingerprint): SplitMix64's finaliser, as uint64 constants
MIX_1 = np.uint64(rng.MIX1)
MIX_2 = np.uint64(rng.MIX2)
MIX_GAMMA = np.uint64(rng.GAMMA)

# --- rule array (Rules.to_array) -------------------------------------------
R = {name: i for i, name in enumerate(RULE_FIELDS)}
R_PLAYERS = R["players"]
R_HAND_SIZE = R["hand_size"]
R_STACKING = R["stacking"]
R_SEVEN_O = R["seven_o"]
R_JUMP_IN = R["jump_in"]
R_DUP = R["draw_until_playable"]
R_NAF = R["no_action_finish"]
R_WD4 = R["wild_draw_four"]
R_CHALLENGE = R["challenge"]
R_UNO_PENALTY = R["uno_penalty"]
R_TARGET = R["target_score"]
R_MAX_TURNS = R["max_turns"]
R_MAX_ROUNDS = R["max_rounds"]
# One slot past the rule fields: a fault to inject, for tests only (kernel.FAULTS).
R_FAULT = len(RULE_FIELDS)
N_RULE_SLOTS = R_FAULT + 1
FAULT_NONE, FAULT_REVERSE_2P, FAULT_UNO_PENALTY, FAULT_PLUS4_ANYTIME, FAULT_SKIP, FAULT_STACK_COLOUR = range(6)


def code(member) -> int:
    """The integer an enum member is encoded as: its position in its enum."""
    return list(type(member)).index(member)


ST_OFF = code(Stacking.OFF)
ST_PLUS2 = code(Stacking.PLUS2)
ST_SAME = code(Stacking.SAME)
ST_PROGRESSIVE = code(Stacking.PROGRESSIVE)
ST_ANY = code(Stacking.ANY)
WD4_RESTRICTED = code(WildDrawFour.RESTRICTED)
WD4_FREE = code(WildDrawFour.FREE)

# --- policy arrays (policies.policies_to_arrays) ---------------------------
P = {name: i for i, name in enumerate(PROB_KNOBS)}
P_BLUFF = P["bluff"]
P_CHALLENGE = P["challenge"]
P_FORGET = P["forget_uno"]
P_CATCH = P["catch_uno"]
P_STACK = P["stack"]
P_JUMP = P["jump_in"]
P_PLAY_DRAWN = P["play_drawn"]

I = {name: i for i, name in enumerate(INT_KNOBS)}  # noqa: E741
I_RANDOM_PLAY = I["random_play"]
I_COLOUR = I["colour"]
I_RESPOND = I["respond"]
I_CHAL_HAND = I["challenge_if_hand"]
I_CHAL_OWN = I["challenge_if_own_colour"]
I_SWAP = I["swap_target"]
I_ATTACK_AT = I["attack_at"]
I_BLUFF_NEXT_MIN = I["bluff_next_min"]
I_BLUFF_NEXT_MAX = I["bluff_next_max"]
I_BLUFF_OWN_MIN = I["bluff_own_min"]
I_BLUFF_OWN_MAX = I["bluff_own_max"]
I_TRUST_IF_LACKED = I["trust_if_lacked"]
I_TRUST_IF_SEEN = I["trust_if_seen"]
I_STACK_FROM = I["stack_from"]
I_KEEP_DRAWS = I["keep_draws"]
I_MATCH = I["match"]
I_AIM_LACKED = I["aim_lacked"]
I_SEARCH = I["search"]
I_BUDGET = I["budget"]
I_OBJECTIVE = I["objective"]

# Enum orders (policies.ColourChoice / Respond / SwapTarget)
COL_RANDOM = code(ColourChoice.RANDOM)
COL_MOST = code(ColourChoice.MOST_HELD)
COL_NEXT_LACKS = code(ColourChoice.NEXT_LACKS)
RESP_UNIFORM = code(Respond.UNIFORM)
RESP_KNOBS = code(Respond.KNOBS)
MATCH_ANY = code(MatchPreference.ANY)
MATCH_NUMBER = code(MatchPreference.NUMBER)
SEARCH_OFF = code(SearchMode.OFF)
SEARCH_ON = code(SearchMode.ON)
SEARCH_PEEK = code(SearchMode.PEEK)
OBJ_MATCH = code(Objective.MATCH)
SW_RANDOM = code(SwapTarget.RANDOM)
SW_FEWEST = code(SwapTarget.FEWEST)
SW_MOST = code(SwapTarget.MOST)
SW_NEXT = code(SwapTarget.NEXT)

# --- the fast round's shape (plain.plain_shape, batch.new_workspace) --------
# kernel/plain.py plays a round only when the rules and every seat are in this
# shape; every other table takes the general round (step.play). It is an
# allow-list over every field of ``Rules`` and ``Policy``: a field it does not
# name stops the import, so a new rule or knob cannot reach the fast round
# before someone says which of its values that round plays. ``ANY``: every value.
ANY = None
FAST_RULES: dict[str, tuple[Any, ...] | None] = {
    "players": ANY,
    "hand_size": ANY,
    "stacking": (Stacking.OFF,),
    "seven_o": (False,),
    "jump_in": (False,),
    "draw_until_playable": (False,),
    "no_action_finish": (False,),
    "wild_draw_four": ANY,
    "challenge": ANY,
    "uno_penalty": ANY,
    "target_score": ANY,
    "max_turns": ANY,
    "max_rounds": ANY,
}
FAST_KNOBS: dict[str, tuple[Any, ...] | None] = {
    "play": ("random",),
    "attack": ANY,  # the kernel sees it only through the attack_at slot (encode_policies), restricted below
    "attack_at": (0,),
    "colour": (ColourChoice.RANDOM,),
    "bluff": (0.0,),
    "bluff_next_min": ANY,
    "bluff_next_max": ANY,
    "bluff_own_min": ANY,
    "bluff_own_max": ANY,
    "respond": (Respond.UNIFORM,),
    "challenge": ANY,
    "trust_if_lacked": ANY,
    "challenge_if_hand": ANY,
    "challenge_if_own_colour": ANY,
    "trust_if_seen": ANY,
    "forget_uno": ANY,
    "catch_uno": ANY,
    "stack": ANY,
    "stack_from": ANY,
    "keep_draws": (False,),
    "aim_lacked": (False,),
    "match": (MatchPreference.ANY,),
    "jump_in": ANY,
    "swap_target": ANY,
    "play_drawn": ANY,
    "search": (SearchMode.OFF,),
    "budget": ANY,
    "objective": ANY,
}
# The knobs of FAST_KNOBS whose values also make a seat's card choice uniform over its legal
# cards (the workspace's ``uniform`` flag, which step._turn reads in the general round too).
UNIFORM_KNOBS = frozenset({"play", "attack_at", "keep_draws", "match", "aim_lacked", "search"})


def check_shape(cls: type, allowed: dict[str, tuple[Any, ...] | None]) -> None:
    """Raise ``TypeError`` unless ``allowed`` names exactly the dataclass fields of ``cls``."""
    names = [f.name for f in dataclasses.fields(cls)]
    missing = [n for n in names if n not in allowed]
    if missing:
        raise TypeError(
            f"{cls.__name__} field(s) {', '.join(missing)} missing from the fast round's allow-list "
            "(kernel/encode.py): say which values kernel/plain.py can play"
        )
    unknown = sorted(set(allowed) - set(names))
    if unknown:
        raise TypeError(f"the fast round's allow-list names {', '.join(unknown)}, not a field of {cls.__name__}")


def _rule_code(value: Any) -> int:
    return code(value) if isinstance(value, (Stacking, WildDrawFour)) else int(value)


def _table(pairs: list[tuple[int, list[Any]]], dtype: type) -> tuple[np.ndarray, np.ndarray]:
    """(slots[k], codes[k, m]): each restricted slot and its allowed codes, a row padded by repeating its first."""
    width = max((len(c) for _, c in pairs), default=1)
    slots = np.array([s for s, _ in pairs], dtype=np.int64)
    codes = np.array([c + [c[0]] * (width - len(c)) for _, c in pairs], dtype=dtype).reshape(len(pairs), width)
    return slots, codes


def fast_round_tables(
    rules_cls: type = Rules,
    policy_cls: type = Policy,
    rules: dict[str, tuple[Any, ...] | None] = FAST_RULES,
    knobs: dict[str, tuple[Any, ...] | None] = FAST_KNOBS,
    uniform: frozenset[str] = UNIFORM_KNOBS,
) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The allow-lists as the arrays the kernel reads: slots of ``ru``, ``ints`` and ``probs``, and their allowed codes.

    Each knob's codes are read from ``encode_policies`` of a default policy with that value, so
    they are encoded exactly as a table's are. Keys: ``rules`` (with the fault slot, which must
    be FAULT_NONE), ``uniform_ints`` (the ``uniform`` flag), ``ints`` and ``probs`` (the rest).
    """
    check_shape(rules_cls, rules)
    check_shape(policy_cls, knobs)
    if not uniform <= {k for k, v in knobs.items() if v is not ANY}:
        raise TypeError("every knob that makes a seat uniform must be restricted in FAST_KNOBS")
    unencoded = [n for n, vals in rules.items() if vals is not ANY and n not in R]
    if unencoded:
        raise TypeError(f"rule field {unencoded[0]!r} has no slot in the rule array: it cannot be restricted")
    rule_pairs = [(R[n], [_rule_code(v) for v in vals]) for n, vals in rules.items() if vals is not ANY]
    rule_pairs.append((R_FAULT, [FAULT_NONE]))
    order = knob_order(policy_cls)
    prob_slot = {name: i for i, name in enumerate(order[0])}
    int_slot = {name: i for i, name in enumerate(order[1])}
    out: dict[str, list[tuple[int, list[Any]]]] = {"uniform_ints": [], "ints": [], "probs": []}
    for name, vals in knobs.items():
        if vals is ANY:
            continue
        slot_name = KNOB_SLOTS.get(name, name)
        encoded = [encode_policies((policy_cls().replace(**{name: v}),), order) for v in vals]
        if slot_name in prob_slot:
            out["probs"].append((prob_slot[slot_name], [float(e[0][0, prob_slot[slot_name]]) for e in encoded]))
        elif slot_name in int_slot:
            key = "uniform_ints" if name in uniform else "ints"
            out[key].append((int_slot[slot_name], [int(e[1][0, int_slot[slot_name]]) for e in encoded]))
        else:
            raise TypeError(f"knob {name!r} has no slot of its own in the policy arrays: it cannot be restricted")
    return {
        "rules": _table(rule_pairs, np.int64),
        "uniform_ints": _table(out["uniform_ints"], np.int64),
        "ints": _table(out["ints"], np.int64),
        "probs": _table(out["probs"], np.float64),
    }


# --- the workspace ``g``: every mutable array of a game, one NumPy record -----
# A record is one aligned buffer that numba passes by pointer: no reference
# count at any call (an earlier version paid 40% of its time in reference
# counts of a dozen arrays), and every field sits at a compile-time offset,
# so ``g.hands[seat, t]`` compiles to one load. The kernel/__init__.py
# docstring has the measurements against the flat int64 array it replaced.
# A turn's distinct legal cards are at most the 13 types of the current colour, 3 twins of the
# top card's rank and the two Wilds, each Wild with 4 colours: 13 + 3 + 8 = 24.
MAX_SEARCH_OPTIONS = 24
NO_CAP = 127  # no bound on a seat's cards of a colour (WORKSPACE ``cap``; reference search.NO_CAP)
N_PRIO_TABLES = 2  # a policy's priorities: PRIO_PLAY, and PRIO_ATTACK for when the next seat is close to out
PRIO_PLAY, PRIO_ATTACK = range(N_PRIO_TABLES)
# a seat's ``uniform`` byte (batch.new_workspace, step._turn): CHOICE_KNOBS, its card choice read from its
# knobs at every turn (primitives._choice_table); CHOICE_UNIFORM, uniform over its legal cards; CHOICE_PLAY,
# always by the PRIO_PLAY table over all of them (its knobs never attack and never filter: primitives._choice_code)
CHOICE_KNOBS, CHOICE_UNIFORM, CHOICE_PLAY = 0, 1, 2
N_INTS = len(INT_KNOBS)
# The scalar state the stuck test compares (besides hands, piles and the play stream).
(
    KEPT_CURRENT,
    KEPT_DIRECTION,
    KEPT_COLOUR,
    KEPT_TOP,
    KEPT_PILE_LEFT,
    KEPT_DISC_N,
    KEPT_PENDING,
    KEPT_TOP_PLAYER,
    KEPT_DEAD,
    KEPT_CHAIN,
    KEPT_P4_OFFENDER,
    KEPT_P4_BLUFF,
    KEPT_P4_HAND,
    KEPT_P4_COLOUR,
    KEPT_P4_SHOWN,
    KEPT_P4_LACKED,
    KEPT_P4_CHALLENGEABLE,
    KEPT_PILE_POS,  # where the live draw pile started in ``kept_pile`` (not compared: only the live cards are)
    N_KEPT,
) = range(19)
# Scalars are int64; the card tables are int8 (a count per type is at most 4,
# a card type below 54) and the hand sizes and priorities int16: small types
# keep a workspace in L1 cache and make the stuck test's copies cheap (x1.16
# rounds per CPU-second against int64 tables). Numba widens them to int64 in arithmetic.
WORKSPACE = np.dtype(
    [
        # the state of the round
        ("players", np.int64),  # players at the table
        ("direction", np.int64),  # direction of play: +1 or -1
        ("current", np.int64),  # the seat to play next
        ("colour", np.int64),  # the colour in force
        ("top", np.int64),  # the card on top of the discard pile
        ("top_player", np.int64),  # who played it (NO_SEAT for the start card)
        ("dead", np.int64),  # passes in a row without a card drawn (§11.6: the round blocks at ``players``)
        ("pending", np.int64),  # cards a pending +2/+4 stack makes its victim draw (§8)
        ("chain", np.int64),  # penalty cards in that stack
        ("pile_pos", np.int64),  # the next card of ``pile``
        ("pile_len", np.int64),  # cards in ``pile``
        ("disc_n", np.int64),  # cards in the discard pile under the top card
        ("p4_offender", np.int64),  # the last ordinary +4 (§5): its player
        ("p4_bluff", np.int64),  # 1 if it was a bluff
        ("p4_hand", np.int64),  # its player's hand size before it
        ("p4_colour", np.int64),  # the colour in force before it
        ("p4_shown", np.int64),  # 1 if its player's own last play showed that colour (§13 challenge_if_own_colour)
        ("p4_lacked", np.int64),  # 1 if its player was seen failing to match that colour (§13 trust_if_lacked)
        ("p4_challengeable", np.int64),  # 1 if its victim may challenge
        # this round's output row, and the rules (``ROW_NAMES`` and ``R_*`` order)
        ("row", np.int64, (ROW_WIDTH,)),
        ("ru", np.int64, (N_RULE_SLOTS,)),
        # the hands: counts per type, size, counts per colour (coloured cards only),
        # and the colour each seat last failed to match (§13 next_lacks) or NO_COLOUR
        ("hands", np.int8, (NMAX, N_TYPES)),
        # the types each seat holds (bit t set iff ``hands[s, t] > 0``; COLOUR_BITS, RANK_BITS), kept with
        # ``hands`` wherever a hand changes (primitives._add and _remove, the deal, a seven_o rotation and swap,
        # a search's copies and re-deal): the priority choice reads its legal types from it (primitives._best_legal)
        ("held", np.uint64, (NMAX,)),
        ("hsize", np.int16, (NMAX,)),
        # the hands bit-sliced, for kernel/plain.py only: bit t of word i is set when the seat
        # holds more than i cards of type t (a count is at most 4); a plain round keeps its
        # hands here and in ``hsize`` alone, not in ``hands`` or ``ccount``
        ("bits", np.uint64, (NMAX, 4)),
        ("ccount", np.int8, (NMAX, N_COLOURS)),
        ("lacks", np.int8, (NMAX,)),
        ("shown", np.int8, (NMAX,)),  # the colour each seat's last play showed (§13), or NO_COLOUR
        # the piles: the discard pile under the top card as counts per type, the draw pile in draw order
        ("disc", np.int8, (N_TYPES,)),
        ("pile", np.int8, (DECK_SIZE,)),
        # the options a decision chooses among (every card of a hand at most)
        ("opts", np.int8, (DECK_SIZE,)),
        # each seat's integer policy knobs (``I_*``) and priority tables
        ("ints", np.int64, (NMAX, N_INTS)),
        # CHOICE_UNIFORM where a seat's card choice is uniform over all its legal cards (``random_play`` with
        # no attack and no option filter): its turns count the options instead of listing them; CHOICE_PLAY
        # where it is always the PRIO_PLAY table's, CHOICE_KNOBS otherwise (new_workspace, primitives._choice_code);
        # int8, which made room for ``held`` under 8 KiB
        ("uniform", np.int8, (NMAX,)),
        # each seat's probability knobs (``P_*``): a field, not an argument, so the step functions
        # take one pointer less and LLVM addresses them from the record (about 2% faster)
        ("probs", np.float64, (NMAX, len(PROB_KNOBS))),
        ("prio", np.int16, (NMAX, N_PRIO_TABLES, N_TYPES)),
        # scratch for a seven_o rotation (§8): the hands as they were
        ("old_hands", np.int8, (NMAX, N_TYPES)),
        ("old_hsize", np.int16, (NMAX,)),
        ("old_ccount", np.int8, (NMAX, N_COLOURS)),
        ("old_lacks", np.int8, (NMAX,)),
        ("old_shown", np.int8, (NMAX,)),
        # the state kept for the stuck test (§11.15, Brent's method): the fields of the state
        # that can change (KEPT_* order), the hands, colour memories, discard counts, the draw
        # pile (all of it: a fixed-size copy is cheaper than the live part alone) and the play stream
        ("kept", np.int64, (N_KEPT,)),
        ("kept_hands", np.int8, (NMAX, N_TYPES)),
        ("kept_lacks", np.int8, (NMAX,)),
        ("kept_shown", np.int8, (NMAX,)),
        ("kept_disc", np.int8, (N_TYPES,)),
        ("kept_pile", np.int8, (DECK_SIZE,)),
        ("kept_rs", np.uint64, (4,)),
        ("kept_valid", np.int64),  # 0 until a state is kept
        ("brent_power", np.int64),  # decisions between kept states: 1, 2, 4, ...
        ("brent_since", np.int64),  # decisions since the state was kept
        # 1 once this round reshuffled a discard pile of a single card (primitives._refill): the one
        # move that can bring a round back to an earlier state without drawing a random number, so
        # a round played without the stuck test (step.play, ``stuck`` False) is handed back then
        ("one_card", np.int64),
        # 1 when the general round skips the stuck test on this workspace (step.quiet_rules, batch.play_batch)
        ("quiet", np.int64),
        # search players (kernel/search.py): the round being played (its search key), a colour a
        # search chose for the Wild about to be played (NO_COLOUR: the policy's colour knob
        # decides), whether any seat searches, and a decision's options with their rollout wins
        ("round_index", np.int64),
        ("force_colour", np.int64),
        ("searching", np.int64),
        ("sopt_card", np.int8, (MAX_SEARCH_OPTIONS,)),
        ("sopt_colour", np.int8, (MAX_SEARCH_OPTIONS,)),
        ("sopt_score", np.int32, (MAX_SEARCH_OPTIONS,)),  # at most 9 x 1,240 points x 100,000 rollouts
        # what the table has seen of the hands, for a search's re-deal (reference search.Seen): at
        # most ``cap[s, c]`` cards of colour c in seat s's hand (NO_CAP: no bound); seat
        # ``known_by[s]`` was shown the cards of s's hand held in ``old_hands[s]`` in a +4 challenge
        # (NO_SEAT: none; ``old_hands`` is a seven_o rotation's scratch otherwise, and a rotation
        # forgets every record, so the two uses never meet: a separate table would take the
        # workspace past 8 KiB); the last ordinary +4's player's cards after it; the hand sizes
        # before a step (search.play_search)
        ("cap", np.int8, (NMAX, N_COLOURS)),
        ("known_by", np.int8, (NMAX,)),
        ("p4_cards", np.int8, (N_TYPES,)),
        ("seen_hsize", np.int16, (NMAX,)),
        # a match's scores before the round (0 in a single round): a search's match objective (batch.play_game)
        ("mscore", np.int32, (NMAX,)),
    ],
    align=True,
)

# --- primitives._best_legal's keys
# A legal card's place in primitives._preferred's order as one integer: priority, then minus the count of its
# colour held (0 for a Wild), then the type. The tie term (32 - count, at most 32 as a colour has
# 25 cards) and the type (below 64) take 6 bits each under the priority, so the smallest key is
# _preferred's card whatever the sign of the priority.
KEY_PRIO = 1 << 12
KEY_TIE = 1 << 6
NO_KEY = np.int64(1 << 62)

# --- codes the kernel's functions return ----------------------------------------
# All negative, so that a card type or a seat (>= 0) is told from a code by its sign.
NO_CARD = -1  # no card: the piles are empty (_draw), no card to stack (_pending_decision)
NO_SEAT = -1  # no seat: no winner, nobody jumped in, the start card's player
RESPOND_ACCEPT = -1  # _respond: draw the pending penalty
RESPOND_CHALLENGE = -2  # _respond: challenge the +4 (§5)
TURN_PASSED = -1  # _turn: the turn ended without a card
TURN_BLOCKED = -2  # _turn: the pass blocked the round (§11.6)
ONE_CARD_RESHUFFLE = -2  # plain._pile_card: the draw needs a reshuffle of one card (plain_play hands the round back)
assert min(NO_CARD, NO_SEAT, RESPOND_ACCEPT, RESPOND_CHALLENGE, TURN_PASSED, TURN_BLOCKED, ONE_CARD_RESHUFFLE) < 0
assert ONE_CARD_RESHUFFLE != NO_CARD
assert RESPOND_ACCEPT != RESPOND_CHALLENGE and TURN_PASSED != TURN_BLOCKED

# how a card is played
HOW_HAND, HOW_DRAWN, HOW_STACKED, HOW_JUMP = range(4)
# a search rollout's option only (search._rollout): the response to the +4 just played, a 7's target
HOW_P4, HOW_SWAP = 4, 5

# what primitives._keep_only drops from a decision's options
DROP_DRAWS, DROP_COLOUR, DROP_OTHER_COLOURS, ONLY_COLOUR = range(4)

# what the effects of a card leave open (_effects)
RES_DONE, RES_OPEN, RES_WON, RES_BLOCKED = range(4)
# ... and a decision _effects leaves to a searching seat (search.play_search): the +4's victim's response, a 7's target
RES_ASK_P4, RES_ASK_SWAP = 4, 5


# --- encoders -----------------------------------------------------------------


def encode_rules(rules: Rules) -> np.ndarray:
    """The rule set as int64s for the kernel, in ``RULE_FIELDS`` order (enums by ``code``)."""
    out = np.zeros(len(RULE_FIELDS), dtype=np.int64)
    for i, name in enumerate(RULE_FIELDS):
        value = getattr(rules, name)
        out[i] = code(value) if isinstance(value, (Stacking, WildDrawFour)) else int(value)
    return out


def _knob_code(value: Any) -> int:
    return code(value) if isinstance(value, enum.Enum) else int(value)


def encode_policies(
    policies: tuple[Policy, ...], order: tuple[tuple[str, ...], tuple[str, ...]] = (PROB_KNOBS, INT_KNOBS)
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The policies as the kernel's arrays, in the slot ``order`` of :func:`knob_order` (the kernel's by default).

    Returns (probabilities float64[n, len(PROB_KNOBS)], integers int64[n, len(INT_KNOBS)],
    priorities int16[n, 2, 54]): an integer slot holds ``SLOT_VALUES[slot](policy)`` or
    the knob of its name (a bool as 0/1, an enum by ``code``).
    """
    prob_knobs, int_knobs = order
    n = len(policies)
    probs = np.zeros((n, len(prob_knobs)), dtype=np.float64)
    ints = np.zeros((n, len(int_knobs)), dtype=np.int64)
    prio = np.zeros((n, N_PRIO_TABLES, N_TYPES), dtype=np.int16)
    for s, pol in enumerate(policies):
        probs[s] = [getattr(pol, k) for k in prob_knobs]
        ints[s] = [SLOT_VALUES[k](pol) if k in SLOT_VALUES else _knob_code(getattr(pol, k)) for k in int_knobs]
        prio[s, PRIO_PLAY] = pol.priorities(False)
        prio[s, PRIO_ATTACK] = pol.priorities(True)
    return probs, ints, prio


# The fast round's shape as kernel constants (numba freezes the arrays); built at import, so a
# field missing from FAST_RULES or FAST_KNOBS stops it.
_FAST = fast_round_tables()
FAST_RULE_SLOTS, FAST_RULE_CODES = _FAST["rules"]
UNIFORM_INT_SLOTS, UNIFORM_INT_CODES = _FAST["uniform_ints"]
FAST_INT_SLOTS, FAST_INT_CODES = _FAST["ints"]
FAST_PROB_SLOTS, FAST_PROB_CODES = _FAST["probs"]
