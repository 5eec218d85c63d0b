"""Where a dataset's time goes as workers are added, term by term, and what that predicts for 16 to 256 workers.

    python benchmarks/bench_scaling.py [DATASET ...] [--workers 1,2,4,8] [-p NAME.KEY=VALUE ...]
                                       [--predict 16,64,256] [--out DIR] [--scheduler ADDRESS] [--json FILE]
    python benchmarks/bench_scaling.py --report FILE [--predict 16,64,256]

Default datasets: ``matchups ehs-table/flop abstraction/turn exploitability``.  For each dataset its
inputs are built first (untimed) and its kernels compiled; then, for each worker count, the dataset is
rebuilt from nothing (``force``) by a fresh process, as ``pokerpipe tables DATASET --workers N --quiet``
would (its local cluster's fork server started first thing, before the process's own imports, as the command
line starts it: :mod:`jobs.launch`), and the run's own record
(:mod:`pipeline.batch.trace`) gives:

* wall seconds; CPU seconds of the client process (it also runs the local scheduler and the nannies), of the
  workers, and of the whole process tree;
* each worker's start: from its process's spawn to ready for its first part (wall), and the CPU it used
  until then (its imports, and :meth:`~pipeline.batch.spec.Dataset.prepare`);
* the client's serial seconds before the first task is sent (reading inputs, listing partitions, checking
  what is kept: the cluster's own start is counted apart) and after the last part comes back (side
  outputs, manifest);
* the tasks (a part, or a piece of one) and their cost: thread CPU seconds, min / median / max;
* idle worker-seconds at the tail (each worker from its last task to the end of the last), bytes written,
  peak memory per worker;
* whether the part files' SHA-256 equal those of the first run (the bytes must not depend on the workers).

Then the model (:mod:`scaling_model`, whose docstring gives it whole), printed with its terms: the
client's serial seconds, the cluster's start, the workers' preparation and the makespan of the measured tasks
on ``w`` workers, as the local pool would hand them out.  Worker counts above this machine's cores run
oversubscribed: their wall times are no figure of merit, but the CPU terms still hold, and the prediction is
made from CPU terms.
``--scheduler`` times the runs on an existing Dask cluster instead of local workers (``--workers`` then only
labels them).

A dataset whose full run would take too long gets a small ``-p NAME.limit=...`` (or ``hands=``); the
parameters used are printed beside each result.

No registry package builds these datasets, so the runs are set beside a yardstick measured in the same run
(``common.Yardstick``: eval7 evaluating a fixed batch of random 7-card hands, in this process, before the
first run and after the last): each run's wall time is printed at the end also as a multiple of it, so that a
figure from a loaded run can be set beside one from a quiet run.
"""
from __future__ import annotations

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
_AHEAD: list[float] = []      # when a timed child started its fork server (epoch seconds)


def _ahead_of_imports() -> None:
    """A timed child (``--child SPEC``) of a local run starts its cluster's fork server before it imports
    anything more (this module's own imports, numpy, pokerpipe's runner), as the command line does
    (:mod:`jobs.launch`, 17 ms after its start): started after this module's imports, the server began 0.08-0.11 s
    after the process, and the cluster's start waited for it as long."""
    if __name__ == "__main__" and sys.argv[1:2] == ["--child"] and len(sys.argv) > 2:
        spec = json.loads(sys.argv[2])
        if not spec.get("scheduler") and not spec.get("prepare"):
            from pipeline.batch.forkserver import start_ahead

            start_ahead()
            _AHEAD.append(time.time())


_ahead_of_imports()
import argparse  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from typing import Any  # noqa: E402

from common import Yardstick  # noqa: E402
from scaling_model import Run, cluster_model, cpu_growth, fitted_stagger, grown, join_times, predict, terms  # noqa: E402

DEFAULT = ["matchups", "ehs-table/flop", "abstraction/turn", "exploitability"]


# --------------------------------------------------------------------------- one run, in a fresh process

