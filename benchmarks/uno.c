/*
 * uno.c: a speed-of-light yardstick for unocli.
 *
 * A single-file C11 engine of the official Uno rules (RULES.md sections
 * 1-7, 9-11, no house rules) played by the canonical random policy (RULES.md
 * section 10), single rounds only. It is a maintainer's yardstick for the
 * numba kernel, not part of the package: it plays the same game as
 * `unocli simulate --rules official --policy random` (same statistics), but
 * not the same random streams, so it never reproduces a unocli game.
 *
 * Build:  cc -O3 -march=native -std=c11 -pthread -o uno uno.c -lm
 * Run:    ./uno GAMES [SEED [PLAYERS [THREADS]]] [--eager] [--max-turns M] [--hand-size H]
 *         e.g. ./uno 1000000 0 4 1
 *
 * Output: one JSON object with the aggregate statistics (sums and sums of
 * squares, so intervals can be formed) and the elapsed seconds and rounds per
 * second of the play loop alone (threads started and joined inside it), and
 * the CPU seconds of the process over the same span.
 *
 * What the random policy does under the official rules, as implemented here
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
    int winner; /* -1 when blocked or capped */
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

/* ------------------------------------------------------------ many rounds */

typedef struct {
    double sum, sumsq;
} moment_t;

#define N_METRICS 8
static const char *METRIC_NAMES[N_METRICS] = {"turns",      "cards_played", "passes",      "cards_drawn",
                                              "reshuffles", "plus4_played", "challenges",  "winner_points"};

typedef struct {
    /* inputs */
    uint64_t seed, first, count;
    int players, hand_size, max_turns, eager;
    /* outputs */
    uint64_t sums[N_METRICS], sumsqs[N_METRICS];
    uint64_t wins[MAX_PLAYERS], blocked, capped;
    char pad[64];
} job_t;

static void run_block(job_t *J, const int eager) {
    const int n = J->players, hand_size = J->hand_size, max_turns = J->max_turns;
    uint64_t s[N_METRICS] = {0}, q[N_METRICS] = {0}, wins[MAX_PLAYERS] = {0}, blocked = 0, capped = 0;
    for (uint64_t g = J->first; g < J->first + J->count; g++) {
        rng_t r;
        seed_game(&r, J->seed, g);
        round_t R;
        play_round(&R, &r, n, hand_size, max_turns, eager);
        const uint64_t v[N_METRICS] = {R.turns,      R.cards_played, R.passes,     R.cards_drawn,
                                       R.reshuffles, R.plus4,        R.challenges, R.points};
        for (int m = 0; m < N_METRICS; m++) {
            s[m] += v[m];
            q[m] += v[m] * v[m];
        }
        if (R.outcome == WON) wins[R.winner]++;
        else if (R.outcome == BLOCKED) blocked++;
        else capped++;
    }
    memcpy(J->sums, s, sizeof s);
    memcpy(J->sumsqs, q, sizeof q);
    memcpy(J->wins, wins, sizeof wins);
    J->blocked = blocked;
    J->capped = capped;
}

static void *worker(void *arg) {
    job_t *J = arg;
    if (J->eager) run_block(J, 1);
    else run_block(J, 0);
    return NULL;
}

static double clock_seconds(clockid_t id) {
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void usage(void) {
    fprintf(stderr,
            "usage: uno GAMES [SEED [PLAYERS [THREADS]]] [--eager] [--max-turns M] [--hand-size H]\n"
            "  plays GAMES single rounds of official Uno (random policy), PLAYERS 2-10\n"
            "  (default 4), on THREADS threads (default 1); prints JSON statistics.\n");
    exit(2);
}

int main(int argc, char **argv) {
    uint64_t games = 0, seed = 0;
    int players = 4, threads = 1, eager = 0, hand_size = 7, max_turns = 10000, npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--eager")) eager = 1;
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
        max_turns < 1 || hand_size < 1 || players * hand_size + 1 > DECK)
        usage();
    init_tables();

    job_t *jobs = calloc((size_t)threads, sizeof(job_t));
    pthread_t *tids = calloc((size_t)threads, sizeof(pthread_t));
    uint64_t first = 0;
    for (int t = 0; t < threads; t++) {
        uint64_t count = games / (uint64_t)threads + ((uint64_t)t < games % (uint64_t)threads);
        jobs[t] = (job_t){.seed = seed, .first = first, .count = count, .players = players,
                          .hand_size = hand_size, .max_turns = max_turns, .eager = eager};
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

    uint64_t sums[N_METRICS] = {0}, sumsqs[N_METRICS] = {0}, wins[MAX_PLAYERS] = {0}, blocked = 0, capped = 0;
    for (int t = 0; t < threads; t++) {
        for (int m = 0; m < N_METRICS; m++) {
            sums[m] += jobs[t].sums[m];
            sumsqs[m] += jobs[t].sumsqs[m];
        }
        for (int s = 0; s < players; s++) wins[s] += jobs[t].wins[s];
        blocked += jobs[t].blocked;
        capped += jobs[t].capped;
    }

    const double g = (double)games;
    printf("{\n  \"engine\": \"uno.c\",\n  \"rules\": \"official\",\n  \"policy\": \"random\",\n");
    printf("  \"rounds\": %llu,\n  \"seed\": %llu,\n  \"players\": %d,\n  \"threads\": %d,\n",
           (unsigned long long)games, (unsigned long long)seed, players, threads);
    printf("  \"shuffle\": \"%s\",\n  \"hand_size\": %d,\n  \"max_turns\": %d,\n", eager ? "eager" : "lazy",
           hand_size, max_turns);
    printf("  \"elapsed_seconds\": %.6f,\n  \"rounds_per_second\": %.1f,\n", elapsed, g / elapsed);
    printf("  \"cpu_seconds\": %.6f,\n  \"rounds_per_cpu_second\": %.1f,\n", cpu, g / cpu);
    printf("  \"metrics\": {\n");
    for (int m = 0; m < N_METRICS; m++) {
        double mean = (double)sums[m] / g;
        double var = games > 1 ? ((double)sumsqs[m] - g * mean * mean) / (g - 1) : 0.0;
        if (var < 0) var = 0;
        printf("    \"%s\": {\"mean\": %.6f, \"sd\": %.6f, \"sum\": %llu, \"sumsq\": %llu}%s\n", METRIC_NAMES[m], mean,
               sqrt(var), (unsigned long long)sums[m], (unsigned long long)sumsqs[m],
               m + 1 < N_METRICS ? "," : "");
    }
    printf("  },\n  \"wins\": [");
    for (int s = 0; s < players; s++) printf("%llu%s", (unsigned long long)wins[s], s + 1 < players ? ", " : "");
    printf("],\n  \"win_share\": [");
    for (int s = 0; s < players; s++) printf("%.6f%s", (double)wins[s] / g, s + 1 < players ? ", " : "");
    printf("],\n  \"outcomes\": {\"won\": %llu, \"blocked\": %llu, \"capped\": %llu},\n",
           (unsigned long long)(games - blocked - capped), (unsigned long long)blocked, (unsigned long long)capped);
    printf("  \"blocked_share\": %.8f,\n  \"capped_share\": %.8f\n}\n", (double)blocked / g, (double)capped / g);
    free(jobs);
    free(tids);
    return 0;
}
