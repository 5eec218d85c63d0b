"""The one verified read (pipeline.batch.verified) under every kind of damage, for every reader it offers (issue 39).

A dataset with an array and a document beside its parts (as ``abstraction/<street>`` and ``holdem-weights``
have) is built once; each case damages a copy — the manifest or a side output made a FIFO, a folder, a link out
of the folder, nested 100,000 deep, mistyped, cut short, one byte flipped with its size and times kept as bit
rot keeps them, an array header that lies — and asks every reader of :mod:`pipeline.batch.verified` and the
runner's rebuild.  Each must give the clean answer, or one line (an InputError naming what is wrong) — never
another exception, a hang, or bytes that were not hashed in this process.  Readers of the domain
(``load_abstraction``, the hand-weight tables) are these readers with their own error class; that no module
reads a dataset's files otherwise is tests/test_file_access.py's.
"""
from __future__ import annotations

import io
import json
import os
import shutil
from pathlib import Path

import numpy as np
import pytest
from support.bounded import Slow, bounded
from support.layout import manifest as manifest_file
from support.layout import meta
from support.tiny_datasets import SIDE, WithSides

from pipeline.batch import verified
from pipeline.batch.storage import Storage
from pipeline.core.errors import InputError, PokerpipeError
from pipeline.datasets import build, read

NAME = "sides"
ARRAY = np.arange(SIDE, dtype=np.uint16)


@pytest.fixture(scope="module")
def clean(built_sides):
    return built_sides


def _manifest(folder: Path) -> dict:
    """The manifest in ``folder``: the dataset's metadata folder (:func:`support.layout.meta`)."""
    return json.loads((folder / "_manifest.json").read_text())


def _edit_manifest(folder: Path, change) -> None:
    doc = _manifest(folder)
    change(doc)
    (folder / "_manifest.json").write_text(json.dumps(doc))


def _flip(path: Path, at: int) -> None:
    """One byte changed in place, size and modification time kept (bit rot)."""
    st = path.stat()
    with open(path, "r+b") as f:
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes([b[0] ^ 1]))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def _replace(path: Path, kind: str, outside: Path) -> None:
    data = path.read_bytes()
    path.unlink()
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    elif kind == "link":                     # to the very same bytes, outside the folder
        target = outside / path.name
        target.write_bytes(data)
        os.symlink(target, path)


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array)
    return buf.getvalue()


def _rewrite_side(folder: Path, file: str, data: bytes) -> None:
    """Another array under the same name, its SHA-256 put in the manifest: consistent, but not what is read."""
    (folder / file).write_bytes(data)
    _edit_manifest(folder, lambda d: [e.update(verified.file_record(data, file)) for e in d["side_outputs"]
                                      if e["file"] == file])


def _deep(folder):
    (folder / "_manifest.json").write_text("[" * 100_000)


