"""Tests of the figure of why rows never repeat (pe_docs.plotting.uniqueness)."""

from __future__ import annotations

import math

import matplotlib.pyplot as plt
import numpy as np
import pytest

from pe_docs.analysis import closest_returns
from pe_docs.plotting import plot_closest_returns
from site_tools.build.figures import FIGURES, render_svg


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_closest_returns_draws_pair_0_and_the_records(lang):
    fig = plot_closest_returns(30, 1000, lang=lang, theme="dark")
    left, right = fig.axes
    points = left.collections[0].get_offsets()
    assert np.allclose(points, np.stack((np.sin(np.arange(30)), np.cos(np.arange(30))), -1))  # (sin p, cos p)
    assert [t.get_text() for t in left.texts] == ["p=0", "p=6", "p=19", "p=25"]  # the records below 30
    records = closest_returns(1000)
    curve = right.get_lines()[0]
    assert curve.get_xdata().tolist() == [r.offset for r in records]
    assert np.allclose(curve.get_ydata(), [2 * abs(math.sin(r.offset / 2)) for r in records], rtol=1e-12)
    plt.close(fig)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"positions": 1}, ValueError, "positions must be >= 2, got 1"),
        ({"positions": 1001}, ValueError, "positions must be <= 1000, got 1001"),
        ({"positions": 4.0}, TypeError, "positions must be an integer"),
        ({"max_offset": 1}, ValueError, "max_offset must be >= 2, got 1"),
        ({"max_offset": 10**16}, ValueError, "max_offset must be <= 10**15"),
        ({"max_offset": "9"}, TypeError, "max_offset must be an integer"),
        ({"lang": "fr"}, ValueError, "lang must be one of"),
    ],
)
def test_bad_arguments(kwargs, error, message):
    with pytest.raises(error) as info:
        plot_closest_returns(**kwargs)
    assert message in str(info.value)


def test_registered_and_renders():
    assert FIGURES["closest-returns"].function == "plot_closest_returns"
    for lang in ("en", "zh"):
        assert render_svg("closest-returns", lang, "light").startswith(b"<?xml")
