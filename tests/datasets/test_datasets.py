"""Datasets as library specs: registry, byte-identical parts, verified reads, per-part checksums, locks."""
import hashlib
import json
import os
import socket
import subprocess
import sys

import pyarrow.parquet as pq
import pytest
from support.layout import beside, copy_dataset, lock, manifest, meta, part, record, side
from support.recorded import (  # noqa: E402  (recorded before the layout changed; unchanged)
    BEFORE_DESCRIPTIONS,
    BEFORE_HIVE,
    RECORDED,
    RECORDED_SIDE,
    parts_digest,
)

from pipeline import datasets
from pipeline.batch.runner import MANIFEST, Session
from pipeline.datasets import DatasetError, build_many, read

pytestmark = pytest.mark.slow      # the whole module: its module fixtures build datasets (13 s)


def pokerpipe(*args, **kw):
    return subprocess.run([sys.executable, "-m", "jobs", *args], capture_output=True, text=True, timeout=600, **kw)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    out = tmp_path_factory.mktemp("small")
    targets = [datasets.dataset(name, **dict(params)) for name, params in RECORDED]
    with Session(workers=2, quiet=True) as session:
        reports = build_many(targets, out, session, write_catalog=True)
    return out, reports


def test_registry_names_and_dependencies():
    names = datasets.names()
    assert {"matchups", "preflop-grid", "vs-random", "odds-table", "ehs-table/flop", "ehs-table/turn",
            "ehs-table/river", "videopoker/jacks-or-better-9-6", "videopoker/deuces-wild-full-pay"} <= set(names)
    assert names.index("matchups") < names.index("preflop-grid")
    assert datasets.dataset("vs-random", opponents="3-4").depends_on == []
    assert datasets.dataset("vs-random", opponents="2-3").depends_on == ["two-opponents"]
    assert datasets.dataset("vs-random").depends_on == ["matchups", "two-opponents"]
    assert names.index("two-opponents") < names.index("vs-random")
    with pytest.raises(DatasetError, match="unknown dataset"):
        datasets.dataset("nope")
    with pytest.raises(ValueError, match="opponents must be 1 to 9"):
        datasets.dataset("vs-random", opponents="2-1000000000")


@pytest.mark.slow
def test_parts_byte_identical_to_before_the_datasets_layer(small):
    out, reports = small
    got = {(r.name, r.manifest["parameters"].get("limit")): parts_digest(r.manifest) for r in reports}
    for (name, params), digest in RECORDED.items():
        assert got[(name, dict(params).get("limit"))] == digest, name
    for path, digest in RECORDED_SIDE.items():
        if path.startswith("videopoker"):
            assert hashlib.sha256(side(out, *path.rsplit("/", 1)).read_bytes()).hexdigest() == digest, path


@pytest.mark.slow
def test_only_the_descriptions_changed_the_bytes(small):
    """Issue 40's column descriptions changed every part's bytes and nothing else: each part written again with
    the schema as it was (no field metadata; video poker's list child ``item``) gives the digest recorded
    before them."""
    import pyarrow as pa

    from pipeline.batch.hive import restored
    from pipeline.batch.parquet import parquet_bytes, with_metadata

    out, reports = small
    for r in reports:
        key = next(k for k in BEFORE_DESCRIPTIONS if k[0] == r.name)
        ds = datasets.dataset(r.name, **dict(key[1]))
        fields = [pa.field(f.name, pa.list_(pa.float64(), 32) if f.name == "hold_ev" else f.type) for f in ds.schema]
        schema = with_metadata(pa.schema(fields), ds.name, ds.params)
        shas = []
        for i in range(r.parts):
            t = restored(ds, pq.read_table(part(out, r.name, i)), r.manifest["parts"][i]["file"])   # a Hive key back
            t = pa.Table.from_arrays([t.column(f.name).cast(f.type) for f in schema], schema=schema)
            shas.append(hashlib.sha256(parquet_bytes(t)).hexdigest())
        assert parts_digest({"parts": [{"sha256": h} for h in shas]}) == BEFORE_DESCRIPTIONS[key], r.name


