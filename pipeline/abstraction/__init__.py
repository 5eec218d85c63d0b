"""Card abstraction for poker AI: exact hand-strength features and buckets of every canonical situation.

Distribution-aware abstraction (Johanson, Burch, Valenzano and Bowling,
"Evaluating state-space abstractions in extensive-form games", AAMAS 2013)
and potential-aware abstraction with earth mover's distance (Ganzfried and
Sandholm, "Potential-aware imperfect-recall abstraction with earth mover's
distance in imperfect-information games", AAAI 2014), from exact features.
"""
