#!/usr/bin/env bash
# build_phevaluator.sh SRC OUT -- build the PHEvaluator 4-card Omaha peer benchmark.
#
# What it builds: $OUT/omaha_bench, i.e. omaha_bench.c (next to this script)
# linked against the C sources of PHEvaluator (github.com/HenryRLee/PokerHandEvaluator)
# that 4-card Omaha evaluation needs -- the same files as its CMake target
# `phevalplo4`, minus the C++ wrapper and rank-description sources:
#     evaluator_plo4.c  hash.c  dptables.c  tables_bitwise.c  hashtable.c  tables_plo4.c
#
# SRC may be the repository root (uses SRC/cpp/src), its cpp/ folder (SRC/src), or
# the root of the PyPI sdist phevaluator-X.Y.Z (SRC/_pheval_csrc/src, same files).
# cpp/src/tables_plo4.c is a 94 MB generated table file; some git mirrors omit it.
# The PyPI sdist carries a byte-identical copy (phevaluator 0.6.0 == commit
# 328fbeb5, git blob 907a598b6b40b8c017c81b75a84af63739d2a464), obtainable with
#     pip download phevaluator==0.6.0 --no-binary :all: --no-deps
#
# Flags: code files with ${CC:-cc} -O3 -march=native; tables_plo4.c (pure const
# data, no code) with -O1 -march=native since the level cannot change its contents.
# Objects are compiled one at a time (one core).
# Time: about 1 min (54 s measured with gcc 12.2 on a 2-core machine), nearly all
# of it tables_plo4.c (~2 GB peak memory); the other files take a few seconds.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 PHEVALUATOR_SRC OUT_DIR" >&2
  exit 2
fi
SRC=$1
OUT=$2
HERE=$(cd "$(dirname "$0")" && pwd)
CC=${CC:-cc}
CFLAGS=${CFLAGS:-"-O3 -march=native"}
TABLE_CFLAGS=${TABLE_CFLAGS:-"-O1 -march=native"}

for d in "$SRC/cpp/src" "$SRC/src" "$SRC/_pheval_csrc/src"; do
  if [ -f "$d/evaluator_plo4.c" ]; then S=$d; break; fi
done
if [ -z "${S:-}" ]; then
  echo "no evaluator_plo4.c under $SRC/{cpp/src,src,_pheval_csrc/src}" >&2
  exit 1
fi
if [ ! -s "$S/tables_plo4.c" ]; then
  echo "$S/tables_plo4.c is missing or empty; take it from the PyPI sdist (see header)" >&2
  exit 1
fi

mkdir -p "$OUT/obj"
if command -v git >/dev/null; then
  echo "tables_plo4.c git blob: $(git hash-object "$S/tables_plo4.c")"
fi

start=$(date +%s)
for f in evaluator_plo4 hash dptables tables_bitwise hashtable; do
  echo "cc $CFLAGS $f.c"
  $CC $CFLAGS -c "$S/$f.c" -o "$OUT/obj/$f.o"
done
echo "cc $TABLE_CFLAGS tables_plo4.c (slow)"
$CC $TABLE_CFLAGS -c "$S/tables_plo4.c" -o "$OUT/obj/tables_plo4.o"
echo "cc $CFLAGS omaha_bench.c"
$CC $CFLAGS -c "$HERE/omaha_bench.c" -o "$OUT/obj/omaha_bench.o"
$CC $CFLAGS "$OUT"/obj/*.o -o "$OUT/omaha_bench"
echo "built $OUT/omaha_bench in $(( $(date +%s) - start )) s"
