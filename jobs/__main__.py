"""``python -m jobs`` runs the ``pokerpipe`` command line."""
from .app import entry

entry()
