"""Output on an object store: an S3 server on 127.0.0.1 (moto), a Dask scheduler and two workers
as separate processes; the workers write the parts straight into the bucket."""
import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.layout import key, manifest
from support.recorded import RECORDED, RECORDED_LIMIT_3000, parts_digest

moto_server = pytest.importorskip("moto.server")
boto3 = pytest.importorskip("boto3")

HERE = Path(__file__).parent
BUCKET = "tables"


def _port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def s3():
    server = moto_server.ThreadedMotoServer(ip_address="127.0.0.1", port=_port())
    server.start()
    host, port = server.get_host_and_port()
    env = {**os.environ, "AWS_ENDPOINT_URL": f"http://{host}:{port}", "AWS_ACCESS_KEY_ID": "test",
           "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true"}
    client = boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id="test",
                          aws_secret_access_key="test", region_name="us-east-1")
    client.create_bucket(Bucket=BUCKET)
    yield env, client
    server.stop()


@pytest.fixture(scope="module")
def cluster(s3):
    env, _ = s3
    port = _port()
    addr = f"tcp://127.0.0.1:{port}"
    env = {**env, "PYTHONPATH": os.pathsep.join([str(HERE.parent), os.environ.get("PYTHONPATH", "")])}
    procs = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                               "--port", str(port), "--dashboard-address", ":0"], env=env,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        time.sleep(2)
        for _ in range(2):
            procs.append(subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", addr, "--nthreads",
                                           "1", "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL))
        from distributed import Client
        with Client(addr, timeout="30s") as c:
            c.wait_for_workers(2, timeout=60)
        yield addr
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(30)


def pokerpipe(env, *args):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=600, env=env)


def objects(client, prefix):
    out = {}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=BUCKET, Prefix=prefix):
        for o in page.get("Contents", []):
            out[o["Key"][len(prefix):]] = client.get_object(Bucket=BUCKET, Key=o["Key"])["Body"].read()
    return out


ARGS = ["tables", "matchups", "odds-table", "--param", "matchups.limit=1500", "--quiet"]


@pytest.mark.slow
def test_tables_into_a_bucket_equal_a_local_run(s3, cluster, tmp_path):
    env, client = s3
    local = pokerpipe(env, *ARGS, "--workers", "1", "--out", str(tmp_path))   # any worker count: the same bytes
    assert local.returncode == 0, local.stderr
    remote = pokerpipe(env, *ARGS, "--scheduler", cluster, "--out", f"s3://{BUCKET}/run1")
    assert remote.returncode == 0, remote.stderr
    got = objects(client, "run1/")
    for name in ("matchups", "odds-table"):
        parts = sorted(p.name for p in (tmp_path / name).glob("part-*.parquet"))
        assert parts and all(got[f"{name}/{p}"] == (tmp_path / name / p).read_bytes() for p in parts)
        remote_m = json.loads(got[key(name, "_manifest.json")])
        local_m = json.loads(manifest(tmp_path, name).read_text())
        assert remote_m["parts"] == local_m["parts"] and remote_m["parameters"] == local_m["parameters"]
    cat = json.loads(got["_catalog.json"])
    assert {e["dataset"] for e in cat["datasets"]} == {"matchups", "odds-table"}
    assert not [k for k in got if k.endswith(".tmp") or k.endswith("_lock")]


@pytest.mark.slow
def test_interrupted_run_resumes_in_the_bucket(s3, cluster):
    env, client = s3
    url = f"s3://{BUCKET}/run2"
    proc = subprocess.Popen([sys.executable, "-m", "jobs", *ARGS[:-1], "--param", "matchups.limit=3000",
                             "--scheduler", cluster, "--out", url], env=env, stderr=subprocess.PIPE, text=True)
    # interrupt once some parts are in the bucket
    deadline = time.time() + 300
    while time.time() < deadline:
        if sum(k.startswith("matchups/part-") for k in objects(client, "run2/")) >= 2:
            break
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    err = proc.communicate(timeout=120)[1]
    assert proc.returncode in (0, 130), err
    again = pokerpipe(env, *ARGS[:-1], "--param", "matchups.limit=3000", "--scheduler", cluster, "--out", url)
    assert again.returncode == 0, again.stderr
    got = objects(client, "run2/")
    doc = json.loads(got[key("matchups", "_manifest.json")])
    parts = [p["file"] for p in doc["parts"]]
    assert parts == [f"part-{i:05d}.parquet" for i in range(6)]
    files = sorted(k for k in got if k.startswith("matchups/") and not k.endswith("/"))    # not folder markers
    assert files == [f"matchups/{p}" for p in parts]                                     # the parts, only them
    assert [hashlib.sha256(got[f"matchups/{p}"]).hexdigest() for p in parts] == [p["sha256"] for p in doc["parts"]]
    # the same parts as an uninterrupted local run (recorded: tests/test_datasets.py)
    assert parts_digest(doc) == RECORDED_LIMIT_3000


