/*
 * uno.c: a speed-of-light yardstick for unocli.
 *
 * A single-file C11 engine of Uno, single rounds only, in two games: the
 * official rules (docs/rules.md sections 1-7, 9-11, no house rules) played by
 * the canonical random policy (docs/rules.md section 10); and the basic policy
 * (section 13) under the official rules or the party preset's house rules
 * (section 8; see "the basic policy" below). It is a maintainer's yardstick
 * for the numba kernel, not part of the package: it plays the same games as
 * `unocli simulate --rules official|party --policy random|basic` (same
 * statistics), but not the same random streams, so it never reproduces a
 * unocli game.
 *
 * Build:  cc -O3 -march=native -std=c11 -pthread -o uno uno.c -lm
 * Run:    ./uno GAMES [SEED [PLAYERS [THREADS]]] [--policy random|basic] [--rules official|party]
 *               [--stacking] [--seven-o] [--jump-in] [--draw-until-playable] [--no-action-finish]
 *               [--eager] [--max-turns M] [--hand-size H]
 *         e.g. ./uno 1000000 0 4 1 --policy basic --rules party
 *
 * Output: one JSON object with the aggregate statistics (sums and sums of
 * squares, so intervals can be formed) and the elapsed seconds and rounds per
 * second of the play loop alone (threads started and joined inside it), and
 * the CPU seconds of the process over the same span.
 *
 * What the random policy does under the official rules, as implemented here
 * (the basic policy and the house rules: the section of play_basic below)
 * (the Python reference engine unocli/reference/engine.py is the oracle):
 *   - play: uniform over the legal cards held, duplicates included; a Wild
 *     Draw Four is legal only without a card of the current colour; it never
 *     bluffs;
 *   - no legal card: draw one; if it is legal it is always played, else the
 *     turn is a pass (a pass that could draw nothing counts towards blocked);
 *   - colour of a Wild / Wild Draw Four (and a Wild start card): uniform;
 *   - facing a Wild Draw Four: uniform over {challenge, accept}; as it never
 *     bluffs a challenge always fails and the challenger draws 6 (else 4);
 *     either way the victim loses the turn;
 *   - Uno is always called (so no Uno penalty is ever drawn).
 *   - turns = cards played + passes; skipped players and penalty draws take
 *     no turn; cards_drawn counts every card drawn after the deal (a start
 *     Draw Two's 2 included).
 *   - a round ends won, blocked (n passes in a row that drew nothing) or
 *     capped (turns >= max_turns checked before every turn).
 *
 * The draw pile: by default it is shuffled lazily: a draw takes a uniform
 * card of the pile (one Fisher-Yates step on demand), which is the same
 * distribution as shuffling the whole deck (or the reshuffled discard pile)
 * and popping the top, but does no work for cards never drawn. --eager
 * shuffles the whole deck and every reshuffled pile up front, as unocli does.
 *
 * Randomness: xoshiro256**, seeded per game by SplitMix64 from (seed, game
 * index), so the results do not depend on the number of threads.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <math.h>

#define N_TYPES 54
#define WILD 52
#define WD4 53
#define SKIP 10
#define REVERSE 11
#define DRAW_TWO 12
#define DECK 108
#define MAX_PLAYERS 10

/* ------------------------------------------------------------ random numbers */

typedef struct { uint64_t s0, s1, s2, s3; } rng_t;
__extension__ typedef unsigned __int128 u128;

