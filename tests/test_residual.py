"""position_signal: the two shares against direct computations, their bounds, and errors."""

from __future__ import annotations

import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import position_signal


def test_shares_against_a_loop() -> None:
    g = torch.Generator().manual_seed(0)
    table = sinusoidal_table(10, 8, dtype=torch.float64)
    hidden = torch.randn(5, 10, 8, generator=g, dtype=torch.float64) + 0.7 * table + torch.randn(10, 8, generator=g)
    flat = hidden.reshape(-1, 8)
    centred = hidden - flat.mean(0)
    total = sum(float(centred[b, p] @ centred[b, p]) for b in range(5) for p in range(10))
    mean = centred.mean(0)
    p = table - table.mean(0)
    expected_position = 5 * float((mean * mean).sum()) / total
    expected_encoding = 5 * float((mean * p).sum()) ** 2 / (float((p * p).sum()) * total)
    signal = position_signal(hidden, table)
    assert signal.position_share == pytest.approx(expected_position, rel=1e-12)
    assert signal.encoding_share == pytest.approx(expected_encoding, rel=1e-12)
    assert 0 < signal.encoding_share < signal.position_share < 1


def test_pure_encoding_and_no_encoding() -> None:
    table = sinusoidal_table(16, 8, dtype=torch.float64)
    only_position = table.expand(4, 16, 8)
    assert position_signal(only_position, table) == pytest.approx((1.0, 1.0))
    g = torch.Generator().manual_seed(1)
    noise = torch.randn(400, 16, 8, generator=g, dtype=torch.float64)
    signal = position_signal(noise, table)
    assert signal.position_share == pytest.approx(1 / 400, rel=0.2)  # sampling noise only
    assert signal.encoding_share < 0.001


@pytest.mark.parametrize(
    ("hidden", "table", "error", "words"),
    [
        (torch.zeros(2, 3), torch.zeros(3, 2), ValueError, ["hidden", "3 dimensions"]),
        (torch.ones(2, 3, 4), torch.zeros(3, 5), ValueError, ["table", "(3, 4)", "(3, 5)"]),
        (torch.ones(1, 3, 4), torch.zeros(3, 4), ValueError, ["2 sequences", "(1, 3, 4)"]),
        (torch.ones(2, 3, 4), torch.zeros(3, 4), ValueError, ["no variance"]),
        (torch.ones(2, 3, 4, dtype=torch.long), torch.zeros(3, 4), TypeError, ["hidden", "torch.int64"]),
        (torch.full((2, 3, 4), float("nan")), torch.zeros(3, 4), ValueError, ["hidden", "finite"]),
    ],
)
def test_bad_input(hidden, table, error, words) -> None:
    with pytest.raises(error) as info:
        position_signal(hidden, table)
    for word in words:
        assert word in str(info.value)
