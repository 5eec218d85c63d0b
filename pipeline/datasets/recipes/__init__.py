"""The dataset recipes, one family per module; :mod:`pipeline.datasets.registry` finds them all.

A module says what it registers (``registered()``: name -> factory) and its
place in the build order (``ORDER``: smaller first; a recipe's dependencies
come from lower numbers).
"""
