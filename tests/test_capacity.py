import math

import pytest
import torch

from pe_docs import effective_rank, energy_rank, singular_values, sinusoidal_table


def test_singular_values_match_numpy_reference():
    t = sinusoidal_table(100, 32, dtype=torch.float64)
    import numpy as np

    ref = np.linalg.svd(t.numpy(), compute_uv=False)
    torch.testing.assert_close(singular_values(t), torch.from_numpy(ref))


def test_frobenius_identity_and_energy_rank():
    t = sinusoidal_table(64, 128, dtype=torch.float64)
    s = singular_values(t)
    # ||PE||_F^2 = L * d/2 because every row has squared norm d/2
    assert math.isclose(float((s**2).sum()), 64 * 64, rel_tol=1e-12)
    assert energy_rank(t, 1.0) <= 64
    assert energy_rank(t, 0.99) < energy_rank(t, 0.999999) <= 64
    assert energy_rank(torch.diag(torch.tensor([3.0, 1.0])), 0.9) == 1
    assert energy_rank(torch.zeros(3, 3)) == 0


def test_effective_rank_grows_with_length():
    ranks = [effective_rank(sinusoidal_table(n, 256, dtype=torch.float64)) for n in (32, 256, 2048)]
    assert ranks[0] < ranks[1] < ranks[2] < 256
    assert math.isclose(effective_rank(torch.eye(5)), 5.0, rel_tol=1e-12)
    assert effective_rank(torch.eye(5), method="energy", energy=0.6) == 3.0


def test_bad_input():
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor"):
        singular_values([[1.0]])
    with pytest.raises(ValueError, match=r"shape \(3,\)"):
        singular_values(torch.ones(3))
    with pytest.raises(ValueError, match=r"finite"):
        singular_values(torch.tensor([[math.nan]]))
    with pytest.raises(ValueError, match=r"energy must be a number in \(0, 1\], got 1.5"):
        energy_rank(torch.eye(2), 1.5)
    with pytest.raises(ValueError, match=r"method must be one of"):
        effective_rank(torch.eye(2), method="max")
