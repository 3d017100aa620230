"""How rules, policies and results are encoded in the kernel's arrays.

Everything the kernel compiles in as a constant is defined or derived here:
the layout of the per-game output row, the order of the rule fields and policy
knobs in their arrays, the integer code of every enum member, and the regions
of the packed workspace. ``encode_rules`` and ``encode_policies`` build the
arrays from the frozen dataclasses.

Plain Python integers: numba freezes module globals as compile-time
constants, so indexing by these names costs nothing. Because they are frozen
into the compiled code, the kernel's disk cache is stamped with every module
this one imports (see ``_cache.py``): change a field order and the stale
kernel is not loaded.
"""

from __future__ import annotations

import numpy as np

from unocli.game.cards import N_TYPES
from unocli.game.counters import COUNTERS
from unocli.game.policies import ColourChoice, Policy, Respond, SwapTarget
from unocli.game.rules import RULE_FIELDS, Rules, Stacking, WildDrawFour

# Knob order in the policy arrays.
PROB_KNOBS = ("bluff", "challenge", "forget_uno", "catch_uno", "stack", "jump_in", "play_drawn")
INT_KNOBS = ("random_play", "colour", "respond", "challenge_if_hand", "challenge_if_own_colour", "swap_target", "attack_at")

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
) = range(len(COUNTERS))
OUTCOME = 16
WINNER = 17
CARDS_LEFT = 18  # NMAX columns
ROUNDS = CARDS_LEFT + NMAX  # 28
ROUNDS_BLOCKED = ROUNDS + 1
ROUNDS_CAPPED = ROUNDS + 2
SCORES = ROUNDS + 3  # NMAX columns: points per seat (a round: the winner's points)
ROW_WIDTH = SCORES + NMAX  # 41

ROW_NAMES: tuple[str, ...] = (
    *COUNTERS,
    "outcome",
    "winner",
    *(f"cards_left_{s}" for s in range(NMAX)),
    "rounds",
    "rounds_blocked",
    "rounds_capped",
    *(f"points_{s}" for s in range(NMAX)),
)
assert len(ROW_NAMES) == ROW_WIDTH

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

# Enum orders (policies.ColourChoice / Respond / SwapTarget)
COL_RANDOM = code(ColourChoice.RANDOM)
COL_MOST = code(ColourChoice.MOST_HELD)
COL_NEXT_LACKS = code(ColourChoice.NEXT_LACKS)
RESP_UNIFORM = code(Respond.UNIFORM)
RESP_KNOBS = code(Respond.KNOBS)
SW_RANDOM = code(SwapTarget.RANDOM)
SW_FEWEST = code(SwapTarget.FEWEST)
SW_MOST = code(SwapTarget.MOST)
SW_NEXT = code(SwapTarget.NEXT)

# --- game state scalars (int64 array) --------------------------------------
(
    S_N,
    S_DIR,
    S_CUR,
    S_COLOUR,
    S_TOP,
    S_TOP_PLAYER,
    S_DEAD,
    S_PENDING,
    S_CHAIN,
    S_PILE_POS,
    S_PILE_LEN,
    S_DISC_N,
    S_P4_OFFENDER,
    S_P4_BLUFF,
    S_P4_HAND,
    S_P4_UNDER,
    S_P4_CHALLENGEABLE,
) = range(17)
N_STATE = 17

# --- the packed workspace ``g`` (int64): every mutable array of a game ------
# One array keeps numba from reference-counting a dozen arrays at every call.
_regions = [
    ("G_ST", N_STATE),
    ("G_ROW", ROW_WIDTH),
    ("G_RU", len(RULE_FIELDS) + 1),
    ("G_HSIZE", NMAX),
    ("G_CCOUNT", NMAX * 4),  # seat * 4 + colour
    ("G_LACKS", NMAX),
    ("G_DISC", 54),
    ("G_PILE", 108),
    ("G_OPTS", 108),
    ("G_INTS", NMAX * len(INT_KNOBS)),  # seat * N_INTS + knob
    ("G_HANDS", NMAX * 54),  # seat * 54 + type
    ("G_TMP", NMAX * 58),
    ("G_PRIO", NMAX * 2 * 54),  # (seat * 2 + table) * 54 + type
]
_offset = 0
for _name, _size in _regions:
    globals()[_name] = _offset
    _offset += _size
G_SIZE = _offset
N_INTS = len(INT_KNOBS)
G_ST: int
G_ROW: int
G_RU: int
G_HSIZE: int
G_CCOUNT: int
G_LACKS: int
G_DISC: int
G_PILE: int
G_OPTS: int
G_INTS: int
G_HANDS: int
G_TMP: int
G_PRIO: int

# how a card is played
HOW_HAND, HOW_DRAWN, HOW_STACKED, HOW_JUMP = range(4)

# step results
RES_DONE, RES_OPEN, RES_WON, RES_BLOCKED = range(4)


# --- encoders -----------------------------------------------------------------


def encode_rules(rules: Rules) -> np.ndarray:
    """The rule set as int64s for the kernel, in ``RULE_FIELDS`` order (enums by ``code``)."""
    out = np.zeros(len(RULE_FIELDS), dtype=np.int64)
    for i, name in enumerate(RULE_FIELDS):
        value = getattr(rules, name)
        out[i] = code(value) if isinstance(value, (Stacking, WildDrawFour)) else int(value)
    return out


def encode_policies(policies: tuple[Policy, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(probabilities float64[n, 7], integers int64[n, 7], priorities int16[n, 2, 54]) for the kernel."""
    n = len(policies)
    probs = np.zeros((n, len(PROB_KNOBS)), dtype=np.float64)
    ints = np.zeros((n, len(INT_KNOBS)), dtype=np.int64)
    prio = np.zeros((n, 2, N_TYPES), dtype=np.int16)
    for s, pol in enumerate(policies):
        probs[s] = [getattr(pol, k) for k in PROB_KNOBS]
        ints[s] = [
            1 if pol.play == "random" else 0,
            code(pol.colour),
            code(pol.respond),
            pol.challenge_if_hand,
            int(pol.challenge_if_own_colour),
            code(pol.swap_target),
            pol.attack_at if pol.attack else 0,
        ]
        prio[s, 0] = pol.priorities(False)
        prio[s, 1] = pol.priorities(True)
    return probs, ints, prio
