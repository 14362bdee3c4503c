"""How much of a batch of hidden states is a function of position, and how much of that is still the input encoding.

The sinusoidal table is added once, before the first layer; every later layer sees it only through the residual
stream. ``position_signal`` measures it there: over a batch of independent sequences, the part of the hidden
states that does not change with the sequence — their mean at each position — is the positional part, and its
share of the variance says how much of the stream is position. Projecting that part on the (centred) table says
how much of it is the encoding itself rather than something the layers made of it.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from pe_docs._checks import check_real_tensor


class PositionSignal(NamedTuple):
    """What ``position_signal`` measures, as shares of the total variance of the hidden states."""

    position_share: float
    """Variance of the per-position mean over the batch: the part that depends on position alone. With
    ``batch`` independent sequences and no positional signal at all it is about ``1 / batch`` (sampling noise)."""
    encoding_share: float
    """The part of ``position_share`` along the centred table: how much is the input encoding itself."""


def position_signal(hidden: torch.Tensor, table: torch.Tensor) -> PositionSignal:
    """Shares of the variance of ``hidden`` that are position, and the encoding ``table`` itself.

    With ``c = hidden − mean`` (the mean over batch and positions, per feature), ``M`` the mean of ``c`` over the
    batch at each position and ``P = table − table.mean(0)``:
    ``position_share = batch · |M|² / |c|²`` and ``encoding_share = batch · ⟨M, P⟩² / (|P|² · |c|²)`` (the
    projection of ``M`` on ``P``). Both are in ``[0, 1]``, and ``encoding_share <= position_share``.

    Args:
        hidden: Hidden states of ``batch`` independent sequences, ``(batch, seq, d)``, real floating point.
        table: The positional encoding that was added at the input, ``(seq, d)``.

    Returns:
        ``PositionSignal(position_share, encoding_share)``.

    Raises:
        TypeError: ``hidden`` or ``table`` is not a real floating-point tensor.
        ValueError: wrong dimensions, shapes that do not match, fewer than 2 sequences or positions, or
            non-finite values.

    Examples:
        >>> table = torch.tensor([[0.0, 1.0], [1.0, 0.0], [0.0, -1.0]])
        >>> tokens = torch.tensor([[[1.0, 1.0]] * 3, [[-1.0, -1.0]] * 3])  # two sequences, position-free
        >>> signal = position_signal(tokens + table, table)
        >>> round(signal.position_share, 3), round(signal.encoding_share, 3)
        (0.308, 0.308)
    """
    hidden = check_real_tensor("hidden", hidden, ndim=3)
    table = check_real_tensor("table", table, ndim=2)
    batch, seq, d = hidden.shape
    if table.shape != (seq, d):
        raise ValueError(f"table must have shape (seq, d) = ({seq}, {d}), got {tuple(table.shape)}")
    if batch < 2 or seq < 2:
        raise ValueError(f"hidden needs at least 2 sequences and 2 positions, got shape {tuple(hidden.shape)}")
    h = hidden.double()
    centred = h - h.mean(dim=(0, 1))
    total = centred.square().sum()
    if total == 0:
        raise ValueError("hidden has no variance: every entry is the same")
    mean = centred.mean(dim=0)  # (seq, d)
    p = table.double() - table.double().mean(dim=0)
    position = batch * mean.square().sum() / total
    norm = p.square().sum()
    encoding = batch * (mean * p).sum().square() / (norm * total) if norm > 0 else torch.zeros(())
    return PositionSignal(position.item(), encoding.item())
