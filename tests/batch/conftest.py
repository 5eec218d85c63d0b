"""A small dataset with side outputs, built once for the tests of reading back and of path kinds."""
import pytest
from support.tiny_datasets import WithSides

from pipeline.datasets import build_many


@pytest.fixture(scope="session")
def built_sides(tmp_path_factory, small_cluster):
    """``<out>/sides/`` (parts, checksum records, an array and a document beside them, a manifest) and
    ``<out>/_catalog.json``, built clean."""
    out = tmp_path_factory.mktemp("sides")
    build_many([WithSides()], out, small_cluster, write_catalog=True)
    return out
