"""``python -m jobs`` runs the ``pokerpipe`` command line."""
import sys

try:
    from jobs.main import entry
except KeyboardInterrupt:            # Ctrl-C while the command line itself is still importing
    print("pokerpipe: interrupted", file=sys.stderr)
    sys.exit(130)

entry()
