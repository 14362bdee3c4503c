"""RoPE measured: the exact rotation, and RoFormer's "long-term decay".

* ``rope_rotate`` turns each pair of one head's queries or keys by ``p · w_i`` with the angles formed in float64
  — the reference the float32 arithmetic of ``pe_docs.RotaryEmbedding`` is measured against. It rotates with
  ``pe_docs.apply_rope``'s own rotation (``pe_docs.rotary._turn``) and the same default pairing, ``"half"``.
* ``rope_decay_bound`` and ``rope_identical_score`` measure RoFormer's "long-term decay" (Su et al., 2021,
  §3.4.3): the upper bound the paper plots, and the score of a query and key with the same content.
"""

from __future__ import annotations

import torch

from pe_docs._checks import check_base, check_choice, check_d_model, float64_device
from pe_docs.frequencies import inverse_frequencies
from pe_docs.rotary import PAIRINGS, Pairing, _turn

# Largest integer magnitude up to which every integer is exact in float64 (the angles are formed in float64).
_EXACT_IN_FLOAT64 = 2**53


def rope_rotate(
    x: torch.Tensor,
    positions: torch.Tensor | None = None,
    *,
    base: float = 10000.0,
    pairing: Pairing = "half",
) -> torch.Tensor:
    """Rotary position embedding: rotate each feature pair of ``x`` by the angle ``p · w_i``.

    ``x`` holds one attention head's queries or keys (after the projection), so ``d = x.size(-1)`` is the
    head dimension and the frequencies are ``w_i = base^(-2i/d)``, ``i = 0 … d/2 − 1``. Pair ``i`` is
    ``(a, b) = (x[2i], x[2i+1])`` with ``pairing="interleaved"`` (the RoFormer paper; Meta's reference code,
    which views ``x`` as complex numbers of shape ``(…, d/2, 2)``) or ``(x[i], x[i + d/2])`` with
    ``pairing="half"`` (GPT-NeoX and Hugging Face's ``rotate_half``). Either way the pair becomes
    ``(a·cos − b·sin, a·sin + b·cos)`` of the angle ``p · w_i``: the point ``(a, b)``, ``a`` across, turns
    counter-clockwise, the other way from the table's pairs, which the site draws as clock hands turning
    clockwise (``pe_docs.analysis.relative_transform``). The two pairings differ only by a fixed permutation of the
    features: ``rope_rotate(x[..., perm], pairing="half")`` equals
    ``rope_rotate(x, pairing="interleaved")[..., perm]`` with ``perm = [0, 2, 4, …, 1, 3, 5, …]``, so a model
    trained with one works with the other once the rows of its query and key projections are permuted.

    Because a rotation by ``a`` followed by the transpose of a rotation by ``b`` is a rotation by ``b − a``,
    ``rope(q, i) · rope(k, j)`` depends on ``i`` and ``j`` only via ``j − i``. The angles are formed in
    float64 (the exact rotation, rounded once to ``x``'s dtype at ``cos`` and ``sin``), and the pairs are turned by
    ``apply_rope``'s own rotation, with its default pairing.

    Args:
        x: Queries or keys of one head, a real floating-point tensor of shape ``(..., seq, d)`` with ``d``
            even.
        positions: Integer positions of the rows (negative values allowed, magnitude <= ``2**53``), any
            integer dtype, with a shape that broadcasts to ``x.shape[:-1]``: ``(seq,)`` for one position per
            row, or e.g. ``(batch, 1, seq)`` for per-sequence positions. ``arange(seq)`` if omitted.
        base: The frequency base (``rope_theta``: 10000 in the paper and LLaMA 1 and 2, 500000 in LLaMA 3);
            finite and > 0.
        pairing: ``"half"`` (feature ``i`` with ``i + d/2``, the default, as in ``apply_rope``) or
            ``"interleaved"`` (neighbouring features).

    Returns:
        A tensor shaped like ``x``, in ``x``'s dtype and on its device.

    Raises:
        TypeError: ``x`` or ``positions`` is not a tensor, ``x`` is not real floating point, ``positions``
            is not an integer tensor (floating-point, bool and complex positions are rejected, not
            rounded), ``base`` is not a real number.
        ValueError: ``x`` has fewer than 2 dimensions or an odd last dimension, ``positions`` does not
            broadcast to ``x.shape[:-1]`` or holds a magnitude above ``2**53``, ``base`` <= 0 or not finite,
            unknown ``pairing``.

    Examples:
        >>> q = torch.tensor([[1.0, 0.0]])
        >>> rope_rotate(q, torch.tensor([1]))  # rotated by 1 radian
        tensor([[0.5403, 0.8415]])
        >>> rope_rotate(q, torch.tensor([-1]))  # and back
        tensor([[ 0.5403, -0.8415]])
        >>> x = torch.tensor([[1.0, 2.0, 3.0, 4.0]])
        >>> perm = torch.tensor([0, 2, 1, 3])
        >>> torch.equal(rope_rotate(x[:, perm], torch.tensor([5]), pairing="half"),
        ...             rope_rotate(x, torch.tensor([5]), pairing="interleaved")[:, perm])
        True
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a real floating-point tensor, got dtype {x.dtype}")
    if x.dim() < 2:
        raise ValueError(f"x must have shape (..., seq, d), got shape {tuple(x.shape)}")
    d = check_d_model(x.size(-1), "x.size(-1)")
    base = check_base(base)
    pairing = check_choice("pairing", pairing, PAIRINGS)
    work = float64_device(x.device)
    if positions is None:
        positions = torch.arange(x.size(-2), device=work)
    if not isinstance(positions, torch.Tensor):
        raise TypeError(f"positions must be a torch.Tensor, got {type(positions).__name__}")
    if positions.dtype.is_floating_point or positions.dtype.is_complex or positions.dtype == torch.bool:
        raise TypeError(f"positions must be an integer tensor, got dtype {positions.dtype}")
    rows = tuple(x.shape[:-1])
    try:
        fits = torch.broadcast_shapes(positions.shape, x.shape[:-1]) == x.shape[:-1]
    except RuntimeError:
        fits = False
    if not fits:
        raise ValueError(
            f"positions must have a shape that broadcasts to x.shape[:-1] = {rows}, got shape {tuple(positions.shape)}"
        )
    if positions.numel():
        low, high = int(positions.min()), int(positions.max())
        if max(-low, high) > _EXACT_IN_FLOAT64:
            raise ValueError(f"positions must lie in [-2**53, 2**53] (exact in float64), got values in [{low}, {high}]")
    w = inverse_frequencies(d, base=base).to(work)
    angle = positions.to(device=work, dtype=torch.float64)[..., None] * w
    angle = torch.cat((angle, angle), dim=-1)  # RotaryEmbedding's layout: the d/2 angles twice in a row
    cos = torch.cos(angle).to(device=x.device, dtype=x.dtype)
    sin = torch.sin(angle).to(device=x.device, dtype=x.dtype)
    return _turn(x, cos, sin, pairing)


def _distance_angles(distances: torch.Tensor, head_dim: int, base: float) -> tuple[int, torch.Tensor]:
    """``head_dim`` checked, and the angles ``m θ_i`` in float64, one row per distance (``distances`` flattened)."""
    d = check_d_model(head_dim, "head_dim")
    if not isinstance(distances, torch.Tensor) or distances.is_complex() or distances.dtype == torch.bool:
        raise TypeError(f"distances must be a real tensor, got {type(distances).__name__}")
    return d, distances.to(torch.float64).reshape(-1, 1) * inverse_frequencies(d, base=base)


def rope_decay_bound(distances: torch.Tensor, head_dim: int, *, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's upper bound on the score at relative distance ``m``, divided by ``max |h|`` (its Figure 2).

    Su et al. (2021, §3.4.3) write the rotated score as ``Re Σ_i h_i e^{i m θ_i}`` over the ``d/2`` pairs and
    bound it, by Abel summation, with ``(max_i |h_{i+1} − h_i|) · Σ_{j=1}^{d/2} |S_j|``, where
    ``S_j = Σ_{k=0}^{j−1} e^{i m θ_k}`` and ``θ_k = base^(−2k/d)``. The paper plots the "relative upper bound"
    ``(1/(d/2)) Σ_j |S_j|`` against ``m``; this function computes it, in float64. It bounds the score of the
    worst-case content; it says nothing about the score of the content a model computes.

    Args:
        distances: Relative distances ``m``, an integer or floating-point tensor of any shape.
        head_dim: The head dimension; a positive even integer.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor shaped like ``distances``: ``(d/2 + 1)/2`` at ``m = 0`` (every ``S_j = j``), less elsewhere.

    Raises:
        TypeError: ``distances`` is not a real tensor, ``head_dim`` not an integer.
        ValueError: ``head_dim`` is odd or < 1, ``base`` invalid.

    Examples:
        >>> rope_decay_bound(torch.tensor([0, 1]), 4).round(decimals=4)
        tensor([1.5000, 1.3800], dtype=torch.float64)
    """
    d, angles = _distance_angles(distances, head_dim, base)
    phases = torch.polar(torch.ones_like(angles), angles)  # e^{i m θ_k}
    partial = phases.cumsum(dim=-1)  # S_1 … S_{d/2}
    return (partial.abs().sum(dim=-1) / (d // 2)).reshape(distances.shape)


def rope_identical_score(distances: torch.Tensor, head_dim: int, *, base: float = 10000.0) -> torch.Tensor:
    """The RoPE score of a query and a key with the same content, ``m`` positions apart, per unit of ``|q|²``.

    With the same vector ``x`` as query and key and every pair of ``x`` of the same length, the score is
    ``|x|² · (2/d) Σ_i cos(m θ_i)``: the mean cosine of the angles — the dot product of two rows of the
    sinusoidal table, divided by ``d/2``. This is the situation in which RoPE's scores do fall with distance; for
    a query and key whose contents are unrelated, the expected score is 0 at every distance.

    Args:
        distances: Relative distances ``m``, a real tensor of any shape.
        head_dim: The head dimension; a positive even integer.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor shaped like ``distances``, 1 at ``m = 0``.

    Raises:
        TypeError: ``distances`` is not a real tensor.
        ValueError: ``head_dim`` is odd or < 1, ``base`` invalid.

    Examples:
        >>> rope_identical_score(torch.tensor([0, 1]), 4).round(decimals=4)
        tensor([1.0000, 0.7701], dtype=torch.float64)
    """
    _, angles = _distance_angles(distances, head_dim, base)
    return torch.cos(angles).mean(dim=-1).reshape(distances.shape)