DAMAGE = {
    "manifest-fifo": lambda f, o: _replace(f / "_manifest.json", "fifo", o),
    "manifest-folder": lambda f, o: _replace(f / "_manifest.json", "folder", o),
    "manifest-link": lambda f, o: _replace(f / "_manifest.json", "link", o),
    "manifest-deep": lambda f, o: _deep(f),
    "manifest-list": lambda f, o: (f / "_manifest.json").write_text("[1, 2]"),
    "side-outputs-5": lambda f, o: _edit_manifest(f, lambda d: d.update(side_outputs=5)),
    "side-sha-typed": lambda f, o: _edit_manifest(f, lambda d: d["side_outputs"][0].update(sha256=True)),
    "side-bytes-typed": lambda f, o: _edit_manifest(f, lambda d: d["side_outputs"][0].update(bytes="12")),
    "side-file-typed": lambda f, o: _edit_manifest(f, lambda d: d["side_outputs"][0].update(file=["_a.npy"])),
    "parameters-true": lambda f, o: _edit_manifest(f, lambda d: d["parameters"].update(n=True)),
    "array-fifo": lambda f, o: _replace(f / "_a.npy", "fifo", o),
    "array-folder": lambda f, o: _replace(f / "_a.npy", "folder", o),
    "array-link": lambda f, o: _replace(f / "_a.npy", "link", o),
    "array-missing": lambda f, o: (f / "_a.npy").unlink(),
    "array-flipped": lambda f, o: _flip(f / "_a.npy", 200),
    "array-cut": lambda f, o: (f / "_a.npy").write_bytes((f / "_a.npy").read_bytes()[:300]),
    "array-other-shape": lambda f, o: _rewrite_side(f, "_a.npy", _npy(ARRAY[:10])),
    "array-other-dtype": lambda f, o: _rewrite_side(f, "_a.npy", _npy(ARRAY.astype(np.uint32))),
    "array-fortran": lambda f, o: _rewrite_side(f, "_a.npy", _npy(np.asfortranarray(ARRAY.reshape(10, 100)))),
    "array-header-lies": lambda f, o: _rewrite_side(f, "_a.npy", _npy(ARRAY)[:-2]),
    "array-objects": lambda f, o: _rewrite_side(f, "_a.npy", _npy(np.array([{"a": 1}] * 3, dtype=object))),
    "array-not-npy": lambda f, o: _rewrite_side(f, "_a.npy", b"\x00" * 2128),
    "document-fifo": lambda f, o: _replace(f / "_b.json", "fifo", o),
    "document-flipped": lambda f, o: _flip(f / "_b.json", 2),
    "document-deep": lambda f, o: _rewrite_side(f, "_b.json", b"[" * 100_000),
}

CONSISTENT = {"array-other-shape", "array-other-dtype", "array-fortran", "array-header-lies", "array-objects",
              "array-not-npy", "document-deep"}   # rewritten with the manifest's SHA-256 to match

READERS = {
    "document": lambda s, m: verified.read_document(s, *verified.manifest_path(NAME)),
    "side_bytes": lambda s, m: verified.side_bytes(s, NAME, m, "_b.json"),
    "side_document": lambda s, m: verified.side_document(s, NAME, m, "_b.json"),
    "side_array": lambda s, m: verified.side_array(s, NAME, m, "_a.npy", np.uint16, (SIDE,)),
    "verify_side": lambda s, m: verified.verify_side(s, NAME, m, "_a.npy"),
    "damaged_side_output": lambda s, m: verified.damaged_side_output(s, NAME, m, ("_a.npy", "_b.json")),
    "read": lambda s, m: read(WithSides(), s.location).num_rows,
}


def _clean_answer(reader: str, clean_out: Path, out: Path):
    if reader == "document":                 # a bounded JSON object: whatever the (regular) file holds
        return json.loads(manifest_file(out, NAME).read_text())
    storage = Storage.open(clean_out)
    return READERS[reader](storage, verified.document(storage, *verified.manifest_path(NAME)))


def _bounded(call, seconds=10):
    return bounded(call, seconds)


def _same(a, b) -> bool:
    return np.array_equal(a, b) if isinstance(a, np.ndarray) or isinstance(b, np.ndarray) else a == b


