"""pe_docs.analysis.uniqueness: record approaches of pair 0, row distances, duplicate rows, misplaced rows."""

from __future__ import annotations

import itertools
import math

import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import closest_returns, exact_rows, first_duplicate_row, misplaced_rows, rows_in_dtype


def brute_force_records(n_max: int) -> list[int]:
    """Offsets n whose distance to the nearest multiple of 2π beats every smaller offset (float64 scan)."""
    n = torch.arange(1, n_max + 1, dtype=torch.float64)
    r = torch.remainder(n, 2 * math.pi)
    dist = torch.minimum(r, 2 * math.pi - r)
    best = torch.cummin(dist, 0).values
    new = torch.ones_like(dist, dtype=torch.bool)
    new[1:] = best[1:] < best[:-1]
    return (torch.nonzero(new).flatten() + 1).tolist()


def test_closest_returns_are_the_brute_force_records():
    records = closest_returns(10**6)
    assert [r.offset for r in records] == brute_force_records(10**6)
    gaps = [abs(r.gap) for r in records]
    assert all(b < a for a, b in itertools.pairwise(gaps))
    for r in records:
        assert abs(r.offset - 2 * math.pi * r.turns) == pytest.approx(abs(r.gap), abs=1e-9)  # float64 cancels
        assert r.chord == pytest.approx(abs(2 * math.sin(r.offset / 2)), rel=1e-6)


def test_closest_returns_below_two_to_the_24():
    records = closest_returns(2**24)
    last = records[-1]
    assert (last.offset, last.turns) == (10838702, 1725033)
    assert 7.6e-8 < last.gap < 7.7e-8
    # the record is closer than one float32 ulp at 1
    assert last.chord < 2**-23


def test_closest_returns_bad_input():
    with pytest.raises(ValueError, match="max_offset must be >= 1, got 0"):
        closest_returns(0)
    with pytest.raises(ValueError, match=r"max_offset must be <= 10\*\*15"):
        closest_returns(10**16)
    assert [r.offset for r in closest_returns(1)] == [1]


def test_first_duplicate_row():
    assert first_duplicate_row(torch.eye(4)) is None
    assert first_duplicate_row(torch.zeros(1, 3)) is None
    t = torch.tensor([[1.0, 2.0], [0.0, -0.0], [3.0, 3.0], [-0.0, 0.0], [1.0, 2.0]])
    assert first_duplicate_row(t) == (1, 3)  # -0.0 == 0.0
    # a table whose frequencies are rational multiples of 2π repeats: periods 8, 16, 32 -> period 32
    periods = torch.tensor([8, 16, 32])
    phase = (torch.arange(100)[:, None] % periods) * (2 * math.pi / periods.double())  # exact repeats
    rational = torch.stack((phase.sin(), phase.cos()), -1).reshape(100, 6).float()
    assert first_duplicate_row(rational) == (0, 32)


def test_first_duplicate_row_rejects_bad_input():
    with pytest.raises(ValueError, match="table must be finite"):
        first_duplicate_row(torch.tensor([[math.nan], [math.nan]]))
    with pytest.raises(ValueError, match="table must have 2 dimensions"):
        first_duplicate_row(torch.zeros(3))
    with pytest.raises(TypeError, match="table must be a real floating-point tensor"):
        first_duplicate_row(torch.zeros(3, 2, dtype=torch.long))


@pytest.mark.parametrize(("dtype", "first"), [(torch.bfloat16, 257), (torch.float16, 2049)])
def test_tutorial_tables_repeat_where_positions_collapse(dtype, first):
    rows = rows_in_dtype(torch.arange(first + 50), 512, method="log", dtype=dtype)
    assert first_duplicate_row(rows.float()) == (first - 1, first)


def test_float32_tutorial_rows_repeat_from_two_to_the_24():
    start = 2**24 - 100
    rows = rows_in_dtype(torch.arange(start, 2**24 + 4), 512, method="log")
    i, j = first_duplicate_row(rows)
    assert (start + i, start + j) == (2**24, 2**24 + 1)


def test_misplaced_rows():
    pos = torch.arange(1, 40)
    assert not misplaced_rows(exact_rows(pos, 16), pos).any()
    assert misplaced_rows(exact_rows(pos + 1, 16), pos).all()
    assert misplaced_rows(exact_rows(pos[1:] + 2, 16), pos[1:], radius=2).all()
    assert not misplaced_rows(sinusoidal_table(40, 16)[1:], pos).any()


def test_misplaced_rows_rejects_bad_input():
    with pytest.raises(ValueError, match="positions must be >= radius=1, got 0"):
        misplaced_rows(exact_rows([0], 4), torch.tensor([0]))
    with pytest.raises(TypeError, match="positions must be an integer tensor"):
        misplaced_rows(exact_rows([1], 4), torch.tensor([1.0]))
    with pytest.raises(ValueError, match=r"one entry per row \(1\)"):
        misplaced_rows(exact_rows([1], 4), torch.tensor([1, 2]))
    with pytest.raises(ValueError, match="rows.size\\(1\\) must be even"):
        misplaced_rows(torch.zeros(1, 3), torch.tensor([1]))
