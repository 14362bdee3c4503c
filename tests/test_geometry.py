"""Tests of pe_docs.analysis.geometry: distances between rows, principal components, frequency bands."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import (
    BandContributions,
    PrincipalComponents,
    band_contributions,
    neighbour_similarity,
    offset_distances,
    principal_components,
)

# ---------------------------------------------------------------- offset_distances


@pytest.mark.parametrize("d", [2, 16, 128, 512])
def test_distances_match_the_table_for_every_position(d: int) -> None:
    table = sinusoidal_table(600, d, dtype=torch.float64)
    dist = offset_distances(d, 300)
    for k in (0, 1, 5, 64, 300):
        gaps = torch.linalg.vector_norm(table[k:] - table[: 600 - k], dim=1)
        assert torch.allclose(gaps, torch.full_like(gaps, dist[k].item()), atol=1e-11, rtol=0)


@pytest.mark.parametrize(
    ("d", "base", "k"), [(8, 10000.0, 7), (64, 10000.0, 12345), (512, 10000.0, 20_011), (6, 3.5, 100)]
)
def test_distances_match_a_60_digit_reference(d: int, base: float, k: int) -> None:
    mpmath.mp.dps = 60
    ref = 2 * mpmath.sqrt(
        mpmath.fsum(mpmath.sin(k * mpmath.power(base, mpmath.mpf(-2 * i) / d) / 2) ** 2 for i in range(d // 2))
    )
    got = offset_distances(d, k, base=base)[k].item()
    assert got == pytest.approx(float(ref), rel=1e-11)


def test_distance_and_similarity_agree() -> None:
    # |PE[p] - PE[p+k]|^2 = |PE[p]|^2 + |PE[p+k]|^2 - 2 PE[p]·PE[p+k] = d (1 - s(k))
    d = 128
    dist = offset_distances(d, 5000)
    s = neighbour_similarity(d, 5000)
    assert torch.allclose(dist**2, d * (1 - s), atol=1e-9, rtol=0)
    assert dist[0].item() == 0.0
    assert dist.dtype == torch.float64 and dist.shape == (5001,)


def test_distances_chunking_is_seamless(monkeypatch: pytest.MonkeyPatch) -> None:
    import pe_docs.analysis.geometry as geometry

    whole = offset_distances(32, 999)
    monkeypatch.setattr(geometry, "_CHUNK_ELEMENTS", 16 * 37)
    assert torch.equal(offset_distances(32, 999), whole)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"d_model": 7, "max_k": 3}, ValueError, "d_model must be even"),
        ({"d_model": 8, "max_k": -1}, ValueError, "max_k must be >= 0, got -1"),
        ({"d_model": 8, "max_k": 2.0}, TypeError, "max_k must be an integer"),
        ({"d_model": 8, "max_k": 2, "base": 0.0}, ValueError, "base must be finite and > 0"),
    ],
)
def test_distances_bad_input(kwargs, error, message) -> None:
    with pytest.raises(error, match=message):
        offset_distances(**kwargs)


# ---------------------------------------------------------------- principal_components


def _reference_pca(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """NumPy's SVD of the centred table (an independent route to the same components)."""
    centred = x - x.mean(axis=0)
    u, s, vt = np.linalg.svd(centred, full_matrices=False)
    return s**2 / (s**2).sum(), u * s, vt.T


@pytest.mark.parametrize(("length", "d"), [(100, 64), (50, 128), (300, 16)])
def test_principal_components_match_the_covariance_eigenvectors(length: int, d: int) -> None:
    table = sinusoidal_table(length, d, dtype=torch.float64)
    pca = principal_components(table, 3)
    assert isinstance(pca, PrincipalComponents)
    explained, coords, vectors = _reference_pca(table.numpy())
    rank = min(length, d)
    assert pca.explained.shape == (rank,) and pca.coordinates.shape == (length, 3)
    assert np.allclose(pca.explained.numpy(), explained[:rank], atol=1e-12)
    assert pca.explained.sum().item() == pytest.approx(1.0, abs=1e-12)
    assert (pca.explained[1:] <= pca.explained[:-1] + 1e-15).all()
    for j in range(3):
        # components are defined up to sign: the library fixes it by the largest loading
        sign = np.sign(vectors[np.argmax(np.abs(vectors[:, j])), j])
        assert np.allclose(pca.coordinates[:, j].numpy(), sign * coords[:, j], atol=1e-9)


def test_principal_components_ignore_a_common_offset_and_accept_float32() -> None:
    table = sinusoidal_table(80, 32, dtype=torch.float64)
    pca = principal_components(table, 2)
    shifted = principal_components(table + torch.linspace(-3, 3, 32, dtype=torch.float64), 2)
    assert torch.allclose(pca.coordinates, shifted.coordinates, atol=1e-10)
    single = principal_components(table.float(), 2)
    assert single.coordinates.dtype == torch.float64
    assert torch.allclose(single.explained, pca.explained, atol=1e-6)


