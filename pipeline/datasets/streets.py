"""What the street datasets share: one dataset per street, its canonical boards in parts, ``limit`` for smoke runs."""
from __future__ import annotations

from typing import Optional

from ..batch.spec import Dataset

STREETS = {"flop": 3, "turn": 4, "river": 5}               # board cards


class StreetDataset(Dataset):
    """Base of the ``<family>/flop|turn|river`` datasets: checks the street and the limit, names the dataset
    and records ``street``, ``boards_per_part`` and ``limit`` (when given) as its parameters."""

    family = ""

    def __init__(self, street: str, limit: Optional[int], boards_per_part: int) -> None:
        street = street.lower()
        if street not in STREETS:
            raise ValueError(f"--street must be flop, turn or river, got {street!r}")
        if limit is not None and limit < 1:
            raise ValueError(f"--limit must be positive, got {limit}")
        self.street, self.limit = street, limit
        self.name = f"{self.family}/{street}"
        self.params = {"street": street, "boards_per_part": boards_per_part, **({"limit": limit} if limit else {})}
