"""The ground floor every other package stands on; it imports nothing of pokerpipe's.

=====================  ===================================================================
:mod:`.cards`          card ids (``4*rank + suit``), masks, parsing and formatting
:mod:`.hand_classes`   the 169 preflop classes: grid order, labels, combos
:mod:`.combinatorics`  the one binomial table, the usable core count
:mod:`.rng`            the one random-number module: both generators, bounded draws, one shuffle step
:mod:`.files`          the one atomic write of a local file, the ``Files`` folder interface
:mod:`.arrow`          Arrow columns from numpy arrays and back, without the pandas pyarrow imports
:mod:`.cache`          the disk cache of built tables and compiled kernels (per package version)
:mod:`.errors`         the error base classes (``InputError``: one line, exit code 2)
:mod:`.version`        the package version
:mod:`.exports`        a package's public names imported on first use
=====================  ===================================================================

Nothing is re-exported here, so importing one of them loads no other.
"""
