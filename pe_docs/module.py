"""A copy-ready ``nn.Module`` that adds the sinusoidal table to its input."""

from __future__ import annotations

import torch
from torch import nn

from pe_docs._checks import check_base, check_d_model, check_int, check_real, check_sequence_input
from pe_docs.encoding import sinusoidal_table


class PositionalEncoding(nn.Module):
    """Add the sinusoidal positional encoding to a batch of embeddings, then apply dropout.

    The table is built once by ``pe_docs.sinusoidal_table`` (float32, within 2.5e-7 of the true values)
    and stored as a buffer, so ``.to(device)`` and ``.to(dtype)`` move or *cast* it — it is never recomputed
    in low precision. It is not saved in the
    ``state_dict`` (``persistent=False``): it is a function of the constructor's arguments, not a weight.

    Args:
        d_model: Embedding width; a positive even integer.
        max_len: Longest sequence the module accepts; an integer >= 1.
        dropout: Dropout probability applied after the addition.
        base: The constant in the frequencies ``base^(-2i/d_model)``.
        batch_first: Inputs are ``(batch, seq, d_model)`` if true, ``(seq, batch, d_model)`` otherwise.

    Examples:
        >>> pe = PositionalEncoding(d_model=16, max_len=32, dropout=0.0)
        >>> pe(torch.zeros(2, 5, 16)).shape
        torch.Size([2, 5, 16])
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
    ) -> None:
        super().__init__()
        self.d_model = check_d_model(d_model)
        self.max_len = check_int("max_len", max_len, minimum=1)
        self.base = check_base(base)
        if not isinstance(batch_first, bool):
            raise TypeError(f"batch_first must be a bool, got {batch_first!r}")
        self.batch_first = batch_first
        self.dropout = nn.Dropout(p=check_real("dropout", dropout, minimum=0.0, maximum=1.0))
        self.register_buffer("pe", sinusoidal_table(self.max_len, self.d_model, base=self.base), persistent=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        """Return ``dropout(x + PE[:seq_len])`` with the table cast to ``x``'s dtype."""
        seq_len = check_sequence_input(x, self.d_model, batch_first=self.batch_first)
        if seq_len > self.max_len:
            raise ValueError(
                f"sequence length {seq_len} exceeds max_len={self.max_len}; build the module with a larger max_len"
            )
        table = self.pe[:seq_len].to(dtype=x.dtype)
        table = table.unsqueeze(0) if self.batch_first else table.unsqueeze(1)
        return self.dropout(x + table)

    def extra_repr(self) -> str:
        return f"d_model={self.d_model}, max_len={self.max_len}, base={self.base:g}, batch_first={self.batch_first}"