def test_principal_components_of_a_line_and_of_equal_rows() -> None:
    line = torch.tensor([[0.0, 0.0], [1.0, 2.0], [2.0, 4.0]], dtype=torch.float64)
    pca = principal_components(line, 1)
    assert pca.explained[0].item() == pytest.approx(1.0)
    assert torch.allclose(pca.coordinates[:, 0], torch.tensor([-1.0, 0.0, 1.0], dtype=torch.float64) * 5**0.5)
    equal = principal_components(torch.ones(4, 3), 2)
    assert torch.equal(equal.explained, torch.zeros(3, dtype=torch.float64))


@pytest.mark.parametrize(
    ("table", "n", "error", "message"),
    [
        (torch.zeros(1, 4), 1, ValueError, "table must have at least 2 rows"),
        (torch.zeros(3), 1, ValueError, "table must have 2 dimensions"),
        (torch.zeros(3, 4, dtype=torch.int64), 1, TypeError, "table must be a real floating-point tensor"),
        (torch.tensor([[0.0, math.nan], [1.0, 1.0]]), 1, ValueError, "table must be finite"),
        (torch.zeros(3, 4), 4, ValueError, r"n_components must be <= min\(L, d\) = 3, got 4"),
        (torch.zeros(3, 4), 0, ValueError, "n_components must be >= 1, got 0"),
        (torch.zeros(3, 4), 1.0, TypeError, "n_components must be an integer"),
        ([[0.0, 1.0], [1.0, 0.0]], 1, TypeError, "table must be a torch.Tensor"),
    ],
)
def test_principal_components_bad_input(table, n, error, message) -> None:
    with pytest.raises(error, match=message):
        principal_components(table, n)


# ---------------------------------------------------------------- band_contributions


@pytest.mark.parametrize(("d", "n_bands"), [(512, 3), (64, 1), (64, 5), (8, 4)])
def test_bands_add_up_to_the_similarity(d: int, n_bands: int) -> None:
    bands = band_contributions(d, 3000, n_bands=n_bands)
    assert isinstance(bands, BandContributions)
    assert bands.values.shape == (n_bands, 3001) and bands.values.dtype == torch.float64
    assert torch.allclose(bands.values.sum(0), neighbour_similarity(d, 3000), atol=1e-12, rtol=0)
    sizes = [hi - lo for lo, hi in zip(bands.edges, bands.edges[1:], strict=False)]
    assert bands.edges[0] == 0 and bands.edges[-1] == d // 2
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
    assert torch.allclose(bands.values[:, 0], torch.tensor(sizes, dtype=torch.float64) * 2 / d, atol=1e-15)


def test_bands_of_512_are_86_85_85_pairs_and_match_the_table() -> None:
    bands = band_contributions(512, 100)
    assert bands.edges == (0, 86, 171, 256)
    table = sinusoidal_table(200, 512, dtype=torch.float64)
    for b, (lo, hi) in enumerate(zip(bands.edges, bands.edges[1:], strict=False)):
        cols = slice(2 * lo, 2 * hi)
        for k in (1, 17, 100):
            dots = (table[:-k, cols] * table[k:, cols]).sum(1) / (512 / 2)  # term of s(k), for every p
            assert torch.allclose(dots, torch.full_like(dots, bands.values[b, k].item()), atol=1e-12)


def test_bands_match_a_60_digit_reference() -> None:
    mpmath.mp.dps = 60
    d, k = 96, 54321
    bands = band_contributions(d, k, n_bands=3)
    for b in range(3):
        lo, hi = bands.edges[b], bands.edges[b + 1]
        ref = mpmath.fsum(mpmath.cos(k * mpmath.power(10000, mpmath.mpf(-2 * i) / d)) for i in range(lo, hi)) * 2 / d
        assert bands.values[b, k].item() == pytest.approx(float(ref), abs=1e-12)


def test_bands_chunking_is_seamless(monkeypatch: pytest.MonkeyPatch) -> None:
    import pe_docs.analysis.geometry as geometry

    whole = band_contributions(32, 999, n_bands=3)
    monkeypatch.setattr(geometry, "_CHUNK_ELEMENTS", 16 * 41)
    assert torch.equal(band_contributions(32, 999, n_bands=3).values, whole.values)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"n_bands": 0}, ValueError, "n_bands must be >= 1, got 0"),
        ({"n_bands": 5}, ValueError, r"n_bands must be <= d_model / 2 = 4 \(at least one pair per band\), got 5"),
        ({"n_bands": 2.0}, TypeError, "n_bands must be an integer"),
        ({"max_k": -2}, ValueError, "max_k must be >= 0, got -2"),
        ({"base": -1.0}, ValueError, "base must be finite and > 0"),
    ],
)
def test_bands_bad_input(kwargs, error, message) -> None:
    args = {"d_model": 8, "max_k": 10} | kwargs
    with pytest.raises(error, match=message):
        band_contributions(**args)
