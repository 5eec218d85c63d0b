"""Video poker: exact return, variance, distribution and optimal strategy for any pay table.

>>> from pipeline.videopoker import analyze, builtin
>>> a = analyze(builtin("jacks-or-better-9-6"))
>>> round(a.ret, 8), round(a.variance, 6)
(0.99543904, 19.514676)
"""
from .analyzer import Analysis, analyze, break_even_royal
from .paytable import PayTable, PayTableError, builtin, builtin_names, load

__all__ = ["analyze", "break_even_royal", "Analysis", "PayTable", "PayTableError", "builtin",
           "builtin_names", "load"]