def _worker_snapshot() -> dict[str, Any]:
    """Run on each worker at the end of a run: its CPU seconds and peak memory."""
    from pipeline.batch import trace

    return {"worker": trace.worker_name(), "cpu": time.process_time(), "rss_peak": trace.peak_rss(),
            "spawned": trace.process_started()}


def _descendants_cpu() -> tuple[float, float]:
    """CPU seconds of this process's living descendants (workers, the process they fork from, ...), and of the
    fork server alone: counted before they end, since a forked worker's CPU never reaches this process's
    rusage."""
    import psutil

    total = server = 0.0
    for p in psutil.Process().children(recursive=True):
        try:
            t = p.cpu_times()
            total += t.user + t.system
            if p.ppid() == os.getpid() and any("forkserver" in part for part in p.cmdline()):
                server += t.user + t.system     # the server itself (its forked workers share its command line)
        except psutil.Error:
            pass
    return total, server


def child(spec: dict[str, Any]) -> dict[str, Any]:
    """One timed build of ``spec['dataset']`` (its inputs already built) on ``spec['workers']`` workers."""
    wall0, cpu0 = time.time(), time.process_time()
    from pipeline.batch.session import Session
    from pipeline.batch.trace import process_started
    from pipeline.datasets import build_many
    from pipeline.datasets.build import plan

    names = {ds.name for ds in plan([spec["dataset"]])}
    params = {k: v for k, v in spec["params"].items() if k in names}    # what this dataset and its inputs take
    if spec.get("prepare"):           # build the inputs, compile the kernels the dataset's parts use: untimed
        planned = plan([spec["dataset"]], params)
        if len(planned) > 1:
            with Session(None, spec.get("scheduler"), quiet=True) as session:
                build_many(planned[:-1], spec["out"], session, write_catalog=False)
        from pipeline.datasets.build import PlannedInputs, Reader, open_storage

        target = planned[-1]
        partitions = target.partitions(PlannedInputs(Reader(open_storage(spec["out"])), planned))
        target.prepare(target.pieces(partitions[0])[0])
        return {}
    imported = time.time()
    # on a cluster --workers only labels the run: its workers are the ones started there
    with Session(None if spec.get("scheduler") else spec["workers"], spec.get("scheduler"), quiet=True) as session:
        reports = build_many([spec["dataset"]], spec["out"], session, force=spec["force"], write_catalog=False,
                             params=params)
        report = reports[-1]
        workers = session.on_each_worker(_worker_snapshot) if report.computed else []
        client_cpu = time.process_time() - cpu0
        descendants, server = _descendants_cpu()
        startup = dict(session.startup)
        tree = client_cpu + descendants
        ended = time.time()
        joins = _join_probe(session, len(workers)) if report.computed and not spec.get("scheduler") else {}
    t = report.trace
    return {
        "dataset": report.name, "params": report.manifest.get("parameters"), "wall": ended - wall0,
        "ahead": _AHEAD[0] - process_started() if _AHEAD else None,
        "import": imported - wall0, "client_cpu": client_cpu, "tree_cpu": tree,
        "server_cpu": server, "startup": startup, "computed": report.computed,
        "bytes": report.bytes, "rows": report.rows,
        "shas": [p["sha256"] for p in report.manifest["parts"]],
        "moments": {k: getattr(t, k) for k in ("started", "connected", "first_sent", "last_back", "finished",
                                               "cluster_seconds", "side_outputs")},
        "inputs_checked": sum(r.seconds for r in reports[:-1]),
        "tasks": [vars(p) | {"seconds": p.seconds} for p in t.parts],
        "workers": workers, "joins": joins,
        "client_run_cpu": t.back_cpu - t.sent_cpu,
    }


JOINS = 8       # workers the join probe adds
IDLE = 1.0      # seconds the probe then leaves the cluster idle, to measure what the client spends a second anyway


def _server_cpu() -> float:
    """The fork server's CPU seconds, to the nanosecond where the kernel says (``/proc/<pid>/task/*/schedstat``:
    the clock-tick count psutil reads is 10 ms, coarser than what a fork costs), else psutil's."""
    import glob

    import psutil

    for p in psutil.Process().children():
        try:
            if "forkserver" not in " ".join(p.cmdline()):
                continue
            stats = glob.glob(f"/proc/{p.pid}/task/*/schedstat")
            if stats:
                return sum(int(open(f).read().split()[0]) for f in stats) / 1e9
            t = p.cpu_times()
            return t.user + t.system
        except (psutil.Error, OSError, ValueError):
            pass
    return 0.0


