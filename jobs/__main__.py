"""``python -m jobs`` runs the ``pokerpipe`` command line."""
import sys

from .app import main

sys.exit(main())
