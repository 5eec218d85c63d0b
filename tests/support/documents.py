"""Random edits of JSON documents, for the property tests of the readers of pokerpipe's own files."""
from hypothesis import strategies as st


def json_values(*extras):
    """Any JSON value (finite numbers only: the documents are written with json.dumps), ``extras`` likelier."""
    leaves = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
              | st.text(max_size=8))
    if extras:
        leaves |= st.sampled_from(list(extras))
    return st.recursive(leaves, lambda kids: st.lists(kids, max_size=3)
                        | st.dictionaries(st.text(max_size=8), kids, max_size=3), max_leaves=8)


def paths(doc, prefix=()):
    """Every place in ``doc``, as the keys and indexes that lead to it (``()``: the whole document)."""
    yield prefix
    if isinstance(doc, dict):
        for k, v in doc.items():
            yield from paths(v, (*prefix, k))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            yield from paths(v, (*prefix, i))


def edit(doc, path, value, delete=False):
    """``doc`` with the field at ``path`` replaced by ``value`` (or deleted, where it is an object's)."""
    if not path:
        return value
    inner = doc
    for step in path[:-1]:
        inner = inner[step]
    if delete and isinstance(inner, dict):
        del inner[path[-1]]
    else:
        inner[path[-1]] = value
    return doc
