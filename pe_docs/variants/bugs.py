"""The bugs people ship in sinusoidal tables, each as a table (float64) the variants page runs.

Four formula bugs (an exponent off: ``(2i + 1)/d`` for the cosines, ``4i/d``, both, or every frequency 1 from
integer arithmetic) and one broadcasting bug (a batch-first buffer added along the batch axis of a
sequence-first input). ``identify_table`` names each of them.
"""

from __future__ import annotations

import torch

from pe_docs._checks import (
    check_base,
    check_d_model,
    check_int,
)
from pe_docs._tables import bug_frequencies, phases_of
from pe_docs.analysis.numerics import exact_rows


def _interleaved_rows(positions: torch.Tensor, sin_w: torch.Tensor, cos_w: torch.Tensor) -> torch.Tensor:
    """Interleaved rows ``sin(p·sin_w[i]), cos(p·cos_w[i])`` at integer ``positions``, float64.

    Unlike ``pe_docs.analysis.exact_rows`` the sine and cosine of a pair may have different frequencies, which is
    what the bugs below get wrong; the correct table is built by ``exact_rows``.
    """
    return torch.stack(
        (torch.sin(phases_of(positions, sin_w)), torch.cos(phases_of(positions, cos_w))), dim=-1
    ).flatten(-2)


def odd_cosine_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Bug: the cosine of pair ``i`` uses exponent ``(2i + 1)/d`` instead of ``2i/d`` (float64).

    Common in tutorials that read "2i+1" in ``PE(pos, 2i+1)`` as part of the exponent. Each sine/cosine
    pair then has two different frequencies, so no rotation maps position ``p`` to ``p + k``.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> odd_cosine_exponent_table(2, 2, base=100.0)  # cos(1 · 100^(-1/2)) = cos(0.1)
        tensor([[0.0000, 1.0000],
                [0.8415, 0.9950]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    return _interleaved_rows(torch.arange(max_len), *bug_frequencies("odd-cosine-exponent", d, check_base(base)))


def doubled_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Bug: ``base ** (2 * arange(0, d, 2) / d)`` — the exponent is ``4i/d`` (the ``2i`` is doubled).

    Half the frequencies fall below the paper's smallest, ``1/base``; the table is still a valid rotation
    family, just a different (and less useful) one.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> doubled_exponent_table(2, 4, base=4.0)[1]  # second pair: w = 4^(-4/4) = 0.25, not 4^(-2/4)
        tensor([0.8415, 0.5403, 0.2474, 0.9689], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    return _interleaved_rows(torch.arange(max_len), *bug_frequencies("doubled-exponent", d, check_base(base)))


def doubled_and_odd_exponent_table(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """Both bugs at once (source notebook 003): sines use ``2·2i/d``, cosines ``2·(2i + 1)/d``.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``, interleaved layout.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> doubled_and_odd_exponent_table(2, 2, base=4.0)  # sin(1 · 4^0), cos(1 · 4^(-2/2)) = cos(0.25)
        tensor([[0.0000, 1.0000],
                [0.8415, 0.9689]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    frequencies = bug_frequencies("doubled-and-odd-exponent", d, check_base(base))
    return _interleaved_rows(torch.arange(max_len), *frequencies)


def integer_exponent_table(max_len: int, d_model: int) -> torch.Tensor:
    """Bug: the exponent computed in integer arithmetic, so every frequency is 1.

    In old PyTorch ``torch.arange(0, d, 2) * -(math.log(10000.0) / d)`` kept the integer dtype and the
    scalar was truncated to 0 (BERT-pytorch #18); ``2 * i // d`` has the same effect. Every column pair is
    then ``sin(p), cos(p)``: the table repeats itself every ``2π`` positions and carries one number's worth
    of information. With every exponent 0 the base drops out, so this table takes none.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; a positive even integer.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)``: columns ``2i`` are ``sin(p)``, columns ``2i + 1``
        are ``cos(p)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: ``max_len`` < 1, ``d_model`` odd or < 1.

    Examples:
        >>> integer_exponent_table(2, 4)
        tensor([[0.0000, 1.0000, 0.0000, 1.0000],
                [0.8415, 0.5403, 0.8415, 0.5403]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_d_model(d_model)
    return _interleaved_rows(torch.arange(max_len), *bug_frequencies("integer-exponent", d, 1.0))


def wrong_axis_rows(max_len: int, d_model: int, *, batch: int = 0, base: float = 10000.0) -> torch.Tensor:
    """Bug: a batch-first buffer added to a sequence-first input along the wrong axis.

    For ``x`` of shape ``(seq, B, d)`` and a buffer ``pe`` of shape ``(1, L, d)`` (``L >= B``), the line
    ``x + pe[:, :x.size(1)]`` broadcasts without error and adds ``PE[b]`` to every token of batch element
    ``b``. Returns what batch element ``batch`` receives at positions ``0 … max_len − 1``: the paper's row
    ``batch`` (float64) every time.

    Args:
        max_len: Sequence length (rows of the result); an integer >= 1.
        d_model: Width; a positive even integer.
        batch: The batch element ``b`` whose rows are returned; an integer >= 0.
        base: The frequency base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(max_len, d_model)`` whose rows all equal ``exact_rows([batch], d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` < 1, ``batch`` < 0, ``d_model`` odd or < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> wrong_axis_rows(3, 2, batch=1)  # every position of batch element 1 gets PE[1]
        tensor([[0.8415, 0.5403],
                [0.8415, 0.5403],
                [0.8415, 0.5403]], dtype=torch.float64)
        >>> from pe_docs import sinusoidal_table
        >>> pe = sinusoidal_table(5, 8, dtype=torch.float64)[None]  # batch-first buffer
        >>> x = torch.zeros(4, 3, 8, dtype=torch.float64)  # sequence-first input, 3 batch elements
        >>> torch.equal((x + pe[:, : x.size(1)])[:, 2], wrong_axis_rows(4, 8, batch=2))
        True
    """
    max_len = check_int("max_len", max_len, minimum=1)
    batch = check_int("batch", batch, minimum=0)
    if batch > 2**53:
        raise ValueError(f"batch must be <= 2**53 (exact in float64), got {batch}")
    d = check_d_model(d_model)
    return exact_rows([batch], d, base=base).expand(max_len, d).clone()
