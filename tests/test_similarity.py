"""Tests of pe_docs.analysis.similarity: neighbour similarity, first rise/negative, row distances, binary code."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import sinusoidal_table
from pe_docs.analysis import (
    RowDistance,
    binary_code,
    first_negative,
    first_rise,
    min_row_distance,
    neighbour_similarity,
)

# ---------------------------------------------------------------- neighbour_similarity


@pytest.mark.parametrize("d", [16, 128, 512])
def test_closed_form_matches_the_table(d: int) -> None:
    table = sinusoidal_table(400, d, dtype=torch.float64)
    s = neighbour_similarity(d, 150)
    for k in (0, 1, 7, 64, 150):
        a, b = table[: 400 - k], table[k:]
        cos = (a * b).sum(dim=1) / (a.norm(dim=1) * b.norm(dim=1))
        assert torch.allclose(cos, torch.full_like(cos, s[k].item()), atol=1e-12, rtol=0)  # same for every p


def test_neighbour_similarity_basic_facts() -> None:
    s = neighbour_similarity(64, 10, base=100.0)
    assert s.shape == (11,) and s.dtype == torch.float64
    assert s[0].item() == pytest.approx(1.0, abs=1e-15)
    assert (s.abs() <= 1 + 1e-12).all()


def test_neighbour_similarity_chunking_is_seamless(monkeypatch: pytest.MonkeyPatch) -> None:
    import pe_docs.analysis.similarity as sim

    whole = neighbour_similarity(32, 999)
    monkeypatch.setattr(sim, "_CHUNK_ELEMENTS", 16 * 37)  # blocks of 37 offsets
    assert torch.equal(neighbour_similarity(32, 999), whole)


@pytest.mark.parametrize(("d", "rise", "negative"), [(128, 11, 1707), (512, 43, 3284)])
def test_measured_turning_points(d: int, rise: int, negative: int) -> None:
    s = neighbour_similarity(d, 4000)
    assert first_rise(s) == rise
    assert s[rise + 1] > s[rise] and (s[1 : rise + 1] < s[:rise]).all()
    assert first_negative(s) == negative


def test_neighbour_similarity_bad_input() -> None:
    with pytest.raises(ValueError, match=r"max_k must be >= 0, got -1"):
        neighbour_similarity(8, -1)
    with pytest.raises(TypeError, match=r"max_k must be an integer, got 2.0"):
        neighbour_similarity(8, 2.0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"d_model must be even.*got 9"):
        neighbour_similarity(9, 3)
    with pytest.raises(ValueError, match=r"base must be finite and > 0, got 0"):
        neighbour_similarity(8, 3, base=0)


# ---------------------------------------------------------------- first_rise / first_negative


def test_first_rise_and_negative() -> None:
    assert first_rise(torch.tensor([3.0, 2.0, 2.5, 1.0])) == 1
    assert first_rise(torch.tensor([3.0, 2.0, 2.0, 1.0])) is None  # ties are not a rise
    assert first_rise(torch.tensor([1.0])) is None
    assert first_negative(torch.tensor([1.0, 0.0, -0.0, -1e-9])) == 3
    assert first_negative(torch.tensor([1, 2, 3])) is None


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(-10, 10, allow_nan=False), min_size=1, max_size=40))
def test_first_rise_property(values: list[float]) -> None:
    r = first_rise(torch.tensor(values, dtype=torch.float64))
    if r is None:
        assert all(values[k + 1] <= values[k] for k in range(len(values) - 1))
    else:
        assert values[r + 1] > values[r]
        assert all(values[k + 1] <= values[k] for k in range(r))


def test_first_rise_negative_bad_input() -> None:
    with pytest.raises(TypeError, match=r"values must be a torch.Tensor, got list"):
        first_rise([1.0, 2.0])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"values must have 1 dimensions, got shape \(2, 2\)"):
        first_negative(torch.zeros(2, 2))
    with pytest.raises(ValueError, match=r"values must have 1 dimensions, got shape \(2, 2\)"):
        first_rise(torch.zeros(2, 2, dtype=torch.int64))
    with pytest.raises(TypeError, match=r"values must be a real .*tensor, got dtype torch.complex64"):
        first_negative(torch.zeros(2, dtype=torch.complex64))
    with pytest.raises(TypeError, match=r"values must be a real .*tensor, got dtype torch.bool"):
        first_rise(torch.zeros(2, dtype=torch.bool))


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
def test_first_rise_negative_refuse_non_finite(bad: float) -> None:
    # regression: [1, nan, 2] gave None (every comparison with NaN is False, so the rise was skipped)
    values = torch.tensor([1.0, bad, 2.0])
    for f in (first_rise, first_negative):
        with pytest.raises(ValueError, match=r"values must be finite.*\(shape \(3,\)\)") as info:
            f(values)
        assert "tensor(" not in str(info.value)


def test_first_rise_negative_integer_tensors() -> None:
    assert first_rise(torch.tensor([5, 3, 4])) == 1
    assert first_negative(torch.tensor([2, 0, -1], dtype=torch.int32)) == 2
    assert first_rise(torch.tensor([], dtype=torch.float64)) is None


# ---------------------------------------------------------------- min_row_distance


def test_min_row_distance_small() -> None:
    r = min_row_distance(torch.tensor([[0.0, 0.0], [3.0, 4.0], [0.0, 1.0]]))
    assert r == RowDistance(1.0, 0, 2)
    dup = min_row_distance(torch.tensor([[1, 2], [5, 5], [1, 2]]))
    assert dup == RowDistance(0.0, 0, 2)


def test_min_row_distance_against_brute_force() -> None:
    gen = torch.Generator().manual_seed(0)
    x = torch.randn(70, 5, generator=gen, dtype=torch.float64)
    brute = torch.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist")
    brute.fill_diagonal_(math.inf)
    flat = int(torch.argmin(brute))
    i, j = sorted(divmod(flat, 70))
    r = min_row_distance(x)
    assert (r.i, r.j) == (i, j)
    assert r.distance == pytest.approx(brute[i, j].item(), rel=1e-14)


def test_min_row_distance_chunked(monkeypatch: pytest.MonkeyPatch) -> None:
    import pe_docs.analysis.similarity as sim

    table = sinusoidal_table(300, 16, dtype=torch.float64)
    whole = min_row_distance(table)
    monkeypatch.setattr(sim, "_CHUNK_ELEMENTS", 300 * 7)
    chunked = min_row_distance(table)
    # every pair of neighbours is at the same distance, so which one wins a tie is left to rounding
    assert chunked.distance == pytest.approx(whole.distance, rel=1e-12)
    assert chunked.j - chunked.i == 1 == whole.j - whole.i
    gen = torch.Generator().manual_seed(1)
    x = torch.randn(90, 3, generator=gen)
    monkeypatch.setattr(sim, "_CHUNK_ELEMENTS", 90 * 4)
    small_blocks = min_row_distance(x)
    monkeypatch.setattr(sim, "_CHUNK_ELEMENTS", 1 << 22)
    assert small_blocks == min_row_distance(x)


@pytest.mark.parametrize(("n", "d"), [(1024, 128), (2048, 512)])
def test_sinusoidal_rows_are_distinct_and_closest_are_neighbours(n: int, d: int) -> None:
    r = min_row_distance(sinusoidal_table(n, d, dtype=torch.float64))
    s = neighbour_similarity(d, n - 1)
    # ‖PE[p] − PE[p+k]‖² = d · (1 − s(k)): the closest pair is at the offset of highest similarity
    closed = math.sqrt(d * (1 - s[1:].max().item()))
    assert r.distance > 0
    assert r.distance == pytest.approx(closed, rel=1e-10)
    assert r.j - r.i == 1


def test_min_row_distance_far_from_the_origin() -> None:
    # regression: the Gram-matrix formula ‖a‖² + ‖b‖² − 2a·b cancelled and picked rows 0, 1 (3e-5 apart)
    x = torch.tensor([[1e4, 0.0], [1e4, 3e-5], [1e4, 1e-5]], dtype=torch.float64)
    r = min_row_distance(x)
    assert (r.i, r.j) == (0, 2)
    assert r.distance == pytest.approx(1e-5, rel=1e-9)


def test_min_row_distance_clustered_rows_match_brute_force() -> None:
    # rows 1e4 from the origin and ~1e-5 apart: the old formula picked the wrong pair in most trials
    gen = torch.Generator().manual_seed(0)
    for _ in range(200):
        x = torch.randn(20, 3, generator=gen, dtype=torch.float64) * 1e-5
        x[:, 0] += 1e4
        brute = torch.cdist(x, x, compute_mode="donot_use_mm_for_euclid_dist")
        brute.fill_diagonal_(math.inf)
        i, j = sorted(divmod(int(torch.argmin(brute)), 20))
        r = min_row_distance(x)
        assert (r.i, r.j) == (i, j)
        assert r.distance == pytest.approx(brute[i, j].item(), rel=1e-9)


def test_min_row_distance_blocks_bound_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    import pe_docs.analysis.similarity as sim

    gen = torch.Generator().manual_seed(2)
    x = torch.randn(50, 4, generator=gen, dtype=torch.float64) * 1e-3
    x[:, 0] += 1e5
    whole = min_row_distance(x)
    sizes: list[int] = []
    cdist = torch.cdist

    def spy(a: torch.Tensor, b: torch.Tensor, **kwargs: object) -> torch.Tensor:
        out = cdist(a, b, **kwargs)  # type: ignore[arg-type]
        sizes.append(out.numel())
        return out

    monkeypatch.setattr(torch, "cdist", spy)
    monkeypatch.setattr(sim, "_CHUNK_ELEMENTS", 50 * 3)  # 3 rows per block
    assert min_row_distance(x) == whole
    assert len(sizes) == 17 and max(sizes) <= 50 * 3  # 49 rows with a later partner, 3 at a time


def test_min_row_distance_ties_and_integers() -> None:
    # equally close pairs: the smallest i, then the smallest j
    assert min_row_distance(torch.tensor([[0.0], [1.0], [2.0], [3.0]])) == RowDistance(1.0, 0, 1)
    assert min_row_distance(torch.tensor([[5.0], [0.0], [6.0], [1.0]])) == RowDistance(1.0, 0, 2)
    assert min_row_distance(binary_code(16, 4)) == RowDistance(1.0, 0, 1)
    assert min_row_distance(torch.zeros(2, 0)) == RowDistance(0.0, 0, 1)


def test_min_row_distance_bad_input() -> None:
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor, got list"):
        min_row_distance([[0.0], [1.0]])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"table must have at least 2 rows, got shape \(1, 3\)"):
        min_row_distance(torch.zeros(1, 3))
    with pytest.raises(ValueError, match=r"table must have 2 dimensions, got shape \(4,\)"):
        min_row_distance(torch.zeros(4))
    with pytest.raises(ValueError, match=r"table must have 2 dimensions, got shape \(4,\)"):
        min_row_distance(torch.zeros(4, dtype=torch.int64))
    with pytest.raises(TypeError, match=r"table must be a real .*tensor, got dtype torch.bool"):
        min_row_distance(torch.zeros(2, 2, dtype=torch.bool))
    with pytest.raises(TypeError, match=r"table must be a real .*tensor, got dtype torch.complex64"):
        min_row_distance(torch.zeros(2, 2, dtype=torch.complex64))


@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_min_row_distance_refuses_non_finite(bad: float) -> None:
    # regression: a NaN entry gave RowDistance(nan, 0, 1)
    table = torch.tensor([[bad, 0.0], [1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match=r"table must be finite.*\(shape \(3, 2\)\)") as info:
        min_row_distance(table)
    assert "tensor(" not in str(info.value)


# ---------------------------------------------------------------- binary_code


def test_binary_code_rows_are_the_numbers() -> None:
    code = binary_code(16, 4)
    assert code.dtype == torch.int64 and code.shape == (16, 4)
    weights = 2 ** torch.arange(4)
    assert torch.equal((code * weights).sum(dim=1), torch.arange(16))
    assert code.unique(dim=0).shape[0] == 16


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 8))
def test_binary_code_column_b_has_period_2_to_b_plus_1(b: int) -> None:
    n_bits = b + 1
    code = binary_code(2**n_bits, n_bits)
    col = code[:, b]
    period = 2 ** (b + 1)
    assert torch.equal(col, col.roll(period))
    # half a period of 0s, then half of 1s
    assert col[: period // 2].sum().item() == 0 and col[period // 2 : period].sum().item() == period // 2


def test_binary_code_bad_input() -> None:
    with pytest.raises(ValueError, match=r"n_positions=9 needs more than n_bits=3 bits \(at most 8 codes\)"):
        binary_code(9, 3)
    with pytest.raises(ValueError, match=r"n_bits must be >= 1, got 0"):
        binary_code(1, 0)
    with pytest.raises(ValueError, match=r"n_positions must be >= 1, got 0"):
        binary_code(0, 3)
    with pytest.raises(TypeError, match=r"n_bits must be an integer, got True"):
        binary_code(2, True)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"n_bits must be <= 62, got 63"):
        binary_code(2, 63)