def _join_probe(session: Any, workers: int) -> dict[str, float]:
    """What more workers cost the processes their start goes through one after the other: the client (which
    takes each in, and on a Dask cluster runs the scheduler and every nanny on one event loop) and the fork
    server (which forks them, or only the first of a tree: :mod:`pipeline.batch.branches`).  Measured after the
    run, on the same cluster: :data:`JOINS` workers are added to the idle cluster, as the pool starts them, and
    the CPU those two processes spend until all have started (each has run a first task) is counted: the
    client's a worker, and the server's a fork it made; then the client's CPU a second while nothing runs (a
    Dask cluster's heartbeats and periodic work).  A worker's own start (its process's CPU until its first
    part, its forks of a tree's workers included) runs on its own core, in parallel; this is the part of
    joining that does not."""
    from pipeline.batch.branches import TREE

    client = session.client()
    c0, s0, t0 = time.process_time(), _server_cpu(), time.perf_counter()
    if session.pooled:
        client.grow(JOINS)
        client.run_each(os.getpid, timeout=120)
        forks = 1 if TREE else JOINS
    else:
        cluster = getattr(client, "cluster", None)
        if cluster is None:
            return {}
        cluster.scale(workers + JOINS)
        client.wait_for_workers(workers + JOINS, timeout=120)
        forks = JOINS
    wall, c1, s1 = time.perf_counter() - t0, time.process_time(), _server_cpu()
    time.sleep(IDLE)
    return {"client_cpu": (c1 - c0) / JOINS, "server_cpu": (s1 - s0) / JOINS, "fork": (s1 - s0) / forks,
            "tree": bool(session.pooled and TREE), "wall": wall / JOINS,
            "idle_cpu": (time.process_time() - c1) / IDLE}


def run_child(spec: dict[str, Any]) -> tuple[dict[str, Any], float, float]:
    """``spec`` run by a fresh interpreter; its result, wall seconds and the CPU of its whole process tree."""
    t = time.perf_counter()
    proc = subprocess.run([sys.executable, __file__, "--child", json.dumps(spec)], capture_output=True, text=True)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.exit(f"bench_scaling: a run failed ({spec['dataset']}, {spec.get('workers')} workers):\n"
                 f"{proc.stderr[-3000:]}")
    lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
    result = json.loads(lines[-1]) if lines else {}
    return result, wall, result.get("tree_cpu", 0.0)


def cpu_name() -> str:
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                name = line.split(":", 1)[1].strip()
                flags = open("/proc/cpuinfo").read()
                simd = "AVX-512" if " avx512f " in flags else "AVX2" if " avx2 " in flags else "no AVX2"
                return f"{name}, {os.cpu_count()} cores, {simd}"
    except OSError:
        pass
    return f"{os.cpu_count()} cores"


def _fmt(xs: list[float]) -> str:
    if not xs:
        return "-"
    return f"{min(xs):.2f} / {statistics.median(xs):.2f} / {max(xs):.2f}"


