"""Errors of a batch run, shared by the runner and the cluster session."""
from __future__ import annotations


class RunnerError(Exception):
    """A dataset cannot be built as asked (bad output, unreachable scheduler, ...)."""


class Interrupted(Exception):
    """The run was stopped by Ctrl-C or SIGTERM; finished parts are kept."""
