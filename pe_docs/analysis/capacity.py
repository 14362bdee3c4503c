"""How much of its width the sinusoidal table really uses: singular values and effective rank.

An ``(L, d)`` table has at most ``min(L, d)`` nonzero singular values. Over a short stretch of positions the
low-frequency columns barely move, so they are almost linear combinations of one another, and far fewer
directions than that carry most of the table.

A count of "significant" singular values depends on its threshold and on the table's precision: singular
values below the size of the table's rounding error (each entry of a float32 table is off by up to 3e-8 when
rounded once from float64, 2.5e-7 for ``sinusoidal_table``, far more for tutorial code) are rounding, not
structure. ``energy_rank`` uses a share of ``Σ σ²`` instead, which
rounding hardly moves.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_choice, check_real, check_real_tensor


def singular_values(table: torch.Tensor) -> torch.Tensor:
    """Singular values of an ``(L, d)`` table in float64, largest first (``torch.linalg.svdvals``).

    A float32 table is converted exactly, so these are the singular values of the float32 numbers; those
    below the norm of the table's rounding error are rounding, not structure (Weyl's inequality).

    Args:
        table: A real floating-point 2-D tensor with at least one row and one column, every entry finite.
            It is copied to the CPU in float64.

    Returns:
        A float64 tensor of shape ``(min(L, d),)``, non-increasing and >= 0.

    Raises:
        TypeError: ``table`` is not a tensor, or not floating point (integer, bool and complex tensors are
            refused).
        ValueError: ``table`` is not 2-D, is empty, or holds NaN or an infinity.

    Examples:
        >>> singular_values(torch.eye(2))
        tensor([1., 1.], dtype=torch.float64)
    """
    table = check_real_tensor("table", table, ndim=2)
    if table.numel() == 0:
        raise ValueError(f"table must be non-empty (L, d) with L, d >= 1, got shape {tuple(table.shape)}")
    return torch.linalg.svdvals(table.detach().to(device="cpu", dtype=torch.float64))


def energy_rank(table: torch.Tensor, energy: float = 0.99) -> int:
    """The smallest ``k`` such that the ``k`` largest singular values hold ``energy`` of ``Σ σ²``.

    ``Σ σ²`` is the squared Frobenius norm, so this is the number of directions needed to reproduce the
    table up to a fraction ``1 − energy`` of its squared size.

    Args:
        table: A real floating-point ``(L, d)`` tensor, as for ``singular_values``.
        energy: The fraction of ``Σ σ²`` to capture; a real number in ``(0, 1]`` (Python or NumPy scalar).

    Returns:
        An integer between 1 and ``min(L, d)``; 0 for an all-zero table (it has no energy to capture).

    Raises:
        TypeError: ``energy`` is not a real number, or ``table`` is not a real floating-point tensor.
        ValueError: ``energy`` not in ``(0, 1]``, or a bad ``table`` (see ``singular_values``).

    Examples:
        >>> energy_rank(torch.diag(torch.tensor([3.0, 1.0])), 0.9)
        1
        >>> energy_rank(torch.zeros(2, 2))
        0
    """
    energy = _check_energy(energy)
    s2 = singular_values(table) ** 2
    total = s2.sum()
    if total == 0:
        return 0
    cumulative = torch.cumsum(s2, 0) / total
    # tolerate the last cumulative value landing a rounding error below 1.0
    return int(torch.searchsorted(cumulative, torch.tensor(energy - 1e-12, dtype=torch.float64))) + 1


def effective_rank(table: torch.Tensor, *, method: str = "entropy", energy: float = 0.99) -> float:
    """Effective rank of a table: how many directions it really uses.

    Args:
        table: A real floating-point ``(L, d)`` tensor, as for ``singular_values``.
        method: ``"entropy"`` — ``exp(H(p))`` with ``p = σ / Σ σ`` (Roy & Vetterli 2007); ``"energy"`` —
            ``energy_rank`` with ``energy``.
        energy: Energy fraction for ``method="energy"``; a real number in ``(0, 1]``. Checked for either
            method.

    Returns:
        For a table that is not all zero, a real number between 1 and ``min(L, d)`` (an integer for
        ``method="energy"``). For an all-zero table, ``0.0`` with either method (no direction is used).

    Raises:
        TypeError: ``energy`` is not a real number, or ``table`` is not a real floating-point tensor.
        ValueError: unknown ``method``, ``energy`` not in ``(0, 1]``, or a bad ``table``.

    Examples:
        >>> round(effective_rank(torch.eye(3)), 6)
        3.0
        >>> effective_rank(torch.eye(3), method="energy", energy=0.5)
        2.0
        >>> effective_rank(torch.zeros(2, 3))
        0.0
    """
    method = check_choice("method", method, ("entropy", "energy"))
    energy = _check_energy(energy)
    if method == "energy":
        return float(energy_rank(table, energy))
    s = singular_values(table)
    if s.sum() == 0:
        return 0.0
    p = s / s.sum()
    p = p[p > 0]
    return math.exp(float(-(p * p.log()).sum()))


def _check_energy(energy: object) -> float:
    return check_real("energy", energy, minimum=0.0, maximum=1.0, open_minimum=True)
