"""Tests of pe_docs.analysis.spectrum: peak frequencies of sampled tones, and measured frequencies of the encoding."""

from __future__ import annotations

import math

import numpy as np
import pytest
import torch

from pe_docs import inverse_frequencies, sinusoidal_table, wavelengths
from pe_docs.analysis import measured_frequencies, peak_frequencies

# ---------------------------------------------------------------- peak_frequencies


def test_tones_with_a_few_cycles_or_more_are_measured_to_a_small_fraction() -> None:
    n = 512
    rng = np.random.default_rng(0)
    freqs = rng.uniform(4 / n, 0.45, size=200)
    phases = rng.uniform(0, 2 * np.pi, size=200)
    p = np.arange(n)[:, None]
    tones = torch.from_numpy(np.sin(2 * np.pi * freqs * p + phases))
    got = peak_frequencies(tones).numpy()
    assert got.shape == (200,)
    assert np.max(np.abs(got - freqs) / freqs) < 2e-3
    assert np.max(np.abs(got - freqs)) * n < 0.02  # within 2 % of a bin of the unpadded transform


def test_one_column_gives_a_scalar() -> None:
    p = torch.arange(300, dtype=torch.float64)
    got = peak_frequencies(torch.cos(2 * math.pi * 0.1 * p))
    assert got.shape == () and got.item() == pytest.approx(0.1, rel=1e-4)


def test_the_bare_argmax_is_the_nearest_bin_and_silent_below_one_cycle() -> None:
    n = 1000
    p = torch.arange(n, dtype=torch.float64)[:, None]
    f = torch.tensor([0.01234, 0.1, 1 / 1500, 1 / 60000], dtype=torch.float64)
    bare = peak_frequencies(torch.sin(2 * math.pi * f * p), window=False, refine=False, pad=1, min_cycles=0)
    assert torch.equal(bare * n, torch.round(bare * n))  # multiples of 1/N only
    assert bare[0].item() == 12 / n and bare[1].item() == 100 / n
    assert bare[2].item() == bare[3].item() == 1 / n  # below one cycle: always the first bin, no warning


def test_too_few_cycles_give_nan() -> None:
    n = 1000
    p = torch.arange(n, dtype=torch.float64)[:, None]
    lam = torch.tensor([100.0, 400.0, 900.0, 5000.0, 60000.0], dtype=torch.float64)
    got = peak_frequencies(torch.sin(2 * math.pi * p / lam))
    assert got[:2].tolist() == pytest.approx((1 / lam[:2]).tolist(), rel=5e-3)
    assert got[2:].isnan().all()
    assert peak_frequencies(torch.ones(50)).isnan()  # a constant has no peak
    # min_cycles=0 lets every peak through
    assert not peak_frequencies(torch.sin(2 * math.pi * p / lam), min_cycles=0).isnan().any()


def test_the_nyquist_bin_is_kept() -> None:
    alternating = torch.tensor([1.0, -1.0] * 20, dtype=torch.float64)
    assert peak_frequencies(alternating).item() == 0.5
    assert peak_frequencies(alternating, window=False, refine=False, pad=1).item() == 0.5


def test_padding_and_refinement_each_help() -> None:
    p = torch.arange(256, dtype=torch.float64)
    f = 0.0371
    tone = torch.sin(2 * math.pi * f * p + 0.3)
    errors = [
        abs(peak_frequencies(tone, refine=False, pad=1).item() - f),
        abs(peak_frequencies(tone, refine=True, pad=1).item() - f),
        abs(peak_frequencies(tone, refine=True, pad=4).item() - f),
    ]
    assert errors[0] > errors[1] > errors[2]


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((torch.zeros(3),), {}, ValueError, "signals must have at least 4 samples"),
        ((torch.zeros(4, 2, 2),), {}, ValueError, "signals must have 1 or 2 dimensions"),
        ((torch.zeros(8, dtype=torch.int32),), {}, TypeError, "signals must be a real floating-point tensor"),
        ((torch.tensor([0.0, 1.0, math.inf, 0.0]),), {}, ValueError, "signals must be finite"),
        ((torch.zeros(8),), {"pad": 0}, ValueError, "pad must be >= 1, got 0"),
        ((torch.zeros(8),), {"pad": 2.0}, TypeError, "pad must be an integer"),
        ((torch.zeros(8),), {"min_cycles": -1.0}, ValueError, "min_cycles must be >= 0.0, got -1.0"),
        ((torch.zeros(8),), {"window": 1}, TypeError, "window must be a bool, got 1"),
        ((torch.zeros(8),), {"refine": "yes"}, TypeError, "refine must be a bool"),
    ],
)
def test_peak_frequencies_bad_input(args, kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        peak_frequencies(*args, **kwargs)


# ---------------------------------------------------------------- measured_frequencies


@pytest.mark.parametrize(("d", "base"), [(8, 10000.0), (512, 10000.0), (1024, 10000.0), (64, 500000.0), (8, 0.5)])
def test_every_column_is_measured(d: int, base: float) -> None:
    theory = inverse_frequencies(d, base=base) / (2 * math.pi)
    got = measured_frequencies(d, base=base)
    assert got.shape == (d // 2,) and not got.isnan().any()
    assert torch.allclose(got, theory, rtol=1e-4, atol=0)


def test_fewer_cycles_are_less_accurate_but_still_resolved() -> None:
    theory = inverse_frequencies(64) / (2 * math.pi)
    coarse = ((measured_frequencies(64, cycles=2.0, samples=64) - theory).abs() / theory).max()
    fine = ((measured_frequencies(64) - theory).abs() / theory).max()
    assert fine < coarse < 0.05


def test_the_slowest_column_needs_many_positions() -> None:
    # what the sampling spans for the slowest column of d = 512: at least 8 of its 60 611-position wavelengths
    lam = wavelengths(512)
    stride = math.ceil(8 * lam[-1].item() / 1024)
    assert 1024 * stride >= 8 * lam[-1].item() and stride < lam[-1].item() / 2
    # and the bare FFT of 1000 positions cannot see it
    sines = sinusoidal_table(1000, 512, dtype=torch.float64)[:, 0::2]
    assert peak_frequencies(sines[:, -1:]).isnan().all()


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"d_model": 7}, ValueError, "d_model must be even"),
        ({"d_model": 8, "cycles": 1.5}, ValueError, "cycles must be >= 2.0, got 1.5"),
        ({"d_model": 8, "samples": 20}, ValueError, "samples must be >= 4 \\* cycles = 32, got 20"),
        ({"d_model": 8, "samples": 64.0}, TypeError, "samples must be an integer"),
        ({"d_model": 4, "base": 1e-4}, ValueError, "a column turns by more than half a cycle per position"),
        ({"d_model": 8, "base": math.nan}, ValueError, "base must be finite"),
    ],
)
def test_measured_frequencies_bad_input(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        measured_frequencies(**kwargs)
