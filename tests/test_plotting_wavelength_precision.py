"""Tests of the figures of the wavelength and log-trick pages (pe_docs.plotting.wavelength / .precision)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pytest
from matplotlib.figure import Figure

from pe_docs.plotting import (
    plot_binary_vs_sinusoid,
    plot_frequency_ulps,
    plot_log_trick_error,
    plot_neighbour_similarity,
    plot_scale_shares,
    plot_scales,
    plot_wavelengths,
)
from site_tools.build.figures import FIGURES, render_svg

NAMES = ["wavelengths", "scales", "binary-vs-sinusoid", "neighbour-similarity", "frequency-ulps", "log-trick-error"]


@pytest.mark.parametrize("name", NAMES)
def test_registered_figures_render_in_both_languages(name: str) -> None:
    assert name in FIGURES
    for lang in ("en", "zh"):
        svg = render_svg(name, lang, "dark")
        assert svg.startswith(b"<?xml") and b"<svg" in svg


def test_small_versions_return_figures() -> None:
    figs = [
        plot_wavelengths(64, lang="zh"),
        plot_scale_shares(64, base=500.0, layout="narrow", lang="zh"),
        plot_scales(64, short=10, long=1000, low_dims=(0,), high_dims=(62,)),
        plot_binary_vs_sinusoid(3, 64, theme="dark"),
        plot_neighbour_similarity((16,), 50),
        plot_frequency_ulps(16),
        plot_log_trick_error(16, max_position=1000, per_decade=3),
    ]
    for fig in figs:
        assert isinstance(fig, Figure)
        plt.close(fig)


def test_figure_bad_input() -> None:
    with pytest.raises(ValueError, match=r"lang must be one of \('en', 'zh'\), got 'fr'"):
        plot_wavelengths(lang="fr")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"theme must be one of"):
        plot_log_trick_error(theme="blue")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"^low_dims must be < d_model=64, got 64 \(low_dims\[0\]\)"):
        plot_scales(64, low_dims=(64,))
    with pytest.raises(ValueError, match=r"^high_dims must be < d_model=64, got 70 \(high_dims\[1\]\)"):
        plot_scales(64, low_dims=(0,), high_dims=(1, 70))
    with pytest.raises(ValueError, match=r"d_models\[0\] must be even"):
        plot_neighbour_similarity((15,))
    with pytest.raises(ValueError, match=r"max_k must be >= 2, got 1"):
        plot_neighbour_similarity((16,), 1)
    with pytest.raises(ValueError, match=r"max_position must be >= 10, got 5"):
        plot_log_trick_error(16, max_position=5)
    with pytest.raises(ValueError, match=r"n_bits must be >= 1, got 0"):
        plot_binary_vs_sinusoid(0)
    with pytest.raises(ValueError, match=r"n_bits must be <= 12 .*got 30"):
        plot_binary_vs_sinusoid(30)  # 2**30 positions: refused before anything is allocated
    with pytest.raises(ValueError, match=r"per_decade must be >= 1, got 0"):
        plot_log_trick_error(16, max_position=100, per_decade=0)
