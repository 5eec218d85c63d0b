"""Numbers and documents from outside, checked before they are used.

Everything pokerpipe reads from a user or a file — an option, a ``--param``
value, a JSON or TOML document (player files, layouts, manifests,
checkpoints, pay tables) — passes through here first, so that a wrong type,
an absurd number or a hostile file gets one clear line (an
:class:`~pipeline.core.errors.InputError`, exit code 2 on the command line)
instead of a coercion, a traceback or a hang:

* :func:`integer`, :func:`real` and :func:`boolean` check a parsed value's
  *type* as well as its range: ``True`` is not the integer 1, ``2.5`` is not
  2, ``1e400`` and ``nan`` are not numbers of any use.
* :func:`read_local` reads a local file only if it is a regular file of
  bounded size (a FIFO would hang the read, ``/dev/zero`` never ends).
* :func:`parse_json` and :func:`parse_toml` refuse documents that are too
  large or nested too deeply *before* parsing them (Python's parsers recurse:
  ``[[[[…]]]]`` ten thousand deep raises ``RecursionError``).

>>> integer(3000, "vs-random.trials", lo=1)
3000
>>> integer(True, "vs-random.trials")
Traceback (most recent call last):
...
pipeline.core.errors.InputError: vs-random.trials must be an integer, got true
>>> parse_json(b'{"a": [1, 2]}', "a file")
{'a': [1, 2]}
"""
from __future__ import annotations

import json
import math
import os
import re
import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, Optional

import numpy as np

from .errors import InputError
from .files import open_regular

MAX_DEPTH = 32                       # nesting of any JSON/TOML document pokerpipe reads (its own need at most 6)
MAX_DOCUMENT_BYTES = 64 << 20        # 64 MiB: a checkpoint of a long evolution is a few MiB
_BRACKETS = re.compile(r"[\[\]{}]")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_TOML_STRING = re.compile(r'"""(?:[^\\]|\\.)*?"""|\'\'\'.*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*', re.S)


def shown(value: Any) -> str:
    """A value as the user would have written it (JSON spelling, cut short)."""
    try:
        text = json.dumps(value, allow_nan=True)
    except (TypeError, ValueError):
        try:
            text = repr(value)
        except ValueError:                  # an int too long for Python to write out
            text = f"{type(value).__name__} too long to show"
    return text if len(text) <= 40 else text[:37] + "..."


def integer(value: Any, what: str, lo: Optional[int] = None, hi: Optional[int] = None,
            error: type[InputError] = InputError, strict: bool = False) -> int:
    """``value`` as an int if it is one (an integral float such as ``1e6`` counts unless ``strict``, as does a
    numpy integer; ``bool`` does not) within ``lo .. hi``; else ``error`` naming ``what``.  Library
    arguments are ``strict``: an index or a card id written ``2.0`` is a mistake, not a count from a file."""
    if isinstance(value, np.integer) and not isinstance(value, np.bool_):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (strict and isinstance(value, float)):
        raise error(f"{what} must be an integer, got {shown(value)}")
    if isinstance(value, float):
        if not math.isfinite(value) or value != int(value):
            raise error(f"{what} must be an integer, got {shown(value)}")
        value = int(value)
    _check_range(value, what, lo, hi, error)
    return int(value)


