import pytest
import torch

from pe_docs import non_relative_fraction, offset_statistics, position_scores, sinusoidal_table


def _loop_scores(table, w_q, w_k, n_heads):
    q, k = table @ w_q, table @ w_k
    d_k = q.size(1) // n_heads
    out = torch.zeros(n_heads, table.size(0), table.size(0), dtype=torch.float64)
    for h in range(n_heads):
        for i in range(table.size(0)):
            for j in range(table.size(0)):
                out[h, i, j] = q[i, h * d_k : (h + 1) * d_k] @ k[j, h * d_k : (h + 1) * d_k] / d_k**0.5
    return out


def test_vectorised_scores_match_loops():
    g = torch.Generator().manual_seed(0)
    t = sinusoidal_table(12, 16, dtype=torch.float64)
    w_q, w_k = (
        torch.randn(16, 16, generator=g, dtype=torch.float64),
        torch.randn(16, 16, generator=g, dtype=torch.float64),
    )
    torch.testing.assert_close(position_scores(t, w_q, w_k, n_heads=4), _loop_scores(t, w_q, w_k, 4))


def test_plain_dot_product_is_relative_and_symmetric():
    t = sinusoidal_table(40, 64, dtype=torch.float64)
    s = position_scores(t)
    offsets, mean, std = offset_statistics(s)
    assert std.max() < 1e-12
    assert torch.allclose(mean[0], mean[0].flip(-1), atol=1e-12)  # +k and -k give the same score
    assert non_relative_fraction(s) < 1e-10
    assert offsets[0] == -39 and offsets[-1] == 39


def test_random_projections_break_relative_dependence():
    g = torch.Generator().manual_seed(0)
    t = sinusoidal_table(40, 64, dtype=torch.float64)
    w_q, w_k = (
        torch.randn(64, 64, generator=g, dtype=torch.float64),
        torch.randn(64, 64, generator=g, dtype=torch.float64),
    )
    assert non_relative_fraction(position_scores(t, w_q, w_k, n_heads=8)) > 0.3


def test_offset_statistics_against_loop():
    s = torch.randn(2, 6, 6, dtype=torch.float64)
    offsets, mean, std = offset_statistics(s)
    for h in range(2):
        for idx, k in enumerate(offsets.tolist()):
            vals = torch.stack([s[h, i, i + k] for i in range(6) if 0 <= i + k < 6])
            assert torch.isclose(mean[h, idx], vals.mean())
            assert torch.isclose(std[h, idx], vals.std(unbiased=False))


def test_bad_input():
    t = sinusoidal_table(4, 8)
    with pytest.raises(ValueError, match=r"both w_q and w_k"):
        position_scores(t, torch.eye(8))
    with pytest.raises(ValueError, match=r"w_q must have shape \(8, width\)"):
        position_scores(t, torch.eye(4), torch.eye(4))
    with pytest.raises(ValueError, match=r"n_heads must divide the projected width 8, got n_heads=3"):
        position_scores(t, n_heads=3)
    with pytest.raises(ValueError, match=r"same shape"):
        position_scores(t, torch.eye(8), torch.ones(8, 4))
    with pytest.raises(ValueError, match=r"table must be a 2-D tensor"):
        position_scores(torch.ones(3))
    with pytest.raises(ValueError, match=r"scores must be a tensor of shape"):
        offset_statistics(torch.ones(2, 3))
