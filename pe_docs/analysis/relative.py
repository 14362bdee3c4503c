"""The linear relative transform ``T_k``: the matrix that moves every encoding ``k`` positions along.

For each frequency ``w_i`` the pair ``(PE[p, 2i], PE[p, 2i+1]) = (sin p·w_i, cos p·w_i)``, read as the point
``(cos p·w_i, sin p·w_i)`` of the unit circle, obeys the angle-addition formulas

    cos((p+k)·w) = cos(k·w) · cos(p·w) − sin(k·w) · sin(p·w)
    sin((p+k)·w) = sin(k·w) · cos(p·w) + cos(k·w) · sin(p·w)

so a 2×2 rotation that depends on ``k`` only (never on ``p``) maps position ``p`` to position ``p + k``. The
identity is exact; a table stored in floating point satisfies it only up to the rounding of its entries and,
in tutorial code, of its float32 phases ``p·w_i``.
"""

from __future__ import annotations

import torch

from pe_docs._checks import check_base, check_d_model, check_float_dtype, check_int
from pe_docs.frequencies import inverse_frequencies


def relative_transform(
    k: int, d_model: int, *, base: float = 10000.0, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """The matrix ``T_k`` with ``T_k @ PE[p] == PE[p + k]`` for every position ``p``.

    ``T_k`` is block diagonal: for each frequency ``w_i = base^(-2i / d_model)`` it holds the 2×2 block

        [[ cos(k·w_i), sin(k·w_i)],
         [-sin(k·w_i), cos(k·w_i)]]

    in rows and columns ``2i, 2i + 1`` (the (sin, cos) pair of the interleaved layout of
    ``pe_docs.sinusoidal_table``), and zeros elsewhere: the clockwise turn by ``k·w_i`` of the point
    ``(x, y) = (sin, cos)``, a clock hand's turn, the transpose of the textbook's counter-clockwise
    ``[[cos, −sin], [sin, cos]]``. It depends on the offset ``k`` only, not on ``p``; it is
    orthogonal, ``T_{-k} = T_kᵀ`` and ``T_a @ T_b = T_{a+b}``. The angles ``k·w_i`` are formed in
    float64 and only the entries are rounded to ``dtype``.

    Each block turns its pair clockwise, as the site draws it (x the sine, y the cosine: a clock hand from twelve
    o'clock). RoPE turns a (query or key) feature pair counter-clockwise, its first feature (the real part) across,
    so entry for entry
    ``pe_docs.analysis.rope_rotate(x, [m])`` with interleaved pairs is ``T_{-m} @ x`` when ``d_model`` is the head
    dimension.

    Args:
        k: The offset; any integer (negative moves towards position 0).
        d_model: Width of the encoding; a positive even integer.
        base: The constant in the frequencies; finite and > 0.
        dtype: Floating-point dtype of the result.

    Returns:
        A tensor of shape ``(d_model, d_model)``.

    Raises:
        TypeError: ``k`` or ``d_model`` is not an integer, ``base`` not a real number, ``dtype`` not floating.
        ValueError: ``d_model`` is odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> pe = sinusoidal_table(10, 4, dtype=torch.float64)
        >>> torch.allclose(relative_transform(3, 4) @ pe[2], pe[5])
        True
    """
    k = check_int("k", k)
    d = check_d_model(d_model)
    base = check_base(base)
    dtype = check_float_dtype(dtype)
    angle = k * inverse_frequencies(d, base=base, dtype=torch.float64)
    cos, sin = torch.cos(angle), torch.sin(angle)
    # blocks[i] is the 2×2 rotation of pair i; scatter them onto the diagonal.
    blocks = torch.stack((torch.stack((cos, sin), -1), torch.stack((-sin, cos), -1)), -2)  # (d/2, 2, 2)
    transform = torch.zeros(d // 2, 2, d // 2, 2, dtype=torch.float64)
    pair = torch.arange(d // 2)
    transform[pair, :, pair, :] = blocks
    return transform.reshape(d, d).to(dtype)