def test_only_the_hive_folders_changed_the_bytes(small):
    """Issue 40's Hive folders changed vs-random's parts by taking the ``opponents`` column out of each file (it
    is in the folder's name): each part read alone, the column put back with the value its folder names, in
    the schema's place and type, written again gives exactly the parts recorded before (:data:`BEFORE_HIVE`),
    and the folder names are the opponent counts the parameters ask for, 13 parts of 13 hands each."""
    import pyarrow as pa

    from pipeline.batch.parquet import parquet_bytes

    out, reports = small
    (r,) = [r for r in reports if r.name == "vs-random"]
    ds = datasets.dataset("vs-random", opponents="3,4", trials=1000)
    files = [p["file"] for p in r.manifest["parts"]]
    assert files == [f"opponents={3 + i // 13}/part-{i:05d}.parquet" for i in range(26)]
    shas = []
    for i, file in enumerate(files):
        t = pq.read_table(part(out, "vs-random", i))
        assert "opponents" not in t.column_names and t.num_rows == 13
        k = pa.array([int(file.split("/")[0].split("=")[1])] * t.num_rows, pa.int64())
        t = t.add_column(ds.schema.get_field_index("opponents"), ds.full_schema.field("opponents"), k)
        shas.append(hashlib.sha256(parquet_bytes(t.cast(ds.full_schema))).hexdigest())
    assert parts_digest({"parts": [{"sha256": h} for h in shas]}) == BEFORE_HIVE[("vs-random", (("opponents", "3,4"),
                                                                                               ("trials", 1000)))]
    assert parts_digest(r.manifest) == RECORDED[("vs-random", (("opponents", "3,4"), ("trials", 1000)))]


def test_side_outputs_in_the_manifest(small):
    out, _ = small
    m = json.loads(manifest(out, "videopoker/jacks-or-better-9-6").read_text())
    (side,) = m["side_outputs"]
    assert side["file"] == "_strategy.txt"
    assert side["sha256"] == RECORDED_SIDE["videopoker/jacks-or-better-9-6/_strategy.txt"]


def test_catalog(small):
    out, reports = small
    cat = json.loads((out / "_catalog.json").read_text())
    by = {e["dataset"]: e for e in cat["datasets"]}
    assert set(by) == {r.name for r in reports}
    e = by["odds-table"]
    assert e["rows"] == 20 and e["parameters"] == {"max_outs": 20} and e["manifest"] == "odds-table.meta/_manifest.json"
    assert e["bytes"] == sum(p.stat().st_size for p in (out / "odds-table").glob("part-*.parquet"))