def report(name: str, runs: list[Run], predict_at: list[int], cores: int) -> list[str]:
    """The lines printed for one dataset: each run's terms, the model and its predictions, and the checks
    (``cores``: those of the machine the runs were timed on)."""
    out = [f"\n== {name}   parameters {json.dumps(runs[0][1]['params'], sort_keys=True)}"]
    out.append(f"{'workers':>7} {'wall':>7} {'dataset':>7} {'client':>7} {'workers':>8} {'server':>7} {'tree':>7} "
               f"{'serial<':>7} {'cluster':>7} {'serial>':>7} {'start s min/med/max':>20} {'start CPU':>18} "
               f"{'tasks':>6} {'task CPU s min/med/max':>22} {'tail s':>7} {'tail%':>6} {'MB':>7} {'RSS MB':>7} bytes")
    first_shas = runs[0][1]["shas"]
    measured = {}
    for w, r, wall, tree in runs:
        t = measured[w] = terms(r)
        t["tree"] = tree
        same = "same" if r["shas"] == first_shas else "DIFFER"
        out.append(f"{w:7d} {wall:7.2f} {t['seconds']:7.2f} {r['client_cpu']:7.2f} {t['workers_cpu']:8.2f} "
                   f"{r['server_cpu']:7.2f} {tree:7.2f} {t['serial_before']:7.2f} {t['cluster']:7.2f} "
                   f"{t['serial_after']:7.2f} {_fmt(t['starts']):>20} {_fmt(t['start_cpu']):>18} {len(t['cost']):6d} "
                   f"{_fmt(t['cost']):>22} {t['idle']:7.2f} {100 * t['tail_share']:5.1f}% {r['bytes'] / 1e6:7.2f} "
                   f"{t['rss_peak'] / 2**20:7.0f} {same}")
    for w, r, _, _ in runs:
        steps = ", ".join(f"{k} {v:.2f}" for k, v in r.get("startup", {}).items())
        ahead = ("" if r.get("ahead") is None else
                 f"the fork server started ahead, {r['ahead']:.3f} s after the process; ")
        out.append(f"  {w} workers: cluster start by step (s): {steps}; {ahead}the fork server's CPU "
                   f"{r['server_cpu']:.2f} s; side outputs {r['moments']['side_outputs']:.2f} s; inputs checked "
                   f"{r['inputs_checked']:.2f} s")
    base_w = min(measured)
    bt = measured[base_w]
    cluster = cluster_model(runs)
    one = predict(bt, 1, cluster)
    prep = statistics.median(bt["prepare"] or [0])
    for w, r, _, _ in runs:
        if r.get("joins"):
            j = r["joins"]
            how = (f"as a tree, the fork server forking the first ({1000 * j['fork']:.2f} ms of its CPU) and the "
                   f"workers the others" if j.get("tree") else
                   f"the fork server forking each ({1000 * j['server_cpu']:.2f} ms of its CPU a worker)")
            out.append(f"  {w} workers: join probe ({JOINS} workers added to the idle cluster after the run, {how}): a "
                       f"worker costs the client {1000 * j['client_cpu']:.2f} ms of CPU, {1000 * j['wall']:.0f} ms of "
                       f"wall here; the idle client then spent {1000 * j.get('idle_cpu', 0.0):.0f} ms of CPU a second")
    own = statistics.median(bt["start_cpu"] or [0.0])
    forked = (f" and no sooner than the tree has forked them, {1000 * cluster[2]:.2f} ms a fork (64 workers: "
              f"{1000 * max(join_times(64, (0.0, 0.0, cluster[2]))):.1f} ms)" if cluster[2] else "")
    out.append(f"model: seconds(w) = serial before {bt['serial_before']:.2f} + cluster start {cluster[0]:.2f} (to its "
               f"first worker; the others join {1000 * cluster[1]:.2f} ms apart{forked}, each after its own start "
               f"of {own:.2f} s CPU) + prepare {prep:.2f} + makespan(w) of {len(bt['cost'])} tasks "
               f"({sum(bt['cost']):.1f} CPU s in all, each + {bt['gap'] + bt['slack']:.3f} s of dispatch and I/O, in "
               f"the runner's order, each part's write after its pieces, on w workers each taking the next ready task "
               f"when free as the local pool hands them out, writes held while pieces are ready, up to one a worker, "
               f"no faster than one per {1000 * bt['dispatch']:.2f} ms of the client's CPU) + side outputs "
               f"{bt['side']:.2f} (after the last part) + serial after {bt['serial_after']:.2f}   (terms of the "
               f"{base_w}-worker run; the "
               f"cluster's start: the median over all runs; the joining: the join probe's CPU a worker, serial in the "
               f"client (and the fork server, where it forks each); the pace the workers joined at on this machine, "
               f"oversubscribed: {1000 * fitted_stagger(runs):.0f} ms)")
    row = [f"{w} workers {predict(bt, w, cluster):.2f} s ({one / predict(bt, w, cluster):.1f}x)" for w in predict_at]
    out.append(f"predicted: 1 worker {one:.2f} s; " + "; ".join(row))
    speedups = {}                 # workers: (measured speed-up, predicted), for each run beside a 1-worker one
    for w, t in measured.items():
        line = f"  measured {w} workers {t['seconds']:.2f} s, predicted {predict(bt, w, cluster):.2f} s"
        if 1 in measured and w > 1:
            got, want = speedups[w] = measured[1]["seconds"] / t["seconds"], one / predict(bt, w, cluster)
            line += f"; speed-up measured {got:.2f}x, predicted {want:.2f}x ({100 * (got / want - 1):+.0f}%)"
            if w <= cores:       # where a gap is from: the tasks' own CPU with all cores busy, and the wait for one
                g = cpu_growth(t, measured[1])
                then = one / predict(grown(bt, g), w, cluster)
                line += (f"; its tasks took {g:.2f}x their CPU on 1 worker (all {w} busy: the clock, cache and "
                         f"memory they share), which the model would turn into {then:.2f}x "
                         f"({100 * (got / then - 1):+.0f}%), and were on a core {100 * t['on_core']:.0f}% of their "
                         f"time (against {100 * measured[1]['on_core']:.0f}% on 1: the rest waited for a core or I/O)")
        out.append(line)
    out += checks(measured, bt, cluster, one)
    return out + agreement(speedups, cores)


