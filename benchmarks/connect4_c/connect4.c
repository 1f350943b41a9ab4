/* Plain C Connect Four solver: the reference the numba kernels are measured against.
 *
 * The same method as boardgames/connect4/solver.py, written for C: two uint64 bitboards
 * (the mover's discs and all discs, columns of H + 1 bits with an empty guard row on
 * top), a null-window negamax (recursive here) that plays only non-losing moves (a
 * single opponent threat is blocked, two lose), cuts on the score's static bounds, keeps
 * a lower and an upper bound and the cutting column per position in a table of uint64
 * words (key = mover + mask, times an odd constant: top bits the slot, low bits stored),
 * orders moves by the table's column then by the winning cells they make (centre first
 * on ties), shares entries between mirror images up to SYMMETRY_PLIES discs, and finds
 * the exact score by a binary search of null-window probes pulled towards 0. Scores are
 * RULES.md section 6's: ceil(W*H/2) + 1 - (the winner's discs), negative for a loss.
 *
 * Built only by benchmarks/connect4_bench.py: gcc -O3 -march=native -o connect4 connect4.c
 * Usage: connect4 [-w] [W H [MIB]] < positions   (default 7 6 64; -w: weak, the sign)
 * Reads one position a line (the columns played, 1-based digits; anything after the
 * first word is ignored) and prints "score nodes microseconds" a line, the time being
 * this solve's alone (its own clock: no process start, no table allocation). The table
 * is kept from one position to the next. A line that is not a position prints "error".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define SYMMETRY_PLIES 12
#define OFF 32
#define NO_LOWER 0
#define NO_UPPER 63
#define MULT 0x9E3779B97F4A7C15ULL

static int W = 7, H = 6, CELLS, HALF;
static uint64_t H1, BOTTOM, BOARD, COLUMN_BITS;
static uint64_t colmask[9];
static int cols[9];
static uint64_t *tt;
static int table_bits, tshift;
static uint64_t tagmask;
static uint64_t nodes;

static inline int ws(int k) { return HALF - k / 2; }

static inline uint64_t winning(uint64_t pos, uint64_t mask) {
    uint64_t r = (pos << 1) & (pos << 2) & (pos << 3);
    uint64_t steps[3] = {H1, H1 - 1, H1 + 1};
    for (int i = 0; i < 3; i++) {
        uint64_t s = steps[i];
        uint64_t p = (pos << s) & (pos << (2 * s));
        r |= p & (pos << (3 * s));
        r |= p & (pos >> s);
        p = (pos >> s) & (pos >> (2 * s));
        r |= p & (pos << s);
        r |= p & (pos >> (3 * s));
    }
    return r & (BOARD ^ mask);
}

static inline uint64_t mirror(uint64_t key) {
    uint64_t out = 0;
    for (int c = 0; c < W; c++)
        out |= ((key >> (c * H1)) & COLUMN_BITS) << ((W - 1 - c) * H1);
    return out;
}

static inline void store(uint64_t slot, uint64_t tag, int lower, int score, int col) {
    uint64_t e = tt[slot];
    int elo = NO_LOWER, ehi = NO_UPPER, ecol = 0;
    if (e != 0 && (e >> 16) == tag) {
        elo = (int)(e & 63);
        ehi = (int)((e >> 6) & 63);
        ecol = (int)((e >> 12) & 15);
    }
    if (lower) {
        if (score + OFF > elo) elo = score + OFF;
        ecol = col + 1;
    } else if (score + OFF < ehi) {
        ehi = score + OFF;
    }
    tt[slot] = (tag << 16) | ((uint64_t)ecol << 12) | ((uint64_t)ehi << 6) | (uint64_t)elo;
}

/* fail-soft null-window search against beta; the mover has no immediate win */
static int search(uint64_t cur, uint64_t mask, int n, int beta) {
    nodes++;
    uint64_t possible = (mask + BOTTOM) & BOARD;
    uint64_t opp_win = winning(cur ^ mask, mask);
    uint64_t forced = possible & opp_win;
    if (forced) {
        if (forced & (forced - 1)) return -ws(n + 1);
        possible = forced;
    }
    uint64_t nonlosing = possible & ~(opp_win >> 1);
    if (!nonlosing) return -ws(n + 1);
    if (n >= CELLS - 2) return 0;
    int lo = -ws(n + 3), hi = ws(n + 2);
    if (lo >= beta) return lo;
    if (hi < beta) return hi;
    uint64_t key = cur + mask;
    int flip = 0, symmetric = 0;
    if (n <= SYMMETRY_PLIES) {
        uint64_t mk = mirror(key);
        symmetric = mk == key;
        if (mk < key) {
            key = mk;
            flip = 1;
        }
    }
    uint64_t h = key * MULT;
    uint64_t slot = h >> tshift, tag = h & tagmask;
    uint64_t e = tt[slot];
    int ttcol = -1;
    if (e != 0 && (e >> 16) == tag) {
        int tlo = (int)(e & 63) - OFF, thi = (int)((e >> 6) & 63) - OFF;
        ttcol = (int)((e >> 12) & 15) - 1;
        if (ttcol >= 0 && flip) ttcol = W - 1 - ttcol;
        if (tlo >= beta) return tlo;
        if (thi < beta) return thi;
    }
    uint64_t moves[9];
    int mcol[9], score[9], count = 0;
    uint64_t opp = cur ^ mask;
    for (int k = 0; k < W; k++) {
        uint64_t m = nonlosing & colmask[k];
        if (!m) continue;
        int c = cols[k];
        if (symmetric && 2 * c > W - 1) continue;
        int sc = c == ttcol ? 1 << 20 : __builtin_popcountll(winning(cur | m, mask | m));
        if (n + 1 > SYMMETRY_PLIES) __builtin_prefetch(&tt[((opp + (mask | m)) * MULT) >> tshift]);
        int j = count;
        while (j > 0 && score[j - 1] < sc) {
            moves[j] = moves[j - 1];
            mcol[j] = mcol[j - 1];
            score[j] = score[j - 1];
            j--;
        }
        moves[j] = m;
        mcol[j] = c;
        score[j] = sc;
        count++;
    }
    int best = -(1 << 20);
    for (int i = 0; i < count; i++) {
        int v = -search(opp, mask | moves[i], n + 1, 1 - beta);
        if (v >= beta) {
            store(slot, tag, 1, v, flip ? W - 1 - mcol[i] : mcol[i]);
            return v;
        }
        if (v > best) best = v;
    }
    store(slot, tag, 0, best, -1);
    return best;
}

