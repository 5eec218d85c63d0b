"""The commands of ``pokerpipe``: one module per command, named after its file (found by :mod:`jobs.main`)."""
