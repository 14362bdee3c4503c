"""Plotting functions behind the site's figures (matplotlib is imported only here).

Every function takes keyword arguments ``lang`` ("en" or "zh") and ``theme`` ("light" or "dark") and returns
a ``matplotlib.figure.Figure``; the site renders each for both languages and both colour schemes.
"""

from pe_docs.plotting._style import LANGS, THEMES, cjk_family, text, themed
from pe_docs.plotting.dtypes import plot_dtype_error
from pe_docs.plotting.limitations import plot_position_scores, plot_singular_values
from pe_docs.plotting.precision import plot_frequency_ulps, plot_log_trick_error
from pe_docs.plotting.relative import plot_rotating_pairs, plot_transform_matrices
from pe_docs.plotting.table import plot_heatmap, plot_waveforms
from pe_docs.plotting.wavelength import (
    plot_binary_vs_sinusoid,
    plot_neighbour_similarity,
    plot_scales,
    plot_wavelengths,
)

__all__ = [
    "LANGS",
    "THEMES",
    "cjk_family",
    "plot_binary_vs_sinusoid",
    "plot_dtype_error",
    "plot_frequency_ulps",
    "plot_heatmap",
    "plot_log_trick_error",
    "plot_neighbour_similarity",
    "plot_position_scores",
    "plot_rotating_pairs",
    "plot_scales",
    "plot_singular_values",
    "plot_transform_matrices",
    "plot_waveforms",
    "plot_wavelengths",
    "text",
    "themed",
]
