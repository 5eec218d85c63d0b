"""The bucket file solvers read: one street's buckets as a flat array keyed by Waugh's hand index.

A solver in C or Rust that indexes hands with Waugh's ``hand_index_last``
(:mod:`pipeline.isomorphism.waugh`) reads a street's bucket as
``buckets[hand_index_last(&indexer, cards)]``: the file is a 64-byte header
and then one unsigned 16-bit little-endian bucket per index of the street's
boards-as-sets indexer, ``hand_indexer_init(2, {2, n})`` (``{2}`` preflop).

==========  =====  ==============================================================================
offset      bytes  field (little-endian)
==========  =====  ==============================================================================
0           8      ``magic``: ``PPWAUGH`` and a zero byte
8           4      ``version``: 1
12          4      ``header_bytes``: 64 (the buckets start there)
16          4      ``street``: 0 preflop, 1 flop, 2 turn, 3 river
20          4      ``rounds``: the indexer's rounds (1 preflop, 2 after)
24          8      ``cards_per_round``: the indexer's, zero-padded (``2 3 0 0 0 0 0 0`` on the flop)
32          4      ``k``: buckets; a bucket is 0 .. k - 1
36          4      ``dtype``: 2 — each bucket an unsigned 16-bit little-endian integer
40          8      ``count``: buckets in the file, ``hand_indexer_size`` of the last round
48          4      ``no_bucket``: 65,535, the value of an index a limited (``limit``) build did not reach
52          4      ``payload_crc32``: CRC-32 (zlib's, as gzip and PNG) of the ``2 * count`` bytes of buckets
56          4      reserved: 0
60          4      ``header_crc32``: CRC-32 of the 60 bytes before it
==========  =====  ==============================================================================

:func:`encode` writes it; :func:`decode` checks every field against the
street's indexer and both checksums before it hands the array out (a
read-only view of the bytes, no copy).  The batch layer writes the file
atomically and records its SHA-256 (:mod:`pipeline.batch.verified` reads it
back); the CRCs let a solver check it alone.

>>> data = encode("preflop", 169, np.arange(169, dtype=np.uint16))
>>> len(data), decode(data, "example").buckets[:3].tolist()
(402, [0, 1, 2])
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.inputs import shown
from ..isomorphism.waugh import HOLDEM_ROUNDS, holdem_indexer
from .lookup import AbstractionError
from .streets import NO_BUCKET

MAGIC = b"PPWAUGH\0"
VERSION = 1
HEADER = struct.Struct("<8sIIII8sIIQIIII")        # the 64 bytes of the table above
DTYPE_UINT16 = 2
STREET_CODES = {"preflop": 0, "flop": 1, "turn": 2, "river": 3}
FILE_NAME = "_buckets.waugh"


@dataclass(frozen=True)
class WaughBuckets:
    """A decoded bucket file: the street, its indexer's ``cards_per_round``, ``k`` and the ``buckets``
    (uint16, one per Waugh index; :data:`~pipeline.abstraction.streets.NO_BUCKET` where not reached)."""

    street: str
    cards_per_round: tuple[int, ...]
    k: int
    buckets: np.ndarray

    def bucket(self, index: int) -> int:
        """The bucket of Waugh index ``index`` (65,535: a limited build did not reach it)."""
        return int(self.buckets[index])


def _crc32(data: Any) -> int:
    return zlib.crc32(data) & 0xFFFFFFFF


def encode(street: str, k: int, buckets: np.ndarray) -> bytes:
    """The file of ``street``'s ``buckets`` (one per Waugh index, each below ``k`` or NO_BUCKET)."""
    rounds = HOLDEM_ROUNDS[street]
    count = holdem_indexer(street).size()
    payload = np.ascontiguousarray(buckets, "<u2")
    if payload.shape != (count,):
        raise AbstractionError(f"{street}: {payload.shape} buckets, not one per each of the {count:,} indices")
    if payload.size and int(payload[payload != NO_BUCKET].max(initial=0)) >= k:
        raise AbstractionError(f"{street}: a bucket is {int(payload[payload != NO_BUCKET].max())}, not below k = {k}")
    data = payload.tobytes()
    head = HEADER.pack(MAGIC, VERSION, HEADER.size, STREET_CODES[street], len(rounds),
                       bytes(rounds).ljust(8, b"\0"), k, DTYPE_UINT16, count, NO_BUCKET, _crc32(data), 0, 0)
    head = head[:-4] + struct.pack("<I", _crc32(head[:-4]))
    return head + data


def decode(data: Any, where: str) -> WaughBuckets:
    """The bucket file in ``data`` (bytes or a buffer), every field and both CRCs checked; else
    AbstractionError naming ``where`` in one line."""
    view = memoryview(data).cast("B")
    if len(view) < HEADER.size:
        raise AbstractionError(f"{where} holds {len(view)} bytes, less than the {HEADER.size}-byte header")
    (magic, version, header_bytes, street_code, rounds, cpr, k, dtype, count, no_bucket, crc, _reserved,
     header_crc) = HEADER.unpack(view[:HEADER.size])
    if magic != MAGIC:
        raise AbstractionError(f"{where} is not a pokerpipe bucket file (magic {shown(bytes(magic))})")
    if version != VERSION:
        raise AbstractionError(f"{where} is of format version {version}; this pokerpipe reads {VERSION}")
    if header_crc != _crc32(view[:HEADER.size - 4]):
        raise AbstractionError(f"{where}: its header is damaged (CRC-32 differs)")
    streets = {v: s for s, v in STREET_CODES.items()}
    street = streets.get(street_code)
    if street is None:
        raise AbstractionError(f"{where}: street code {street_code} is none of 0..3")
    want = HOLDEM_ROUNDS[street]
    got = tuple(bytes(cpr)[:rounds]) if rounds <= 8 else ()
    size = holdem_indexer(street).size()
    if (header_bytes != HEADER.size or got != want or any(bytes(cpr)[rounds:]) or dtype != DTYPE_UINT16
            or count != size or no_bucket != NO_BUCKET or not 1 <= k <= NO_BUCKET):
        raise AbstractionError(f"{where}: its header describes no {street} file of this format (header "
                               f"{header_bytes} bytes, indexer {list(got)}, dtype {dtype}, {count:,} buckets, k {k})")
    if len(view) != HEADER.size + 2 * count:
        raise AbstractionError(f"{where} holds {len(view):,} bytes, its header describes {HEADER.size + 2 * count:,}: "
                               "it is cut short or padded")
    if crc != _crc32(view[HEADER.size:]):
        raise AbstractionError(f"{where}: its buckets are damaged (CRC-32 differs)")
    buckets = np.frombuffer(view, "<u2", count=count, offset=HEADER.size)
    reached = buckets[buckets != NO_BUCKET]
    if reached.size and int(reached.max()) >= k:
        raise AbstractionError(f"{where}: a bucket is {int(reached.max())}, not below k = {k}")
    if buckets.flags.writeable:
        buckets = buckets.view()
        buckets.flags.writeable = False
    return WaughBuckets(street, want, int(k), buckets)


__all__ = ["FILE_NAME", "HEADER", "MAGIC", "STREET_CODES", "VERSION", "WaughBuckets", "decode", "encode"]
