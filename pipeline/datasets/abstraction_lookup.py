"""A built card abstraction opened for lookups: the ``abstraction/<street>`` datasets under a local folder.

:func:`load_abstraction` finds each street's finished run with the asked
``k``, ``bins`` and ``seed`` (any ``limit``: a smoke build looks up too),
and gives a :class:`pipeline.abstraction.Abstraction` whose bucket arrays
are read through the one verified read (:mod:`pipeline.batch.verified`):
the manifest bounded and typed and checked against the dataset it names, its
parameters rebuilt through the registry (``"k": true`` is not ``k`` = 1),
``_buckets.npy`` a regular file reached through no link, hashed in this
process against the manifest's SHA-256 and its header checked against the
bytes before it is mapped.  :func:`built_clusters` reads a build's OCHS
opponent clusters the same way.

>>> load_abstraction("s3://bucket/out")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pipeline.abstraction.lookup.AbstractionError: s3://bucket/out is a URL: lookups map local files; ...
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, Optional

import numpy as np

from ..abstraction.features import DEFAULT_BINS
from ..abstraction.lookup import (
    Abstraction,
    AbstractionError,
    AbstractionNotBuilt,
    StreetBuckets,
    check_bins,
    check_street,
    clusters_from,
)
from ..abstraction.streets import DEFAULT_K, MAX_K
from ..abstraction.waugh_file import WaughBuckets
from ..batch.manifest import check_manifest, manifest_matches
from ..batch.storage import FOLDER, Storage, StorageError
from ..batch.verified import manifest_path, read_document, side_array, side_bytes, side_document, side_path
from ..core.errors import InputError
from ..core.inputs import integer, shown
from ..isomorphism.situations import street_size
from .recipes.abstraction import SEED_MAX, Preflop, Street
from .streets import STREETS

BUCKETS = "_buckets.npy"
CLUSTERS = "_clusters.json"
URL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def check_lookup(k: Any, bins: Any, seed: Any,
                 names: tuple[str, str, str] = ("k", "bins", "seed")) -> tuple[int, int, int]:
    """``(k, bins, seed)`` of an abstraction to look up, each checked by type and range as the build checks
    it (``names``: how the caller calls them, ``--k`` on the command line); AbstractionError otherwise."""
    return (integer(k, names[0], 1, MAX_K, error=AbstractionError, strict=True), check_bins(bins, names[1]),
            integer(seed, names[2], 0, SEED_MAX, error=AbstractionError, strict=True))


def _local(out: str | os.PathLike[str]) -> Storage:
    location = os.fspath(out)
    if URL.match(location):
        raise AbstractionError(f"{location} is a URL: lookups map local files; copy the abstraction to a local "
                               "folder")
    try:
        storage = Storage.open(location)
        storage.check(FOLDER)               # a file there is a mistake to name, not an abstraction "not built"
    except StorageError as e:
        raise AbstractionError(str(e)) from None
    return storage


def _manifest(storage: Storage, name: str, what: str) -> dict:
    """The manifest of ``name`` at ``storage`` (not yet checked against the dataset): AbstractionNotBuilt when
    there is none, AbstractionError saying what is wrong when the file there is not a readable JSON object."""
    try:
        kind = storage.kind(*manifest_path(name))
    except StorageError as e:                             # a link on the way
        raise AbstractionError(str(e)) from None
    if kind is None:
        raise AbstractionNotBuilt(f"the {what} is not built at {storage.url()} (build it with "
                                  f"`pokerpipe tables abstraction --out {storage.url()}`)")
    try:
        return read_document(storage, *manifest_path(name), error=AbstractionError)
    except FileNotFoundError:                             # removed since: not built
        raise AbstractionNotBuilt(f"the {what} is not built at {storage.url()}") from None


def _built(storage: Storage, street: str, manifest: dict, recipe: Callable[..., Any] = Street,
           name: Optional[str] = None) -> Any:
    """The dataset ``manifest`` records (``recipe``'s of ``street``, named ``name``: ``abstraction/<street>``
    by default), rebuilt from its own parameters through the recipe (each checked by type and range), and
    checked to be a finished run of it; AbstractionError saying what is wrong."""
    where = storage.url(*manifest_path(name or f"abstraction/{street}"))
    params = manifest.get("parameters")
    if not isinstance(params, dict):
        raise AbstractionError(f"{where}: its parameters are {shown(params)}, not an object; build it again")
    accepted = {"k", "bins", "seed", "limit", "turn_k"}
    try:
        ds = recipe(street, **{key: v for key, v in params.items() if key in accepted})
    except (InputError, TypeError) as e:
        raise AbstractionError(f"{where} records parameters no build has: {e}; build it again") from None
    if not manifest_matches(manifest, ds):
        raise AbstractionError(f"{where} records parameters {shown(params)} or a version that no build of this "
                               "pokerpipe writes; build it again")
    why = check_manifest(manifest, ds, ds.planned_parts())
    if why is not None:
        raise AbstractionError(f"the {street} abstraction at {storage.url()} is not a finished run ({why}); "
                               "build it again")
    return ds


def _parameters_agree(ds: Any, street: str, k: int, bins: int, seed: int, where: str) -> None:
    want = {"k": k, "seed": seed, **({"bins": bins} if street != "river" else {})}
    got = {key: ds.params.get(key) for key in want}
    if got != want:
        raise AbstractionError(f"the {street} abstraction at {where} was built with "
                               f"{', '.join(f'{a}={b}' for a, b in got.items())}, not "
                               f"{', '.join(f'{a}={b}' for a, b in want.items())}")


def load_waugh_buckets(out: str | os.PathLike[str], street: str, k: int = DEFAULT_K, bins: int = DEFAULT_BINS,
                       seed: int = 0) -> WaughBuckets:
    """The ``_buckets.waugh`` file of ``abstraction/<street>-waugh`` built under the local folder ``out`` with
    these parameters (``preflop`` has none: its buckets are the 169 classes), its bytes hashed here against
    the manifest's SHA-256 and then decoded with every header field and both CRCs checked.

    AbstractionNotBuilt when it is not built there; AbstractionError when it is unfinished, damaged, built
    with other parameters, or an argument is out of range.
    """
    from ..abstraction.waugh_file import FILE_NAME, decode
    from .recipes.abstraction_waugh import PreflopWaugh, StreetWaugh

    k, bins, seed = check_lookup(k, bins, seed)
    if street != "preflop":
        street = check_street(street)
    storage = _local(out)
    name = f"abstraction/{street}-waugh"
    manifest = _manifest(storage, name, f"{street} export keyed by Waugh's index")
    if street == "preflop":
        ds: Any = PreflopWaugh()
        why = check_manifest(manifest, ds, ds.planned_parts())
        if why is not None:
            raise AbstractionError(f"{storage.url(name)} is not a finished run ({why}); build it again")
    else:
        ds = _built(storage, street, manifest, StreetWaugh, name)
        _parameters_agree(ds, street, k, bins, seed, storage.url())
    data = side_bytes(storage, name, manifest, FILE_NAME, max_bytes=1 << 31, error=AbstractionError)
    return decode(data, storage.url(*side_path(name, FILE_NAME)))


def load_abstraction(out: str | os.PathLike[str], k: int = DEFAULT_K, bins: int = DEFAULT_BINS, seed: int = 0,
                     streets: Sequence[str] = ("flop", "turn", "river")) -> Abstraction:
    """The abstraction built under the local folder ``out`` with these parameters (``k`` buckets per street),
    its bucket arrays verified and mapped when first used.

    AbstractionNotBuilt when a street is not built there; AbstractionError when it is unfinished, damaged,
    built with other parameters, or an argument is out of range.
    """
    k, bins, seed = check_lookup(k, bins, seed)
    if isinstance(streets, str) or not isinstance(streets, Sequence):
        raise AbstractionError(f"streets must be a list of flop, turn or river, got {shown(streets)}")
    storage = _local(out)
    found: dict[str, StreetBuckets] = {}
    for street in streets:
        street = check_street(street)
        name = f"abstraction/{street}"
        manifest = _manifest(storage, name, f"{street} abstraction")
        ds = _built(storage, street, manifest)
        _parameters_agree(ds, street, k, bins, seed, storage.url())
        mapped = partial(side_array, storage, name, manifest, BUCKETS, np.uint16, (street_size(STREETS[street]),),
                         error=AbstractionError)
        found[street] = StreetBuckets(street, k, dict(ds.params), mapped)
    return Abstraction(found, storage.url())


def built_clusters(out: str | os.PathLike[str], seed: int = 0) -> Optional[np.ndarray]:
    """The OCHS opponent clusters of the ``abstraction/preflop`` built under ``out`` with ``seed`` (the one the
    river build reads), or None when none is built there; AbstractionError when the one there is damaged."""
    seed = integer(seed, "seed", 0, SEED_MAX, error=AbstractionError, strict=True)
    storage = _local(out)
    ds = Preflop(seed=seed)
    try:
        manifest = _manifest(storage, ds.name, "preflop abstraction")
    except AbstractionNotBuilt:
        return None
    if not manifest_matches(manifest, ds):
        return None                        # another seed's clusters: the river of this seed was not built here
    why = check_manifest(manifest, ds, ds.planned_parts())
    if why is not None:
        raise AbstractionError(f"{storage.url(ds.name)} is not a finished run ({why}); build it again")
    doc = side_document(storage, ds.name, manifest, CLUSTERS, error=AbstractionError)
    return clusters_from(doc, storage.url(*side_path(ds.name, CLUSTERS)))
