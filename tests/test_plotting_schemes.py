"""Argument checks of the figures of the relative-schemes page (their plotted data is checked in
tests/test_figure_data.py, like every registered figure's)."""

from __future__ import annotations

import pytest

from pe_docs.plotting import plot_context_extension, plot_t5_buckets


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
def test_bad_arguments(fn, kwargs, error, message) -> None:
    with pytest.raises(error) as info:
        fn(**kwargs)
    assert message in str(info.value)