static inline uint64_t splitmix64(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t next64(rng_t *r) {
    uint64_t result = rotl(r->s1 * 5, 7) * 9;
    uint64_t t = r->s1 << 17;
    r->s2 ^= r->s0;
    r->s3 ^= r->s1;
    r->s1 ^= r->s2;
    r->s0 ^= r->s3;
    r->s2 ^= t;
    r->s3 = rotl(r->s3, 45);
    return result;
}

/* Uniform in [0, n), n small: Lemire's multiply-shift on 64 bits (bias < n / 2^64). */
static inline uint32_t below(rng_t *r, uint32_t n) {
    return (uint32_t)(((u128)next64(r) * n) >> 64);
}

static inline void seed_game(rng_t *r, uint64_t seed, uint64_t index) {
    uint64_t x = seed;
    uint64_t h = splitmix64(&x) ^ (index * 0xD1B54A32D192ED03ull);
    r->s0 = splitmix64(&h);
    r->s1 = splitmix64(&h);
    r->s2 = splitmix64(&h);
    r->s3 = splitmix64(&h);
}

/* ------------------------------------------------------------ cards

Card types as in unocli/cards.py: colour * 13 + rank for coloured cards
(ranks 0-9, 10 Skip, 11 Reverse, 12 Draw Two), 52 Wild, 53 Wild Draw Four.

A hand is a count per card type, bit-sliced into four 54-bit layers:
bit t of layer i is set when the hand holds more than i cards of type t
(L3 subset of L2 subset of L1 subset of L0). The legal cards are then a
64-bit mask, their number (duplicates included) four popcounts, and the k-th
of them one pdep + tzcnt. */

#define BIT(t) (1ull << (t))
#define WILD_BITS (BIT(WILD) | BIT(WD4))

static uint8_t DECK_TEMPLATE[DECK];
static uint8_t POINTS[N_TYPES];
static uint64_t COLOUR_MASK[4];  /* the 13 types of a colour */
static uint64_t MATCH_MASK[N_TYPES]; /* coloured top card: its colour, its rank, the Wild */

static void init_tables(void) {
    int k = 0;
    for (int c = 0; c < 4; c++)
        for (int r = 0; r < 13; r++) {
            int t = c * 13 + r;
            int copies = r == 0 ? 1 : 2;
            for (int i = 0; i < copies; i++) DECK_TEMPLATE[k++] = (uint8_t)t;
            POINTS[t] = (uint8_t)(r <= 9 ? r : 20);
            COLOUR_MASK[c] |= BIT(t);
        }
    for (int i = 0; i < 4; i++) DECK_TEMPLATE[k++] = WILD;
    for (int i = 0; i < 4; i++) DECK_TEMPLATE[k++] = WD4;
    POINTS[WILD] = POINTS[WD4] = 50;
    if (k != DECK) abort();
    for (int t = 0; t < WILD; t++) {
        MATCH_MASK[t] = COLOUR_MASK[t / 13] | BIT(WILD);
        for (int c = 0; c < 4; c++) MATCH_MASK[t] |= BIT(c * 13 + t % 13);
    }
}

#if defined(__BMI2__)
#include <immintrin.h>
static inline int select_bit(uint64_t x, int k) { return __builtin_ctzll(_pdep_u64(1ull << k, x)); }
#else
static inline int select_bit(uint64_t x, int k) {
    while (k--) x &= x - 1;
    return __builtin_ctzll(x);
}
#endif

/* ------------------------------------------------------------ one round */

enum { WON = 0, BLOCKED = 1, CAPPED = 2 };

typedef struct {
    uint32_t turns, cards_played, passes, cards_drawn, reshuffles, plus4, challenges, points;
    /* counted by the basic engine only (section 9): */
    uint32_t skips, max_stack, jump_ins, swaps, rotations, max_draw;
    int winner; /* -1 when blocked or capped */
    int first;  /* the seat that takes the first turn (after the start card) */
    int outcome;
} round_t;

typedef struct {
    uint64_t L[MAX_PLAYERS][4]; /* bit-sliced counts per type */
    int size[MAX_PLAYERS];
    int pts[MAX_PLAYERS];       /* points in hand */
    int npile, ndisc;
    uint8_t pile[DECK];         /* draw pile (top = end when eager) */
    uint8_t disc[DECK];         /* discard pile, top = last */
} table_t;

static inline void shuffle(rng_t *r, uint8_t *a, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)below(r, (uint32_t)(i + 1));
        uint8_t t = a[i]; a[i] = a[j]; a[j] = t;
    }
}

static inline void give(table_t *T, int seat, int card) {
    uint64_t *L = T->L[seat], b = BIT(card);
    L[3] |= b & L[2];
    L[2] |= b & L[1];
    L[1] |= b & L[0];
    L[0] |= b;
    T->size[seat]++;
    T->pts[seat] += POINTS[card];
}

static inline void take(table_t *T, int seat, int card) {
    uint64_t *L = T->L[seat], b = BIT(card);
    L[0] &= ~(b & ~L[1]);
    L[1] &= ~(b & ~L[2]);
    L[2] &= ~(b & ~L[3]);
    L[3] &= ~b;
    T->size[seat]--;
    T->pts[seat] -= POINTS[card];
}

/* One card off the draw pile (lazy reshuffle, section 11.5), or -1 if none. */
static inline int draw_one(table_t *T, rng_t *r, uint32_t *reshuffles, const int eager) {
    if (__builtin_expect(T->npile == 0, 0)) {
        if (T->ndisc <= 1) return -1;
        int m = T->ndisc - 1;
        memcpy(T->pile, T->disc, (size_t)m);
        T->disc[0] = T->disc[m];
        T->ndisc = 1;
        T->npile = m;
        (*reshuffles)++;
        if (eager) shuffle(r, T->pile, m);
    }
    if (eager) return T->pile[--T->npile];
    int j = (int)below(r, (uint32_t)T->npile);
    int card = T->pile[j];
    T->pile[j] = T->pile[--T->npile];
    return card;
}

/* seat draws up to k cards (what there is). */
static inline void draw_cards(table_t *T, rng_t *r, int seat, int k, round_t *R, const int eager) {
    int got = 0;
    for (; got < k; got++) {
        int card = draw_one(T, r, &R->reshuffles, eager);
        if (card < 0) break;
        give(T, seat, card);
    }
    R->cards_drawn += (uint32_t)got;
}

