"""Plotting functions behind the site's figures (matplotlib is imported only here).

Every function takes keyword arguments ``lang`` ("en" or "zh") and ``theme`` ("light" or "dark") and returns
a ``matplotlib.figure.Figure``; the site renders each for both languages and both colour schemes.
"""

from pe_docs.plotting._style import LANGS, THEMES, cjk_family, text, themed
from pe_docs.plotting.relative import plot_rotating_pairs, plot_transform_matrices
from pe_docs.plotting.table import plot_heatmap, plot_waveforms

__all__ = [
    "LANGS",
    "THEMES",
    "cjk_family",
    "plot_heatmap",
    "plot_rotating_pairs",
    "plot_transform_matrices",
    "plot_waveforms",
    "text",
    "themed",
]
