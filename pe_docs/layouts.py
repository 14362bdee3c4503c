"""The two column layouts of a sinusoidal table, and the bit-exact conversions between them.

Interleaved ``[sin0, cos0, sin1, cos1, …]`` (the paper's, ``pe_docs.sinusoidal_table``'s default) and
``[sin0, sin1, … | cos0, cos1, …]`` (tensor2tensor, fairseq, Whisper, Hugging Face's Marian port): the same
numbers, columns permuted.
"""

from __future__ import annotations

import torch

from pe_docs._tables import check_table


def _concat_order(d: int) -> torch.Tensor:
    """Column indices that take an interleaved table to ``[sin | cos]``."""
    return torch.cat((torch.arange(0, d, 2), torch.arange(1, d, 2)))


def interleaved_to_concat(table: torch.Tensor) -> torch.Tensor:
    """Reorder the last dimension from ``[sin0, cos0, sin1, cos1, …]`` to ``[sin0, sin1, … | cos0, cos1, …]``.

    A pure column permutation: values are copied bit for bit.

    Args:
        table: A tensor of shape ``(..., d)`` with ``d`` even, any dtype and device.

    Returns:
        A new tensor of the same shape, dtype and device.

    Raises:
        TypeError: ``table`` is not a tensor.
        ValueError: ``table`` is 0-D or its last dimension is odd.

    Examples:
        >>> interleaved_to_concat(torch.tensor([[0.0, 1.0, 2.0, 3.0]]))
        tensor([[0., 2., 1., 3.]])
    """
    table = check_table(table)
    return table[..., _concat_order(table.size(-1)).to(table.device)]


def concat_to_interleaved(table: torch.Tensor) -> torch.Tensor:
    """Inverse of ``interleaved_to_concat``: ``[sin | cos]`` back to the paper's interleaved columns.

    Args:
        table: A tensor of shape ``(..., d)`` with ``d`` even, any dtype and device.

    Returns:
        A new tensor of the same shape, dtype and device.

    Raises:
        TypeError: ``table`` is not a tensor.
        ValueError: ``table`` is 0-D or its last dimension is odd.

    Examples:
        >>> concat_to_interleaved(torch.tensor([[0.0, 2.0, 1.0, 3.0]]))
        tensor([[0., 1., 2., 3.]])
    """
    table = check_table(table)
    inverse = torch.argsort(_concat_order(table.size(-1)))
    return table[..., inverse.to(table.device)]