static inline __attribute__((always_inline)) void play_round(round_t *R, rng_t *r, int n, int hand_size,
                                                             int max_turns, const int eager) {
    table_t T;
    memset(T.L, 0, sizeof T.L);
    memset(T.size, 0, sizeof T.size);
    memset(T.pts, 0, sizeof T.pts);
    memset(R, 0, sizeof *R);
    R->winner = -1;

    /* Deal (sections 2, 11.14): seat 0 first, hand_size cards each. */
    memcpy(T.pile, DECK_TEMPLATE, DECK);
    T.npile = DECK;
    T.ndisc = 0;
    if (eager) shuffle(r, T.pile, DECK);
    for (int i = 0; i < hand_size; i++)
        for (int s = 0; s < n; s++) give(&T, s, draw_one(&T, r, &R->reshuffles, eager));

    /* Start card: a +4 goes back and the pile is reshuffled, until another
       turns up. If only +4s are left (huge hands), the +4 stays and acts as a
       Wild (unocli's ruling); with more than 4 cards left there is another. */
    int only_wd4 = T.npile <= 4;
    for (int i = 0; i < T.npile && only_wd4; i++) only_wd4 = T.pile[i] == WD4;
    int start;
    if (eager) {
        while (!only_wd4 && T.pile[T.npile - 1] == WD4) shuffle(r, T.pile, T.npile);
        start = T.pile[--T.npile];
    } else {
        int j;
        do j = (int)below(r, (uint32_t)T.npile); while (!only_wd4 && T.pile[j] == WD4);
        start = T.pile[j];
        T.pile[j] = T.pile[--T.npile];
    }
    T.disc[0] = (uint8_t)start;
    T.ndisc = 1;

    int dir = 1, cur = 0, colour;
    uint64_t match; /* types matching the top card, bar the Wild Draw Four */
    if (start >= WILD) {
        colour = (int)below(r, 4);
        match = COLOUR_MASK[colour] | BIT(WILD);
    } else {
        colour = start / 13;
        match = MATCH_MASK[start];
        int rank = start % 13;
        if (rank == DRAW_TWO) {
            draw_cards(&T, r, 0, 2, R, eager);
            cur = 1 % n;
        } else if (rank == SKIP) {
            cur = 1 % n;
        } else if (rank == REVERSE) {
            dir = -1;
            cur = n - 1; /* the dealer */
        }
    }

    R->first = cur;
    int dead = 0; /* passes in a row that drew nothing (section 11.6) */
    for (;;) {
        if (__builtin_expect((int)R->turns >= max_turns, 0)) { R->outcome = CAPPED; return; }
        const int seat = cur;
        const uint64_t *L = T.L[seat];
        /* Legal types: the match mask, plus the +4 when no card of the colour is held. */
        const uint64_t m = match | ((L[0] & COLOUR_MASK[colour]) ? 0 : BIT(WD4));
        const uint64_t x0 = L[0] & m, x1 = L[1] & m;
        const int c0 = __builtin_popcountll(x0), c1 = __builtin_popcountll(x1);
        int card;
        if (__builtin_expect(c0 > 0, 1)) {
            /* Uniform over the legal cards held, duplicates included. Only the
               Wilds can be held 3 or 4 times. */
            const uint64_t x2 = L[2] & m & WILD_BITS, x3 = L[3] & m & WILD_BITS;
            const int c2 = __builtin_popcountll(x2);
            const int total = c0 + c1 + c2 + __builtin_popcountll(x3);
            int k = (int)below(r, (uint32_t)total);
            const int in1 = k >= c0;
            uint64_t x = in1 ? x1 : x0;
            k -= in1 ? c0 : 0;
            if (__builtin_expect(in1 && k >= c1, 0)) {
                k -= c1;
                x = k < c2 ? x2 : x3;
                k -= k < c2 ? 0 : c2;
            }
            card = select_bit(x, k);
        } else {
            /* No legal card: draw one (section 3); play it if legal, else pass. */
            int d = draw_one(&T, r, &R->reshuffles, eager);
            card = -1;
            if (d >= 0) {
                give(&T, seat, d);
                R->cards_drawn++;
                /* Legal on the hand including it (section 11.3); the +4 was
                   already legal in m iff no card of the colour is held. */
                if ((m >> d) & 1) card = d;
            }
            if (card < 0) {
                R->passes++;
                R->turns++;
                dead = d >= 0 ? 0 : dead + 1;
                if (__builtin_expect(dead >= n, 0)) { R->outcome = BLOCKED; return; }
                cur = seat + dir;
                cur = cur < 0 ? cur + n : (cur >= n ? cur - n : cur);
                continue;
            }
        }

        /* Play `card` (section 4). Uno is always called: nothing to do. */
        take(&T, seat, card);
        T.disc[T.ndisc++] = (uint8_t)card;
        R->cards_played++;
        R->turns++;
        dead = 0;
        const int out = T.size[seat] == 0;
        int nxt = seat + dir;
        nxt = nxt < 0 ? nxt + n : (nxt >= n ? nxt - n : nxt);

        if (card >= WILD) {
            if (card == WD4 || !out) {
                colour = (int)below(r, 4);
                match = COLOUR_MASK[colour] | BIT(WILD);
            }
            if (card == WD4) {
                /* The victim challenges or accepts; never a bluff, so a
                   challenge costs 6 and the victim loses the turn anyway. */
                R->plus4++;
                int challenge = (int)below(r, 2) == 0;
                R->challenges += (uint32_t)challenge;
                draw_cards(&T, r, nxt, challenge ? 6 : 4, R, eager);
                if (out) { R->winner = seat; break; }
                cur = nxt + dir;
            } else {
                if (out) { R->winner = seat; break; }
                cur = nxt;
            }
        } else {
            colour = card / 13;
            match = MATCH_MASK[card];
            const int rank = card % 13;
            if (rank < SKIP) {
                if (out) { R->winner = seat; break; }
                cur = nxt;
            } else if (rank == DRAW_TWO) {
                draw_cards(&T, r, nxt, 2, R, eager);
                if (out) { R->winner = seat; break; }
                cur = nxt + dir;
            } else {
                if (out) { R->winner = seat; break; }
                if (rank == SKIP) {
                    cur = nxt + dir;
                } else { /* Reverse; with 2 players the same player plays again */
                    dir = -dir;
                    cur = n == 2 ? seat : seat + dir;
                }
            }
        }
        cur = cur < 0 ? cur + n : (cur >= n ? cur - n : cur);
    }
    /* Won (section 7): the winner scores every card left in the other hands. */
    R->outcome = WON;
    for (int s = 0; s < n; s++) R->points += (uint32_t)T.pts[s];
}

