"""The registry: every dataset recipe, found in :mod:`.recipes`, in build order.

Each module of :mod:`pipeline.datasets.recipes` holds one family of recipes and
says what it registers (``registered()``: name -> factory) and where it stands
in the build order (``ORDER``); adding a dataset is adding one such file.  Each
recipe says what it holds (``description``, and one per column), and
:mod:`.measured` records what it costs with its default parameters (rows,
size on disk, time on 2 cores: :func:`figures`), which ``pokerpipe datasets``
and ``pokerpipe tables --help`` show before anything is built.

>>> sorted(n for n in names() if not n.startswith(("videopoker/", "abstraction")))[:4]
['ehs-table/flop', 'ehs-table/river', 'ehs-table/turn', 'exploitability']
>>> dataset("preflop-grid").depends_on
['matchups']
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from ..batch.spec import Dataset
from ..core.errors import InputError
from ..core.inputs import did_you_mean
from . import recipes
from .measured import Measured, measured

PREFLOP_SET = ("matchups", "preflop-grid", "vs-random")      # what `pokerpipe tables` builds by default


class DatasetError(InputError):
    """A dataset that is unknown, not built, or damaged."""


@lru_cache(maxsize=1)
def registry() -> dict[str, Callable[..., Dataset]]:
    """Every registered dataset's factory by name, in build order (dependencies before what reads them)."""
    modules = [importlib.import_module(f"{recipes.__name__}.{m.name}") for m in pkgutil.iter_modules(recipes.__path__)]
    out: dict[str, Callable[..., Dataset]] = {}
    for module in sorted(modules, key=lambda m: (m.ORDER, m.__name__)):
        out.update(module.registered())
    return out


def names() -> list[str]:
    """Every registered dataset, in build order (dependencies before what reads them)."""
    return list(registry())


def chosen(asked: Sequence[str]) -> list[str]:
    """The datasets ``asked`` names, in the order asked, each once: a registered name, or a group (the part of
    names before a ``/``: ``ehs-table`` is ``ehs-table/flop``, ``ehs-table/turn``, ...) for each of its
    datasets in build order; :class:`DatasetError` for a name that is neither.

    >>> chosen(["ehs-table/turn", "ehs-table"])
    ['ehs-table/turn', 'ehs-table/flop', 'ehs-table/river']
    """
    known = names()
    out: list[str] = []
    for n in asked:
        group = [k for k in known if k == n or k.startswith(n.rstrip("/") + "/")]
        if not group:
            raise DatasetError(f"unknown dataset {n!r}{did_you_mean(n, known)} (see `pokerpipe datasets`)")
        out += [g for g in group if g not in out]
    return out


def parameters(name: str) -> list[str]:
    """The parameters dataset ``name`` accepts (``--param NAME.KEY=VALUE``), in the order its recipe takes them."""
    reg = registry()
    if name not in reg:
        raise DatasetError(f"unknown dataset {name!r}{did_you_mean(name, names())} (see `pokerpipe datasets`)")
    return [p.name for p in inspect.signature(reg[name]).parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]


def dataset(name: str, **params: Any) -> Dataset:
    """The registered dataset ``name`` with ``params``: DatasetError for an unknown name, an unknown
    parameter (naming the accepted ones) or a bad value (each recipe checks its own, type and range)."""
    accepted = parameters(name)
    unknown = sorted(k for k in params if k not in accepted)
    if unknown:
        takes = f"it takes {', '.join(accepted)}" if accepted else "it takes no parameters"
        raise DatasetError(f"{name}: unknown parameter {unknown[0]!r} ({takes})")
    try:
        return registry()[name](**params)
    except DatasetError:
        raise
    except InputError as e:
        raise DatasetError(str(e)) from None
    except (TypeError, ValueError) as e:       # a recipe that left a check to Python: still one line
        raise DatasetError(f"{name}: {e}") from None


def figures(name: str) -> Measured | None:
    """What dataset ``name`` costs with its default parameters, as measured (:mod:`.measured`), or None;
    DatasetError for an unknown name."""
    if name not in registry():
        raise DatasetError(f"unknown dataset {name!r} (see `pokerpipe datasets`)")
    return measured(name)
