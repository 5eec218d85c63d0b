"""Slow, independent subprocess cases run a few at a time, ahead of the tests that check them.

A fresh ``python -m jobs`` process spends most of its life importing on one core; a test that waits
for one such process after another leaves the other core of a CI machine idle.  A module fixture
submits every selected case to a small pool when the first of them is needed and each test then
checks its own result: the processes and the assertions are unchanged, only their order is not.
"""


def selected(request, test, param):
    """The values of ``param`` in the collected cases of ``test`` in the fixture's own module (other modules
    may have a test of the same name): all of them, or those that -k kept."""
    return [item.callspec.params[param] for item in request.session.items
            if getattr(item, "originalname", None) == test and hasattr(item, "callspec")
            and getattr(item, "module", None) is request.module]


def wanted(request, test):
    """Whether ``test`` of the fixture's own module was collected (and kept by -k)."""
    return any(getattr(item, "originalname", None) == test and getattr(item, "module", None) is request.module
               for item in request.session.items)