/* ------------------------------------------------------------ the basic policy, official or house rules

The `basic` preset of docs/rules.md section 13 (unocli/game/policies.py) as
unocli/reference/decisions.py decides it, with the house rules of section 8
that the `party` preset switches on (progressive stacking, 7-0, jump-in, draw
until playable, no action finish), each a compile-time flag of one source:
  - play: the first class of draw_two > skip > reverse > high (9 .. 0) > wild
    > wild_draw_four with a legal card; ties (the same rank in several
    colours) go to the colour held most, then the first colour;
  - never bluffs (bluff = 0), always calls Uno, always plays a drawn legal card;
  - colour of a Wild / Wild Draw Four (and a Wild start card): the colour held
    most after the play, ties to the first colour (red when none is held);
  - facing a +4 (or a pending penalty whose top +4 may be challenged):
    challenge with probability 1/4; as nobody bluffs, a challenge costs the
    pending penalty + 2; else stack when able (stack = 1; the card chosen by
    the play order, so a Draw Two before a +4), else accept;
  - jump-in: always, the first candidate in order of play (jump_in = 1);
  - 7: swap with the opponent holding fewest cards, the first in order of play
    from the next seat on ties.
It counts the section 9 counters skips, max_stack, jump_ins, swaps, rotations
and max_draw besides the eight the random engine counts. */

typedef struct {
    uint64_t L[4]; /* bit-sliced counts per type, as in table_t */
    int size, pts;
} hand_t;

typedef struct {
    hand_t h[MAX_PLAYERS];
    int npile, ndisc;
    uint8_t pile[DECK];
    uint8_t disc[DECK];
} btable_t;

#define RANK_MASK(rank) (BIT(rank) | BIT(13 + (rank)) | BIT(26 + (rank)) | BIT(39 + (rank)))
/* Cards that may not be a last card under no_action_finish (section 8). */
#define ACTION_WILD (RANK_MASK(SKIP) | RANK_MASK(REVERSE) | RANK_MASK(DRAW_TWO) | WILD_BITS)

static inline void hgive(hand_t *H, int card) {
    uint64_t *L = H->L, b = BIT(card);
    L[3] |= b & L[2];
    L[2] |= b & L[1];
    L[1] |= b & L[0];
    L[0] |= b;
    H->size++;
    H->pts += POINTS[card];
}

static inline void htake(hand_t *H, int card) {
    uint64_t *L = H->L, b = BIT(card);
    L[0] &= ~(b & ~L[1]);
    L[1] &= ~(b & ~L[2]);
    L[2] &= ~(b & ~L[3]);
    L[3] &= ~b;
    H->size--;
    H->pts -= POINTS[card];
}

/* Coloured cards of colour c held (a coloured type is held at most twice). */
static inline int colour_count(const hand_t *H, int c) {
    return __builtin_popcountll(H->L[0] & COLOUR_MASK[c]) + __builtin_popcountll(H->L[1] & COLOUR_MASK[c]);
}

/* colour = most_held: the colour held most, ties to the first (section 13). */
static inline int most_held(const hand_t *H) {
    int best = 0, bc = colour_count(H, 0);
    for (int c = 1; c < 4; c++) {
        int k = colour_count(H, c);
        if (k > bc) { bc = k; best = c; }
    }
    return best;
}

/* The basic play order (policies.py priority_table): class masks, first wins. */
static uint64_t CLASS_MASK[15];

static void init_classes(void) {
    int k = 0;
    CLASS_MASK[k++] = RANK_MASK(DRAW_TWO);
    CLASS_MASK[k++] = RANK_MASK(SKIP);
    CLASS_MASK[k++] = RANK_MASK(REVERSE);
    for (int v = 9; v >= 0; v--) CLASS_MASK[k++] = RANK_MASK(v);
    CLASS_MASK[k++] = BIT(WILD);
    CLASS_MASK[k++] = BIT(WD4);
}

/* The card basic plays among the legal types `legal` (non-empty): the first
   class; within it (one rank, several colours) the colour held most, then the
   first colour (decisions.py _preferred). */
static inline int choose_basic(const hand_t *H, uint64_t legal) {
    uint64_t x = 0;
    for (int i = 0; i < 15; i++)
        if ((x = legal & CLASS_MASK[i])) break;
    if (!(x & (x - 1))) return __builtin_ctzll(x);
    int best = -1, bc = -1;
    for (; x; x &= x - 1) {
        int t = __builtin_ctzll(x), k = colour_count(H, t / 13);
        if (k > bc) { bc = k; best = t; }
    }
    return best;
}

static inline int bdraw_one(btable_t *T, rng_t *r, uint32_t *reshuffles) {
    if (__builtin_expect(T->npile == 0, 0)) {
        if (T->ndisc <= 1) return -1;
        int m = T->ndisc - 1;
        memcpy(T->pile, T->disc, (size_t)m);
        T->disc[0] = T->disc[m];
        T->ndisc = 1;
        T->npile = m;
        (*reshuffles)++;
    }
    int j = (int)below(r, (uint32_t)T->npile);
    int card = T->pile[j];
    T->pile[j] = T->pile[--T->npile];
    return card;
}

