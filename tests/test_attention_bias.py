import math

import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import non_relative_fraction, offset_statistics, position_scores


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


def _loop_fraction(scores):
    """sqrt(mean over heads of within-offset variance / mean over heads of total variance), by loops."""
    heads = scores.reshape(-1, scores.size(-2), scores.size(-1))
    length = heads.size(-1)
    within, total = [], []
    for h in heads:
        groups = {}
        for i in range(length):
            for j in range(length):
                groups.setdefault(j - i, []).append(h[i, j].item())
        sq = sum(sum((v - sum(g) / len(g)) ** 2 for v in g) for g in groups.values())
        within.append(sq / length**2)
        total.append(h.var(unbiased=False).item())
    return math.sqrt((sum(within) / len(within)) / (sum(total) / len(total)))


def test_non_relative_fraction_against_loop():
    g = torch.Generator().manual_seed(3)
    for shape in ((5, 5), (3, 7, 7), (2, 2, 4, 4)):
        s = torch.randn(*shape, generator=g, dtype=torch.float64)
        assert math.isclose(non_relative_fraction(s), _loop_fraction(s), rel_tol=1e-12)


def test_non_relative_fraction_extremes():
    assert non_relative_fraction(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])) == 0.0
    assert non_relative_fraction(torch.tensor([[1.0, 0.0], [0.0, -1.0]])) == 1.0
    assert non_relative_fraction(torch.full((3, 3), 2.0)) == 0.0  # constant: nothing to explain
    assert non_relative_fraction(torch.ones(1, 1)) == 0.0  # L = 1


def test_length_one_is_allowed():
    offsets, mean, std = offset_statistics(torch.tensor([[2.0]]))
    assert offsets.tolist() == [0] and mean.tolist() == [2.0] and std.tolist() == [0.0]
    assert position_scores(torch.tensor([[3.0, 4.0]])).tolist() == [[[25.0 / 2**0.5]]]


def test_bad_input():
    t = sinusoidal_table(4, 8)
    with pytest.raises(ValueError, match=r"both w_q and w_k.*got w_q=tensor of shape \(8, 8\) and w_k=NoneType"):
        position_scores(t, torch.eye(8))
    with pytest.raises(ValueError, match=r"w_q must have shape \(8, width\) with width >= 1, got \(4, 4\)"):
        position_scores(t, torch.eye(4), torch.eye(4))
    with pytest.raises(ValueError, match=r"w_k must have shape \(8, width\) with width >= 1, got \(8, 0\)"):
        position_scores(t, torch.eye(8), torch.ones(8, 0))
    with pytest.raises(ValueError, match=r"n_heads must divide the projected width 8, got n_heads=3"):
        position_scores(t, n_heads=3)
    with pytest.raises(ValueError, match=r"n_heads must be >= 1, got 0"):
        position_scores(t, n_heads=0)
    with pytest.raises(ValueError, match=r"same shape"):
        position_scores(t, torch.eye(8), torch.ones(8, 4))
    with pytest.raises(ValueError, match=r"table must have 2 dimensions, got shape \(3,\)"):
        position_scores(torch.ones(3))
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor, got list"):
        position_scores([[1.0]])
    with pytest.raises(TypeError, match=r"w_q must be a torch.Tensor, got list"):
        position_scores(t, [[1.0]], torch.eye(8))
    with pytest.raises(ValueError, match=r"scores must have shape \(\.\.\., L, L\) with L >= 1, got shape \(2, 3\)"):
        offset_statistics(torch.ones(2, 3))
    with pytest.raises(ValueError, match=r"scores must have shape .*got shape \(3,\)"):
        non_relative_fraction(torch.ones(3))


@pytest.mark.parametrize("dtype", [torch.complex64, torch.bool, torch.int64])
def test_non_float_tensors_are_type_errors(dtype):
    # regression: complex tables lost their imaginary part silently, bool/int tensors were accepted
    bad = torch.eye(4, dtype=dtype)
    match = rf"must be a real floating-point tensor, got dtype {dtype}"
    with pytest.raises(TypeError, match="table " + match):
        position_scores(bad)
    with pytest.raises(TypeError, match="w_k " + match):
        position_scores(torch.eye(4), torch.eye(4), bad)
    with pytest.raises(TypeError, match="scores " + match):
        offset_statistics(bad)
    with pytest.raises(TypeError, match="scores " + match):
        non_relative_fraction(bad)


def test_messages_report_shapes_not_tensors():
    # regression: the messages embedded the whole tensor
    big = torch.arange(1000.0)
    for call in (lambda: position_scores(big), lambda: offset_statistics(big), lambda: non_relative_fraction(big)):
        with pytest.raises(ValueError, match=r"got shape \(1000,\)") as info:
            call()
        assert "tensor(" not in str(info.value) and len(str(info.value)) < 200


def test_empty_and_non_finite_input():
    # regression: L = 0 reached torch.bincount and raised RuntimeError
    for call in (lambda: offset_statistics(torch.zeros(0, 0)), lambda: non_relative_fraction(torch.zeros(2, 0, 0))):
        with pytest.raises(ValueError, match=r"scores must have shape \(\.\.\., L, L\) with L >= 1, got shape"):
            call()
    with pytest.raises(ValueError, match=r"table must have L >= 1 rows and d >= 1 columns, got shape \(0, 4\)"):
        position_scores(torch.zeros(0, 4))
    with pytest.raises(ValueError, match=r"table must have L >= 1 rows and d >= 1 columns, got shape \(3, 0\)"):
        position_scores(torch.zeros(3, 0))
    with pytest.raises(ValueError, match=r"scores must be finite"):
        offset_statistics(torch.tensor([[0.0, math.nan], [1.0, 0.0]]))
    with pytest.raises(ValueError, match=r"table must be finite"):
        position_scores(torch.tensor([[math.inf, 0.0]]))
