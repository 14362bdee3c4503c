"""Plotting functions behind the site's figures (matplotlib is imported only here).

Every function draws one figure of the site. Besides its own arguments it takes the keyword arguments
``layout`` (``"wide"``, or ``"narrow"`` for a phone's width: panels stacked or two a row, legends below, larger
text), ``lang`` (``"en"`` or ``"zh"``, the language of the labels) and ``theme`` (``"light"`` or ``"dark"``, the
colour scheme), and returns a bare ``matplotlib.figure.Figure`` with a transparent background — not
registered with pyplot, so drawing never touches the user's backend; save it with ``fig.savefig(...)``.
The site renders each registered figure in both layouts, for both languages and both colour schemes
(``site_tools/build/figures.py``); a page shows the narrow layout below 600 px.

Every function checks its arguments: a wrong type raises ``TypeError``, a wrong value ``ValueError``, and the
message names the argument. Chinese labels (``lang="zh"``) need a CJK font (e.g. WenQuanYi Micro Hei);
without one a ``RuntimeError`` says what to install.
"""

from pe_docs.plotting._style import LANGS, LAYOUTS, THEMES
from pe_docs.plotting.dtypes import plot_dtype_error
from pe_docs.plotting.geometry import (
    plot_band_contributions,
    plot_encoding_curve,
    plot_measured_frequencies,
    plot_principal_components,
    plot_similarity_matrix,
)
from pe_docs.plotting.intro import plot_clock_hands
from pe_docs.plotting.layouts import plot_variant_tables
from pe_docs.plotting.limitations import plot_position_scores, plot_singular_values
from pe_docs.plotting.precision import plot_frequency_ulps, plot_log_trick_error
from pe_docs.plotting.relative import plot_rotating_pairs, plot_transform_matrices
from pe_docs.plotting.relative_schemes import plot_context_extension, plot_t5_buckets
from pe_docs.plotting.table import plot_heatmap, plot_sine_alone, plot_step_walks, plot_waveforms
from pe_docs.plotting.table_2d import plot_table_2d
from pe_docs.plotting.uniqueness import plot_closest_returns
from pe_docs.plotting.wavelength import (
    plot_binary_vs_sinusoid,
    plot_neighbour_similarity,
    plot_scale_shares,
    plot_scales,
    plot_wavelengths,
)

__all__ = [
    "LANGS",
    "LAYOUTS",
    "THEMES",
    "plot_band_contributions",
    "plot_binary_vs_sinusoid",
    "plot_clock_hands",
    "plot_closest_returns",
    "plot_context_extension",
    "plot_dtype_error",
    "plot_encoding_curve",
    "plot_frequency_ulps",
    "plot_heatmap",
    "plot_log_trick_error",
    "plot_measured_frequencies",
    "plot_neighbour_similarity",
    "plot_position_scores",
    "plot_principal_components",
    "plot_rotating_pairs",
    "plot_scale_shares",
    "plot_scales",
    "plot_similarity_matrix",
    "plot_sine_alone",
    "plot_singular_values",
    "plot_step_walks",
    "plot_t5_buckets",
    "plot_table_2d",
    "plot_transform_matrices",
    "plot_variant_tables",
    "plot_waveforms",
    "plot_wavelengths",
]