/* A penalty: seat draws up to k cards (what there is); counts max_draw. */
static inline void bpenalty(btable_t *T, rng_t *r, int seat, int k, round_t *R) {
    int got = 0;
    for (; got < k; got++) {
        int card = bdraw_one(T, r, &R->reshuffles);
        if (card < 0) break;
        hgive(&T->h[seat], card);
    }
    R->cards_drawn += (uint32_t)got;
    if ((uint32_t)got > R->max_draw) R->max_draw = (uint32_t)got;
}

static inline int wrap(int s, int n) { return s < 0 ? s + n : (s >= n ? s - n : s); }

/* basic's challenge of a +4 (challenge = 0.25, respond = knobs, no informed rule on). */
static inline int basic_challenges(rng_t *r) { return below(r, 4) == 0; }

static inline __attribute__((always_inline)) void play_basic(round_t *R, rng_t *r, int n, int hand_size,
                                                             int max_turns, const int stack, const int seven_o,
                                                             const int jump_in, const int until_playable,
                                                             const int naf) {
    btable_t T;
    memset(T.h, 0, sizeof T.h);
    memset(R, 0, sizeof *R);
    R->winner = -1;

    /* Deal: a uniform card of the pile each time, as a lazy Fisher-Yates shuffle. */
    memcpy(T.pile, DECK_TEMPLATE, DECK);
    T.npile = DECK;
    T.ndisc = 0;
    for (int i = 0; i < hand_size; i++)
        for (int s = 0; s < n; s++) hgive(&T.h[s], bdraw_one(&T, r, &R->reshuffles));
    int only_wd4 = T.npile <= 4;
    for (int i = 0; i < T.npile && only_wd4; i++) only_wd4 = T.pile[i] == WD4;
    int j;
    do j = (int)below(r, (uint32_t)T.npile); while (!only_wd4 && T.pile[j] == WD4);
    const int start = T.pile[j];
    T.pile[j] = T.pile[--T.npile];
    T.disc[0] = (uint8_t)start;
    T.ndisc = 1;

    int dir = 1, cur = 0, colour;
    uint64_t match;
    if (start >= WILD) {
        colour = most_held(&T.h[0]);
        match = COLOUR_MASK[colour] | BIT(WILD);
    } else {
        colour = start / 13;
        match = MATCH_MASK[start];
        const int rank = start % 13;
        if (rank == DRAW_TWO) {
            bpenalty(&T, r, 0, 2, R);
            R->skips++;
            cur = 1 % n;
        } else if (rank == SKIP) {
            R->skips++;
            cur = 1 % n;
        } else if (rank == REVERSE) {
            dir = -1;
            cur = n - 1;
            if (n == 2) R->skips++;
        }
    }
    R->first = cur;

    int dead = 0;         /* passes in a row that drew nothing (section 11.6) */
    int pending = 0;      /* pending penalty under stacking (section 8) */
    int chain = 0;        /* +2/+4 cards in the pending chain */
    for (;;) {
        if (__builtin_expect((int)R->turns >= max_turns, 0)) { R->outcome = CAPPED; return; }
        int seat = cur, card, stacked = 0;
        hand_t *H = &T.h[seat];
        if (stack && pending) {
            /* Section 8: challenge (a +4 played normally on top), stack or accept. */
            const int top = T.disc[T.ndisc - 1];
            if (top == WD4 && chain == 1 && basic_challenges(r)) {
                R->challenges++;
                bpenalty(&T, r, seat, pending + 2, R); /* never a bluff */
                R->skips++;
                pending = chain = 0;
                cur = wrap(seat + dir, n);
                continue;
            }
            uint64_t st = 0;
            if (!(naf && H->size == 1))
                st = H->L[0] & (top == WD4 ? BIT(WD4) : (RANK_MASK(DRAW_TWO) | BIT(WD4)));
            if (!st) {
                bpenalty(&T, r, seat, pending, R);
                R->skips++;
                pending = chain = 0;
                cur = wrap(seat + dir, n);
                continue;
            }
            card = choose_basic(H, st);
            stacked = 1;
        } else {
            const uint64_t m = match | ((H->L[0] & COLOUR_MASK[colour]) ? 0 : BIT(WD4));
            const uint64_t legal = H->L[0] & m & ((naf && H->size == 1) ? ~ACTION_WILD : ~0ull);
            if (legal) {
                card = choose_basic(H, legal);
            } else {
                /* Draw (until a playable card, under draw_until_playable); a drawn
                   legal card is played (play_drawn = 1). After a draw the hand
                   holds 2 or more cards, so no_action_finish does not apply, and
                   a drawn card of the current colour ends the drawing before it
                   could change the +4's legality. */
                int drew = 0;
                card = -1;
                for (;;) {
                    const int d = bdraw_one(&T, r, &R->reshuffles);
                    if (d < 0) break;
                    hgive(H, d);
                    R->cards_drawn++;
                    drew = 1;
                    if ((m >> d) & 1) { card = d; break; }
                    if (!until_playable) break;
                }
                if (card < 0) {
                    R->passes++;
                    R->turns++;
                    dead = drew ? 0 : dead + 1;
                    if (__builtin_expect(dead >= n, 0)) { R->outcome = BLOCKED; return; }
                    cur = wrap(seat + dir, n);
                    continue;
                }
            }
        }

        /* Play `card` (section 4); a jump-in plays the top card's twin again from here. */
        for (int jumped = 0;; jumped = 1) {
            htake(H, card);
            T.disc[T.ndisc++] = (uint8_t)card;
            R->cards_played++;
            R->turns++;
            R->jump_ins += (uint32_t)jumped;
            dead = 0;
            const int out = H->size == 0;
            const int nxt = wrap(seat + dir, n);
            if (card == WD4) R->plus4++;
            if (card == WD4 || (card == WILD && !out)) {
                colour = most_held(H);
                match = COLOUR_MASK[colour] | BIT(WILD);
            } else if (card != WILD) {
                colour = card / 13;
                match = MATCH_MASK[card];
            }
            const int rank = card < WILD ? card % 13 : -1;
            const int value = card == WD4 ? 4 : (rank == DRAW_TWO ? 2 : 0);
            if (out) {
                if (value) { /* section 7: the last card's penalty still applies */
                    const int total = stacked ? pending + value : value;
                    const uint32_t ch = stacked ? (uint32_t)chain + 1 : 1;
                    if (ch > R->max_stack) R->max_stack = ch;
                    pending = chain = 0;
                    if (card == WD4 && !stacked) {
                        /* may be challenged, never a bluff: the victim draws 6 or 4; the
                           round is over, so nobody loses a turn (section 9 skips) */
                        const int c = basic_challenges(r);
                        R->challenges += (uint32_t)c;
                        bpenalty(&T, r, nxt, total + (c ? 2 : 0), R);
                    } else {
                        bpenalty(&T, r, nxt, total, R);
                    }
                }
                R->winner = seat;
                goto won;
            }
            if (stack && value) { /* left pending; no jump-in window (section 11.8) */
                pending = stacked ? pending + value : value;
                chain = stacked ? chain + 1 : 1;
                if ((uint32_t)chain > R->max_stack) R->max_stack = (uint32_t)chain;
                cur = nxt;
                break;
            }
            if (value) {
                if (R->max_stack < 1) R->max_stack = 1;
                int cost = value;
                if (card == WD4 && basic_challenges(r)) { R->challenges++; cost = 6; }
                bpenalty(&T, r, nxt, cost, R);
                R->skips++;
                cur = wrap(nxt + dir, n);
            } else if (rank == SKIP) {
                R->skips++;
                cur = wrap(nxt + dir, n);
            } else if (rank == REVERSE) {
                dir = -dir;
                if (n == 2) { R->skips++; cur = seat; }
                else cur = wrap(seat + dir, n);
            } else {
                if (seven_o && rank == 0) {
                    /* every hand passes on to the next player in the direction of play */
                    hand_t tmp[MAX_PLAYERS];
                    memcpy(tmp, T.h, sizeof(hand_t) * (size_t)n);
                    for (int s = 0; s < n; s++) T.h[s] = tmp[wrap(s - dir, n)];
                    R->rotations++;
                } else if (seven_o && rank == 7) {
                    /* swap_target = fewest: first in order of play on ties */
                    int other = nxt, fewest = T.h[nxt].size;
                    for (int k = 2; k < n; k++) {
                        const int o = ((seat + k * dir) % n + n) % n;
                        if (T.h[o].size < fewest) { fewest = T.h[o].size; other = o; }
                    }
                    hand_t tmp = T.h[seat];
                    T.h[seat] = T.h[other];
                    T.h[other] = tmp;
                    R->swaps++;
                }
                cur = wrap(seat + dir, n);
            }
            if (!jump_in || card >= WILD || (int)R->turns >= max_turns) break;
            /* Jump-in window (sections 8, 11.9, 12.6): the first other seat in
               the direction now in force holding the twin (and allowed to play
               it as a last card) jumps in (jump_in = 1). */
            int jumper = -1;
            for (int k = 1; k < n && jumper < 0; k++) {
                int o = (seat + k * dir) % n;
                o = o < 0 ? o + n : o;
                const hand_t *O = &T.h[o];
                if (!((O->L[0] >> card) & 1)) continue;
                if (naf && O->size == 1 && ((ACTION_WILD >> card) & 1)) continue;
                jumper = o;
            }
            if (jumper < 0) break;
            seat = jumper;
            H = &T.h[seat];
            stacked = 0;
        }
    }
won:
    R->outcome = WON;
    for (int s = 0; s < n; s++) R->points += (uint32_t)T.h[s].pts;
}

