/* Plain C N-queens counter: the reference the numba kernel is measured against.
 *
 * Bitmask backtracking (free squares of a row = ~(cols | ld | rd), lowest bit first),
 * the first row halved by the mirror (RULES.md section 5), the middle column of an odd
 * board handled by halving the second row instead. One thread.
 *
 * Built only by benchmarks/queens_bench.py: gcc -O3 (and -O3 -march=native) -o queens queens.c;
 * with -DLOOKAHEAD it also skips a child whose next row has no free square, as the numba
 * kernel does (same search tree, fewer calls), to show what that habit is worth in C.
 * Usage: queens N   -> prints "N count wall-seconds cpu-seconds"
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static uint64_t full;

static uint64_t complete(uint64_t cols, uint64_t ld, uint64_t rd) {
    if (cols == full) return 1;
    uint64_t total = 0;
    uint64_t free = full & ~(cols | ld | rd);
    while (free) {
        uint64_t bit = free & (0 - free);
        free ^= bit;
#ifdef LOOKAHEAD
        /* the numba kernel's habit: skip a child whose next row has no free square */
        uint64_t c = cols | bit, l = (ld | bit) << 1, r = (rd | bit) >> 1;
        if (c != full && !(full & ~(c | l | r))) continue;
        total += complete(c, l, r);
#else
        total += complete(cols | bit, (ld | bit) << 1, (rd | bit) >> 1);
#endif
    }
    return total;
}

static uint64_t count(int n) {
    full = (n == 64) ? ~0ULL : ((1ULL << n) - 1);
    uint64_t total = 0;
    for (int c = 0; c < n / 2; c++) {
        uint64_t bit = 1ULL << c;
        total += 2 * complete(bit, bit << 1, bit >> 1);
    }
    if (n % 2) {
        int m = n / 2;
        uint64_t mid = 1ULL << m;
        if (n == 1) return 1;
        /* first queen in the middle: halve the second row instead */
        uint64_t ld = mid << 1, rd = mid >> 1;
        for (int c = 0; c < m; c++) {
            uint64_t bit = 1ULL << c;
            if (bit & (mid | ld | rd)) continue;
            total += 2 * complete(mid | bit, (ld | bit) << 1, (rd | bit) >> 1);
        }
    }
    return total;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s N\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]);
    if (n < 1 || n > 30) {
        fprintf(stderr, "N must be from 1 to 30\n");
        return 2;
    }
    struct timespec t0, t1, c0, c1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c0);
    uint64_t c = count(n);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &c1);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + 1e-9 * (t1.tv_nsec - t0.tv_nsec);
    double cpu = (c1.tv_sec - c0.tv_sec) + 1e-9 * (c1.tv_nsec - c0.tv_nsec);
    printf("%d %llu %.6f %.6f\n", n, (unsigned long long)c, s, cpu);
    return 0;
}
