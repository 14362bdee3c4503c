"""A copy-ready ``nn.Module`` that adds the sinusoidal table to its input."""

from __future__ import annotations

import numbers

import torch
from torch import nn

from pe_docs._checks import check_base, check_choice, check_d_model, check_int, check_real, check_sequence_input
from pe_docs.encoding import LAYOUTS, Layout, sinusoidal_table


class SinusoidalPositionalEncoding(nn.Module):
    """Add the sinusoidal positional encoding to a batch of embeddings, then apply dropout.

    The table is built once by ``pe_docs.sinusoidal_table`` (float32, within 2.5e-7 of the true values)
    and stored as a buffer, so ``.to(device)`` and ``.to(dtype)`` move or *cast* it — it is never recomputed
    in low precision. It is not saved in the ``state_dict`` (``persistent=False``): it is a function of the
    constructor's arguments, not a weight. The price: nothing restores it from a checkpoint, so a module built on
    the meta device (``with torch.device("meta")``, then ``to_empty``) must call ``reset_parameters()`` to
    compute it.

    Positions are ``offset … offset + seq_len − 1`` for the whole batch, or per token with ``position_ids``
    (left-padded batches, packed sequences); a tensor ``offset`` or ``position_ids`` lets a compiled model
    decode token after token without recompiling.

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
        >>> pe = SinusoidalPositionalEncoding(d_model=16, max_len=32, dropout=0.0)
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
        self.layout: Layout = check_choice("layout", layout, LAYOUTS)
        self.dropout = nn.Dropout(p=check_real("dropout", dropout, minimum=0.0, maximum=1.0))
        self.register_buffer("pe", torch.empty(self.max_len, self.d_model), persistent=False)
        self.reset_parameters()

    def forward(
        self, x: torch.Tensor, *, offset: int | torch.Tensor = 0, position_ids: torch.Tensor | None = None
    ) -> torch.Tensor:
        """Return ``dropout(x + PE[positions])``, the table cast to ``x``'s dtype.

        The positions are ``offset, offset + 1, …, offset + seq_len − 1`` for every sequence of the batch, or
        whatever ``position_ids`` says, token by token.

        Args:
            x: Embeddings of shape ``(batch, seq, d_model)`` (``(seq, batch, d_model)`` if not
                ``batch_first``); a floating-point tensor on the module's device.
            offset: Position of the first row of ``x``, the same for every sequence; an integer >= 0 — a Python
                or NumPy integer, or a 0-d integer tensor (a tensor is used as a tensor, so a compiled model does
                not specialise on its value). When a decoder generates one token at a time and caches the keys
                and values of the earlier ones, the new token at position ``t`` is passed alone with
                ``offset=t``: it must get row ``t`` of the table, not row 0.
            position_ids: Each token's position, an integer tensor of shape ``(batch, seq)`` or ``(seq,)``
                (Hugging Face's ``position_ids``, always batch first), on ``x``'s device. Use it when sequences
                of a batch start at different positions: a left-padded batch (positions counted from each
                sequence's first real token), packed sequences (positions restart at each document), a
                key–value cache whose sequences have different lengths. Excludes ``offset``.

        Returns:
            A tensor shaped like ``x``, in ``x``'s dtype.

        Raises:
            TypeError: ``x`` is not a floating-point tensor, ``offset`` is not an integer (a bool, a float or a
                tensor that is not a 0-d integer tensor), or ``position_ids`` is not an integer tensor.
            ValueError: ``x`` does not have 3 dimensions or its last dimension is not ``d_model``; ``offset``
                is negative, or ``offset + seq_len`` exceeds ``max_len`` (the table has no row for the last
                position); ``position_ids`` has the wrong shape, or a position below 0 or >= ``max_len``; both
                ``offset`` and ``position_ids`` are given. The positions in tensors are checked in eager mode
                only (the check reads them on the host); under ``torch.compile`` it is skipped.

        Examples:
            >>> pe = SinusoidalPositionalEncoding(d_model=8, max_len=4, dropout=0.0)
            >>> pe(torch.zeros(1, 2, 8), offset=3)
            Traceback (most recent call last):
            ...
            ValueError: offset 3 + sequence length 2 = 5 exceeds max_len=4; build the module with a larger max_len
            >>> left_padded = torch.tensor([[0, 0, 1], [0, 1, 2]])  # row 0: one pad token, then two tokens
            >>> pe(torch.zeros(2, 3, 8), position_ids=left_padded)[0, 2].equal(pe.pe[1])
            True
        """
        seq_len = check_sequence_input(x, self.d_model, batch_first=self.batch_first)
        if position_ids is not None:
            if isinstance(offset, (torch.Tensor, bool)) or offset != 0:
                raise ValueError(f"pass offset or position_ids, not both; got offset={offset!r} and position_ids")
            positions = self._check_position_ids(position_ids, x, seq_len)
        elif isinstance(offset, torch.Tensor):
            if offset.dim() != 0 or offset.is_floating_point() or offset.is_complex() or offset.dtype == torch.bool:
                raise TypeError(
                    f"offset must be an integer or a 0-d integer tensor, got a tensor of shape {tuple(offset.shape)} "
                    f"and dtype {offset.dtype}"
                )
            positions = offset + torch.arange(seq_len, device=offset.device)
            if not torch.compiler.is_compiling():
                first = int(offset)
                if first < 0:
                    raise ValueError(f"offset must be >= 0, got {first}")
                self._check_end(first, seq_len)
        else:
            if isinstance(offset, bool) or not isinstance(offset, numbers.Integral):
                raise TypeError(f"offset must be an integer, got {offset!r} of type {type(offset).__name__}")
            first = int(offset)
            if first < 0:
                raise ValueError(f"offset must be >= 0, got {first}")
            self._check_end(first, seq_len)
            table = self.pe[first : first + seq_len].to(dtype=x.dtype)
            table = table.unsqueeze(0) if self.batch_first else table.unsqueeze(1)
            return self.dropout(x + table)
        rows = self.pe[positions].to(dtype=x.dtype)  # (seq, d_model) or (batch, seq, d_model)
        if rows.dim() == 2:
            rows = rows.unsqueeze(0) if self.batch_first else rows.unsqueeze(1)
        elif not self.batch_first:
            rows = rows.transpose(0, 1)
        return self.dropout(x + rows)

    def _check_end(self, offset: int, seq_len: int) -> None:
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

    def _check_position_ids(self, position_ids: object, x: torch.Tensor, seq_len: int) -> torch.Tensor:
        if not isinstance(position_ids, torch.Tensor):
            raise TypeError(f"position_ids must be an integer tensor, got {type(position_ids).__name__}")
        if position_ids.is_floating_point() or position_ids.is_complex() or position_ids.dtype == torch.bool:
            raise TypeError(f"position_ids must be an integer tensor, got dtype {position_ids.dtype}")
        batch = x.size(0) if self.batch_first else x.size(1)
        shape = tuple(position_ids.shape)
        if not (shape == (seq_len,) or (len(shape) == 2 and shape[1] == seq_len and shape[0] in (1, batch))):
            raise ValueError(
                f"position_ids must have shape (batch, seq) = ({batch}, {seq_len}), (1, {seq_len}) or ({seq_len},), "
                f"got {shape}"
            )
        if not torch.compiler.is_compiling() and position_ids.numel():
            low, high = int(position_ids.min()), int(position_ids.max())
            if low < 0:
                raise ValueError(f"position_ids must be >= 0, got {low}")
            if high >= self.max_len:
                raise ValueError(
                    f"position_ids must be < max_len={self.max_len}, got {high}; build the module with a larger max_len"
                )
        return position_ids.long()  # a uint8 index would select rows as a mask, not by value

    @torch.no_grad()
    def reset_parameters(self) -> None:
        """Recompute the table into the ``pe`` buffer, in place (PyTorch's name for re-initialising a module).

        Call it after building the module on the meta device and materialising it with ``to_empty``: the
        buffer then holds uninitialised memory, and ``load_state_dict`` cannot fill it, because a
        non-persistent buffer is not in the checkpoint. The table is computed on the CPU (float64 phases,
        rounded once to float32) and copied into the buffer, which keeps its device and dtype (a bfloat16
        buffer receives the float32 table cast once, as ``.to(torch.bfloat16)`` casts it). On the meta device
        it does nothing.

        Examples:
            >>> with torch.device("meta"):
            ...     pe = SinusoidalPositionalEncoding(8, max_len=4)
            >>> pe = pe.to_empty(device="cpu")  # the buffer is now uninitialised memory
            >>> pe.reset_parameters()
            >>> torch.equal(pe.pe, sinusoidal_table(4, 8))
            True
        """
        if self.pe.is_meta:
            return
        with torch.device("cpu"):  # whatever device context the caller is in (MPS has no float64)
            table = sinusoidal_table(self.max_len, self.d_model, base=self.base, layout=self.layout)
        self.pe.copy_(table)

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> SinusoidalPositionalEncoding(16, max_len=8)
            SinusoidalPositionalEncoding(
              d_model=16, max_len=8, base=10000, batch_first=True, layout='interleaved'
              (dropout): Dropout(p=0.1, inplace=False)
            )
        """
        return (
            f"d_model={self.d_model}, max_len={self.max_len}, base={self.base:g}, "
            f"batch_first={self.batch_first}, layout={self.layout!r}"
        )