/* ------------------------------------------------------------ many rounds */

typedef struct {
    double sum, sumsq;
} moment_t;

#define N_METRICS 14
#define N_RANDOM_METRICS 8 /* the random engine counts the first eight */
static const char *METRIC_NAMES[N_METRICS] = {"turns",      "cards_played", "passes",        "cards_drawn",
                                              "reshuffles", "plus4_played", "challenges",    "winner_points",
                                              "skips",      "max_stack",    "jump_ins",      "swaps",
                                              "rotations",  "max_draw"};

/* Which engine a job runs: the random policy (official rules) lazy or eager,
   or basic under the official rules, the party rules, or any mix of the five
   house rules (flags read at run time). */
enum { RANDOM_LAZY, RANDOM_EAGER, BASIC_OFFICIAL, BASIC_PARTY, BASIC_MIXED };
enum { F_STACK = 1, F_SEVEN_O = 2, F_JUMP_IN = 4, F_UNTIL_PLAYABLE = 8, F_NAF = 16, F_PARTY = 31 };

typedef struct {
    /* inputs */
    uint64_t seed, first, count;
    int players, hand_size, max_turns, kind, flags;
    /* outputs */
    uint64_t sums[N_METRICS], sumsqs[N_METRICS];
    uint64_t wins[MAX_PLAYERS], blocked, capped, first_wins;
    char pad[64];
} job_t;

