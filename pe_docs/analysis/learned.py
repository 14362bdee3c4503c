"""Learned absolute positions (BERT, GPT-2), the smallest faithful version: what the chapters compare the table with.

``LearnedPositionalEmbedding`` holds one trainable vector per position. It has no row for a position it was not
built with, so a longer sequence is a hard error, not a degradation. (RoPE is :mod:`pe_docs.rotary`, ALiBi
:mod:`pe_docs.bias`.)
"""

from __future__ import annotations

import torch
from torch import nn

from pe_docs._checks import (
    check_int,
    check_sequence_input,
)

# Largest integer magnitude up to which every integer is exact in float64 (the angles are formed in float64).
_EXACT_IN_FLOAT64 = 2**53


class LearnedPositionalEmbedding(nn.Module):
    """Learned absolute positions: ``x + P[:seq_len]`` with a trainable ``(max_len, d_model)`` matrix ``P``.

    ``P`` is initialised from ``N(0, 0.02²)`` and added in ``x``'s dtype.

    Args:
        max_len: Number of positions that have a row; an integer >= 1.
        d_model: Embedding width; an integer >= 1.
        batch_first: Inputs are ``(batch, seq, d_model)`` if true, ``(seq, batch, d_model)`` otherwise.

    Attributes:
        max_len: The number of rows, as given.
        d_model: The width, as given.
        batch_first: The input layout, as given.
        weight: The trainable ``(max_len, d_model)`` float32 position matrix ``P``.

    Raises:
        TypeError: ``max_len`` or ``d_model`` is not an integer, ``batch_first`` is not a bool.
        ValueError: ``max_len`` or ``d_model`` is < 1.

    Examples:
        >>> emb = LearnedPositionalEmbedding(max_len=8, d_model=4)
        >>> emb(torch.zeros(2, 8, 4)).shape
        torch.Size([2, 8, 4])
        >>> emb(torch.zeros(2, 9, 4))
        Traceback (most recent call last):
        ...
        ValueError: sequence length 9 exceeds max_len=8: a learned embedding has no row for positions >= 8
    """

    def __init__(self, max_len: int, d_model: int, *, batch_first: bool = True) -> None:
        super().__init__()
        self.max_len = check_int("max_len", max_len, minimum=1)
        self.d_model = check_int("d_model", d_model, minimum=1)
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first must be a bool, got {batch_first!r}")
        self.batch_first = batch_first
        self.weight = nn.Parameter(torch.empty(self.max_len, self.d_model))
        nn.init.normal_(self.weight, std=0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return ``x`` plus the first ``seq_len`` rows of the position matrix, cast to ``x``'s dtype.

        Args:
            x: Embeddings of shape ``(batch, seq, d_model)`` (``(seq, batch, d_model)`` if not
                ``batch_first``); a real floating-point tensor on the module's device.

        Returns:
            A tensor shaped like ``x``, in ``x``'s dtype.

        Raises:
            TypeError: ``x`` is not a tensor, or not floating point (an integer ``x`` would turn the
                rows into integers: zeros).
            ValueError: ``x`` does not have 3 dimensions, its last dimension is not ``d_model``, or the
                sequence is longer than ``max_len`` (position ``max_len`` has no row).

        Examples:
            >>> emb = LearnedPositionalEmbedding(max_len=8, d_model=4)
            >>> emb(torch.zeros(2, 3, 4, dtype=torch.int64))
            Traceback (most recent call last):
            ...
            TypeError: x must be a floating-point tensor, got dtype torch.int64
        """
        seq_len = check_sequence_input(x, self.d_model, batch_first=self.batch_first)
        if seq_len > self.max_len:
            raise ValueError(
                f"sequence length {seq_len} exceeds max_len={self.max_len}: a learned embedding has no "
                f"row for positions >= {self.max_len}"
            )
        rows = self.weight[:seq_len].to(x.dtype)
        return x + (rows.unsqueeze(0) if self.batch_first else rows.unsqueeze(1))

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> LearnedPositionalEmbedding(8, 4)
            LearnedPositionalEmbedding(max_len=8, d_model=4, batch_first=True)
        """
        return f"max_len={self.max_len}, d_model={self.d_model}, batch_first={self.batch_first}"