HIVE = ["tables", "vs-random", "--param", "vs-random.trials=1000", "--workers", "1", "--quiet"]


def _computed(p: subprocess.CompletedProcess) -> str:
    """The ``computed`` column of ``tables``' vs-random line."""
    assert p.returncode == 0, p.stderr
    return next(line.split() for line in p.stdout.splitlines() if line.startswith("vs-random "))[3]


@pytest.mark.slow
def test_a_hive_dataset_in_a_bucket(s3):
    """vs-random's ``opponents=K/`` folders are key prefixes in a bucket: the recorded parts, resumed part by part,
    and a run with fewer counts (other parameters: its parts computed anew) leaves no key of the others."""
    env, client = s3
    url = f"s3://{BUCKET}/hive"
    assert _computed(pokerpipe(env, *HIVE, "--param", "vs-random.opponents=3,4", "--out", url)) == "26"
    got = objects(client, "hive/")
    doc = json.loads(got[key("vs-random", "_manifest.json")])
    files = [p["file"] for p in doc["parts"]]
    assert files == [f"opponents={3 + i // 13}/part-{i:05d}.parquet" for i in range(26)]
    assert sorted(k for k in got if k.startswith("vs-random/") and not k.endswith("/")) == \
        [f"vs-random/{f}" for f in files]                                           # the parts, only them
    assert parts_digest(doc) == RECORDED[("vs-random", (("opponents", "3,4"), ("trials", 1000)))]
    client.delete_object(Bucket=BUCKET, Key=f"hive/vs-random/{files[20]}")
    client.delete_object(Bucket=BUCKET, Key=f"hive/{key('vs-random', '_manifest.json')}")
    assert _computed(pokerpipe(env, *HIVE, "--param", "vs-random.opponents=3,4", "--out", url)) == "1"
    assert parts_digest(json.loads(objects(client, "hive/")[key("vs-random", "_manifest.json")])) == parts_digest(doc)
    assert _computed(pokerpipe(env, *HIVE, "--param", "vs-random.opponents=3", "--out", url)) == "13"   # new params
    left = [k for k in objects(client, "hive/") if k.startswith("vs-random/") and not k.endswith("/")]
    assert left == [f"vs-random/{f}" for f in files[:13]]


EVOLVE = ["evolve", "--population", "4", "--generations", "2", "--hands-per-match", "100", "--trainers", "2",
          "--seed", "3", "--workers", "1", "--report-hands", "0", "--weights", "sampled", "--quiet"]


@pytest.mark.slow
def test_an_evolution_and_hand_histories_in_a_bucket_equal_local_runs(s3, tmp_path):
    """``evolve --out s3://...`` and ``play --history ... --out s3://...`` write what a local run writes,
    byte for byte (resuming from a checkpoint goes through the same storage layer as the tables' resume
    in a bucket, below, and is tested locally in tests/cli/test_ga_cli.py)."""
    env, client = s3
    local = pokerpipe(env, *EVOLVE, "--out", str(tmp_path / "evo"))
    assert local.returncode == 0, local.stderr
    remote = pokerpipe(env, *EVOLVE, "--out", f"s3://{BUCKET}/evo")
    assert remote.returncode == 0, remote.stderr
    got = objects(client, "evo/evolve/")
    files = sorted(str(p.relative_to(tmp_path / "evo" / "evolve")) for p in (tmp_path / "evo" / "evolve").rglob("*")
                   if p.is_file() and p.name not in ("checkpoint.json", "summary.json"))     # these hold times
    assert files and all(got[f] == (tmp_path / "evo" / "evolve" / f).read_bytes() for f in files), files
    for fmt, name in (("pokerstars", "hands.txt"),):   # the streamed writer; phh writes atomic files, as datasets do
        play = ["play", "--seats", "3", "--policies", "tag,station,random", "--hands", "30", "--seed", "4",
                "--weights", "sampled", "--history", fmt, "--history-start", "2026-01-01T12:00:00Z"]   # same bytes
        assert pokerpipe(env, *play, "--out", str(tmp_path / fmt)).returncode == 0
        p = pokerpipe(env, *play, "--out", f"s3://{BUCKET}/{fmt}")
        assert p.returncode == 0, p.stderr
        assert objects(client, f"{fmt}/")[name] == (tmp_path / fmt / name).read_bytes()