static __attribute__((noinline)) void play_mixed(round_t *R, rng_t *r, int n, int hand_size, int max_turns,
                                                 int flags) {
    play_basic(R, r, n, hand_size, max_turns, flags & F_STACK, flags & F_SEVEN_O, flags & F_JUMP_IN,
               flags & F_UNTIL_PLAYABLE, flags & F_NAF);
}

static inline __attribute__((always_inline)) void run_block(job_t *J, const int kind) {
    const int n = J->players, hand_size = J->hand_size, max_turns = J->max_turns;
    uint64_t s[N_METRICS] = {0}, q[N_METRICS] = {0}, wins[MAX_PLAYERS] = {0}, blocked = 0, capped = 0,
             first_wins = 0;
    for (uint64_t g = J->first; g < J->first + J->count; g++) {
        rng_t r;
        seed_game(&r, J->seed, g);
        round_t R;
        if (kind == RANDOM_LAZY) play_round(&R, &r, n, hand_size, max_turns, 0);
        else if (kind == RANDOM_EAGER) play_round(&R, &r, n, hand_size, max_turns, 1);
        else if (kind == BASIC_OFFICIAL) play_basic(&R, &r, n, hand_size, max_turns, 0, 0, 0, 0, 0);
        else if (kind == BASIC_PARTY) play_basic(&R, &r, n, hand_size, max_turns, 1, 1, 1, 1, 1);
        else play_mixed(&R, &r, n, hand_size, max_turns, J->flags);
        const uint64_t v[N_METRICS] = {R.turns,      R.cards_played, R.passes,     R.cards_drawn, R.reshuffles,
                                       R.plus4,      R.challenges,   R.points,     R.skips,       R.max_stack,
                                       R.jump_ins,   R.swaps,        R.rotations,  R.max_draw};
        const int nm = kind <= RANDOM_EAGER ? N_RANDOM_METRICS : N_METRICS;
        for (int m = 0; m < nm; m++) {
            s[m] += v[m];
            q[m] += v[m] * v[m];
        }
        if (R.outcome == WON) {
            wins[R.winner]++;
            first_wins += R.winner == R.first;
        } else if (R.outcome == BLOCKED) blocked++;
        else capped++;
    }
    memcpy(J->sums, s, sizeof s);
    memcpy(J->sumsqs, q, sizeof q);
    memcpy(J->wins, wins, sizeof wins);
    J->blocked = blocked;
    J->capped = capped;
    J->first_wins = first_wins;
}

static void *worker(void *arg) {
    job_t *J = arg;
    switch (J->kind) {
    case RANDOM_LAZY: run_block(J, RANDOM_LAZY); break;
    case RANDOM_EAGER: run_block(J, RANDOM_EAGER); break;
    case BASIC_OFFICIAL: run_block(J, BASIC_OFFICIAL); break;
    case BASIC_PARTY: run_block(J, BASIC_PARTY); break;
    default: run_block(J, BASIC_MIXED); break;
    }
    return NULL;
}

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void) {
    fprintf(stderr,
            "usage: uno GAMES [SEED [PLAYERS [THREADS]]] [--policy random|basic] [--rules official|party]\n"
            "          [--stacking] [--seven-o] [--jump-in] [--draw-until-playable] [--no-action-finish]\n"
            "          [--eager] [--max-turns M] [--hand-size H]\n"
            "  plays GAMES single rounds of Uno, PLAYERS 2-10 (default 4), on THREADS threads\n"
            "  (default 1); prints JSON statistics. The house rules (--rules party is all five;\n"
            "  --stacking is progressive) need --policy basic; --eager needs --policy random.\n");
    exit(2);
}

