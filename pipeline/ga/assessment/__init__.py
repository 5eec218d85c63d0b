"""How good an evolved player is: yardsticks (:mod:`.yardsticks`), the evolution's report (:mod:`.report`),
and the player inside rlcard's own environment (:mod:`.rlcard_agent`)."""
from .report import build_report
from .yardsticks import YARDSTICKS, YardstickResult, against

__all__ = ["YARDSTICKS", "YardstickResult", "against", "build_report"]
