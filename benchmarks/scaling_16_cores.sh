#!/usr/bin/env bash
# Issue 38's last line, on a machine with 16 cores or more: the measured speed-up at 16 workers against the
# speed-up bench_scaling.py predicts from the terms of the 1-worker run (within 15%), for the four datasets of
# the issue that take a minute or more on one worker, each at 1 and 16 workers, in one command: on a 2-core
# machine with a cold kernel cache the kernels compile in about 2 minutes (untimed) and the three take about
# 4 minutes on 1 worker, so about 7 minutes in all where 16 cores are at hand.
#
#     bash benchmarks/scaling_16_cores.sh [OUT_FOLDER]
#     DATASETS="matchups exploitability" WORKERS=1,8,16,32 bash benchmarks/scaling_16_cores.sh   # others
#
# Made for a lent machine with Python, numpy, numba, pyarrow, typer and rich but no network and no Dask:
# wheels in .whl/ (ignored by git) are installed into a folder of their own first, with no index.  Fetch
# them here, where pip reaches the registry, for the machine's Python (3.12 on the lent machines):
#
#     python3 -m pip download --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
#         --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
#         --platform manylinux1_x86_64 --platform manylinux_2_5_x86_64 -d .whl \
#         dask==2026.8.0 distributed==2026.8.0 tornado partd locket tblib zict cloudpickle toolz eval7
#
# (eval7 is the yardstick every figure is set beside.)  Where Dask is installed already, .whl/ may be absent.
# ehs-table/flop runs on its first 400 flops (-p ehs-table/flop.limit=400; all 1,755 take 7 minutes on one
# worker), exploitability (where asked) on 1,400 hands, as on the 2-core machine.  Everything printed goes to
# OUT_FOLDER/log as well, and every run's record to OUT_FOLDER/scaling.json, which
# `python benchmarks/bench_scaling.py --report OUT_FOLDER/scaling.json` reports again anywhere (with a later
# model, say), comparing against the cores of the machine that timed it.
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-$(mktemp -d)}}
mkdir -p "$out"
if compgen -G ".whl/*.whl" > /dev/null; then
  site=$(mktemp -d)
  python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$site" .whl/*.whl
  export PYTHONPATH="$site:$PWD${PYTHONPATH:+:$PYTHONPATH}"
else
  export PYTHONPATH="$PWD${PYTHONPATH:+:$PYTHONPATH}"
fi
export PYTHONUNBUFFERED=1
{
  echo "== $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores; commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
  grep -m1 "model name" /proc/cpuinfo || true
  python3 -c "import numba, numpy, pyarrow, dask; print('numba', numba.__version__, 'numpy', numpy.__version__,
              'pyarrow', pyarrow.__version__, 'dask', dask.__version__)"
  # shellcheck disable=SC2086
  python3 benchmarks/bench_scaling.py ${DATASETS:-matchups abstraction/turn ehs-table/flop} --workers "${WORKERS:-1,16}" \
    -p exploitability.hands=1400 -p ehs-table/flop.limit=400 --json "$out/scaling.json"
} 2>&1 | tee "$out/log"
