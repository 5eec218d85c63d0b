"""Every parameter of every registered dataset, fed random values of every JSON type (issue 20, cases 12 and 18).

Through the library's entry point, ``pipeline.datasets.dataset(name, **params)`` (the one ``--param``, the
per-dataset commands and ``datasets.build`` all use): each draw must end in a clean one-line InputError (a
DatasetError is one) or in a dataset whose recorded parameters are plain JSON of the right types — never
another exception, never a value coerced into something the user did not write.
"""
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.batch.parquet import canonical_json
from pipeline.batch.spec import Dataset
from pipeline.core.errors import InputError
from pipeline.datasets import dataset, names, parameters

SCALARS = (st.none() | st.booleans() | st.integers() | st.integers(-3, 12)
           | st.floats(allow_nan=True, allow_infinity=True)
           | st.sampled_from([0.5, 2.0, 2.5, 1e400, -0.0, 1e6, -10**300])
           | st.sampled_from([5000, 20000]).map(lambda digits: 10**digits)      # beyond int -> text
           | st.text(max_size=12)
           | st.sampled_from(["1-9", "3", "2,3", "0", "-1", "9-1", "1e400", "abc", "flop", "", " 2 - 4 ", "1,,2",
                              "\u0663", "9" * 5000]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4)
                      | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)

# one dataset of each family with parameters, plus those without (an unknown key must be named)
FAMILIES = sorted({n for n in names() if parameters(n)} | {"odds-table", "preflop-grid",
                                                            next(n for n in names() if n.startswith("videopoker/"))})


def _plain(value) -> bool:
    """JSON's own types all the way down: no float that is not finite, no bool where a number was meant."""
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, (list, tuple)):
        return all(_plain(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v) for k, v in value.items())
    return value is None or isinstance(value, (str, int))


@pytest.mark.parametrize("name", FAMILIES)
@given(data=st.data())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_parameter_is_checked(name, data):
    keys = parameters(name)
    params = data.draw(st.dictionaries(st.sampled_from(keys + ["bogus"]), VALUES, max_size=len(keys) + 1))
    try:
        ds = dataset(name, **params)
    except InputError as e:                  # DatasetError derives from it
        message = str(e)
        assert message and "\n" not in message and len(message) < 400, message
        if "bogus" in params:
            assert "unknown parameter 'bogus'" in message
        return
    assert "bogus" not in params
    assert isinstance(ds, Dataset) and ds.name == name
    assert _plain(ds.params) and json.loads(canonical_json(ds.params)) == ds.params
    for key, value in params.items():        # what was accepted is what was written, not a coercion of it
        recorded = ds.params.get(key, value)
        if key == "limit" and value is None:      # no limit: the whole dataset
            assert "limit" not in ds.params
        elif key in ("limit", "trials", "seed"):
            assert isinstance(recorded, int) and not isinstance(recorded, bool) and recorded == value
            assert not isinstance(value, bool) and recorded >= (0 if key == "seed" else 1)
        if key == "opponents":
            assert recorded and all(type(k) is int and 1 <= k <= 9 for k in recorded)
            assert not isinstance(value, bool)


def test_a_player_name_too_long_for_the_system_is_one_line():
    """Found by the property above on CI: a 250-digit player made pathlib's is_file raise ENAMETOOLONG."""
    from pipeline.core.files import kind_of

    assert kind_of("9" * 5000) is None and kind_of("9" * 5000, follow=True) is None
    for name, key, value in (("exploitability", "player", "9" * 300), ("exploitability-exact", "policy",
                                                                       "9" * 300 + ".json")):
        with pytest.raises(InputError, match="no player file at") as e:
            dataset(name, **{key: value})
        assert len(str(e.value)) < 120 and "\n" not in str(e.value)


@pytest.mark.parametrize("name", FAMILIES)
def test_every_parameter_takes_a_huge_number_in_one_line(name):
    """Found by the property above on CI: vs-random refused trials=10**5000 by formatting it as a float
    (OverflowError), and trials=1e207 in 208 digits.  Every parameter, every huge number, every family: a
    clean one-line refusal or a dataset, whichever key draws it."""
    for key in parameters(name):
        for value in (10**5000, -10**5000, 10**300, 1e300, 10**18 + 1):
            try:
                dataset(name, **{key: value})
            except InputError as e:
                assert "\n" not in str(e) and len(str(e)) < 400, (key, value, str(e)[:200])
