"""A package's public names, each imported from its module on first use (PEP 562's module ``__getattr__``), so
that importing the package, or one module of it, loads none of the others.

>>> import pipeline
>>> pipeline.parse_card("As")
51
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, exports: dict[str, str], namespace: dict[str, Any]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``, whose globals are ``namespace``: a name of ``exports`` (name ->
    module, relative to the package) is imported from its module when first asked for, and kept in
    ``namespace``; any other name is an AttributeError."""
    def __getattr__(name: str) -> Any:
        if name not in exports:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{exports[name]}", package), name)
        namespace[name] = value
        return value

    return __getattr__
