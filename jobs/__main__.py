"""``python -m jobs`` runs the ``pokerpipe`` command line."""
from jobs.launch import entry

entry()