def test_read_verifies_every_part(small, tmp_path):
    out, _ = small
    t = read("odds-table", out)
    assert t.num_rows == 20 and t.column("outs").to_pylist() == list(range(1, 21))
    copy = tmp_path / "copy"
    copy_dataset(out / "matchups", copy / "matchups")
    damaged = copy / "matchups" / "part-00000.parquet"
    data = bytearray(damaged.read_bytes())
    data[len(data) // 2] ^= 1
    damaged.write_bytes(bytes(data))
    with pytest.raises(DatasetError, match="missing or damaged"):
        read("matchups", copy, limit=20)
    with pytest.raises(DatasetError, match="not built"):
        read("preflop-grid", copy)
    with pytest.raises(DatasetError, match="other parameters"):
        read("matchups", copy)


@pytest.mark.slow
def test_no_manifest_damaged_part_is_recomputed(small, tmp_path):
    """After a crash (no manifest) a part is kept only if it matches its own checksum record."""
    out, _ = small
    copy_dataset(out / "vs-random", tmp_path / "vs-random")
    folder = tmp_path / "vs-random"
    good = {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("part-*.parquet")}
    (beside(folder) / MANIFEST).unlink()
    for i in (3, 17):
        data = bytearray(part(tmp_path, "vs-random", i).read_bytes())
        data[200] ^= 0x10            # a one-bit flip that may still parse as Parquet
        part(tmp_path, "vs-random", i).write_bytes(bytes(data))
    record(tmp_path, "vs-random", 20).unlink()                  # a part whose record never landed
    with Session(workers=1, quiet=True) as session:
        (r,) = build_many([datasets.dataset("vs-random", opponents="3,4", trials=1000)], tmp_path, session)
    assert r.computed == 3
    assert {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("part-*.parquet")} == good


@pytest.mark.slow
def test_second_writer_refused(tmp_path):
    folder = tmp_path / "odds-table"
    meta(tmp_path, "odds-table").mkdir()
    lock(tmp_path, "odds-table").write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": 0}))
    p = pokerpipe("odds-table", "--out", str(tmp_path), "--quiet")
    assert p.returncode == 2
    (line,) = p.stderr.strip().splitlines()
    assert f"pid {os.getpid()}" in line and socket.gethostname() in line
    assert not list(folder.glob("part-*"))
    lock(tmp_path, "odds-table").write_text(json.dumps({"pid": 2 ** 22 + 7, "host": socket.gethostname(), "since": 0}))
    p = pokerpipe("odds-table", "--out", str(tmp_path), "--quiet")    # a dead holder's lock is taken over
    assert p.returncode == 0, p.stderr
    assert not lock(tmp_path, "odds-table").exists() and folder.is_dir()


@pytest.mark.slow
def test_force_with_bad_scheduler_deletes_nothing(small, tmp_path):
    out, _ = small
    copy_dataset(out / "odds-table", tmp_path / "odds-table")

    def files() -> dict[str, bytes]:        # the parts and everything beside them
        return {str(q.relative_to(tmp_path)): q.read_bytes() for q in sorted(tmp_path.rglob("*")) if q.is_file()}

    before = files()
    assert manifest(tmp_path, "odds-table").relative_to(tmp_path).as_posix() in before
    for sched in ("tcp://127.0.0.1:1", "garbage", "http://127.0.0.1:1"):
        p = pokerpipe("odds-table", "--out", str(tmp_path), "--force", "--scheduler", sched)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert files() == before


@pytest.mark.parametrize("args, words", [
    (["tables", "nope"], "unknown dataset"),
    (["tables", "--param", "vs-random.trials"], "DATASET.NAME=VALUE"),
    (["tables", "odds-table", "--param", "vs-random.trials=5"], "not being built"),
    (["tables", "vs-random", "--param", "vs-random.trials=0"], "vs-random.trials must be at least 1"),
    (["tables", "vs-random", "--param", "vs-random.opponents=2-1000000000"], "opponents must be 1 to 9"),
    (["vs-random", "--opponents", "2-1000000000"], "opponents must be 1 to 9"),
    # a reversed span names no count: it said "opponents must be 1 to 9 (got none)", and beside another
    # count ("1,3-1") it was dropped without a word
    (["vs-random", "--opponents", "3-1"], "--opponents \"3-1\": the span 3-1 is reversed and names no count"),
    (["vs-random", "--opponents", "1,3-1"], "the span 3-1 is reversed and names no count (write 1-3)"),
    (["vs-random", "--trials", "10000000000000"], "use at most"),
    # a huge integral float: shown as written, not as its 208 digits (Hypothesis found a 401-character line)
    (["tables", "vs-random", "--param", "vs-random.trials=1e207"], "vs-random.trials about 1e207 per hand"),
    (["vs-random", "--seed", "-1"], "vs-random.seed must be between 0 and"),
    (["odds-table", "--out", "ftp://x/y"], "unsupported scheme"),
    (["odds-table", "--out", "s3:/x/y"], "looks like a URL"),
    (["odds-table", "--workers", "1000"], "--workers must be 1 to"),
])
def test_bad_batch_input(tmp_path, args, words):
    if "--out" not in args:
        args = args + ["--out", str(tmp_path)]
    p = pokerpipe(*args)
    assert p.returncode == 2, (p.returncode, p.stderr)
    (line,) = p.stderr.strip().splitlines()
    assert words in line and "Traceback" not in p.stderr


@pytest.mark.slow
def test_datasets_command(small):
    out, _ = small
    p = pokerpipe("datasets", "--out", str(out), "--json")
    assert p.returncode == 0, p.stderr
    rows = {d["name"]: d for d in json.loads(p.stdout)["datasets"]}
    assert rows["preflop-grid"]["depends_on"] == ["matchups"] and rows["preflop-grid"]["built"] is False
    assert rows["odds-table"]["built"] is True and rows["odds-table"]["rows"] == 20
    assert rows["videopoker/jacks-or-better-9-6"]["built"] is True
    assert rows["matchups"]["built"] is False          # built with --limit 20, not the defaults
    assert set(rows["matchups"]) == {"name", "description", "depends_on", "parameters", "built", "rows", "bytes",
                                     "seconds", "figures", "recorded"}
    # built: its own rows and size; not built: the figures measured with the defaults, or none
    assert rows["odds-table"]["figures"] == "built" and rows["odds-table"]["bytes"] > 0
    assert rows["odds-table"]["built_seconds"] >= 0
    assert rows["matchups"]["figures"] == "recorded" and rows["matchups"]["rows"] == 47_008
    assert rows["matchups"]["recorded"]["seconds"] > 0 and "2 workers" in rows["matchups"]["recorded"]["how"]
    assert all(r["description"] for r in rows.values())
    listing = pokerpipe("tables", "--help")
    assert listing.returncode == 0, listing.stderr
    line = next(x for x in listing.stdout.splitlines() if x.split()[:1] == ["matchups"])
    assert "47,008" in line and "every heads-up preflop matchup" in listing.stdout
    assert all(f"  {name} " in listing.stdout for name in datasets.names())


def test_part_checksum_record_matches_part(small):
    out, _ = small
    rec = json.loads(record(out, "odds-table", 0).read_text())
    data = (out / "odds-table" / "part-00000.parquet").read_bytes()
    assert rec["sha256"] == hashlib.sha256(data).hexdigest() and rec["rows"] == 20
    assert pq.ParquetFile(out / "odds-table" / "part-00000.parquet").metadata.num_rows == 20


def test_figures_scaled_from_a_smaller_build_are_marked_with_a_tilde():
    from jobs.commands.datasets import table_lines

    row = {"name": "big", "built": False, "rows": 10, "bytes": 2_000_000, "seconds": 7_200.0, "depends_on": [],
           "description": "a big one", "figures": "recorded", "recorded": {"estimated": True}}
    assert table_lines([row])[1].split()[3:5] == ["~2", "MB"] and table_lines([row])[1].split()[5:7] == ["~2", "h"]
    measured = {**row, "recorded": {"estimated": False}}
    assert table_lines([measured])[1].split()[3:7] == ["2", "MB", "2", "h"]
    unknown = {**row, "bytes": None, "seconds": None}
    assert table_lines([unknown])[1].split()[3:5] == ["-", "-"]


def test_a_flat_vs_random_is_carried_over_to_the_bytes_of_a_hive_build(tmp_path):
    """A vs-random folder built before its parts were keyed (the same recipe with no partition key: parts flat, the
    column in them, dictionary-encoded hands included) is rewritten by the next run into opponents=K/ without
    computing anything, byte for byte the parts a fresh build writes."""
    flat = datasets.dataset("vs-random", opponents="3", trials=200)
    flat.partition_key = None
    with Session(workers=1, quiet=True) as session:
        (old,) = build_many([flat], tmp_path / "carried", session, write_catalog=False)
        assert [p["file"] for p in old.manifest["parts"]] == [f"part-{i:05d}.parquet" for i in range(13)]
        (carried,) = build_many([datasets.dataset("vs-random", opponents="3", trials=200)], tmp_path / "carried",
                                session, write_catalog=False)
        (fresh,) = build_many([datasets.dataset("vs-random", opponents="3", trials=200)], tmp_path / "fresh", session,
                              write_catalog=False)
    assert carried.computed == 0 and fresh.computed == 13 and carried.manifest["parts"] == fresh.manifest["parts"]
    assert sorted(p.relative_to(tmp_path / "carried" / "vs-random").as_posix()
                  for p in (tmp_path / "carried" / "vs-random").rglob("*")) == \
        ["opponents=3", *(f"opponents=3/part-{i:05d}.parquet" for i in range(13))]
