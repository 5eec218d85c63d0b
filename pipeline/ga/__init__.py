"""A fixed-limit hold'em player evolved by a co-evolutionary genetic algorithm (García Pérez's thesis, §3).

Modules: :mod:`.chromosome` (the gene table's layout, player files),
:mod:`.operators` (selection, crossovers, mutation), :mod:`.fitness` (matches
against the trainers), :mod:`.config`, :mod:`.checkpoint`, :mod:`.evolve` (the
two-phase loop), :mod:`.yardsticks` (a player against fixed opponents),
:mod:`.report` and :mod:`.rlcard_agent` (the player inside rlcard's
environment).  The decision itself runs in the betting kernel as the
``evolved`` policy kind (:mod:`pipeline.holdem.genes`).

This package's ``__init__`` imports nothing: :mod:`pipeline.holdem` reads
player files through :mod:`.chromosome` while :mod:`.fitness` plays on
:mod:`pipeline.holdem`, so the package itself stays out of that path.
"""