def agreement(speedups: dict[int, tuple[float, float]], cores: int | None) -> list[str]:
    """Issue 38's line for a machine with 16 cores or more: each worker count from 16 up to the cores, timed
    here beside 1 worker, gives a measured speed-up within 15% of the predicted one.  Counts above the
    cores run oversubscribed and are not compared."""
    timed = sorted(w for w in speedups if 16 <= w <= (cores or 0))
    if not timed:
        return [f"  [--] measured speed-up within 15% of the predicted: needs runs at 1 worker and at 16 or more "
                f"(no more than the cores) on a machine with ≥ 16 cores (this one has {cores})"]
    out = []
    for w in timed:
        got, want = speedups[w]
        out.append(f"  [{'ok' if abs(got / want - 1) <= 0.15 else 'NO'}] measured speed-up at {w} workers within "
                   f"15% of the predicted: {got:.2f}x against {want:.2f}x ({100 * (got / want - 1):+.0f}%)")
    return out


def checks(measured: dict[int, dict], bt: dict[str, Any], cluster: tuple[float, float, float], one: float
           ) -> list[str]:
    """Issue 38's lines for one dataset, each with its figure."""
    def line(ok: bool, text: str) -> str:
        return f"  [{'ok' if ok else 'NO'}] {text}"

    start = max(max(t["start_cpu"] or [0.0]) for t in measured.values())
    serial = max(t["serial_before"] + t["serial_after"] for t in measured.values())
    out = ["checks:", line(start <= 0.5, f"worker start ≤ 0.5 s CPU: at most {start:.2f} s"),
           line(serial <= 1.0, f"client serial ≤ 1 s: at most {serial:.2f} s")]
    if 1 in measured and 8 in measured:
        ratio = measured[8]["tree"] / measured[1]["tree"]
        out.append(line(ratio <= 1.1, f"CPU of the process tree at 8 workers ≤ 1.1x at 1: {ratio:.2f}x "
                                      f"({measured[8]['tree']:.1f} / {measured[1]['tree']:.1f} s)"))
    if one >= 60:
        s16, s64 = one / predict(bt, 16, cluster), one / predict(bt, 64, cluster)
        out.append(line(s16 >= 13 and s64 >= 45, f"predicted speed-up ≥ 13x at 16 and ≥ 45x at 64 (a run of "
                                                  f"{one:.0f} s on 1 worker): {s16:.1f}x and {s64:.1f}x"))
    else:
        out.append(f"  [--] predicted speed-up: not asked of a run under 60 s on 1 worker ({one:.0f} s)")
    return out


