"""How good an evolved player is: yardsticks (:mod:`.yardsticks`), the evolution's report (:mod:`.report`),
the player inside rlcard's own environment (:mod:`.rlcard_agent`), and an ``evaluate`` run's options checked
and its work refused beyond a day (:mod:`.plan`)."""
from .plan import EvaluateError, EvaluatePlan
from .report import build_report
from .yardsticks import YARDSTICKS, YardstickResult, against

__all__ = ["EvaluateError", "EvaluatePlan", "YARDSTICKS", "YardstickResult", "against", "build_report"]
