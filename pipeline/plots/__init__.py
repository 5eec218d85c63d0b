"""Pictures drawn with Pillow: the 13x13 heat map (:mod:`.heatmap`), the win-odds graph (:mod:`.odds`), and
the evolution report's line charts and threshold map (:mod:`.evolution`).  Each returns PNG bytes."""
from .evolution import line_chart, threshold_map
from .heatmap import heatmap_png
from .odds import odds_png

__all__ = ["heatmap_png", "line_chart", "odds_png", "threshold_map"]
