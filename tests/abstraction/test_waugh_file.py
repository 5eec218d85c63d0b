"""The ``_buckets.waugh`` file: its header as docs/abstraction.md lays it out, every damage refused, and the C
and Rust loaders of the doc compiled and run against a file pokerpipe wrote."""
from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from pipeline.abstraction.lookup import AbstractionError
from pipeline.abstraction.waugh_file import HEADER, decode, encode

DOC = (Path(__file__).parents[2] / "docs" / "abstraction.md").read_text()
FLOP = 1_286_792


def _flop_file(k: int = 200) -> tuple[bytes, np.ndarray]:
    buckets = np.random.default_rng(1).integers(0, k, FLOP).astype(np.uint16)
    buckets[::1000] = 65535                                  # a limited build's unreached situations
    return encode("flop", k, buckets), buckets


def test_the_documented_layout() -> None:
    data, buckets = _flop_file()
    assert len(data) == 64 + 2 * FLOP and HEADER.size == 64
    assert data[:8] == b"PPWAUGH\0"
    version, header, street, rounds = struct.unpack_from("<4I", data, 8)
    assert (version, header, street, rounds) == (1, 64, 1, 2)
    assert data[24:32] == bytes([2, 3, 0, 0, 0, 0, 0, 0])
    k, dtype, count, no_bucket, crc, reserved, head_crc = struct.unpack_from("<IIQIIII", data, 32)
    assert (k, dtype, count, no_bucket, reserved) == (200, 2, FLOP, 65535, 0)
    assert crc == zlib.crc32(data[64:]) and head_crc == zlib.crc32(data[:60])
    assert (np.frombuffer(data, "<u2", offset=64) == buckets).all()
    got = decode(data, "test")
    assert (got.street, got.cards_per_round, got.k) == ("flop", (2, 3), 200)
    assert (got.buckets == buckets).all() and not got.buckets.flags.writeable


@pytest.mark.parametrize("damage", ["magic", "version", "header", "payload", "short", "long", "street", "count",
                                    "bucket"])
def test_damage_is_one_line(damage: str) -> None:
    data = bytearray(_flop_file()[0])
    if damage == "magic":
        data[0] = ord("X")
    elif damage == "version":
        data[8] = 2
    elif damage == "header":
        data[33] ^= 1                                        # k changed, header CRC not
    elif damage == "payload":
        data[1000] ^= 1
    elif damage == "short":
        data = data[:-2]
    elif damage == "long":
        data += b"\0\0"
    else:                                                    # valid CRCs, wrong content
        if damage == "street":
            data[16] = 2                                     # a turn header on flop buckets
        elif damage == "count":
            struct.pack_into("<Q", data, 40, FLOP - 1)
        else:
            struct.pack_into("<I", data, 32, 10)            # k below the buckets present
        struct.pack_into("<I", data, 60, zlib.crc32(bytes(data[:60])))
    with pytest.raises(AbstractionError) as e:
        decode(bytes(data), "f.waugh")
    assert "f.waugh" in str(e.value) and "\n" not in str(e.value)


def test_encode_refuses_wrong_buckets() -> None:
    with pytest.raises(AbstractionError):
        encode("flop", 4, np.zeros(10, np.uint16))
    with pytest.raises(AbstractionError):
        encode("preflop", 4, np.arange(169, dtype=np.uint16))


def _snippet(language: str) -> str:
    return re.findall(rf"```{language}\n(.*?)```", DOC, re.S)[0]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_the_c_loader_of_the_doc(tmp_path: Path) -> None:
    data, buckets = _flop_file()
    (tmp_path / "flop.waugh").write_bytes(data)
    (tmp_path / "damaged.waugh").write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    main = r"""
int main(int argc, char **argv) {
  pp_header h;
  uint16_t *b = pp_load_buckets(argv[1], &h);
  if (!b) { printf("refused\n"); return 0; }
  printf("%u %u %u %u %llu %u %u %u %u\n", h.street, h.rounds, h.cards_per_round[0], h.cards_per_round[1],
         (unsigned long long)h.count, h.k, b[0], b[1], b[h.count - 1]);
  return 0;
}
"""
    (tmp_path / "load.c").write_text(_snippet("c") + main)
    subprocess.run(["cc", "-std=c99", "-O1", "-Wall", "-Werror", "-o", str(tmp_path / "load"),
                    str(tmp_path / "load.c")], check=True, capture_output=True, timeout=120)
    out = subprocess.run([str(tmp_path / "load"), str(tmp_path / "flop.waugh")], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    assert out == [str(x) for x in (1, 2, 2, 3, FLOP, 200, buckets[0], buckets[1], buckets[-1])]
    bad = subprocess.run([str(tmp_path / "load"), str(tmp_path / "damaged.waugh")], capture_output=True, text=True,
                         timeout=60).stdout
    assert bad.strip() == "refused"


@pytest.mark.skipif(shutil.which("rustc") is None, reason="no Rust compiler")
def test_the_rust_loader_of_the_doc(tmp_path: Path) -> None:
    data, buckets = _flop_file()
    (tmp_path / "flop.waugh").write_bytes(data)
    (tmp_path / "damaged.waugh").write_bytes(data[:100] + bytes([data[100] ^ 1]) + data[101:])
    main = """
fn main() {
    let path = std::env::args().nth(1).unwrap();
    match load_buckets(&path) {
        Ok(b) => println!("{} {:?} {} {} {} {}", b.street, b.cards_per_round, b.k, b.buckets.len(), b.buckets[0],
                          b.buckets[b.buckets.len() - 1]),
        Err(_) => println!("refused"),
    }
}
"""
    (tmp_path / "load.rs").write_text(_snippet("rust") + main)
    subprocess.run(["rustc", "--edition", "2021", "-O", "-o", str(tmp_path / "load"), str(tmp_path / "load.rs")],
                   check=True, capture_output=True, timeout=300)
    out = subprocess.run([str(tmp_path / "load"), str(tmp_path / "flop.waugh")], capture_output=True, text=True,
                         check=True, timeout=60).stdout.strip()
    assert out == f"1 [2, 3] 200 {FLOP} {buckets[0]} {buckets[-1]}"
    bad = subprocess.run([str(tmp_path / "load"), str(tmp_path / "damaged.waugh")], capture_output=True, text=True,
                         timeout=60).stdout
    assert bad.strip() == "refused"
