"""How much of its width the sinusoidal table really uses: singular values and effective rank.

Over a short stretch of positions the low-frequency columns barely move, so they are almost linear
combinations of one another: the table of ``L`` rows has far fewer significant singular values than
``d_model``.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_choice


def singular_values(table: torch.Tensor) -> torch.Tensor:
    """Singular values of an ``(L, d)`` table in float64, largest first (``torch.linalg.svdvals``).

    Examples:
        >>> singular_values(torch.eye(2))
        tensor([1., 1.], dtype=torch.float64)
    """
    if not isinstance(table, torch.Tensor):
        raise TypeError(f"table must be a torch.Tensor, got {type(table).__name__}")
    if table.dim() != 2 or table.numel() == 0:
        raise ValueError(f"table must be a non-empty 2-D tensor (L, d), got shape {tuple(table.shape)}")
    if not torch.isfinite(table).all():
        raise ValueError("table must be finite, got NaN or inf entries")
    return torch.linalg.svdvals(table.detach().to(device="cpu", dtype=torch.float64))


def energy_rank(table: torch.Tensor, energy: float = 0.99) -> int:
    """The smallest ``k`` such that the ``k`` largest singular values hold ``energy`` of ``Σ σ²``.

    ``Σ σ²`` is the squared Frobenius norm, so this is the number of directions needed to reproduce the
    table up to a fraction ``1 − energy`` of its squared size.

    Raises:
        ValueError: ``energy`` not in ``(0, 1]``; bad table.

    Examples:
        >>> energy_rank(torch.diag(torch.tensor([3.0, 1.0])), 0.9)
        1
    """
    if isinstance(energy, bool) or not isinstance(energy, (int, float)) or not 0 < energy <= 1:
        raise ValueError(f"energy must be a number in (0, 1], got {energy!r}")
    s2 = singular_values(table) ** 2
    total = s2.sum()
    if total == 0:
        return 0
    cumulative = torch.cumsum(s2, 0) / total
    # tolerate the last cumulative value landing a rounding error below 1.0
    return int(torch.searchsorted(cumulative, torch.tensor(energy - 1e-12, dtype=torch.float64))) + 1


def effective_rank(table: torch.Tensor, *, method: str = "entropy", energy: float = 0.99) -> float:
    """Effective rank of a table.

    Args:
        table: ``(L, d)`` tensor.
        method: ``"entropy"`` — ``exp(H(p))`` with ``p = σ / Σ σ`` (Roy & Vetterli 2007), a real number
            between 1 and ``min(L, d)``; ``"energy"`` — :func:`energy_rank` with ``energy``.
        energy: Energy fraction for ``method="energy"``.

    Examples:
        >>> round(effective_rank(torch.eye(3)), 6)
        3.0
    """
    method = check_choice("method", method, ("entropy", "energy"))
    if method == "energy":
        return float(energy_rank(table, energy))
    s = singular_values(table)
    if s.sum() == 0:
        return 0.0
    p = s / s.sum()
    p = p[p > 0]
    return math.exp(float(-(p * p.log()).sum()))
