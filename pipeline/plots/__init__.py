"""Pictures drawn with Pillow: the 13x13 heat map (:mod:`.heatmap`), the win-odds graph (:mod:`.odds`), the
evolution report's line charts and threshold map (:mod:`.evolution`), and a solve's convergence curve
(:mod:`.convergence`).  Each returns PNG bytes."""
from .convergence import convergence_png
from .evolution import line_chart, threshold_map
from .heatmap import heatmap_png
from .odds import odds_png

__all__ = ["convergence_png", "heatmap_png", "line_chart", "odds_png", "threshold_map"]
