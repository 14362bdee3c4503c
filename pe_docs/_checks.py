"""Argument checks shared by the public API.

Every check raises ``TypeError`` (wrong kind of value) or ``ValueError`` (right kind, bad value) with a
message that names the argument and repeats the value received, because a failing documentation snippet
only shows the message.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import SupportsIndex, TypeVar, cast

import torch

_Choice = TypeVar("_Choice", bound=str)


def check_int(name: str, value: object, *, minimum: int | None = None) -> int:
    """Return ``value`` as an ``int`` after checking that it is an integer ``>= minimum``.

    Any integer type is taken (``operator.index``: Python and NumPy integers, a one-element integer tensor);
    bools, floats (even whole ones) and strings are refused, and the message names the type received.
    """
    bool_tensor = isinstance(value, torch.Tensor) and value.dtype == torch.bool
    try:
        if isinstance(value, bool) or bool_tensor:
            raise TypeError
        value = operator.index(cast(SupportsIndex, value))  # TypeError without __index__ (cast: no runtime cost)
    except (TypeError, RuntimeError):
        raise TypeError(f"{name} must be an integer, got {value!r} of type {type(value).__name__}") from None
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    return value


def check_d_model(value: object, name: str = "d_model") -> int:
    """Check that the model width is a positive even integer (sin/cos come in pairs)."""
    d = check_int(name, value, minimum=1)
    if d % 2:
        raise ValueError(f"{name} must be even (each frequency fills one sin and one cos column), got {d}")
    return d


def check_base(value: object, name: str = "base") -> float:
    """Check that the frequency base is a finite real number > 0."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    base = float(value)
    if not math.isfinite(base) or base <= 0:
        raise ValueError(f"{name} must be finite and > 0, got {value!r}")
    return base


def check_float_dtype(value: object, name: str = "dtype") -> torch.dtype:
    """Check that ``value`` is a real floating-point ``torch.dtype``."""
    if not isinstance(value, torch.dtype):
        raise TypeError(f"{name} must be a torch.dtype, got {value!r} of type {type(value).__name__}")
    if not value.is_floating_point:
        raise TypeError(f"{name} must be a floating-point dtype, got {value}")
    return value


def check_choice(name: str, value: object, choices: tuple[_Choice, ...]) -> _Choice:
    """Check that ``value`` is one of the allowed strings (``TypeError`` for a value that is not a string); return
    the choice, typed as one of ``choices`` (a ``Literal`` when they are)."""
    expected = f"{name} must be one of {', '.join(map(repr, choices))}"
    if not isinstance(value, str):
        raise TypeError(f"{expected}; got {value!r} of type {type(value).__name__}")
    if value not in choices:
        raise ValueError(f"{expected}; got {value!r}")
    return choices[choices.index(value)]


def check_real(
    name: str,
    value: object,
    *,
    minimum: float | None = None,
    maximum: float | None = None,
    open_minimum: bool = False,
) -> float:
    """Return ``value`` as a ``float`` after checking it is a finite real number (not a bool) in range.

    ``minimum``/``maximum`` are inclusive bounds; ``open_minimum=True`` makes the lower bound exclusive.
    Accepts Python and NumPy scalars (anything registered as ``numbers.Real``).
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} of type {type(value).__name__}")
    x = float(value)
    if not math.isfinite(x):
        raise ValueError(f"{name} must be finite, got {value!r}")
    if minimum is not None and (x <= minimum if open_minimum else x < minimum):
        raise ValueError(f"{name} must be {'>' if open_minimum else '>='} {minimum}, got {value!r}")
    if maximum is not None and x > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value!r}")
    return x


def check_real_tensor(
    name: str, value: object, *, ndim: int | tuple[int, ...] | None = None, finite: bool = True
) -> torch.Tensor:
    """Check that ``value`` is a real floating-point tensor (optionally of ``ndim`` dims, all finite).

    Messages report the shape and dtype received, never the whole tensor.
    """
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(value).__name__}")
    if not value.is_floating_point():
        raise TypeError(f"{name} must be a real floating-point tensor, got dtype {value.dtype}")
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if value.dim() not in allowed:
            dims = " or ".join(str(n) for n in allowed)
            raise ValueError(f"{name} must have {dims} dimensions, got shape {tuple(value.shape)}")
    if finite and not bool(torch.isfinite(value).all()):
        raise ValueError(f"{name} must be finite, got NaN or infinite entries (shape {tuple(value.shape)})")
    return value


def check_sequence_input(x: object, d_model: int, *, batch_first: bool) -> int:
    """Check the input of a module that adds a row per position; return its sequence length.

    ``x`` must be a floating-point tensor of shape ``(batch, seq, d_model)`` (``(seq, batch, d_model)`` when
    ``batch_first`` is false). The caller compares the returned length with its own ``max_len``.
    """
    if not isinstance(x, torch.Tensor):
        raise TypeError(f"x must be a torch.Tensor, got {type(x).__name__}")
    if x.dim() != 3:
        shape = "(batch, seq, d_model)" if batch_first else "(seq, batch, d_model)"
        raise ValueError(f"x must have shape {shape}, got a tensor of shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"x must be a floating-point tensor, got dtype {x.dtype}")
    if x.size(-1) != d_model:
        raise ValueError(f"x's last dimension must equal d_model={d_model}, got {x.size(-1)} (shape {tuple(x.shape)})")
    return x.size(1) if batch_first else x.size(0)


def float64_device(device: torch.device) -> torch.device:
    """Where float64 intermediates for ``device`` are computed: ``device`` itself, or the CPU for MPS (no float64)."""
    return torch.device("cpu") if device.type == "mps" else device
