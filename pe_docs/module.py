"""A copy-ready ``nn.Module`` that adds the sinusoidal table to its input."""

from __future__ import annotations

import numbers

import torch
from torch import nn

from pe_docs._checks import check_base, check_choice, check_d_model, check_int, check_real, check_sequence_input
from pe_docs.encoding import LAYOUTS, Layout, sinusoidal_table


class PositionalEncoding(nn.Module):
    """Add the sinusoidal positional encoding to a batch of embeddings, then apply dropout.

    The table is built once by ``pe_docs.sinusoidal_table`` (float32, within 2.5e-7 of the true values)
    and stored as a buffer, so ``.to(device)`` and ``.to(dtype)`` move or *cast* it — it is never recomputed
    in low precision. It is not saved in the ``state_dict`` (``persistent=False``): it is a function of the
    constructor's arguments, not a weight.

    The module does not scale its input: the paper multiplies the token embeddings by ``√d_model`` before
    adding the table, which belongs to the embedding layer and only balances the two summands with a matching
    initialisation of the embeddings (normal with standard deviation ``d_model**-0.5``, as in tensor2tensor).

    Args:
        d_model: Embedding width; a positive even integer.
        max_len: Number of positions the table holds (``0 … max_len − 1``); an integer >= 1. With an
            ``offset``, the last position used, ``offset + seq_len − 1``, must be below it.
        dropout: Dropout probability applied after the addition; a real number in ``[0, 1]``.
        base: The constant in the frequencies ``base^(-2i/d_model)``; finite and > 0.
        batch_first: Inputs are ``(batch, seq, d_model)`` if true, ``(seq, batch, d_model)`` otherwise.
        layout: Column order of the table: ``"interleaved"`` (the paper: ``sin, cos`` of pair 0, then of pair
            1, …) or ``"concat"`` (``[sin … | cos …]``, as tensor2tensor and fairseq store it), so that a
            model trained with either gets the columns it was trained with.

    Attributes:
        pe: The ``(max_len, d_model)`` table (a non-persistent buffer, float32 until the module is cast).

    Raises:
        TypeError: an argument has the wrong type (``max_len`` not an integer, ``dropout`` or ``base`` not a
            real number, ``batch_first`` not a bool).
        ValueError: ``d_model`` odd or < 1, ``max_len`` < 1, ``dropout`` outside ``[0, 1]``, ``base`` not
            finite and > 0, or an unknown ``layout``.

    Examples:
        >>> pe = PositionalEncoding(d_model=16, max_len=32, dropout=0.0)
        >>> pe(torch.zeros(2, 5, 16)).shape
        torch.Size([2, 5, 16])
        >>> step = pe(torch.zeros(2, 1, 16), offset=5)  # one new token at position 5 (decoding with a cache)
        >>> torch.equal(step[0, 0], pe.pe[5])
        True
    """

    pe: torch.Tensor

    def __init__(
        self,
        d_model: int,
        max_len: int = 5000,
        dropout: float = 0.1,
        *,
        base: float = 10000.0,
        batch_first: bool = True,
        layout: Layout = "interleaved",
    ) -> None:
        super().__init__()
        self.d_model = check_d_model(d_model)
        self.max_len = check_int("max_len", max_len, minimum=1)
        self.base = check_base(base)
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first must be a bool, got {batch_first!r}")
        self.batch_first = batch_first
        self.layout: Layout = check_choice("layout", layout, LAYOUTS)  # type: ignore[assignment]
        self.dropout = nn.Dropout(p=check_real("dropout", dropout, minimum=0.0, maximum=1.0))
        table = sinusoidal_table(self.max_len, self.d_model, base=self.base, layout=self.layout)
        self.register_buffer("pe", table, persistent=False)

    def forward(self, x: torch.Tensor, *, offset: int = 0) -> torch.Tensor:
        """Return ``dropout(x + PE[offset : offset + seq_len])``, the table cast to ``x``'s dtype.

        Args:
            x: Embeddings of shape ``(batch, seq, d_model)`` (``(seq, batch, d_model)`` if not
                ``batch_first``); a floating-point tensor on the module's device.
            offset: Position of the first row of ``x``; an integer >= 0. When a decoder generates one token at
                a time and caches the keys and values of the earlier ones, the new token at position ``t`` is
                passed alone with ``offset=t``: it must get row ``t`` of the table, not row 0.

        Returns:
            A tensor shaped like ``x``, in ``x``'s dtype.

        Raises:
            TypeError: ``x`` is not a floating-point tensor, or ``offset`` is not an integer (a bool or a
                tensor is rejected, not converted).
            ValueError: ``x`` does not have 3 dimensions or its last dimension is not ``d_model``, ``offset``
                is negative, or ``offset + seq_len`` exceeds ``max_len`` (the table has no row for the last
                position).

        Examples:
            >>> pe = PositionalEncoding(d_model=8, max_len=4, dropout=0.0)
            >>> pe(torch.zeros(1, 2, 8), offset=3)
            Traceback (most recent call last):
            ...
            ValueError: offset 3 + sequence length 2 = 5 exceeds max_len=4; build the module with a larger max_len
        """
        seq_len = check_sequence_input(x, self.d_model, batch_first=self.batch_first)
        if isinstance(offset, bool) or not isinstance(offset, numbers.Integral):
            raise TypeError(f"offset must be an integer, got {offset!r} of type {type(offset).__name__}")
        offset = int(offset)
        if offset < 0:
            raise ValueError(f"offset must be >= 0, got {offset}")
        end = offset + seq_len
        if end > self.max_len:
            if offset:
                raise ValueError(
                    f"offset {offset} + sequence length {seq_len} = {end} exceeds max_len={self.max_len}; "
                    "build the module with a larger max_len"
                )
            raise ValueError(
                f"sequence length {seq_len} exceeds max_len={self.max_len}; build the module with a larger max_len"
            )
        table = self.pe[offset:end].to(dtype=x.dtype)
        table = table.unsqueeze(0) if self.batch_first else table.unsqueeze(1)
        return self.dropout(x + table)

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> PositionalEncoding(16, max_len=8)
            PositionalEncoding(
              d_model=16, max_len=8, base=10000, batch_first=True, layout='interleaved'
              (dropout): Dropout(p=0.1, inplace=False)
            )
        """
        return (
            f"d_model={self.d_model}, max_len={self.max_len}, base={self.base:g}, "
            f"batch_first={self.batch_first}, layout={self.layout!r}"
        )
