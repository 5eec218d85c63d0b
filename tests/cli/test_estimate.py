"""The announced time of a long run comes from its warm rate (issue 40, item 6): the first piece of work, which
loads or compiles the kernels, is not counted."""
from jobs.estimate import Estimate


def test_the_estimate_leaves_out_the_first_pieces_start(capsys):
    """10^9 trials at 10^7 a second once warm: 100 s, though the first piece took 20 s (a first use's compile,
    which counted would have announced about 33 minutes)."""
    progress = Estimate()
    progress(10**6, 10**9, 20.0, "trials")            # the first piece: compile and start
    progress(2 * 10**6, 10**9, 20.1, "trials")        # too soon after it to measure a rate
    assert capsys.readouterr().err == ""
    progress(11 * 10**6, 10**9, 21.0, "trials")       # 10^7 trials in 1 s
    err = capsys.readouterr().err
    assert "pokerpipe: 1,000,000,000 trials at 10,000,000/s will take about 99 seconds;" in err, err
    progress(12 * 10**6, 10**9, 22.0, "trials")       # said once
    assert capsys.readouterr().err == ""


def test_a_short_run_is_not_announced(capsys):
    progress = Estimate()
    progress(10**6, 2 * 10**6, 5.0, "trials")
    progress(2 * 10**6, 2 * 10**6, 5.2, "trials")
    assert capsys.readouterr().err == ""
