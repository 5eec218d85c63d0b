"""The error base classes: what a user can fix, and what stopped on purpose.

Every error pokerpipe raises on purpose derives from :class:`PokerpipeError`.
:class:`InputError` is input a user can correct — a card, a range, an option,
a parameter or a file that cannot be used; the command line prints it as one
line on stderr and exits with code 2.  It is also a ``ValueError``, so callers
of the library that catch ``ValueError`` keep working.  :class:`Interrupted`
is work stopped by Ctrl-C or SIGTERM with what was finished kept (exit 130).

>>> from pipeline.core.cards import CardError
>>> issubclass(CardError, InputError) and issubclass(InputError, ValueError)
True
"""
from __future__ import annotations


class PokerpipeError(Exception):
    """Base of every error pokerpipe raises on purpose."""


class InputError(PokerpipeError, ValueError):
    """Input a user can correct (a card, range, option, parameter or file); one line, exit code 2."""


class Interrupted(PokerpipeError):
    """Work stopped by Ctrl-C or SIGTERM; what was finished is kept, so the same command resumes it."""
