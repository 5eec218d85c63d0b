"""Run a call under a wall-clock bound (SIGALRM, main thread): a test of "never a hang" fails instead of waiting."""
import signal


class Slow(Exception):
    """The call outlived its bound."""


def bounded(call, seconds: int = 30):
    """``call()``, or :class:`Slow` raised into it after ``seconds``."""
    def alarm(signum, frame):
        raise Slow

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        return call()
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
