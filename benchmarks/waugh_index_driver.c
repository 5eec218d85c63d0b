/* A driver of Kevin Waugh's hand-isomorphism C library for benchmarks/bench_waugh.py (pokerpipe's own code;
 * the library is the user's: compile this file against its src/ and pass the executable's path with
 * --waugh-driver).
 *
 *   waugh_index_driver CARDS_PER_ROUND...    e.g. 2 5
 *
 * reads hands from stdin (each the rounds' card ids as bytes, 4 * rank + suit), writes every round's
 * hand_index_all as int64 little-endian to stdout, and the CPU seconds of the indexing loop alone (clock())
 * to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "hand_index.h"

int main(int argc, char **argv) {
  uint8_t cards_per_round[MAX_ROUNDS];
  int rounds = argc - 1, total = 0;
  if (rounds < 1 || rounds > MAX_ROUNDS) return 2;
  for (int i = 0; i < rounds; ++i) total += cards_per_round[i] = (uint8_t)atoi(argv[i + 1]);
  hand_indexer_t indexer;
  if (!hand_indexer_init(rounds, cards_per_round, &indexer)) return 2;
  size_t cap = 1 << 20, n = 0;
  uint8_t *hands = malloc(cap * total);
  while (hands && fread(hands + n * total, total, 1, stdin) == 1) {
    if (++n == cap) hands = realloc(hands, (cap *= 2) * total);
  }
  hand_index_t *out = malloc((n + 1) * rounds * sizeof(hand_index_t));
  if (!hands || !out) return 3;
  clock_t start = clock();
  for (size_t i = 0; i < n; ++i) hand_index_all(&indexer, hands + i * total, out + i * rounds);
  double seconds = (double)(clock() - start) / CLOCKS_PER_SEC;
  fwrite(out, sizeof(hand_index_t), n * rounds, stdout);
  fprintf(stderr, "%.6f\n", seconds);
  return 0;
}