def real(value: Any, what: str, lo: Optional[float] = None, hi: Optional[float] = None,
         error: type[InputError] = InputError) -> float:
    """``value`` as a finite float (ints accepted, ``bool`` not) within ``lo .. hi``; else ``error``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(f"{what} must be a number, got {shown(value)}")
    try:
        x = float(value)
    except OverflowError:
        raise error(f"{what} must be a finite number, got {shown(value)}") from None
    if not math.isfinite(x):
        raise error(f"{what} must be a finite number, got {shown(value)}")
    _check_range(x, what, lo, hi, error)
    return x


def boolean(value: Any, what: str, error: type[InputError] = InputError) -> bool:
    """``value`` if it is ``True`` or ``False`` (not 0, 1 or a string); else ``error``."""
    if not isinstance(value, bool):
        raise error(f"{what} must be true or false, got {shown(value)}")
    return value


def _check_range(x: float, what: str, lo: Optional[float], hi: Optional[float], error: type[InputError]) -> None:
    if lo is not None and hi is not None and not lo <= x <= hi:
        raise error(f"{what} must be between {lo:,} and {hi:,}, got {amount(x)}")
    if lo is not None and x < lo:
        raise error(f"{what} must be at least {lo:,}, got {amount(x)}")
    if hi is not None and x > hi:
        raise error(f"{what} must be at most {hi:,}, got {amount(x)}")


def amount(x: float) -> str:
    """``x`` for a message: in full up to 15 digits, else in short (an int of 5,000 digits cannot even be
    turned into text by Python nor into a float, and one of 300 would fill the line).

    >>> amount(1_000_000), amount(10**5000), amount(2.5e300)
    ('1,000,000', 'about 1e5000', '2.5e+300')
    """
    if abs(x) < 10**15:
        return f"{x:,}"
    if isinstance(x, float):
        return f"{x:.3g}"
    return f"about {'-' if x < 0 else ''}1e{math.floor(math.log10(abs(x)))}"


def read_local(path: str | os.PathLike[str], what: str, max_bytes: int = MAX_DOCUMENT_BYTES,
               error: type[InputError] = InputError) -> bytes:
    """The bytes of the local file ``path`` if it is a regular file of at most ``max_bytes``; else ``error``
    (missing, a folder, a FIFO or device, too large, unreadable).  A link is followed: a user's file may be
    one (:func:`pipeline.core.files.open_regular` judges what it points at)."""
    p = Path(path)
    try:
        with open_regular(p, f"{what} {p}", follow=True, error=error) as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise error(f"{what} {p}: larger than {max_bytes:,} bytes ({size:,})")
            data = f.read(max_bytes + 1)
    except FileNotFoundError:
        raise error(f"cannot read {what} {p}: no such file") from None
    except OSError as e:
        raise error(f"cannot read {what} {p}: {e.strerror or type(e).__name__}") from None
    if len(data) > max_bytes:
        raise error(f"{what} {p}: larger than {max_bytes:,} bytes")
    return data


def _text(data: bytes | str, what: str, max_bytes: int, error: type[InputError]) -> str:
    if len(data) > max_bytes:
        raise error(f"{what}: larger than {max_bytes:,} bytes ({len(data):,})")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{what}: not UTF-8 text") from None


def nesting(text: str, strings: re.Pattern[str] = _STRING) -> int:
    """How deeply brackets nest in the document ``text``, brackets inside strings not counted.

    >>> nesting('{"a": [1, {"b": "]]]"}]}')
    3
    """
    depth = deepest = 0
    for ch in _BRACKETS.findall(strings.sub("", text)):
        if ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_json(data: bytes | str, what: str, max_depth: int = MAX_DEPTH, max_bytes: int = MAX_DOCUMENT_BYTES,
               error: type[InputError] = InputError) -> Any:
    """The JSON document ``data`` parsed, if it is UTF-8, at most ``max_bytes`` and nested at most
    ``max_depth`` deep; else ``error`` naming ``what``.  ``NaN`` and ``Infinity`` are refused (not JSON)."""
    text = _text(data, what, max_bytes, error)
    if _deeper(text, max_depth, _STRING):
        raise error(f"{what}: nested too deep (more than {max_depth} levels)")

    def constant(name: str) -> None:
        raise ValueError(f"{name} is not a JSON number")

    try:
        return json.loads(text, parse_constant=constant)
    except ValueError as e:          # JSONDecodeError is a ValueError
        raise error(f"{what}: not valid JSON ({_reason(e)})") from None


def parse_toml(data: bytes | str, what: str, max_depth: int = MAX_DEPTH, max_bytes: int = 1 << 20,
               error: type[InputError] = InputError) -> dict[str, Any]:
    """The TOML document ``data`` parsed, with the same checks as :func:`parse_json`."""
    text = _text(data, what, max_bytes, error)
    if _deeper(text, max_depth, _TOML_STRING):
        raise error(f"{what}: nested too deep (more than {max_depth} levels)")
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as e:
        raise error(f"{what}: not valid TOML ({_reason(e)})") from None


def _deeper(text: str, max_depth: int, strings: re.Pattern[str]) -> bool:
    """Whether ``text`` nests deeper than ``max_depth`` (a quick count first: most documents have few brackets)."""
    if text.count("[") + text.count("{") <= max_depth:
        return False
    return nesting(text, strings) > max_depth


def _reason(e: Exception) -> str:
    text = str(e).splitlines()[0] if str(e) else type(e).__name__
    return text if len(text) <= 80 else text[:77] + "..."


def did_you_mean(name: str, choices: Iterable[str]) -> str:
    """``" (did you mean X?)"`` for the choice closest to a misspelt ``name``, or ``""`` when none is close.

    >>> did_you_mean("omaha-hlo", ["omaha", "omaha-hilo"])
    ' (did you mean omaha-hilo?)'
    >>> did_you_mean("zzz", ["tag", "station"])
    ''
    """
    import difflib

    close = difflib.get_close_matches(str(name).strip().lower(), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""
