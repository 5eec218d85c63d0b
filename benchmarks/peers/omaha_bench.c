/*
 * omaha_bench.c -- benchmark driver for PHEvaluator's 4-card Omaha evaluator
 * (HenryRLee/PokerHandEvaluator, evaluate_omaha_cards), a peer for
 * pokerpipe's pipeline.omaha.evaluate_omaha.  Built by build_phevaluator.sh.
 *
 * Usage: omaha_bench DEALS.bin [VALUES.bin [REPEATS]]
 *   DEALS.bin   N deals of 9 little-endian int32 card ids each: 5 board cards
 *               then 4 hole cards.  Card id = 4*rank + suit, rank 0..12 for
 *               2..A, suit 0..3 for c,d,h,s -- the same convention PHEvaluator
 *               uses (docs/cpp/card_id.rst), so no conversion is needed.
 *   VALUES.bin  optional: N int32 PHEvaluator ranks, 1 (royal flush) ..
 *               7462 (worst high card); lower is better.
 *   REPEATS     timed passes over all deals (default 3); best one is reported.
 *
 * Prints N, the best rate in hands/second and a checksum (sum of values) so
 * the evaluation loop cannot be optimised away.  Single-threaded.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* From PHEvaluator's include/phevaluator/phevaluator.h (C API). */
int evaluate_omaha_cards(int c1, int c2, int c3, int c4, int c5, int h1, int h2,
                         int h3, int h4);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s DEALS.bin [VALUES.bin [REPEATS]]\n", argv[0]);
    return 2;
  }
  int repeats = argc > 3 ? atoi(argv[3]) : 3;
  if (repeats < 1) repeats = 1;

  /* Read the whole deals file (assumes a little-endian host, e.g. x86-64). */
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  fseek(f, 0, SEEK_END);
  long bytes = ftell(f);
  fseek(f, 0, SEEK_SET);
  size_t n = (size_t)bytes / (9 * sizeof(int32_t));
  int32_t *cards = malloc(n * 9 * sizeof(int32_t));
  int32_t *vals = malloc(n * sizeof(int32_t));
  if (!cards || !vals || fread(cards, sizeof(int32_t), n * 9, f) != n * 9) {
    fprintf(stderr, "cannot read %zu deals from %s\n", n, argv[1]);
    return 1;
  }
  fclose(f);
  for (size_t i = 0; i < n * 9; i++)
    if (cards[i] < 0 || cards[i] > 51) {
      fprintf(stderr, "bad card id %d at %zu\n", cards[i], i);
      return 1;
    }

  double best = 1e300;
  int64_t checksum = 0;
  for (int r = 0; r < repeats; r++) {
    double t0 = now();
    for (size_t i = 0; i < n; i++) {
      const int32_t *c = cards + 9 * i;
      vals[i] = evaluate_omaha_cards(c[0], c[1], c[2], c[3], c[4],  /* board */
                                     c[5], c[6], c[7], c[8]);       /* hole  */
    }
    double dt = now() - t0;
    if (dt < best) best = dt;
    int64_t s = 0; /* summing after each pass keeps every pass observable */
    for (size_t i = 0; i < n; i++) s += vals[i];
    checksum = s;
  }

  printf("deals %zu\n", n);
  printf("best_seconds %.6f\n", best);
  printf("hands_per_second %.0f\n", n / best);
  printf("Mhands_per_second %.3f\n", n / best / 1e6);
  printf("checksum %lld\n", (long long)checksum);

  if (argc > 2) {
    FILE *o = fopen(argv[2], "wb");
    if (!o || fwrite(vals, sizeof(int32_t), n, o) != n) { perror(argv[2]); return 1; }
    fclose(o);
  }
  free(cards);
  free(vals);
  return 0;
}
