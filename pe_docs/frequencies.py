"""The frequencies ``w_i = base^(-2i/d)`` and wavelengths ``2π / w_i`` of the sinusoidal encoding."""

from __future__ import annotations

import math
from typing import Literal

import torch

from pe_docs._checks import check_base, check_choice, check_d_model, check_float_dtype

FrequencyMethod = Literal["pow", "log"]


def inverse_frequencies(
    d_model: int,
    *,
    base: float = 10000.0,
    method: FrequencyMethod = "pow",
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """Angular frequencies ``w_i = base ** (-2i / d_model)`` for ``i = 0 … d_model/2 - 1``.

    Args:
        d_model: Width of the encoding; a positive even integer.
        base: The constant in the denominator (10000 in the paper); finite and > 0.
        method: ``"pow"`` computes ``base ** (-(2i / d))`` directly; ``"log"`` computes
            ``exp(2i * (-ln(base) / d))``, the form of the Annotated Transformer and the PyTorch tutorial
            (tensor2tensor exponentiates the same way, but divides by ``d/2 - 1`` instead of ``d/2``). Both
            are computed entirely in ``dtype``, so the two can be compared.
        dtype: Floating-point dtype of the computation and of the result.

    Returns:
        A tensor of shape ``(d_model // 2,)`` starting at 1, decreasing when ``base > 1``.

    Raises:
        TypeError: ``d_model`` is not an integer, ``base`` not a real number, ``dtype`` not floating.
        ValueError: ``d_model`` is odd or < 1, ``base`` <= 0 or not finite, ``method`` unknown.

    Examples:
        >>> inverse_frequencies(4)
        tensor([1.0000, 0.0100], dtype=torch.float64)
    """
    d = check_d_model(d_model)
    base = check_base(base)
    method = check_choice("method", method, ("pow", "log"))
    dtype = check_float_dtype(dtype)
    two_i = torch.arange(0, d, 2, dtype=dtype)
    if method == "pow":
        return torch.pow(torch.tensor(base, dtype=dtype), -(two_i / d))
    return torch.exp(two_i * (-math.log(base) / d))


def wavelengths(d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Wavelengths ``λ_i = 2π / w_i`` in positions, float64, shape ``(d_model // 2,)``.

    They form a geometric progression from ``2π`` (``i = 0``) to ``2π · base^((d-2)/d)``
    (``i = d/2 - 1``); neighbours differ by the factor ``base^(2/d)``.

    Examples:
        >>> wavelengths(4)
        tensor([  6.2832, 628.3185], dtype=torch.float64)
    """
    return (2 * math.pi) / inverse_frequencies(d_model, base=base, dtype=torch.float64)
