"""Counterfactual regret minimisation: CFR+ in vector form on Leduc and on abstracted heads-up limit hold'em.

=================  ========================================================================
:mod:`.vector`     the walks of a public tree with both players' reach over their holdings
:mod:`.game`       what a game is to the solver: betting tree, chance, information-set rows
:mod:`.leduc`      Leduc hold'em, exactly as OpenSpiel's ``leduc_poker``
:mod:`.cfr`        CFR+ (regret matching+, alternating updates, linear averaging)
=================  ========================================================================

The package takes a ``concurrent.futures.Executor`` where it parallelises and
never imports :mod:`pipeline.batch`; its checkpoints and outputs are written by
:mod:`pipeline.datasets` (``pokerpipe solve``).
"""
from __future__ import annotations
