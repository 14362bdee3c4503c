import math

import numpy as np
import pytest
import torch

from pe_docs import sinusoidal_table
from pe_docs.analysis import effective_rank, energy_rank, singular_values


def test_singular_values_match_numpy_reference():
    t = sinusoidal_table(100, 32, dtype=torch.float64)
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


def test_all_zero_table_has_rank_zero_with_every_method():
    # documented: an all-zero table is the one exception to "between 1 and min(L, d)"
    z = torch.zeros(4, 6)
    assert energy_rank(z) == 0
    assert effective_rank(z) == 0.0
    assert effective_rank(z, method="energy") == 0.0


def test_effective_rank_range_for_non_zero_tables():
    g = torch.Generator().manual_seed(0)
    for shape in ((3, 7), (9, 2), (1, 5)):
        t = torch.randn(*shape, generator=g, dtype=torch.float64)
        for method in ("entropy", "energy"):
            r = effective_rank(t, method=method)
            assert 1.0 - 1e-12 <= r <= min(shape) + 1e-12


def test_numpy_scalars_are_accepted_for_energy():
    t = torch.diag(torch.tensor([3.0, 1.0]))
    assert energy_rank(t, np.float32(0.9)) == 1
    assert energy_rank(t, np.float64(1.0)) == 2
    assert effective_rank(t, method="energy", energy=np.float32(0.95)) == 2.0
    assert energy_rank(t, 1) == 2  # an int is a real number too


@pytest.mark.parametrize("dtype", [torch.complex64, torch.bool, torch.int64])
def test_non_float_tables_are_type_errors(dtype):
    # regression: complex tables lost their imaginary part silently, bool/int tables were accepted
    bad = torch.eye(2, dtype=dtype)
    for f in (singular_values, energy_rank, effective_rank):
        with pytest.raises(TypeError, match=rf"table must be a real floating-point tensor, got dtype {dtype}"):
            f(bad)


def test_bad_input():
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor, got list"):
        singular_values([[1.0]])
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor, got ndarray"):
        energy_rank(np.eye(2))
    with pytest.raises(ValueError, match=r"table must have 2 dimensions, got shape \(3,\)"):
        singular_values(torch.ones(3))
    with pytest.raises(ValueError, match=r"table must be non-empty .*got shape \(0, 3\)"):
        singular_values(torch.ones(0, 3))
    with pytest.raises(ValueError, match=r"table must be finite.*shape \(1, 1\)") as info:
        singular_values(torch.tensor([[math.nan]]))
    assert "tensor(" not in str(info.value)
    with pytest.raises(ValueError, match=r"method must be one of"):
        effective_rank(torch.eye(2), method="max")


def test_energy_is_checked_for_every_method():
    t = torch.eye(2)
    with pytest.raises(ValueError, match=r"energy must be <= 1.0, got 1.5"):
        energy_rank(t, 1.5)
    with pytest.raises(ValueError, match=r"energy must be > 0.0, got 0"):
        energy_rank(t, 0)
    with pytest.raises(ValueError, match=r"energy must be finite, got nan"):
        energy_rank(t, math.nan)
    with pytest.raises(TypeError, match=r"energy must be a real number, got '0.9' of type str"):
        energy_rank(t, "0.9")
    with pytest.raises(TypeError, match=r"energy must be a real number, got True"):
        energy_rank(t, True)
    # regression: the default method ignored energy, so a typo went unnoticed
    with pytest.raises(ValueError, match=r"energy must be <= 1.0, got 5"):
        effective_rank(t, energy=5)
    with pytest.raises(ValueError, match=r"energy must be > 0.0, got -0.1"):
        effective_rank(t, method="entropy", energy=-0.1)


def test_small_singular_values_of_a_float32_table_are_rounding():
    # module docstring: a threshold far below the rounding counts it (seed 002's S > S.max() * 1e-10)
    t32, t64 = sinusoidal_table(2000, 256), sinusoidal_table(2000, 256, dtype=torch.float64)
    s32, s64 = singular_values(t32), singular_values(t64)
    assert int((s32 > s32[0] * 1e-10).sum()) == 256 > int((s64 > s64[0] * 1e-10).sum())
    noise = torch.linalg.matrix_norm(t32.double() - t64, ord=2)  # rounding error of the float32 table
    assert (s32 - s64).abs().max() <= noise  # Weyl's inequality
    assert int((s32 > noise).sum()) == int((s64 > noise).sum())
    assert energy_rank(t32, 0.99) == energy_rank(t64, 0.99)