def reread(path: str, predict_at: list[int]) -> None:
    """The reports of the runs saved by ``--json``, made again (with this model, on this machine, for runs
    that may have been timed on another: the cores compared are those the file says)."""
    with open(path) as f:
        saved = json.load(f)
    machine = saved.get("machine") or {"cpu": "not recorded", "cores": os.cpu_count() or 1}
    print(f"bench_scaling: the runs of {path}, timed on {machine['cpu']}"
          + (f"; load average {machine['load']:.2f} then" if "load" in machine else ""))
    for name, runs in saved.get("datasets", saved).items():
        timed = [(x["workers"], x["record"], x["wall"], x["tree_cpu"]) for x in runs]
        print("\n".join(report(name, timed, predict_at, machine["cores"])), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("datasets", nargs="*", default=DEFAULT)
    ap.add_argument("--workers", default="1,2,4,8", help="worker counts, comma separated")
    ap.add_argument("-p", "--param", action="append", default=[],
                    help="NAME.KEY=VALUE, e.g. exploitability.hands=20000")
    ap.add_argument("--predict", default="16,64,256", help="worker counts to predict")
    ap.add_argument("--out", default=None, help="output folder (default: a temporary one)")
    ap.add_argument("--scheduler", default=None, help="an existing Dask scheduler to run on")
    ap.add_argument("--json", default=None, help="write every run's record to this file")
    ap.add_argument("--warm", action="store_true", help="one untimed build first (kernels not covered by prepare)")
    ap.add_argument("--report", default=None, metavar="FILE",
                    help="print the reports of the runs a --json FILE holds (timed here or on another machine)")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    predict_at = [int(w) for w in args.predict.split(",")]
    if args.report:
        reread(args.report, predict_at)
        return
    params: dict[str, dict] = {}
    for item in args.param:
        key, _, value = item.partition("=")
        name, _, field = key.rpartition(".")
        try:
            params.setdefault(name, {})[field] = json.loads(value)
        except ValueError:
            params.setdefault(name, {})[field] = value
    counts = [int(w) for w in args.workers.split(",")]
    print(f"bench_scaling: {cpu_name()}; load average {os.getloadavg()[0]:.2f}; "
          f"POKERPIPE_CACHE={os.environ.get('POKERPIPE_CACHE', '~/.cache/pokerpipe')}")
    walls: list[tuple[str, int, float]] = []
    machine = {"cpu": cpu_name(), "cores": os.cpu_count() or 1, "load": os.getloadavg()[0]}
    records: dict[str, list[dict[str, Any]]] = {}
    yard = Yardstick()
    with tempfile.TemporaryDirectory() as tmp:
        out = args.out or tmp
        t = time.perf_counter()
        with ThreadPoolExecutor(len(args.datasets)) as pool:     # every dataset's inputs and kernels, at once
            list(pool.map(lambda name: run_child({"dataset": name, "params": params, "out": out, "prepare": True,
                                                  "scheduler": args.scheduler, "workers": None, "force": False}),
                          args.datasets))
        print(f"inputs built and kernels compiled in {time.perf_counter() - t:.1f} s", flush=True)
        for name in args.datasets:
            base = {"dataset": name, "params": params, "out": out, "scheduler": args.scheduler}
            if args.warm:
                run_child({**base, "workers": None, "force": True})
            runs = []
            for w in counts:
                r, wall, tree = run_child({**base, "workers": w, "force": True})
                runs.append((w, r, wall, tree))
                walls.append((name, w, wall))
                print(f"  {w} workers: {wall:.2f} s", flush=True)
            print("\n".join(report(name, runs, predict_at, os.cpu_count() or 1)), flush=True)
            records[name] = [{"workers": w, "wall": wall, "tree_cpu": tree, "record": r} for w, r, wall, tree in runs]
            if args.json:
                with open(args.json, "w") as f:
                    f.write(json.dumps({"machine": machine, "datasets": records}))
    yard.after()
    print(yard.line())
    if yard.seconds:
        print("wall times in yardsticks: " + "; ".join(f"{name} {w} workers {yard.times(wall)}"
                                                      for name, w, wall in walls))


if __name__ == "__main__":
    main()
