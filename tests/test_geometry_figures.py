"""The figures of the geometry chapter plot what pe_docs computes: line data and images, checked point by point.

Each test draws the figure with the arguments it is registered with (site_tools.figures.FIGURES) and compares
the arrays matplotlib holds against the pe_docs computation the figure claims to show.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch
from matplotlib.figure import Figure

from pe_docs import (
    band_contributions,
    inverse_frequencies,
    measured_frequencies,
    neighbour_similarity,
    peak_frequencies,
    plotting,
    principal_components,
    sinusoidal_table,
)
from site_tools import pages
from site_tools.figures import FIGURES

NAMES = {
    "geometry-curve": "plot_encoding_curve",
    "geometry-pca": "plot_principal_components",
    "geometry-similarity": "plot_similarity_matrix",
    "geometry-frequencies": "plot_measured_frequencies",
    "geometry-bands": "plot_band_contributions",
}


def _draw(name: str, lang: str = "en", theme: str = "light") -> tuple[Figure, dict]:
    spec = FIGURES[name]
    return getattr(plotting, spec.function)(**spec.kwargs, lang=lang, theme=theme), spec.kwargs


def test_registered_and_shown_on_the_page_in_both_languages() -> None:
    for name, function in NAMES.items():
        assert FIGURES[name].function == function
    for lang in pages.LANGS:
        text = pages.pages(lang)["geometry.md"].read_text(encoding="utf-8")
        for name in NAMES:
            assert f"(figures/{name}.light.svg#only-light)" in text, (lang, name)
            assert f"(figures/{name}.dark.svg#only-dark)" in text, (lang, name)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_curve_plots_the_table_columns_and_the_pair_angles(lang: str) -> None:
    fig, kw = _draw("geometry-curve", lang, "dark")
    d, n, (a, b) = kw["d_model"], kw["positions"], kw["pairs"]
    table = sinusoidal_table(n, d, dtype=torch.float64).numpy()
    left, right = fig.axes
    x, y, z = left.get_lines()[0].get_data_3d()
    assert np.allclose(x, table[:, 2 * a]) and np.allclose(y, table[:, 2 * a + 1])
    assert np.allclose(z, table[:, 2 * b])
    # the torus: pair a round the tube, pair b round the hole, angles p·w
    w = inverse_frequencies(d).numpy()
    p = np.arange(n)
    tx, ty, tz = right.get_lines()[0].get_data_3d()
    radius = np.hypot(tx, ty)
    assert np.allclose(np.arctan2(ty, tx), np.angle(np.exp(1j * p * w[b])))
    assert np.allclose(np.arctan2(tz, radius - 2.0), np.angle(np.exp(1j * p * w[a])))


def test_pca_plots_principal_components_and_their_shares() -> None:
    fig, kw = _draw("geometry-pca")
    d, lengths, shown = kw["d_model"], kw["lengths"], kw["n_shown"]
    left, right = fig.axes[:2]  # fig.axes[2] is the colour bar
    pca = principal_components(sinusoidal_table(lengths[-1], d, dtype=torch.float64), 2)
    assert np.allclose(left.collections[0].get_offsets(), pca.coordinates.numpy())
    assert np.allclose(left.get_lines()[0].get_xydata(), pca.coordinates.numpy())
    for line, n in zip(right.get_lines(), lengths, strict=True):
        share = principal_components(sinusoidal_table(n, d, dtype=torch.float64), 2).explained[:shown]
        assert np.allclose(line.get_ydata(), 100 * share.numpy())
        assert np.array_equal(line.get_xdata(), np.arange(1, shown + 1))


def test_similarity_images_are_the_toeplitz_closed_form() -> None:
    fig, kw = _draw("geometry-similarity", "zh")
    n = kw["positions"]
    images = [ax.get_images()[0].get_array() for ax in fig.axes if ax.get_images()]
    assert len(images) == len(kw["d_models"])
    offsets = np.abs(np.arange(n)[None, :] - np.arange(n)[:, None])
    for image, d in zip(images, kw["d_models"], strict=True):
        s = neighbour_similarity(d, n - 1).numpy()
        assert np.allclose(np.asarray(image), s[offsets], atol=1e-12)


def test_frequency_figure_plots_theory_bare_fft_and_measurement() -> None:
    fig, kw = _draw("geometry-frequencies")
    d, n = kw["d_model"], kw["n_positions"]
    top, bottom = fig.axes
    theory = (inverse_frequencies(d) / (2 * math.pi)).numpy()
    sines = sinusoidal_table(n, d, dtype=torch.float64)[:, 0::2]
    bare = peak_frequencies(sines, window=False, refine=False, pad=1, min_cycles=0).numpy()
    good = measured_frequencies(d).numpy()
    drawn = [line.get_ydata() for line in top.get_lines()[:3]]
    assert np.allclose(drawn[0], theory) and np.allclose(drawn[1], bare) and np.allclose(drawn[2], good)
    errors = [line.get_ydata() for line in bottom.get_lines()[:2]]
    assert np.allclose(errors[0], np.abs(bare - theory) / theory)
    assert np.allclose(errors[1], np.abs(good - theory) / theory)
    # the shaded region starts at the first column whose wavelength exceeds the window
    first = int(np.nonzero(1 / theory > n)[0][0])
    assert top.patches[0].get_x() == pytest.approx(first - 0.5)


def test_band_figure_plots_the_band_terms_and_their_sum() -> None:
    fig, kw = _draw("geometry-bands", "zh", "dark")
    d, max_k, n_bands = kw["d_model"], kw["max_k"], kw["n_bands"]
    bands = band_contributions(d, max_k, n_bands=n_bands)
    lines = fig.axes[0].get_lines()
    for b in range(n_bands):
        assert np.allclose(lines[b].get_ydata(), bands.values[b, 1:].numpy())
        assert np.array_equal(lines[b].get_xdata(), np.arange(1, max_k + 1))
    assert np.allclose(lines[n_bands].get_ydata(), neighbour_similarity(d, max_k)[1:].numpy())
