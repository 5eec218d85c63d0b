"""What the street datasets share: one dataset per street, its canonical boards in parts, ``limit`` for smoke runs."""
from __future__ import annotations

from typing import Optional

from ..batch.spec import Dataset
from ..core.errors import InputError
from ..core.inputs import integer, shown

STREETS = {"flop": 3, "turn": 4, "river": 5}               # board cards
MAX_LIMIT = 10**9          # a smoke run's limit: beyond any dataset's size (that is the whole of it), JSON-safe


def check_street(street: object) -> str:
    """``street`` (flop, turn or river, any case) in lower case; InputError otherwise."""
    if not isinstance(street, str) or street.lower() not in STREETS:
        raise InputError(f"--street must be flop, turn or river, got {shown(street)}")
    return street.lower()


def planned_parts(street: str, limit: Optional[int], boards_per_part: int) -> int:
    """How many parts of ``boards_per_part`` canonical boards the street's first ``limit`` boards (all of them:
    None) make, counted without enumerating the boards (1.5 s for the river)."""
    from ..isomorphism.boards import CANONICAL_BOARDS

    total = CANONICAL_BOARDS[STREETS[street]]
    boards = total if limit is None else min(total, limit)
    return -(-boards // boards_per_part)


class StreetDataset(Dataset):
    """Base of the ``<family>/flop|turn|river`` datasets: checks the street and the limit, names the dataset
    and records ``street``, ``boards_per_part`` and ``limit`` (when given) as its parameters."""

    family = ""

    def __init__(self, street: str, limit: Optional[int], boards_per_part: int) -> None:
        street = check_street(street)
        limit = None if limit is None else integer(limit, f"{self.family}/{street}.limit", lo=1, hi=MAX_LIMIT)
        self.street, self.limit = street, limit
        self.name = f"{self.family}/{street}"
        self.params = {"street": street, "boards_per_part": boards_per_part, **({"limit": limit} if limit else {})}
