"""Tests of the relative-transform figures (pe_docs.plotting.relative)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import relative_transform
from pe_docs.plotting import plot_rotating_pairs, plot_transform_matrices
from site_tools.build.figures import FIGURES, render_svg


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_transform_matrices_draws_the_matrices(lang):
    fig = plot_transform_matrices((1, 5), 8, lang=lang)
    images = [ax.get_images()[0].get_array() for ax in fig.axes if ax.get_images()]
    assert len(images) == 2
    assert np.allclose(images[1], relative_transform(5, 8).numpy())
    plt.close(fig)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rotating_pairs_draws_the_table(lang):
    fig = plot_rotating_pairs(8, 6, (0, 3), lang=lang, theme="dark")
    table = sinusoidal_table(6, 8, dtype=torch.float64).numpy()
    points = fig.axes[1].collections[0].get_offsets()
    assert np.allclose(points, table[:, 6:8])  # pair 3: x = sin, y = cos, the table's order
    plt.close(fig)


@pytest.mark.parametrize(
    ("fn", "kwargs", "message"),
    [
        (plot_transform_matrices, {"ks": ()}, "ks must contain"),
        (plot_transform_matrices, {"ks": (1, 1.5)}, "ks[1] must be an integer"),
        (plot_transform_matrices, {"d_model": 5}, "d_model must be even"),
        (plot_transform_matrices, {"lang": "fr"}, "lang must be one of"),
        (plot_rotating_pairs, {"pairs": (4,)}, "pairs must be < d_model / 2 = 4, got 4 (pairs[0])"),
        (plot_rotating_pairs, {"pairs": (0, "1")}, "pairs[1] must be an integer"),
        (plot_rotating_pairs, {"pairs": ()}, "pairs must contain"),
        (plot_rotating_pairs, {"positions": 1}, "positions must be >= 2, got 1"),
        (plot_rotating_pairs, {"theme": "blue"}, "theme must be one of"),
    ],
)
def test_bad_arguments(fn, kwargs, message):
    with pytest.raises((ValueError, TypeError)) as info:
        fn(**kwargs)
    assert message in str(info.value)


@pytest.mark.parametrize("name", ["transform-matrices", "rotating-pairs"])
def test_registered_and_renders(name):
    assert name in FIGURES
    for lang in ("en", "zh"):
        assert render_svg(name, lang, "light").startswith(b"<?xml")