int main(int argc, char **argv) {
    uint64_t games = 0, seed = 0;
    int players = 4, threads = 1, eager = 0, hand_size = 7, max_turns = 10000, npos = 0, basic = 0, flags = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--eager")) eager = 1;
        else if (!strcmp(a, "--policy") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "basic")) basic = 1;
            else if (strcmp(v, "random")) usage();
        } else if (!strcmp(a, "--rules") && i + 1 < argc) {
            const char *v = argv[++i];
            if (!strcmp(v, "party")) flags |= F_PARTY;
            else if (strcmp(v, "official")) usage();
        } else if (!strcmp(a, "--stacking")) flags |= F_STACK;
        else if (!strcmp(a, "--seven-o")) flags |= F_SEVEN_O;
        else if (!strcmp(a, "--jump-in")) flags |= F_JUMP_IN;
        else if (!strcmp(a, "--draw-until-playable")) flags |= F_UNTIL_PLAYABLE;
        else if (!strcmp(a, "--no-action-finish")) flags |= F_NAF;
        else if (!strcmp(a, "--max-turns") && i + 1 < argc) max_turns = atoi(argv[++i]);
        else if (!strcmp(a, "--hand-size") && i + 1 < argc) hand_size = atoi(argv[++i]);
        else if (!strcmp(a, "-h") || !strcmp(a, "--help")) usage();
        else if (a[0] == '-') usage();
        else {
            char *end;
            unsigned long long v = strtoull(a, &end, 10);
            if (*end) usage();
            if (npos == 0) games = v;
            else if (npos == 1) seed = v;
            else if (npos == 2) players = (int)v;
            else if (npos == 3) threads = (int)v;
            else usage();
            npos++;
        }
    }
    if (npos < 1 || games == 0 || players < 2 || players > MAX_PLAYERS || threads < 1 || threads > 256 ||
        max_turns < 1 || hand_size < 1 || players * hand_size + 1 > DECK || (flags && !basic) || (eager && basic))
        usage();
    init_tables();
    init_classes();
    const int kind = !basic ? (eager ? RANDOM_EAGER : RANDOM_LAZY)
                     : flags == 0 ? BASIC_OFFICIAL
                     : flags == F_PARTY ? BASIC_PARTY
                                        : BASIC_MIXED;
    const int n_metrics = basic ? N_METRICS : N_RANDOM_METRICS;

    job_t *jobs = calloc((size_t)threads, sizeof(job_t));
    pthread_t *tids = calloc((size_t)threads, sizeof(pthread_t));
    uint64_t first = 0;
    for (int t = 0; t < threads; t++) {
        uint64_t count = games / (uint64_t)threads + ((uint64_t)t < games % (uint64_t)threads);
        jobs[t] = (job_t){.seed = seed, .first = first, .count = count, .players = players,
                          .hand_size = hand_size, .max_turns = max_turns, .kind = kind, .flags = flags};
        first += count;
    }

    const double t0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    if (threads == 1) {
        worker(&jobs[0]);
    } else {
        for (int t = 0; t < threads; t++)
            if (pthread_create(&tids[t], NULL, worker, &jobs[t])) { perror("pthread_create"); return 1; }
        for (int t = 0; t < threads; t++) pthread_join(tids[t], NULL);
    }
    const double elapsed = clock_seconds(CLOCK_MONOTONIC) - t0;
    const double cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;

    uint64_t sums[N_METRICS] = {0}, sumsqs[N_METRICS] = {0}, wins[MAX_PLAYERS] = {0}, blocked = 0, capped = 0,
             first_wins = 0;
    for (int t = 0; t < threads; t++) {
        for (int m = 0; m < N_METRICS; m++) {
            sums[m] += jobs[t].sums[m];
            sumsqs[m] += jobs[t].sumsqs[m];
        }
        for (int s = 0; s < players; s++) wins[s] += jobs[t].wins[s];
        blocked += jobs[t].blocked;
        capped += jobs[t].capped;
        first_wins += jobs[t].first_wins;
    }
    char rules[160] = "official";
    if (flags == F_PARTY) strcpy(rules, "party");
    else if (flags) {
        rules[0] = 0;
        static const char *FLAG_NAMES[5] = {"stacking", "seven_o", "jump_in", "draw_until_playable", "no_action_finish"};
        for (int f = 0; f < 5; f++)
            if (flags & (1 << f)) {
                if (rules[0]) strcat(rules, "+");
                strcat(rules, FLAG_NAMES[f]);
            }
    }

    const double g = (double)games;
    printf("{\n  \"engine\": \"uno.c\",\n  \"rules\": \"%s\",\n  \"policy\": \"%s\",\n", rules,
           basic ? "basic" : "random");
    printf("  \"rounds\": %llu,\n  \"seed\": %llu,\n  \"players\": %d,\n  \"threads\": %d,\n",
           (unsigned long long)games, (unsigned long long)seed, players, threads);
    printf("  \"shuffle\": \"%s\",\n  \"hand_size\": %d,\n  \"max_turns\": %d,\n", eager ? "eager" : "lazy",
           hand_size, max_turns);
    printf("  \"elapsed_seconds\": %.6f,\n  \"rounds_per_second\": %.1f,\n", elapsed, g / elapsed);
    printf("  \"cpu_seconds\": %.6f,\n  \"rounds_per_cpu_second\": %.1f,\n", cpu, g / cpu);
    printf("  \"metrics\": {\n");
    for (int m = 0; m < n_metrics; m++) {
        double mean = (double)sums[m] / g;
        double var = games > 1 ? ((double)sumsqs[m] - g * mean * mean) / (g - 1) : 0.0;
        if (var < 0) var = 0;
        printf("    \"%s\": {\"mean\": %.6f, \"sd\": %.6f, \"sum\": %llu, \"sumsq\": %llu}%s\n", METRIC_NAMES[m], mean,
               sqrt(var), (unsigned long long)sums[m], (unsigned long long)sumsqs[m],
               m + 1 < n_metrics ? "," : "");
    }
    printf("  },\n  \"wins\": [");
    for (int s = 0; s < players; s++) printf("%llu%s", (unsigned long long)wins[s], s + 1 < players ? ", " : "");
    printf("],\n  \"win_share\": [");
    for (int s = 0; s < players; s++) printf("%.6f%s", (double)wins[s] / g, s + 1 < players ? ", " : "");
    printf("],\n  \"first_player_wins\": %llu,\n  \"outcomes\": {\"won\": %llu, \"blocked\": %llu, \"capped\": %llu},\n",
           (unsigned long long)first_wins, (unsigned long long)(games - blocked - capped), (unsigned long long)blocked, (unsigned long long)capped);
    printf("  \"blocked_share\": %.8f,\n  \"capped_share\": %.8f\n}\n", (double)blocked / g, (double)capped / g);
    free(jobs);
    free(tids);
    return 0;
}
