"""benchmarks/scaling_model.py, the model behind bench_scaling's predictions (issue 38), on schedules small
enough to work out by hand: every expected value below is that hand schedule, written in the comment beside
it, not a figure the model printed."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from scaling_model import cluster_model, cpu_growth, grown, join_times, makespan, predict, terms  # noqa: E402


def whole(*costs: float) -> list[tuple[float, int, bool]]:
    """Whole parts, one task each, in the order given."""
    return [(c, n, False) for n, c in enumerate(costs)]


@pytest.mark.parametrize("workers, expected", [
    (1, 12.0),    # 3 + 3 + 2 + 2 + 2 one after the other
    (2, 7.0),     # a: 3 (0-3), 2 (3-5), 2 (5-7); b: 3 (0-3), 2 (3-5)
    (3, 5.0),     # a: 3 (0-3), 2 (3-5); b: 3 (0-3); c: 2 (0-2), 2 (2-4)
    (5, 3.0),     # one each
])
def test_whole_parts_are_taken_in_order_by_the_first_free_worker(workers, expected):
    assert makespan(whole(3, 3, 2, 2, 2), workers, gap=0.0) == pytest.approx(expected)


def test_each_task_adds_its_dispatch_gap():
    assert makespan(whole(1, 1), 1, gap=0.5) == pytest.approx(3.0)     # 0-1.5, 1.5-3


def test_a_write_waits_for_its_pieces():
    # part 0 in pieces of 2 and 1 s, then its write of 1 s: the pieces run at once (0-2, 0-1), the write after
    # the longer one, 2-3
    tasks = [(2.0, 0, False), (1.0, 0, False), (1.0, 0, True)]
    assert makespan(tasks, 2, gap=0.0) == pytest.approx(3.0)
    assert makespan(tasks, 1, gap=0.0) == pytest.approx(4.0)


def test_writes_are_held_while_pieces_are_ready():
    # parts A and B, two pieces of 1 s each and a write of 1 s, on 2 workers.  Held: at 1 both take B's pieces
    # (A's write waits), at 2 the two writes run at once: 3 s.  Not held: at 1 one worker takes A's write and
    # the other B's first piece, B's second piece runs 2-3 and its write 3-4: 4 s.
    tasks = [(1.0, 0, False), (1.0, 0, False), (1.0, 1, False), (1.0, 1, False), (1.0, 0, True), (1.0, 1, True)]
    assert makespan(tasks, 2, gap=0.0) == pytest.approx(3.0)
    assert makespan(tasks, 2, gap=0.0, hold=False) == pytest.approx(4.0)


def test_the_client_hands_out_tasks_no_faster_than_its_cpu_a_task():
    # four instant tasks on four workers, the client 0.5 s a task: the last starts at 1.5
    assert makespan(whole(0, 0, 0, 0), 4, gap=0.0, dispatch=0.5) == pytest.approx(1.5)


def test_workers_join_late_and_after_their_own_start():
    assert makespan(whole(1, 1), 2, gap=0.0, joins=[0.0, 5.0]) == pytest.approx(2.0)    # the first does both
    # the second joins at 0.2 and starts its own process for 0.5 s: its task runs 0.7-1.7
    assert makespan(whole(1, 1), 2, gap=0.0, joins=[0.0, 0.2], own_start=0.5) == pytest.approx(1.7)


def test_join_times_are_the_clients_pace_or_the_trees_forks():
    assert join_times(4, (0.0, 1.0, 0.0)) == pytest.approx([0.0, 1.0, 2.0, 3.0])    # forked one after the other
    # a tree of 4: the root forks twice (the second half, then the first's other worker), 1 s each, and all
    # four can serve at 2 s; the client's 0.1 s a worker is sooner
    assert join_times(4, (0.0, 0.1, 1.0)) == pytest.approx([2.0, 2.0, 2.0, 2.0])


def record(tasks: list[dict], **moments: float) -> dict:
    """A run's record as bench_scaling's child returns it, with only what :func:`terms` reads."""
    base = {"started": 0.0, "first_sent": 0.0, "last_back": 0.0, "finished": 0.0, "cluster_seconds": 0.0,
            "side_outputs": 0.0}
    filled = [{"spawned": 0.0, "prepare": 0.0, "cpu_before": 0.0, "prepare_cpu": 0.0, "index": n, "piece": -1,
               "cpu": t["finished"] - t["started"], "seconds": t["finished"] - t["started"]} | t
              for n, t in enumerate(tasks)]
    return {"moments": base | moments, "tasks": filled, "workers": [], "client_run_cpu": 0.0}


def test_terms_of_a_run():
    # worker a: 0-1 and 1-3; worker b: 0.5-2; the run: started 0, cluster up at 0.3, first task sent at 0.4,
    # last back at 3.1, side outputs 0.2, finished at 3.5
    r = record([{"worker": "a", "started": 0.0, "finished": 1.0}, {"worker": "a", "started": 1.0, "finished": 3.0},
                {"worker": "b", "started": 0.5, "finished": 2.0, "spawned": -0.2}],
               started=0.0, cluster_seconds=0.3, first_sent=0.4, last_back=3.1, side_outputs=0.2, finished=3.5)
    t = terms(r)
    assert t["seconds"] == pytest.approx(3.5)
    assert t["serial_before"] == pytest.approx(0.1)         # 0.4 - 0 - 0.3
    assert t["serial_after"] == pytest.approx(0.2)          # 3.5 - 3.1 - 0.2
    assert sorted(t["starts"]) == pytest.approx([0.0, 0.7])  # b: spawned at -0.2, first task at 0.5
    assert t["idle"] == pytest.approx(1.0)                  # b idles from 2 to the end of the last task, 3
    assert t["tail_share"] == pytest.approx(1 / 6)          # 1 of 2 workers x 3 s
    assert t["joined"] == pytest.approx([0.0, 0.5])
    assert sorted(t["cost"]) == pytest.approx([1.0, 1.5, 2.0])
    assert t["on_core"] == pytest.approx(1.0)               # every task's CPU its wall


def test_a_task_waiting_for_a_core_is_seen():
    r = record([{"worker": "a", "started": 0.0, "finished": 2.0, "cpu": 1.0},
                {"worker": "a", "started": 2.0, "finished": 4.0, "cpu": 2.0}])
    assert terms(r)["on_core"] == pytest.approx(0.75)       # 3 s of CPU in 4 s of the tasks' wall


def test_predict_adds_the_serial_terms_to_the_makespan():
    base = {"serial_before": 0.1, "prepare": [0.2], "order": whole(1, 1, 1, 1), "cost": [1.0] * 4, "gap": 0.0,
            "slack": 0.0,
            "start_cpu": [0.0], "dispatch": 0.0, "side": 0.3, "serial_after": 0.05}
    # 0.1 + cluster 0.5 + prepare 0.2 + 4 tasks of 1 s on 2 workers (2 s) + 0.3 + 0.05
    assert predict(base, 2, (0.5, 0.0, 0.0)) == pytest.approx(3.15)
    # each task 1.25x longer: 2.5 s of makespan
    assert predict(grown(base, 1.25), 2, (0.5, 0.0, 0.0)) == pytest.approx(3.65)
    assert cpu_growth({"cost": [1.2, 1.3]}, {"cost": [1.0, 1.0]}) == pytest.approx(1.25)


def test_the_cluster_start_is_the_median_over_the_runs_and_the_join_the_probes():
    runs = [(w, {"moments": {"cluster_seconds": s}, "joins": {"client_cpu": 0.001, "server_cpu": 0.004,
                                                              "fork": 0.003, "tree": True}}, 0.0, 0.0)
            for w, s in ((1, 0.3), (2, 0.5), (8, 0.4))]
    # a tree: the client's CPU a worker alone (the server forks only the root), the probes' fork
    assert cluster_model(runs) == pytest.approx((0.4, 0.001, 0.003))


def timed_run(workers: int, tasks: int, cpu: float) -> dict:
    """A saved run as ``bench_scaling.py --json`` writes it: ``tasks`` whole parts of ``cpu`` seconds each,
    dealt in turn to ``workers`` workers that run them back to back from 0, nothing else taking any time."""
    rows = [{"index": n, "worker": f"w{n % workers}", "spawned": 0.0, "started": (n // workers) * cpu,
             "finished": (n // workers + 1) * cpu, "cpu": cpu, "cpu_before": 0.0, "prepare": 0.0,
             "prepare_cpu": 0.0, "rss_peak": 0, "piece": -1, "seconds": cpu} for n in range(tasks)]
    end = max(x["finished"] for x in rows)
    record = {"params": {}, "shas": ["0" * 64], "client_cpu": 0.0, "server_cpu": 0.0, "bytes": 0, "startup": {},
              "ahead": None, "inputs_checked": 0.0, "joins": {}, "client_run_cpu": 0.0,
              "moments": {"started": 0.0, "connected": 0.0, "first_sent": 0.0, "last_back": end, "finished": end,
                          "cluster_seconds": 0.0, "side_outputs": 0.0},
              "tasks": rows, "workers": [{"worker": f"w{i}", "cpu": end, "rss_peak": 0} for i in range(workers)]}
    return {"workers": workers, "wall": end, "tree_cpu": tasks * cpu, "record": record}


def test_a_saved_16_core_run_is_reported_again_with_the_gap_explained(tmp_path):
    """32 parts of 1 s on 1 worker (32 s) and of 1.1 s on 16 (each core slower with all busy: 2.2 s): the
    speed-up measured is 32 / 2.2 = 14.5x against 16x predicted (-9%, within 15%); the tasks took 1.10x their
    CPU, with which the model says 14.5x too (+0%)."""
    saved = tmp_path / "scaling.json"
    saved.write_text(json.dumps({"machine": {"cpu": "a 16-core test machine", "cores": 16},
                                 "datasets": {"matchups": [timed_run(1, 32, 1.0), timed_run(16, 32, 1.1)]}}))
    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scaling.py"
    out = subprocess.run([sys.executable, str(script), "--report", str(saved)], capture_output=True, text=True,
                         check=True).stdout
    assert "timed on a 16-core test machine" in out
    assert "speed-up measured 14.55x, predicted 16.00x (-9%)" in out
    assert "its tasks took 1.10x their CPU on 1 worker" in out and "into 14.55x (+0%)" in out
    assert "[ok] measured speed-up at 16 workers within 15% of the predicted: 14.55x against 16.00x (-9%)" in out
