"""Data tests of the figures of the relative-schemes page: what is plotted is what pe_docs computes."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest
import torch

from pe_docs import (
    inverse_frequencies,
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    t5_relative_bucket,
    yarn_boundaries,
    yarn_frequencies,
)
from pe_docs.plotting import plot_context_extension, plot_t5_buckets
from site_tools.figures import FIGURES, render_svg


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_t5_buckets_plots_the_buckets(lang):
    spec = FIGURES["t5-buckets"].kwargs
    fig = plot_t5_buckets(**spec, lang=lang, theme="dark")
    lines = fig.axes[0].get_lines()
    offsets = torch.arange(-spec["max_offset"], spec["max_offset"] + 1)
    for line, bidirectional in zip(lines[:2], (True, False), strict=True):
        x, y = line.get_data()
        assert np.array_equal(x, offsets.numpy())
        expected = t5_relative_bucket(offsets, bidirectional=bidirectional, num_buckets=spec["num_buckets"],
                                      max_distance=spec["max_distance"])
        assert np.array_equal(y, expected.numpy())
    assert sorted(line.get_xdata()[0] for line in lines[2:]) == [-128, 128]  # the ±max_distance markers
    plt.close(fig)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_context_extension_plots_the_wavelengths(lang):
    spec = FIGURES["context-extension"].kwargs
    d, s, length, base = spec["d_head"], spec["scale"], spec["original_len"], spec["base"]
    fig = plot_context_extension(**spec, lang=lang)
    ax = fig.axes[0]
    lines = ax.get_lines()
    expected = [
        inverse_frequencies(d, base=base),
        position_interpolation_frequencies(d, s, base=base),
        ntk_aware_frequencies(d, s, base=base),
        yarn_frequencies(d, s, length, base=base),
    ]
    for line, w in zip(lines[:4], expected, strict=True):
        x, y = line.get_data()
        assert np.array_equal(x, np.arange(d // 2))
        assert np.allclose(y, (2 * math.pi / w).numpy(), rtol=1e-15, atol=0)
    assert [line.get_ydata()[0] for line in lines[4:]] == [length, s * length]
    low, high = yarn_boundaries(d, length, base=base)
    band = ax.patches[0]  # YaRN's ramp, from the last unchanged pair to the first interpolated one
    assert (band.get_x(), band.get_x() + band.get_width()) == (low, high)
    assert ax.get_yscale() == "log"
    plt.close(fig)


@pytest.mark.parametrize("name", ["t5-buckets", "context-extension"])
def test_registered_and_renders(name):
    assert name in FIGURES
    for lang in ("en", "zh"):
        assert render_svg(name, lang, "light").startswith(b"<?xml")


@pytest.mark.parametrize(
    ("fn", "kwargs", "error", "message"),
    [
        (plot_t5_buckets, {"max_offset": 0}, ValueError, "max_offset must be >= 1, got 0"),
        (plot_t5_buckets, {"num_buckets": 7}, ValueError, "num_buckets must be even when bidirectional, got 7"),
        (plot_context_extension, {"d_head": 6.0}, TypeError, "d_head must be an integer"),
        (plot_context_extension, {"scale": 0.5}, ValueError, "scale must be >= 1.0, got 0.5"),
        (plot_context_extension, {"base": 0.5}, ValueError, "base must be > 1 for YaRN"),
    ],
)
def test_bad_arguments(fn, kwargs, error, message):
    with pytest.raises(error) as info:
        fn(**kwargs)
    assert message in str(info.value)