@pytest.mark.parametrize("damage", list(DAMAGE))
def test_every_reader_gives_the_clean_answer_or_one_line(clean, tmp_path, damage):
    out, outside = tmp_path / "out", tmp_path / "outside"
    shutil.copytree(clean, out)
    outside.mkdir()
    DAMAGE[damage](meta(out, NAME), outside)
    storage = Storage.open(out)
    manifest = verified.document(storage, *verified.manifest_path(NAME))
    manifest = manifest if isinstance(manifest, dict) else _manifest(meta(clean, NAME))
    outcomes = {}
    for reader, call in READERS.items():
        try:
            got = _bounded(lambda call=call: call(storage, manifest))
        except Slow:
            pytest.fail(f"{damage}: {reader} hung")
        except InputError as e:
            assert "\n" not in str(e) and str(e), (damage, reader, str(e))
            outcomes[reader] = "refused"
            continue
        except FileNotFoundError:
            assert damage.endswith("missing") or reader == "document", (damage, reader)
            outcomes[reader] = "missing"
            continue
        if damage in CONSISTENT and reader == "side_bytes":
            outcomes[reader] = "vouched"           # the bytes the manifest records, read as bytes: right
            continue
        want = _clean_answer(reader, clean, out)
        if reader == "damaged_side_output" and got is not None:
            outcomes[reader] = "found"
            continue
        assert _same(got, want), f"{damage}: {reader} answered {got!r:.60} from damaged bytes"
        outcomes[reader] = "clean"
    # the damage is seen by the reader of what was damaged (bytes the manifest vouches for, by the reader that
    # expects an array or a document of them; anything else already by the runner's check)
    found = "clean" if damage in CONSISTENT else "found"
    if damage.startswith("array") or damage.startswith("side-"):
        assert outcomes["side_array"] == "refused" and outcomes["damaged_side_output"] == found, outcomes
    if damage.startswith("document"):
        assert outcomes["side_document"] == "refused" and outcomes["damaged_side_output"] == found, outcomes
    if damage.startswith("manifest"):
        assert outcomes["document"] in ("refused", "missing") and outcomes["read"] == "refused", outcomes


@pytest.mark.parametrize("damage", [d for d in DAMAGE if not d.startswith("manifest-link")])
def test_a_rebuild_repairs_it_or_says_what_is_wrong(clean, tmp_path, damage):
    """The runner's own reads follow the same rules: a rebuild writes the clean bytes again, or refuses in one
    line what it must not replace (a folder, a FIFO, a link) — never a hang or a traceback."""
    out, outside = tmp_path / "out", tmp_path / "outside"
    shutil.copytree(clean, out)
    outside.mkdir()
    DAMAGE[damage](meta(out, NAME), outside)
    try:
        _bounded(lambda: build(WithSides(), out, workers=1), 60)
    except Slow:
        pytest.fail(f"{damage}: the rebuild hung")
    except PokerpipeError as e:              # what it must not replace: named, in one line
        assert "\n" not in str(e) and any(w in str(e) for w in ("FIFO", "folder", "symbolic link")), str(e)
        return
    storage = Storage.open(out)
    manifest = verified.read_document(storage, *verified.manifest_path(NAME))
    assert verified.damaged_side_output(storage, NAME, manifest, ("_a.npy", "_b.json")) is None
    if damage in CONSISTENT and damage.startswith("array"):
        # another array whose SHA-256 the manifest records: the runner has no cause to rewrite it, the reader
        # that expects the array says in one line what it holds instead
        with pytest.raises(InputError, match="_a.npy (holds|is not)"):
            verified.side_array(storage, NAME, manifest, "_a.npy", np.uint16, (SIDE,))
        return
    assert np.array_equal(verified.side_array(storage, NAME, manifest, "_a.npy", np.uint16, (SIDE,)), ARRAY)
    assert (meta(out, NAME) / "_a.npy").read_bytes() == (meta(clean, NAME) / "_a.npy").read_bytes()


def test_bit_rot_after_a_first_read_is_found_by_the_next_process(clean, tmp_path):
    """Issue 39, case 2: the bytes are hashed in each process, and again in the same one once the file's change
    time moved (which no write can keep); a stamp of path, size, modification time and inode is no proof."""
    out = tmp_path / "out"
    shutil.copytree(clean, out)
    storage = Storage.open(out)
    manifest = verified.read_document(storage, *verified.manifest_path(NAME))
    assert np.array_equal(verified.side_array(storage, NAME, manifest, "_a.npy", np.uint16, (SIDE,)), ARRAY)
    _flip(meta(out, NAME) / "_a.npy", 300)
    with pytest.raises(InputError, match="_a.npy is damaged"):
        verified.side_array(storage, NAME, manifest, "_a.npy", np.uint16, (SIDE,))
