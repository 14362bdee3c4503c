"""inverse_frequencies and wavelengths against an mpmath reference."""

from __future__ import annotations

import math

import mpmath
import pytest
import torch

from pe_docs import inverse_frequencies, wavelengths

mpmath.mp.dps = 40


def reference(d: int, base: float = 10000.0) -> list[mpmath.mpf]:
    return [mpmath.power(mpmath.mpf(base), -mpmath.mpf(2 * i) / d) for i in range(d // 2)]


@pytest.mark.parametrize("d", [2, 16, 512, 768])
@pytest.mark.parametrize("method", ["pow", "log"])
def test_float64_matches_reference(d: int, method: str) -> None:
    w = inverse_frequencies(d, method=method)
    assert w.dtype == torch.float64 and w.shape == (d // 2,)
    ref = reference(d)
    worst = max(abs((float(a) - r) / r) for a, r in zip(w.tolist(), ref, strict=True))
    assert worst < 1e-14


def test_first_and_last_frequency() -> None:
    w = inverse_frequencies(512)
    assert w[0].item() == 1.0
    assert w[-1].item() == pytest.approx(10000 ** (-510 / 512), rel=1e-15)
    assert torch.all(w[1:] < w[:-1])


def test_dtype_and_base() -> None:
    w = inverse_frequencies(8, base=100.0, dtype=torch.float32)
    assert w.dtype == torch.float32
    assert torch.allclose(w.double(), torch.tensor([100.0 ** (-k / 8) for k in (0, 2, 4, 6)], dtype=torch.float64))


def test_wavelengths_progression() -> None:
    lam = wavelengths(512)
    assert lam[0].item() == pytest.approx(2 * math.pi)
    assert lam[-1].item() == pytest.approx(2 * math.pi * 10000 ** (510 / 512))
    ratio = lam[1:] / lam[:-1]
    assert torch.allclose(ratio, torch.full_like(ratio, 10000 ** (2 / 512)))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"d_model": 7}, ValueError, ["d_model", "7"]),
        ({"d_model": 0}, ValueError, ["d_model", "0"]),
        ({"d_model": -4}, ValueError, ["d_model", "-4"]),
        ({"d_model": 8.0}, TypeError, ["d_model", "8.0"]),
        ({"d_model": True}, TypeError, ["d_model", "True"]),
        ({"d_model": 8, "base": 0.0}, ValueError, ["base", "0.0"]),
        ({"d_model": 8, "base": -3}, ValueError, ["base", "-3"]),
        ({"d_model": 8, "base": float("inf")}, ValueError, ["base", "inf"]),
        ({"d_model": 8, "base": float("nan")}, ValueError, ["base", "nan"]),
        ({"d_model": 8, "base": "10000"}, TypeError, ["base", "'10000'"]),
        ({"d_model": 8, "method": "exp"}, ValueError, ["method", "'exp'"]),
        ({"d_model": 8, "dtype": torch.int64}, TypeError, ["dtype", "torch.int64"]),
        ({"d_model": 8, "dtype": "float32"}, TypeError, ["dtype", "'float32'"]),
    ],
)
def test_bad_input(kwargs: dict, error: type[Exception], words: list[str]) -> None:
    d = kwargs.pop("d_model")
    with pytest.raises(error) as info:
        inverse_frequencies(d, **kwargs)
    for word in words:
        assert word in str(info.value)


def test_wavelengths_bad_input() -> None:
    with pytest.raises(ValueError, match="d_model.*3"):
        wavelengths(3)
