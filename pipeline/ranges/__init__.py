"""Hand ranges: the PokerStove/Equilab syntax (:mod:`.syntax`) and Keith Rule's pocket query language (:mod:`.query`).

>>> len(parse_query("Group1")), len(parse_range("QQ+,AKs"))
(28, 22)
"""
from .query import GROUPS, parse_query
from .syntax import Range, parse_range

__all__ = ["GROUPS", "Range", "parse_query", "parse_range"]