static int solve(uint64_t cur, uint64_t mask, int n, int weak) {
    if (winning(cur, mask) & ((mask + BOTTOM) & BOARD)) return weak ? 1 : ws(n);
    int lo = -ws(n + 1), hi = ws(n + 2);
    if (weak) {
        if (lo < -1) lo = -1;
        if (hi > 1) hi = 1;
    }
    while (lo < hi) {
        int med = lo + (hi - lo) / 2;  /* hi > lo: the same as floor */
        if (med <= 0 && lo / 2 < med) med = lo / 2;
        else if (med >= 0 && hi / 2 > med) med = hi / 2;
        int r = search(cur, mask, n, med + 1);
        if (r <= med) hi = r;
        else lo = r;
    }
    if (weak) return lo > 0 ? 1 : (lo < 0 ? -1 : 0);
    return lo;
}

/* the position after the columns of text; 0 when it is not one (or the game is over) */
static int parse(const char *text, uint64_t *cur, uint64_t *mask, int *n) {
    *cur = *mask = 0;
    *n = 0;
    for (const char *p = text; *p && *p != ' ' && *p != '\n' && *p != '\r'; p++) {
        int c = *p - '1';
        if (c < 0 || c >= W) return 0;
        uint64_t top = (uint64_t)1 << (c * H1 + H - 1);
        if (*mask & top) return 0;
        uint64_t cell = (*mask + ((uint64_t)1 << (c * H1))) & ~*mask;
        if (winning(*cur, *mask) & cell) return 0;
        *cur ^= *mask;
        *mask |= cell;
        (*n)++;
    }
    return *n < CELLS;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv) {
    int weak = 0, arg = 1;
    double mib = 64;
    if (arg < argc && strcmp(argv[arg], "-w") == 0) weak = 1, arg++;
    if (arg + 1 < argc) W = atoi(argv[arg]), H = atoi(argv[arg + 1]), arg += 2;
    if (arg < argc) mib = atof(argv[arg]);
    if (W < 4 || W > 9 || H < 4 || H > 9 || W * (H + 1) > 64) {
        fprintf(stderr, "bad board %d x %d\n", W, H);
        return 2;
    }
    CELLS = W * H;
    HALF = (CELLS + 1) / 2;
    H1 = H + 1;
    BOTTOM = 0;
    for (int c = 0; c < W; c++) BOTTOM |= (uint64_t)1 << (c * H1);
    BOARD = BOTTOM * (((uint64_t)1 << H) - 1);
    COLUMN_BITS = ((uint64_t)1 << H1) - 1;
    for (int k = 0; k < W; k++) { /* centre first, the right one of a pair first */
        int best = -1;
        for (int c = 0; c < W; c++) {
            int used = 0;
            for (int j = 0; j < k; j++) used |= cols[j] == c;
            if (used) continue;
            if (best < 0 || abs(2 * c - (W - 1)) < abs(2 * best - (W - 1)) ||
                (abs(2 * c - (W - 1)) == abs(2 * best - (W - 1)) && c > best))
                best = c;
        }
        cols[k] = best;
        colmask[k] = ((((uint64_t)1 << H) - 1)) << (best * H1);
    }
    uint64_t entries = (uint64_t)(mib * 1048576.0) / 8;
    table_bits = 16;
    while (((uint64_t)1 << (table_bits + 1)) <= entries) table_bits++;
    tshift = 64 - table_bits;
    tagmask = ((uint64_t)1 << tshift) - 1;
    tt = malloc(((size_t)1 << table_bits) * sizeof(uint64_t));
    if (!tt) {
        fprintf(stderr, "no memory for the table\n");
        return 1;
    }
    /* every page written before any solve, so that none is first touched inside a timed
     * one (a plain memset of 0 after malloc may be turned into a lazy calloc) */
    for (size_t i = 0; i < ((size_t)1 << table_bits); i++) ((volatile uint64_t *)tt)[i] = 0;
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        uint64_t cur, mask;
        int n;
        if (!parse(line, &cur, &mask, &n)) {
            printf("error\n");
            continue;
        }
        uint64_t before = nodes;
        double t = now();
        int s = solve(cur, mask, n, weak);
        double us = (now() - t) * 1e6;
        printf("%d %llu %.3f\n", s, (unsigned long long)(nodes - before), us);
    }
    return 0;
}
