"""Errors of a batch run, shared by the runner and the cluster session."""
from __future__ import annotations

from ..core.errors import Interrupted, PokerpipeError

__all__ = ["Interrupted", "RunnerError"]


class RunnerError(PokerpipeError):
    """A dataset cannot be built as asked (bad output, unreachable scheduler, a failed partition, ...)."""
