"""The docs' and README's transcripts are what the code prints today (issue 40, item 4): each ``$ pokerpipe``
command the pages show with its output is run and its output compared, byte for byte.  A page that falls
behind the code fails here; ``python tests/docs/transcripts.py --write`` rewrites the stale ones.  Seeded
Monte Carlo transcripts among them pin the seeded streams, which are the same on every machine and thread
count (tests/equity pins their digests too)."""
import sys

import pytest
from transcripts import NOT_RUN, run, runnable, transcripts

ALL = transcripts()


@pytest.mark.slow
@pytest.mark.parametrize("t", [t for t in ALL if runnable(t)], ids=lambda t: t.id)
def test_transcript_is_what_the_code_prints(t, tmp_path):
    assert run(t, tmp_path, sys.executable) == t.output, f"{t.id} is stale: python tests/docs/transcripts.py --write"


def test_every_transcript_is_run_or_says_why_not():
    """A transcript is skipped only by a rule of NOT_RUN (with its reason), or because it shows no output."""
    assert len(ALL) > 50
    skipped = [t for t in ALL if not runnable(t)]
    assert all(not t.output.strip() or any(k in t.command for k in NOT_RUN) for t in skipped)
    assert len(ALL) - len(skipped) >= 40
