"""Sinusoidal tables as real libraries build them, the bugs people ship, and a checker for your own table.

Three groups of functions:

* **The formulas**, in float64 unless stated, so that the differences between them are differences of formula,
  not of rounding:

  ========================  ==================  ==============  =======================  ================
  function                  layout              denominator     positions                odd ``d_model``
  ========================  ==================  ==============  =======================  ================
  ``sinusoidal_table``      interleaved         ``d``           ``0 …``                  error
  ``concat_paper_table``    ``[sin | cos]``     ``d``           ``0 …``                  works
  ``tensor2tensor_table``   ``[sin | cos]``     ``d/2 − 1``     ``0 …``                  zero column
  ``fairseq_table``         ``[sin | cos]``     ``d/2 − 1``     ``padding_idx + 1 …``    zero column
  ``tutorial_buffer``       interleaved         ``d``           ``0 …``, ``(L, 1, d)``   crashes
  ========================  ==================  ==============  =======================  ================

  "Denominator" is the ``D`` in ``w_i = 10000^(−i/D)`` for frequency index ``i = 0 … d/2 − 1``; the paper's
  ``10000^(−2i/d)`` is ``D = d/2``, written here as "``d``" after the paper. tensor2tensor and fairseq use
  ``D = d/2 − 1`` so that the last frequency is exactly ``1/10000``.

* **Library code, re-implemented**: one function per library, following the arithmetic of the source file its
  docstring names, in the library's own dtypes and buffer shape (``t2t_timing_signal``, ``fairseq_weights``,
  ``whisper_sinusoids``, ``marian_cpp_embeddings``, ``hf_marian_weights``, ``distilbert_weights``,
  ``diffusers_timestep_embedding``, ``keras_sine_position_encoding``, ``transformer_xl_pos_emb``,
  ``d2l_buffer``, and ``tutorial_buffer`` above).

* **The bugs** and **the checker**, ``identify_table``, which names the table (or bug) a tensor holds.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from pe_docs._checks import (
    check_base,
    check_choice,
    check_d_model,
    check_float_dtype,
    check_int,
    check_real,
    check_real_tensor,
)
from pe_docs.encoding import LAYOUTS, Layout
from pe_docs.frequencies import inverse_frequencies
from pe_docs.numerics import exact_rows, rows_in_dtype

# ---------------------------------------------------------------------------------------------- layouts


def _check_table(table: object, name: str = "table") -> torch.Tensor:
    if not isinstance(table, torch.Tensor):
        raise TypeError(f"{name} must be a torch.Tensor, got {type(table).__name__}")
    if table.dim() < 1:
        raise ValueError(f"{name} must have at least one dimension, got shape {tuple(table.shape)}")
    check_d_model(table.size(-1), f"{name}.size(-1)")
    return table


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
    table = _check_table(table)
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
    table = _check_table(table)
    inverse = torch.argsort(_concat_order(table.size(-1)))
    return table[..., inverse.to(table.device)]


# ---------------------------------------------------------------------------------------- the variants


def _phase(positions: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The phase ``p · w`` of every position and frequency, in float64, shape ``(len(positions), len(w))``."""
    return positions.to(torch.float64)[:, None] * w[None, :]


def _odd_width_frequencies(d: int, base: float) -> torch.Tensor:
    """``base^(-2i/d)`` for ``i = 0 … (d - 1)/2`` and odd ``d`` (DistilBERT/Marian), which
    ``pe_docs.inverse_frequencies`` rejects; the same expression, so it matches it bit for bit."""
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    return torch.pow(torch.tensor(base, dtype=torch.float64), -(two_i / d))


def _t2t_frequencies(d: int, max_timescale: float, min_timescale: float = 1.0) -> torch.Tensor:
    n = d // 2
    increment = math.log(max_timescale / min_timescale) / max(n - 1, 1)
    return min_timescale * torch.exp(-increment * torch.arange(n, dtype=torch.float64))


def _concat_with_pad(sin: torch.Tensor, cos: torch.Tensor, d: int) -> torch.Tensor:
    parts = [sin, cos]
    if d % 2:
        parts.append(torch.zeros(sin.size(0), 1, dtype=sin.dtype))
    return torch.cat(parts, dim=-1)


def concat_paper_table(
    max_len: int, d_model: int, *, base: float = 10000.0, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """The paper's frequencies in the ``[sin | cos]`` layout, phase in float64 (Hugging Face's Marian port).

    Column ``j`` uses the exponent ``2·⌊j/2⌋ / d`` before the columns are split into sines (even ``j``) and
    cosines (odd ``j``). For even ``d_model`` this equals ``sinusoidal_table(..., layout="concat")``; an odd
    ``d_model`` works and gives one more sine than cosine column.

    Args:
        max_len: Number of positions (rows); an integer >= 1.
        d_model: Width; an integer >= 1 (odd allowed).
        base: The frequency base; finite and > 0.
        dtype: Floating-point dtype of the result (the phase is always formed in float64).

    Returns:
        A tensor of shape ``(max_len, d_model)``: ``⌈d/2⌉`` sine columns, then ``⌊d/2⌋`` cosine columns.

    Raises:
        TypeError: an argument has the wrong type (``dtype`` not floating point).
        ValueError: ``max_len`` or ``d_model`` is < 1, ``base`` <= 0 or not finite.

    Examples:
        >>> concat_paper_table(2, 3)
        tensor([[0.0000, 0.0000, 1.0000],
                [0.8415, 0.0022, 0.5403]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    base = check_base(base)
    dtype = check_float_dtype(dtype)
    w = _odd_width_frequencies(d, base) if d % 2 else inverse_frequencies(d, base=base)
    phase = _phase(torch.arange(max_len), w)
    table = torch.cat((torch.sin(phase), torch.cos(phase[:, : d // 2])), dim=-1)
    return table.to(dtype)


def tensor2tensor_table(
    max_len: int,
    d_model: int,
    *,
    min_timescale: float = 1.0,
    max_timescale: float = 1.0e4,
    start: int = 0,
    dtype: torch.dtype = torch.float64,
) -> torch.Tensor:
    """tensor2tensor's ``get_timing_signal_1d``: ``[sin | cos]`` with ``w_i = 10000^(−i/(d/2 − 1))``.

    The timescales run geometrically from ``min_timescale`` to exactly ``max_timescale`` (the last
    wavelength is ``2π·10000``, which the paper's formula never reaches); an odd ``d_model`` gets a zero
    column on the right.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width (the "channels"); an integer >= 2.
        min_timescale: Shortest timescale (``1/w``); finite and > 0.
        max_timescale: Longest timescale (``1/w``); finite and > 0.
        start: First position; an integer >= 0.
        dtype: Floating-point dtype of the result (the phase is always formed in float64).

    Returns:
        A tensor of shape ``(max_len, d_model)``: rows are positions ``start … start + max_len − 1``.

    Raises:
        TypeError: an argument has the wrong type (``dtype`` not floating point).
        ValueError: an argument is out of range.

    Examples:
        >>> tensor2tensor_table(2, 4)
        tensor([[0.0000e+00, 0.0000e+00, 1.0000e+00, 1.0000e+00],
                [8.4147e-01, 1.0000e-04, 5.4030e-01, 1.0000e+00]], dtype=torch.float64)
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=2)
    start = check_int("start", start, minimum=0)
    min_timescale = check_base(min_timescale, "min_timescale")
    max_timescale = check_base(max_timescale, "max_timescale")
    dtype = check_float_dtype(dtype)
    phase = _phase(torch.arange(start, start + max_len), _t2t_frequencies(d, max_timescale, min_timescale))
    return _concat_with_pad(torch.sin(phase), torch.cos(phase), d).to(dtype)


def fairseq_table(
    max_len: int, d_model: int, *, padding_idx: int = 1, dtype: torch.dtype = torch.float64
) -> torch.Tensor:
    """What fairseq's ``SinusoidalPositionalEmbedding`` adds to tokens ``0 … max_len − 1`` of a sequence.

    Same frequencies and layout as ``tensor2tensor_table`` (``[sin | cos]``, denominator ``d/2 − 1``,
    zero column for odd ``d``), but fairseq numbers the tokens of an unpadded sequence from
    ``padding_idx + 1``: row ``s`` here is the encoding of position ``s + padding_idx + 1``. (Row
    ``padding_idx`` of fairseq's own weight matrix is zeroed and used only for padding tokens;
    ``fairseq_weights`` returns that matrix, in fairseq's float32 arithmetic.)

    Args:
        max_len: Number of tokens; an integer >= 1.
        d_model: Width; an integer >= 4.
        padding_idx: fairseq's padding index; an integer >= 0.
        dtype: Floating-point dtype of the result.

    Returns:
        A tensor of shape ``(max_len, d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> torch.equal(fairseq_table(3, 8, padding_idx=1), tensor2tensor_table(3, 8, start=2))
        True
    """
    padding_idx = check_int("padding_idx", padding_idx, minimum=0)
    d = check_int("d_model", d_model, minimum=4)
    return tensor2tensor_table(max_len, d, start=padding_idx + 1, dtype=dtype)


def tutorial_buffer(max_len: int, d_model: int, *, base: float = 10000.0) -> torch.Tensor:
    """The PyTorch tutorial's buffer: shape ``(max_len, 1, d_model)``, float32, phase rounded in float32.

    Sequence-first (``x + pe[:x.size(0)]`` for ``x`` of shape ``(seq, batch, d)``). The tutorial computes
    ``exp(arange(0, d, 2) · (−ln(base)/d))`` and the phase in float32, which is
    ``pe_docs.rows_in_dtype`` with ``method="log"`` and ``dtype=float32``; the buffer is exactly that,
    with a batch axis of 1. The code fills the sine columns ``pe[:, 0, 0::2]`` and the cosine columns
    ``pe[:, 0, 1::2]`` from the same ``⌈d/2⌉`` frequencies, so an odd ``d_model`` fails as the original
    does.

    Args:
        max_len: Number of positions; an integer >= 1.
        d_model: Width; an integer >= 1 (an odd width raises ``RuntimeError``, see below).
        base: The frequency base; finite and > 0.

    Returns:
        A float32 tensor of shape ``(max_len, 1, d_model)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``max_len`` or ``d_model`` is < 1, ``base`` <= 0 or not finite.
        RuntimeError: for odd ``d_model`` — ``ceil(d/2)`` frequencies do not fit ``floor(d/2)`` cosine
            columns (this reproduces the tutorial's crash; it is not input validation).

    Examples:
        >>> tutorial_buffer(10, 4).shape
        torch.Size([10, 1, 4])
        >>> tutorial_buffer(10, 7)
        Traceback (most recent call last):
        ...
        RuntimeError: the tutorial's code fails for odd d_model=7: 4 cosines do not fit the 3 columns pe[:, 0, 1::2]
    """
    max_len = check_int("max_len", max_len, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    base = check_base(base)
    if d % 2:
        raise RuntimeError(
            f"the tutorial's code fails for odd d_model={d}: {(d + 1) // 2} cosines do not fit the {d // 2} "
            "columns pe[:, 0, 1::2]"
        )
    return rows_in_dtype(torch.arange(max_len), d, base=base, method="log", dtype=torch.float32)[:, None]


# ------------------------------------------------------------------------- library code, re-implemented
#
# Each function below follows one library's arithmetic step by step, in the dtypes that library uses, as read in
# the source file named in its docstring (the repository's code, not its documentation). Written anew with torch
# and NumPy: the operations and their order are the library's, the code is not. Libraries written with other
# tools (TensorFlow, C++, Keras) may differ from these by an ulp of the dtype in some entries.


def _positive_int(name: str, value: object) -> int:
    return check_int(name, value, minimum=1)


def _float32_scalar(value: float) -> torch.Tensor:
    return torch.tensor(value, dtype=torch.float32)


def t2t_timing_signal(
    length: int,
    channels: int,
    *,
    min_timescale: float = 1.0,
    max_timescale: float = 1.0e4,
    start_index: int = 0,
) -> torch.Tensor:
    """tensor2tensor's ``get_timing_signal_1d``, in float32 as TensorFlow computes it.

    Source: ``tensorflow/tensor2tensor``, ``tensor2tensor/layers/common_attention.py``,
    ``get_timing_signal_1d``. Positions ``start_index …`` as float32; ``log_timescale_increment =
    log(max/min) / max(channels // 2 − 1, 1)`` and ``inv_timescales = min · exp(−i · increment)`` in float32;
    the signal is ``concat([sin, cos], axis=1)`` padded with one zero column for odd ``channels`` and
    reshaped to ``[1, length, channels]`` — batch-first, so its rows are ``signal[0]``. (TensorFlow's float32
    ``exp``/``sin`` are replaced by torch's; results may differ by an ulp.)

    Args:
        length: Number of positions; an integer >= 1.
        channels: Width; an integer >= 2.
        min_timescale: Shortest timescale; finite and > 0.
        max_timescale: Longest timescale; finite and > 0.
        start_index: First position; an integer >= 0.

    Returns:
        A float32 tensor of shape ``(1, length, channels)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> t2t_timing_signal(3, 4).shape
        torch.Size([1, 3, 4])
        >>> t2t_timing_signal(2, 4)[0, 1]  # position 1: sin(1), sin(1e-4), cos(1), cos(1e-4)
        tensor([8.4147e-01, 1.0000e-04, 5.4030e-01, 1.0000e+00])
    """
    length = _positive_int("length", length)
    channels = check_int("channels", channels, minimum=2)
    start_index = check_int("start_index", start_index, minimum=0)
    min_timescale = check_base(min_timescale, "min_timescale")
    max_timescale = check_base(max_timescale, "max_timescale")
    position = (torch.arange(length) + start_index).to(torch.float32)
    num_timescales = channels // 2
    increment = _float32_scalar(math.log(max_timescale / min_timescale)) / torch.clamp(
        _float32_scalar(num_timescales) - 1, min=1
    )
    inv_timescales = min_timescale * torch.exp(torch.arange(num_timescales).to(torch.float32) * -increment)
    scaled_time = position[:, None] * inv_timescales[None, :]
    signal = torch.cat((torch.sin(scaled_time), torch.cos(scaled_time)), dim=1)
    signal = torch.nn.functional.pad(signal, (0, channels % 2))
    return signal.reshape(1, length, channels)


def fairseq_weights(num_embeddings: int, embedding_dim: int, padding_idx: int | None = 1) -> torch.Tensor:
    """fairseq's ``SinusoidalPositionalEmbedding.get_embedding``: the weight matrix as it is returned.

    Source: ``facebookresearch/fairseq``, ``fairseq/modules/sinusoidal_positional_embedding.py``. Row ``r`` is
    position ``r`` of the ``[sin | cos]`` table with ``w_i = exp(−i · ln(10000)/(d/2 − 1))``, all in float32;
    an odd width gets a zero column; row ``padding_idx`` is then set to zero. Tokens never read rows
    ``0 … padding_idx``: ``make_positions`` (``fairseq/utils.py``) numbers the tokens of a sequence from
    ``padding_idx + 1`` (1 is the pad index of fairseq's ``Dictionary``, ``fairseq/data/dictionary.py``), and
    ``PositionalEmbedding`` (``fairseq/modules/positional_embedding.py``) sizes the matrix
    ``num_embeddings + padding_idx + 1`` for that reason.

    Args:
        num_embeddings: Number of rows; an integer >= 1.
        embedding_dim: Width; an integer >= 4.
        padding_idx: The row that is zeroed (an integer >= 0 and < ``num_embeddings``), or ``None``.

    Returns:
        A float32 tensor of shape ``(num_embeddings, embedding_dim)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> w = fairseq_weights(5, 4)
        >>> w[0].tolist(), w[1].tolist()  # position 0 (never used by a token), then the zeroed padding row
        ([0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 0.0, 0.0])
    """
    num_embeddings = _positive_int("num_embeddings", num_embeddings)
    embedding_dim = check_int("embedding_dim", embedding_dim, minimum=4)
    if padding_idx is not None:
        padding_idx = check_int("padding_idx", padding_idx, minimum=0)
        if padding_idx >= num_embeddings:
            raise ValueError(f"padding_idx must be < num_embeddings={num_embeddings}, got {padding_idx}")
    n = embedding_dim // 2
    step = math.log(10000) / (n - 1)  # a Python float
    frequencies = torch.exp(-step * torch.arange(n, dtype=torch.float32))
    angles = torch.outer(torch.arange(num_embeddings, dtype=torch.float32), frequencies)
    pad = torch.zeros(num_embeddings, embedding_dim % 2)
    weights = torch.cat((angles.sin(), angles.cos(), pad), dim=1)
    if padding_idx is not None:
        weights[padding_idx] = 0.0
    return weights


def whisper_sinusoids(length: int, channels: int, max_timescale: float = 10000) -> torch.Tensor:
    """Whisper's ``sinusoids``, the fixed table of its audio encoder.

    Source: ``openai/whisper``, ``whisper/model.py``, ``sinusoids`` (registered as the ``AudioEncoder``'s
    ``positional_embedding`` buffer; the text decoder's positions are a learned ``nn.Parameter``).
    ``log_timescale_increment = log(max_timescale) / (channels // 2 − 1)`` in float64, then
    ``exp(−increment · arange(channels // 2))`` and the phase in float32; ``[sin | cos]``.

    Args:
        length: Number of positions; an integer >= 1.
        channels: Width; an even integer >= 4 (Whisper asserts it is even).
        max_timescale: finite and > 0.

    Returns:
        A float32 tensor of shape ``(length, channels)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range or ``channels`` is odd.

    Examples:
        >>> whisper_sinusoids(2, 4)[1]
        tensor([8.4147e-01, 1.0000e-04, 5.4030e-01, 1.0000e+00])
    """
    length = _positive_int("length", length)
    channels = check_d_model(channels, "channels")
    if channels < 4:
        raise ValueError(f"channels must be >= 4, got {channels}")
    max_timescale = check_base(max_timescale, "max_timescale")
    n = channels // 2
    step = math.log(max_timescale) / (n - 1)  # float64, NumPy's log in Whisper
    frequencies = torch.exp(-step * torch.arange(n).to(torch.float32))  # integer arange times a float: float32
    angles = torch.outer(torch.arange(length).to(torch.float32), frequencies)
    return torch.cat((angles.sin(), angles.cos()), dim=1)


def marian_cpp_embeddings(length: int, dim_emb: int, *, start: int = 0) -> torch.Tensor:
    """Marian's own (C++) sinusoidal embeddings, ``SinusoidalPositionEmbeddings``, in float32.

    Source: ``marian-nmt/marian``, ``src/tensors/cpu/tensor_operators.cpp`` (and the same formula in
    ``src/tensors/gpu/tensor_operators.cu``), filled by ``inits::sinusoidalPositionEmbeddings(start)`` in
    ``src/models/transformer.h`` as a ``{dimWords, 1, dimEmb}`` tensor (sequence-first). In float:
    ``numTimescales = dimEmb / 2``, ``logTimescaleIncrement = log(10000) / (numTimescales − 1)``, and column
    ``i`` of row ``j`` is ``sin`` (``i < numTimescales``) or ``cos`` of
    ``(j + start) · exp((i % numTimescales) · −logTimescaleIncrement)``: ``[sin | cos]`` with tensor2tensor's
    spacing ``d/2 − 1``. This is not what Hugging Face's port computes (see ``hf_marian_weights``). For an odd
    ``dimEmb`` the float ``numTimescales`` (e.g. 3.5) and its integer part (3) disagree, as in the C++ code.
    (C's ``expf``/``sinf`` are replaced by torch's; results may differ by an ulp.)

    Args:
        length: Number of positions (``dimWords``); an integer >= 1.
        dim_emb: Width; an integer >= 3.
        start: First position; an integer >= 0.

    Returns:
        A float32 tensor of shape ``(length, 1, dim_emb)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> marian_cpp_embeddings(2, 4)[1, 0]
        tensor([8.4147e-01, 1.0000e-04, 5.4030e-01, 1.0000e+00])
    """
    length = _positive_int("length", length)
    dim_emb = check_int("dim_emb", dim_emb, minimum=3)
    start = check_int("start", start, minimum=0)
    num_timescales = _float32_scalar(dim_emb) / 2
    increment = torch.log(_float32_scalar(10000.0)) / (num_timescales - 1)
    n = int(num_timescales)
    i = torch.arange(dim_emb)
    inv = torch.exp((i % n).to(torch.float32) * -increment)
    v = (torch.arange(length)[:, None] + start).to(torch.float32) * inv[None, :]
    out = torch.where(i[None, :] < n, torch.sin(v), torch.cos(v))
    return out[:, None, :]


def _numpy_sin_cos(n_pos: int, dim: int) -> tuple[np.ndarray, np.ndarray]:
    """NumPy float64 ``sin`` and ``cos`` of ``pos / 10000^(2·(j // 2)/dim)`` for every ``pos, j`` (XLM's formula)."""
    exponents = 2 * (np.arange(dim) // 2) / dim
    angles = np.arange(n_pos, dtype=np.float64)[:, None] / np.power(10000, exponents)[None, :]
    return np.sin(angles), np.cos(angles)


def hf_marian_weights(n_pos: int, dim: int) -> torch.Tensor:
    """Hugging Face's ``MarianSinusoidalPositionalEmbedding`` weights (``_init_weight``).

    Source: ``huggingface/transformers``, ``src/transformers/models/marian/modeling_marian.py``. A port: it
    takes XLM's float64 NumPy formula ``pos / 10000^(2·(j // 2)/dim)`` (the paper's spacing) and puts the
    ``sin`` of the even columns first and the ``cos`` of the odd ones after them (``[sin | cos]``), cast to
    float32. Marian's own C++ code uses tensor2tensor's spacing ``d/2 − 1`` instead
    (``marian_cpp_embeddings``): the two tables are different. An odd ``dim`` works: ``⌈dim/2⌉`` sines, then
    ``⌊dim/2⌋`` cosines. Positions ``past_key_values_length …`` index the rows.

    Args:
        n_pos: Number of rows; an integer >= 1.
        dim: Width; an integer >= 1.

    Returns:
        A float32 tensor of shape ``(n_pos, dim)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is < 1.

    Examples:
        >>> hf_marian_weights(2, 3)[1]  # sin(1), sin(1/10000^(2/3)), cos(1)
        tensor([0.8415, 0.0022, 0.5403])
    """
    n_pos = _positive_int("n_pos", n_pos)
    dim = _positive_int("dim", dim)
    sines, cosines = _numpy_sin_cos(n_pos, dim)
    return torch.from_numpy(np.concatenate((sines[:, 0::2], cosines[:, 1::2]), axis=1)).to(torch.float32)


def distilbert_weights(n_pos: int, dim: int) -> torch.Tensor:
    """DistilBERT's and XLM's ``create_sinusoidal_embeddings`` — used only when switched on.

    Sources: ``huggingface/transformers``, ``src/transformers/models/distilbert/modeling_distilbert.py``
    (``_create_sinusoidal_embeddings``), and ``facebookresearch/XLM``, ``xlm/model/transformer.py``
    (``create_sinusoidal_embeddings``): the float64 NumPy formula ``pos / 10000^(2·(j // 2)/dim)``, ``sin`` in
    the even columns and ``cos`` in the odd ones (interleaved, the paper's table), cast to float32. Both
    models learn their positions by default: DistilBERT builds this table only with
    ``sinusoidal_pos_embds=True`` (default ``False``, ``configuration_distilbert.py``), XLM only with
    ``--sinusoidal_embeddings true`` (default ``False``, ``train.py``). An odd ``dim`` works (``⌈dim/2⌉``
    sines).

    Args:
        n_pos: Number of rows; an integer >= 1.
        dim: Width; an integer >= 1.

    Returns:
        A float32 tensor of shape ``(n_pos, dim)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is < 1.

    Examples:
        >>> distilbert_weights(2, 3)[1]  # sin(1), cos(1), sin(1/10000^(2/3))
        tensor([0.8415, 0.5403, 0.0022])
    """
    n_pos = _positive_int("n_pos", n_pos)
    dim = _positive_int("dim", dim)
    sines, cosines = _numpy_sin_cos(n_pos, dim)
    return torch.from_numpy(np.where(np.arange(dim) % 2 == 0, sines, cosines)).to(torch.float32)


def diffusers_timestep_embedding(
    timesteps: torch.Tensor,
    embedding_dim: int,
    *,
    flip_sin_to_cos: bool = False,
    downscale_freq_shift: float = 1.0,
    scale: float = 1.0,
    max_period: int = 10000,
) -> torch.Tensor:
    """diffusers' ``get_timestep_embedding``.

    Source: ``huggingface/diffusers``, ``src/diffusers/models/embeddings.py``. In float32:
    ``w_i = exp(−ln(max_period) · i / (d/2 − downscale_freq_shift))``, the phase ``timesteps · w · scale``,
    ``[sin | cos]``, swapped to ``[cos | sin]`` when ``flip_sin_to_cos``, and a zero column for odd widths.
    With the default ``downscale_freq_shift=1`` the spacing is tensor2tensor's ``d/2 − 1``; with ``0`` it is
    the paper's. ``UNet2DConditionModel`` (``src/diffusers/models/unets/unet_2d_condition.py``, the UNet of
    the Stable Diffusion pipelines) defaults to ``flip_sin_to_cos=True, freq_shift=0``: ``[cos | sin]`` with
    the paper's spacing; ``CombinedTimestepLabelEmbeddings`` (in ``embeddings.py``, used by DiT) uses
    ``flip_sin_to_cos=True, downscale_freq_shift=1``.

    Args:
        timesteps: A 1-D tensor of timesteps (positions), any real dtype.
        embedding_dim: Width; an integer >= 2.
        flip_sin_to_cos: ``[cos | sin]`` instead of ``[sin | cos]``.
        downscale_freq_shift: The ``s`` in ``d/2 − s``; a real number with ``d/2 − s`` not 0.
        scale: Factor on the phase; a real number.
        max_period: The base; an integer >= 2.

    Returns:
        A float32 tensor of shape ``(len(timesteps), embedding_dim)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: ``timesteps`` is not 1-D, or another argument is out of range.

    Examples:
        >>> diffusers_timestep_embedding(torch.arange(2), 4, flip_sin_to_cos=True, downscale_freq_shift=0)[1]
        tensor([0.5403, 0.9999, 0.8415, 0.0100])
    """
    if not isinstance(timesteps, torch.Tensor):
        raise TypeError(f"timesteps must be a torch.Tensor, got {type(timesteps).__name__}")
    if timesteps.dim() != 1:
        raise ValueError(f"timesteps must be 1-D, got shape {tuple(timesteps.shape)}")
    if timesteps.is_complex() or timesteps.dtype == torch.bool:
        raise TypeError(f"timesteps must hold real numbers, got dtype {timesteps.dtype}")
    embedding_dim = check_int("embedding_dim", embedding_dim, minimum=2)
    if not isinstance(flip_sin_to_cos, bool):
        raise TypeError(f"flip_sin_to_cos must be a bool, got {flip_sin_to_cos!r}")
    shift = check_real("downscale_freq_shift", downscale_freq_shift)
    scale = check_real("scale", scale)
    max_period = check_int("max_period", max_period, minimum=2)
    half_dim = embedding_dim // 2
    if half_dim - shift == 0:
        raise ValueError(f"downscale_freq_shift must differ from embedding_dim // 2 = {half_dim}, got {shift}")
    frequencies = torch.exp(-math.log(max_period) * torch.arange(half_dim, dtype=torch.float32) / (half_dim - shift))
    angles = scale * torch.outer(timesteps.to(torch.float32), frequencies)
    halves = (angles.cos(), angles.sin()) if flip_sin_to_cos else (angles.sin(), angles.cos())
    return torch.cat((*halves, torch.zeros(len(timesteps), embedding_dim % 2)), dim=1)


def keras_sine_position_encoding(
    seq_length: int,
    hidden_size: int,
    *,
    compute_dtype: torch.dtype = torch.float32,
    max_wavelength: float = 10000,
    start_index: int = 0,
) -> torch.Tensor:
    """keras_hub's ``SinePositionEncoding.call``, every step in the layer's compute dtype.

    Source: ``keras-team/keras-hub``, ``keras_hub/src/layers/modeling/sine_position_encoding.py``. Positions,
    ``min_freq = 1 / max_wavelength``, the exponent ``2·(j // 2) / hidden_size``, the frequencies
    ``power(min_freq, exponent)``, the phases and ``sin``/``cos`` are all cast to or computed in
    ``self.compute_dtype`` — bfloat16 under Keras's ``"mixed_bfloat16"`` policy, float16 under
    ``"mixed_float16"``. Interleaved (even columns ``sin``, odd columns ``cos``, combined with 0/1 masks), shape
    ``[1, seq_length, hidden_size]`` before it is broadcast to the input's batch. (Written with the torch
    operations Keras's torch backend calls; other backends may differ by an ulp of the compute dtype.)

    Args:
        seq_length: Number of positions; an integer >= 1.
        hidden_size: Width; an integer >= 1.
        compute_dtype: A floating-point dtype (the layer's compute dtype).
        max_wavelength: The base; finite and > 0.
        start_index: First position; an integer >= 0.

    Returns:
        A tensor of shape ``(1, seq_length, hidden_size)`` in ``compute_dtype``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> keras_sine_position_encoding(2, 4)[0, 1]
        tensor([0.8415, 0.5403, 0.0100, 0.9999])
        >>> keras_sine_position_encoding(2, 4, compute_dtype=torch.bfloat16)[0, 1]
        tensor([0.8398, 0.5391, 0.0100, 1.0000], dtype=torch.bfloat16)
    """
    seq_length = _positive_int("seq_length", seq_length)
    hidden_size = _positive_int("hidden_size", hidden_size)
    dt = check_float_dtype(compute_dtype, "compute_dtype")
    max_wavelength = check_base(max_wavelength, "max_wavelength")
    start_index = check_int("start_index", start_index, minimum=0)
    column = torch.arange(hidden_size)
    exponents = (2 * (column // 2)).to(dt) / torch.tensor(hidden_size, dtype=dt)  # rounded to dt
    frequencies = torch.pow(torch.tensor(1 / max_wavelength, dtype=dt), exponents)
    angles = (torch.arange(seq_length) + start_index).to(dt)[:, None] * frequencies[None, :]  # one rounding
    odd = (column % 2).to(dt)  # Keras combines sin and cos with 0/1 masks, in dt
    return (angles.sin() * (1 - odd) + angles.cos() * odd)[None]


def transformer_xl_pos_emb(klen: int, demb: int, *, clamp_len: int = -1) -> torch.Tensor:
    """Transformer-XL's relative positional embedding as its model builds it (``PositionalEmbedding``).

    Source: ``kimiyoung/transformer-xl``, ``pytorch/mem_transformer.py``: ``inv_freq = 1 / 10000^(arange(0,
    demb, 2) / demb)`` (the paper's spacing) in float32; ``MemTransformerLM._forward`` passes
    ``pos_seq = arange(klen − 1, −1, −1.0)`` — positions in descending order, ``klen − 1 … 0`` — clamped to
    ``clamp_len`` when that is > 0; the embedding is ``cat([sin, cos])`` (``[sin | cos]``) with a batch axis
    of 1 inserted second: ``(klen, 1, demb)``, sequence-first.

    Args:
        klen: Number of positions (memory plus current segment); an integer >= 1.
        demb: Width; an integer >= 2.
        clamp_len: Largest position kept when > 0 (Transformer-XL's ``clamp_len``, default -1: none).

    Returns:
        A float32 tensor of shape ``(klen, 1, demb)``; row ``r`` holds position ``klen − 1 − r``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is out of range.

    Examples:
        >>> transformer_xl_pos_emb(3, 2)[:, 0]  # positions 2, 1, 0
        tensor([[ 0.9093, -0.4161],
                [ 0.8415,  0.5403],
                [ 0.0000,  1.0000]])
    """
    klen = _positive_int("klen", klen)
    demb = check_int("demb", demb, minimum=2)
    clamp_len = check_int("clamp_len", clamp_len)
    frequencies = 1 / torch.pow(10000, torch.arange(0, demb, 2, dtype=torch.float32) / demb)
    positions = torch.arange(klen - 1, -1, -1, dtype=torch.float32)
    if clamp_len > 0:
        positions = positions.clamp(max=clamp_len)
    angles = torch.outer(positions, frequencies)
    return torch.cat((angles.sin(), angles.cos()), dim=1)[:, None, :]


def d2l_buffer(max_len: int, num_hiddens: int) -> torch.Tensor:
    """d2l.ai's ``PositionalEncoding.P`` (PyTorch tab): ``(1, max_len, num_hiddens)``, float32.

    Source: ``d2l-ai/d2l-en``, ``chapter_attention-mechanisms-and-transformers/
    self-attention-and-positional-encoding.md``: ``X = arange(max_len) / pow(10000, arange(0, d, 2) / d)``
    in float32, ``P[:, :, 0::2] = sin(X)``, ``P[:, :, 1::2] = cos(X)`` — interleaved, batch-first (the
    module adds ``P[:, :X.shape[1], :]``), so its rows are ``P[0]``. An odd width fails as in the original.

    Args:
        max_len: Number of positions; an integer >= 1.
        num_hiddens: Width; an integer >= 1 (odd raises ``RuntimeError``).

    Returns:
        A float32 tensor of shape ``(1, max_len, num_hiddens)``.

    Raises:
        TypeError: an argument is not an integer.
        ValueError: an argument is < 1.
        RuntimeError: for an odd ``num_hiddens`` (reproduces d2l's failure; not input validation).

    Examples:
        >>> d2l_buffer(2, 4)[0, 1]
        tensor([0.8415, 0.5403, 0.0100, 0.9999])
    """
    max_len = _positive_int("max_len", max_len)
    num_hiddens = _positive_int("num_hiddens", num_hiddens)
    if num_hiddens % 2:
        raise RuntimeError(
            f"d2l's code fails for odd num_hiddens={num_hiddens}: {(num_hiddens + 1) // 2} cosines do not fit "
            f"the {num_hiddens // 2} columns P[:, :, 1::2]"
        )
    divisors = torch.pow(10000, torch.arange(0, num_hiddens, 2, dtype=torch.float32) / num_hiddens)
    angles = torch.arange(max_len, dtype=torch.float32)[:, None] / divisors[None, :]  # a division, in float32
    return torch.stack((angles.sin(), angles.cos()), dim=-1).reshape(1, max_len, num_hiddens)


# -------------------------------------------------------------------------------------------- the bugs


def _interleaved_rows(positions: torch.Tensor, sin_w: torch.Tensor, cos_w: torch.Tensor) -> torch.Tensor:
    """Interleaved rows ``sin(p·sin_w[i]), cos(p·cos_w[i])`` at integer ``positions``, float64.

    Unlike ``pe_docs.exact_rows`` the sine and cosine of a pair may have different frequencies, which is
    what the bugs below get wrong; the correct table is built by ``exact_rows``.
    """
    return torch.stack((torch.sin(_phase(positions, sin_w)), torch.cos(_phase(positions, cos_w))), dim=-1).flatten(-2)


def _bug_frequencies(name: str, d: int, base: float) -> tuple[torch.Tensor, torch.Tensor]:
    """(sine frequencies, cosine frequencies) of each formula bug, float64."""
    b = torch.tensor(base, dtype=torch.float64)
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    if name == "odd-cosine-exponent":
        return b ** (-two_i / d), b ** (-(two_i + 1) / d)
    if name == "doubled-exponent":
        w = b ** (-(2 * two_i) / d)
        return w, w
    if name == "doubled-and-odd-exponent":
        return b ** -(2 * two_i / d), b ** -(2 * torch.arange(1, d, 2, dtype=torch.float64) / d)
    if name == "integer-exponent":
        w = torch.ones(d // 2, dtype=torch.float64)
        return w, w
    raise AssertionError(name)  # pragma: no cover


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
    return _interleaved_rows(torch.arange(max_len), *_bug_frequencies("odd-cosine-exponent", d, check_base(base)))


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
    return _interleaved_rows(torch.arange(max_len), *_bug_frequencies("doubled-exponent", d, check_base(base)))


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
    frequencies = _bug_frequencies("doubled-and-odd-exponent", d, check_base(base))
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
    return _interleaved_rows(torch.arange(max_len), *_bug_frequencies("integer-exponent", d, 1.0))


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


# ---------------------------------------------------------------------------------------- the checker


def pairwise_shift_residual(table: torch.Tensor, k: int = 1, *, layout: Layout = "interleaved") -> float:
    """How far the table is from having a relative transform: the best 2×2 map per sin/cos pair.

    For each column pair (``(2i, 2i+1)`` interleaved, ``(i, d/2 + i)`` concatenated — either order within
    the pair, so ``[cos | sin]`` tables use ``"concat"`` too) fit, by least squares in float64, the 2×2
    matrix ``M_i`` with ``[a_p, b_p] M_i ≈ [a_{p+k}, b_{p+k}]`` over all rows, and return the largest
    absolute residual. A correct table (any denominator, positions ascending or descending) gives a residual
    at rounding level (the map is a rotation by ``±k·w_i``); a pair whose sine and cosine have different
    frequencies cannot be mapped, and the residual is of order 1.

    Args:
        table: A real floating-point tensor of shape ``(L, d)``, ``d`` even, ``L > k + 2``, all finite.
        k: The shift; an integer >= 1.
        layout: ``"interleaved"`` or ``"concat"``: how columns are paired.

    Returns:
        The largest absolute residual, a Python float.

    Raises:
        TypeError: ``table`` is not a real floating-point tensor, ``k`` is not an integer.
        ValueError: ``table`` is not 2-D, has an odd width, too few rows or non-finite entries; ``k`` < 1;
            ``layout`` unknown.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> pairwise_shift_residual(sinusoidal_table(64, 16, dtype=torch.float64)) < 1e-12
        True
        >>> pairwise_shift_residual(odd_cosine_exponent_table(64, 16)) > 0.5
        True
    """
    table = _check_table(table)
    check_real_tensor("table", table, ndim=2, finite=True)
    k = check_int("k", k, minimum=1)
    if table.size(0) <= k + 2:
        raise ValueError(f"table needs more than k + 2 = {k + 2} rows, got {table.size(0)}")
    layout = check_choice("layout", layout, LAYOUTS)
    t = table.detach().to(device="cpu", dtype=torch.float64)  # the gelsd driver runs on the CPU
    if layout == "concat":
        t = concat_to_interleaved(t)
    pairs = t.reshape(t.size(0), -1, 2).transpose(0, 1)  # (d/2, L, 2)
    x, y = pairs[:, :-k], pairs[:, k:]
    m = torch.linalg.lstsq(x, y, driver="gelsd").solution
    return float((x @ m - y).abs().max())


@dataclass(frozen=True)
class _Family:
    """A correct table: one column layout and one frequency spacing, and the libraries that ship it."""

    name: str
    layout: str  # "interleaved", "concat" ([sin | cos]) or "concat-cos-first" ([cos | sin])
    spacing: str  # "paper" (w_i = base^(-2i/d)) or "tensor2tensor" (w_i = base^(-i/(d/2 - 1)))
    libraries: tuple[str, ...]


_FAMILIES: tuple[_Family, ...] = (
    _Family(
        "paper",
        "interleaved",
        "paper",
        (
            "the paper",
            "PyTorch tutorial",
            "d2l",
            "DistilBERT/XLM (sinusoidal_pos_embds=True)",
            "keras_hub SinePositionEncoding (float32)",
            "pe_docs",
        ),
    ),
    _Family("concat", "concat", "paper", ("Hugging Face Marian port", "Transformer-XL (descending)")),
    _Family(
        "concat-cos-first",
        "concat-cos-first",
        "paper",
        ("diffusers flip_sin_to_cos=True, downscale_freq_shift=0 (UNet2DConditionModel default)",),
    ),
    _Family(
        "tensor2tensor",
        "concat",
        "tensor2tensor",
        ("tensor2tensor", "fairseq", "Whisper", "Marian C++", "diffusers default (downscale_freq_shift=1)"),
    ),
    _Family(
        "tensor2tensor-cos-first",
        "concat-cos-first",
        "tensor2tensor",
        ("diffusers flip_sin_to_cos=True, downscale_freq_shift=1 (CombinedTimestepLabelEmbeddings)",),
    ),
    _Family("tensor2tensor-interleaved", "interleaved", "tensor2tensor", ()),
)
_FAMILY = {f.name: f for f in _FAMILIES}

_BUG_NAMES = ("odd-cosine-exponent", "doubled-exponent", "doubled-and-odd-exponent", "integer-exponent")
_LOW_PRECISION = {"float16-recomputed": torch.float16, "bfloat16-recomputed": torch.bfloat16}

_LAYOUT_TEXT = {"interleaved": "interleaved sin/cos", "concat": "[sin | cos]", "concat-cos-first": "[cos | sin]"}
_SPACING_TEXT = {
    "paper": "paper spacing w_i = base^(-2i/d)",
    "tensor2tensor": "tensor2tensor spacing w_i = base^(-i/(d/2 - 1))",
}


def _family_description(fam: _Family) -> str:
    shipped = ", ".join(fam.libraries) if fam.libraries else "no library known to ship it"
    return f"{_SPACING_TEXT[fam.spacing]}, {_LAYOUT_TEXT[fam.layout]}: {shipped}; correct"


_DESCRIPTIONS: dict[str, str] = {
    **{fam.name: _family_description(fam) for fam in _FAMILIES},
    "odd-cosine-exponent": "BUG: cosine uses exponent (2i+1)/d; fix: use 2i/d for both columns of a pair",
    "doubled-exponent": "BUG: exponent 4i/d; fix: w_i = base ** (-arange(0, d, 2) / d), no extra factor 2",
    "doubled-and-odd-exponent": "BUG: both of the above (seed notebook 003); fix both exponents",
    "integer-exponent": "BUG: every frequency is 1 (integer arithmetic); fix: arange(..., dtype=float64)",
    "constant-rows": "BUG: every position has the same vector (encoding added along the batch axis?); "
    "fix: index the buffer by the sequence axis",
    "float16-recomputed": "BUG: a known table recomputed in float16 (errors grow with position as an 11-bit "
    "mantissa's do); fix: build in float32/64, then cast",
    "bfloat16-recomputed": "BUG: a known table recomputed in bfloat16 (errors grow with position as an 8-bit "
    "mantissa's do); fix: build in float32/64, then cast",
}
KNOWN_TABLES: tuple[str, ...] = tuple(_DESCRIPTIONS)
"""Names of every table ``identify_table`` recognises, in the order it tries them.

The correct families first — each a column layout (interleaved, ``[sin | cos]``, ``[cos | sin]``) with a
frequency spacing (the paper's ``base^(−2i/d)``, tensor2tensor's ``base^(−i/(d/2 − 1))``): ``"paper"``,
``"concat"``, ``"concat-cos-first"``, ``"tensor2tensor"``, ``"tensor2tensor-cos-first"``,
``"tensor2tensor-interleaved"`` — then the bugs (:attr:`TableMatch.is_bug` is true for these), the last two
found by their effect: a table holding float16 (bfloat16) numbers whose errors from a correct family stay within
what rounding its positions, frequencies and phases to float16 (bfloat16) can cause. A table that matches none
is ``"unknown"``.

Examples:
    >>> KNOWN_TABLES[:2], len(KNOWN_TABLES)
    (('paper', 'concat'), 13)
"""
_BUGS = frozenset(KNOWN_TABLES[len(_FAMILIES) :])

_FP16_OVERFLOW = 65520  # the first integer that rounds to +inf in float16
_SAMPLE_EDGE = 32  # rows kept at each end of the table in the sample
_SAMPLE_SPREAD = 64  # rows spread evenly in between
_CHUNK = 8192  # rows compared at a time on the full table
_RESIDUAL_ROWS = 1024  # rows used for the shift residual
_DECODE_LIMIT = 2**20  # positions read from a row's phases up to about this


@dataclass(frozen=True)
class TableMatch:
    """What ``identify_table`` found.

    Attributes:
        name: The first entry of ``KNOWN_TABLES`` that matches, or ``"unknown"``.
        max_error: Largest absolute difference from the matched table over every row (for ``"unknown"``: from
            the closest candidate, over the rows examined). For the ``*-recomputed`` bugs it is the difference
            from the exact table of the family found (often close to 2: the phases are off by radians).
        atol: The tolerance for the correct families and the formula bugs: ``atol`` if given, else
            ``eps + 4·2⁻²⁴·P``, where ``P`` is the largest position of the candidate's rows — four times the
            float32 rounding of the phase ``p·w`` at ``P`` — and ``eps`` is the spacing of numbers just above 1
            in the precision the values carry: bfloat16 (float16) when every value sampled is a bfloat16
            (float16) number, else the table's dtype; at least ``2⁻²⁰``.
        closest: The candidate with the smallest error on the rows examined.
        also_within_tolerance: Other candidates that match too (a table too short or too coarse to tell them
            apart).
        errors: Every candidate's largest absolute difference on the rows examined (``inf`` where the table has
            NaN or infinite entries): for a table of more than 128 rows, a sample (see ``identify_table``),
            except for candidates that matched the sample, which were checked on every row. The
            ``*-recomputed`` entries appear only when that test ran.
        shift_residual: ``pairwise_shift_residual`` for ``k = 1`` with the matched pairing (interleaved if
            unknown) on at most the first 1024 rows after any zero row; ``nan`` if not computable.
        description: One line on what the candidate is, and the fix if it is a bug.
        layout: ``"interleaved"``, ``"concat"`` (``[sin | cos]``) or ``"concat-cos-first"`` (``[cos | sin]``);
            ``"interleaved"`` for the formula bugs; ``None`` when unknown or for ``"constant-rows"``.
        spacing: ``"paper"`` (``w_i = base^(−2i/d)``) or ``"tensor2tensor"`` (``base^(−i/(d/2 − 1))``) for the
            correct families and the ``*-recomputed`` bugs; ``None`` otherwise.
        offset: The position held by row 0 (``0`` unless the table starts elsewhere, e.g. fairseq's tokens
            at ``padding_idx + 1``).
        descending: True when the positions decrease down the rows (Transformer-XL: ``klen − 1 … 0``).
        zero_rows: Rows that are exactly zero and were left out (fairseq zeroes row ``padding_idx``).
        rows: How the ``(L, d)`` rows were taken from the input: ``"table"``, ``"table[0]"`` (batch-first
            ``(1, L, d)``) or ``"table[:, 0]"`` (sequence-first ``(L, 1, d)``).
        libraries: Who ships the matched family (or, for the ``*-recomputed`` bugs, the family recomputed), as
            read in each library's source; the variants page cites the files.

    Examples:
        >>> match = identify_table(wrong_axis_rows(64, 32))
        >>> match.name, match.is_bug
        ('constant-rows', True)
        >>> match.description.split(";")[0]
        'BUG: every position has the same vector (encoding added along the batch axis?)'
    """

    name: str
    max_error: float
    atol: float
    closest: str
    also_within_tolerance: tuple[str, ...]
    errors: dict[str, float] = field(repr=False)
    shift_residual: float
    description: str
    layout: str | None = None
    spacing: str | None = None
    offset: int = 0
    descending: bool = False
    zero_rows: tuple[int, ...] = ()
    rows: str = "table"
    libraries: tuple[str, ...] = ()

    @property
    def is_bug(self) -> bool:
        """True when the matched candidate is a known bug (False for correct variants and ``"unknown"``)."""
        return self.name in _BUGS


# ----------------------------------------------------------------------- the checker: candidate rows


def _family_frequencies(spacing: str, d: int, base: float) -> torch.Tensor:
    if spacing == "paper":
        return inverse_frequencies(d, base=base)
    return _t2t_frequencies(d, base)


def _split(values: torch.Tensor, layout: str) -> tuple[torch.Tensor, torch.Tensor]:
    """(sine columns, cosine columns) of ``values`` in a layout, as ``(R, d/2)`` views, one column per frequency."""
    n = values.size(1) // 2
    if layout == "interleaved":
        pairs = values.reshape(values.size(0), n, 2)
        return pairs[..., 0], pairs[..., 1]
    first, second = values[:, :n], values[:, n:]
    return (first, second) if layout == "concat" else (second, first)


@dataclass
class _Candidate:
    """One table to compare with: a family (at an offset and direction), a formula bug, or constant rows."""

    name: str
    offset: int = 0
    descending: bool = False
    family: _Family | None = None
    error: float = math.inf  # largest |table − exact| on the rows examined
    ratio: float = math.inf  # low precision only: largest |table − exact| / bound where the bound is < 2

    def positions(self, rows: torch.Tensor) -> torch.Tensor:
        return self.offset - rows if self.descending else self.offset + rows

    def largest_position(self, length: int) -> int:
        return self.offset if self.descending else self.offset + length - 1

    def pattern(self, d: int, base: float) -> tuple[str, torch.Tensor, torch.Tensor]:
        """(layout, sine frequencies, cosine frequencies)."""
        if self.family is not None:
            w = _family_frequencies(self.family.spacing, d, base)
            return self.family.layout, w, w
        return ("interleaved", *_bug_frequencies(self.name, d, base))


def _wrap(x: torch.Tensor) -> torch.Tensor:
    """Angles folded into [−π, π)."""
    return torch.remainder(x + math.pi, 2 * math.pi) - math.pi


def _decode_positions(rows: torch.Tensor, fam: _Family, base: float) -> torch.Tensor:
    """The integer position each float64 row would hold in ``fam`` (phase unwrapping, lowest frequency first).

    The lowest frequency gives the position modulo its wavelength ``Λ = 2π/w_min`` (about 60 000); up to 32
    higher frequencies, each at most ``base^(1/31)`` times the previous one, refine it. Every start
    ``θ/w_min + kΛ`` with ``k = −1, 0, 1, …`` up to position ``2²⁰`` is refined (``k = −1``: a row at position 0
    with a little noise reads as just below ``Λ``); the smallest non-negative result whose phases all agree
    within a quarter of a radian wins (else the one that agrees best).
    """
    w = _family_frequencies(fam.spacing, rows.size(1), base)
    sines, cosines = _split(rows, fam.layout)
    theta = torch.atan2(sines, cosines)  # (R, n)
    n = w.numel()
    steps = torch.unique(torch.linspace(0, n - 1, min(n, 32)).round().long()).flip(0).tolist()
    lowest = float(w[-1])
    wavelength = 2 * math.pi / lowest
    laps = torch.arange(-1, math.ceil(_DECODE_LIMIT / wavelength) + 1, dtype=torch.float64)
    p = torch.remainder(theta[:, -1], 2 * math.pi)[None, :] / lowest + laps[:, None] * wavelength  # (K, R)
    for i in steps:
        p = p + _wrap(theta[None, :, i] - p * w[i]) / w[i]
    p = p.round()
    miss = _wrap(theta[None, :, :] - p[:, :, None] * w[None, None, :]).abs().amax(dim=2)  # (K, R)
    miss[p < 0] = math.inf
    # the smallest position whose phases all agree within a quarter radian, else the best agreement
    agree = miss < 0.25
    pick = torch.where(agree.any(dim=0), agree.to(torch.int8).argmax(dim=0), miss.argmin(dim=0))
    return p.gather(0, pick[None, :])[0].to(torch.int64)


def _table_rows(table: object) -> tuple[torch.Tensor, str]:
    """The ``(L, d)`` rows of ``table`` and how they were taken (``"table"``, ``"table[0]"``, ``"table[:, 0]"``)."""
    table = check_real_tensor("table", table, finite=False)
    if table.dim() == 2:
        return table, "table"
    if table.dim() == 3 and table.size(0) == 1 and table.size(1) > 1:
        return table[0], "table[0]"
    if table.dim() == 3 and table.size(1) == 1 and table.size(0) > 1:
        return table[:, 0], "table[:, 0]"
    hint = ""
    if table.dim() == 3:
        hint = (
            " (pass one sequence's rows: table[b] for a batch-first (B, L, d) tensor, table[:, b] for a "
            "sequence-first (L, B, d) one)"
        )
    raise ValueError(f"table must have shape (L, d), (1, L, d) or (L, 1, d), got {tuple(table.shape)}{hint}")


def _sample(length: int) -> torch.Tensor:
    if length <= 2 * _SAMPLE_EDGE + _SAMPLE_SPREAD:
        return torch.arange(length)
    edges = torch.cat((torch.arange(_SAMPLE_EDGE), torch.arange(length - _SAMPLE_EDGE, length)))
    spread = torch.linspace(0, length - 1, _SAMPLE_SPREAD).round().long()
    return torch.unique(torch.cat((edges, spread)))


def _nan_to_inf(x: float) -> float:
    return math.inf if math.isnan(x) else x


class _Checker:
    """Compares one ``(L, d)`` table with candidates: on sampled rows first, then on every row, chunk by chunk."""

    def __init__(self, t: torch.Tensor, base: float, atol: float | None) -> None:
        self.t = t.contiguous()
        self.length, self.d = self.t.shape
        self.base = base
        self.atol = atol
        low, high = torch.aminmax(self.t, dim=1)  # NaN propagates: one pass finds zero and non-finite rows
        self.finite = torch.isfinite(low) & torch.isfinite(high)
        self.zero = (low == 0) & (high == 0)
        self.zero_rows = tuple(torch.nonzero(self.zero).flatten().tolist())
        self.usable = torch.nonzero(self.finite & ~self.zero).flatten()
        self.first_row = self.t[:1].to(torch.float64)
        sample = _sample(self.length)
        if self.usable.numel():
            sample = torch.unique(torch.cat((sample, self.usable[[0, -1]])))
        self.sample = sample
        self.sample_values = self.t[sample].to(torch.float64)
        # The precision the values carry: a table rounded to float16 or bfloat16 (and perhaps cast back to
        # float32) holds only numbers of that format. Checked on the sample's finite rows.
        # bfloat16 is tried first: its 8-bit numbers are float16 numbers too (within float16's range).
        values = self.sample_values[torch.isfinite(self.sample_values).all(dim=1)]
        self.precision = t.dtype
        for dt in (torch.bfloat16, torch.float16):
            if bool(torch.equal(values.to(dt).to(torch.float64), values)):
                self.precision = dt
                break
        self.eps = max(torch.finfo(self.precision).eps, 2.0**-20)
        self._placements: dict[str, list[tuple[int, bool]]] = {}

    def tolerance(self, cand: _Candidate) -> float:
        """``atol``, or ``eps + 4·2⁻²⁴·P`` for the candidate's largest position ``P`` (``eps`` for constant rows)."""
        if self.atol is not None:
            return self.atol
        if cand.name == "constant-rows":
            return self.eps
        return self.eps + 4 * 2.0**-24 * cand.largest_position(self.length)

    # -- differences ------------------------------------------------------------------------------------
    def _differences(self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor):
        """|table − exact| for the sine and the cosine columns, each ``(R, d/2)`` in float64, and the phases."""
        layout, sin_w, cos_w = cand.pattern(self.d, self.base)
        positions = cand.positions(rows).to(torch.float64)[:, None]
        sines, cosines = _split(values, layout)
        ds = torch.sin(positions * sin_w[None, :]).sub_(sines).abs_()
        phase = positions * cos_w[None, :]
        dc = torch.cos(phase).sub_(cosines).abs_()
        return ds, dc, phase

    def _error(self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor) -> float:
        if cand.name == "constant-rows":
            return _nan_to_inf(float((values.to(torch.float64) - self.first_row).abs().max()))
        ds, dc, _ = self._differences(cand, rows, values)
        per_row = torch.maximum(ds.amax(dim=1), dc.amax(dim=1))  # NaN propagates
        if cand.family is not None:
            per_row[self.zero[rows]] = 0.0
        return _nan_to_inf(float(per_row.max()))

    def _ratio(
        self, cand: _Candidate, rows: torch.Tensor, values: torch.Tensor, dtype: torch.dtype, *, sample: bool
    ) -> tuple[float, float]:
        """(largest |table − exact| / bound over the entries the bound constrains (< 2), largest |table − exact|
        over the finite rows); the ratio is inf when the bound cannot hold.

        On the sample at least one entry must be constrained (else inf); a chunk of the full table may have none
        (0).

        The bound, per entry, for a table of the candidate's family computed in ``dtype`` (unit roundoff ``u``):
        positions, frequencies and the phase ``φ = p·w`` rounded to ``dtype`` move the phase by at most
        ``φ·u·(4 + 3x)``, where ``x = −ln w`` (a frequency ``exp(−x)`` or ``base^(−e)`` computed from a rounded
        exponent is off by ``u·(2 + 3x)`` relative; the position and the product by ``u`` each); the sine or
        cosine adds ``2u`` (its own error and the rounding of the result) and ``eps`` the table's dtype. Past 2 the
        bound says nothing. float16 positions from 65 520 on are ``inf``: those rows must be NaN, the others finite.
        """
        keep = ~self.zero[rows]
        finite = self.finite[rows]
        limit = _FP16_OVERFLOW if dtype == torch.float16 else math.inf  # no other dtype overflows here
        overflow = cand.positions(rows) >= limit
        if bool((keep & (finite == overflow)).any()):
            return math.inf, math.inf
        keep &= finite
        if not bool(keep.any()):
            return (math.inf if sample else 0.0), 0.0
        ds, dc, phase = self._differences(cand, rows[keep], values[keep])
        difference = torch.maximum(ds, dc)
        error = float(difference.max())
        u = torch.finfo(dtype).eps / 2
        x = -torch.log(cand.pattern(self.d, self.base)[1])
        bound = (phase * (u * (4 + 3 * x))[None, :] + (2 * u + self.eps)).clamp_(max=2.0)
        constrained = bound < 2
        if not bool(constrained.any()):
            return (math.inf if sample else 0.0), error
        return float(difference.div_(bound)[constrained].max()), error

    def sample_error(self, cand: _Candidate) -> float:
        return self._error(cand, self.sample, self.sample_values)

    def sample_ratio(self, cand: _Candidate, dtype: torch.dtype) -> float:
        return self._ratio(cand, self.sample, self.sample_values, dtype, sample=True)[0]

    def full(self, cand: _Candidate, dtype: torch.dtype | None = None) -> tuple[float, float]:
        """(largest error over the finite rows, largest bound ratio — ``nan`` without ``dtype``) over every row."""
        err, ratio = 0.0, (0.0 if dtype is not None else math.nan)
        for start in range(0, self.length, _CHUNK):
            rows = torch.arange(start, min(start + _CHUNK, self.length))
            values = self.t[start : start + _CHUNK]
            if dtype is None:
                err = max(err, self._error(cand, rows, values))
                continue
            chunk_ratio, chunk_error = self._ratio(cand, rows, values, dtype, sample=False)
            ratio, err = max(ratio, chunk_ratio), max(err, chunk_error)
        return err, ratio

    # -- where the rows start ---------------------------------------------------------------------------
    def placements(self, fam: _Family) -> list[tuple[int, bool]]:
        """(offset, descending) pairs for ``fam``, read from the phases of the first and last usable rows."""
        if fam.name not in self._placements:
            found: list[tuple[int, bool]] = []
            if self.usable.numel() >= 4:
                ends = self.usable[[0, -1]]
                (ra, rb), (pa, pb) = ends.tolist(), _decode_positions(self.t[ends].double(), fam, self.base).tolist()
                for offset, descending in ((pa - ra, False), (pb - rb, False), (pb + rb, True), (pa + ra, True)):
                    if offset >= (self.length - 1 if descending else 0) and (offset, descending) not in found:
                        found.append((offset, descending))
            self._placements[fam.name] = found
        return self._placements[fam.name]

    def residual(self, layout: str) -> float:
        """``pairwise_shift_residual`` on the first rows after any zero row (``nan`` if not computable)."""
        start = self.zero_rows[-1] + 1 if self.zero_rows else 0
        block = self.t[start : start + _RESIDUAL_ROWS]
        if block.size(0) < 4 or not bool(torch.isfinite(block).all()):
            return math.nan
        return pairwise_shift_residual(block, 1, layout="interleaved" if layout == "interleaved" else "concat")


def identify_table(table: torch.Tensor, *, base: float = 10000.0, atol: float | None = None) -> TableMatch:
    """Tell which known variant or bug a positional-encoding table matches, and where its rows start.

    Pass the table your model adds: ``(L, d)``, or a buffer with a batch axis of 1, batch-first ``(1, L, d)``
    (tensor2tensor, d2l, keras_hub) or sequence-first ``(L, 1, d)`` (the PyTorch tutorial, Marian C++,
    Transformer-XL) — :attr:`TableMatch.rows` says which rows were read. To test what a module really adds,
    pass ``module(zeros)`` for a zero input with dropout off.

    Steps, in ``KNOWN_TABLES`` order:

    1. The correct families — each column layout (interleaved, ``[sin | cos]``, ``[cos | sin]``) with each
       frequency spacing (the paper's, tensor2tensor's). For each, the positions of the first and last usable
       rows are read from their phases, which gives the offset of row 0 and the direction (ascending, or
       descending as in Transformer-XL); rows that are exactly zero (fairseq's padding row) are left out. A
       family matches when every entry is within :attr:`TableMatch.atol` of its exact float64 table. The
       default tolerance grows with the largest position ``P``: a float32 table built the usual way (phase
       ``p·w`` rounded to float32) is off by about ``2⁻²⁴·P``, so a fixed tolerance would call a correct long
       table unknown.
    2. The formula bugs (positions ``0 … L − 1``), and ``"constant-rows"``, with the same tolerance.
    3. Recomputed in low precision, found by its effect: a table whose values are all float16 (bfloat16)
       numbers and whose every entry stays within the error that rounding positions, frequencies and phases to
       that precision can cause, for some family — an error that grows with the phase, so the high-frequency
       columns of late rows may be anything while the low-frequency columns stay close. This holds whatever
       formula computed the table in that precision (``exp``/``log``, ``pow``, a division, Keras's masks). In
       float16 the rows from position 65 520 on are NaN (the position rounds to ``inf``); they are accepted
       there. A table whose phases were rounded in low precision but whose values were computed in float32 is
       not recognised (it holds no float16 or bfloat16 numbers): it comes back ``"unknown"``.

    Candidates are compared on a sample of at most 130 rows (the first and last 32, 64 spread between, and the
    first and last usable rows); only the match is then compared on every row, with one float64 sine and
    cosine per entry.

    Integer positions only (a diffusers table of fractional timesteps is ``"unknown"``); positions are read
    up to about ``2²⁰``.

    Args:
        table: Shape ``(L, d)``, ``(1, L, d)`` or ``(L, 1, d)`` with ``L >= 4`` and ``d >= 4`` even; any real
            floating dtype, any device. NaN or infinite entries give ``"unknown"`` except as described above.
        base: The frequency base the candidates are built with; finite and > 0.
        atol: A fixed tolerance for steps 1 and 2 instead of the default, a finite number > 0 (Python or NumPy
            scalar).

    Returns:
        A ``TableMatch``.

    Raises:
        TypeError: ``table`` is not a real floating-point tensor, ``base`` or ``atol`` is not a real number.
        ValueError: another shape (the message says which rows to pass), fewer than 4 rows or columns, an odd
            width (see the variants page: pad columns are not identified), ``base`` or ``atol`` not finite or
            <= 0.

    Examples:
        >>> from pe_docs import sinusoidal_table
        >>> identify_table(sinusoidal_table(64, 32)).name
        'paper'
        >>> identify_table(odd_cosine_exponent_table(64, 32)).name
        'odd-cosine-exponent'
        >>> m = identify_table(transformer_xl_pos_emb(100, 16))
        >>> m.name, m.rows, m.offset, m.descending
        ('concat', 'table[:, 0]', 99, True)
    """
    rows, how = _table_rows(table)
    check_int("table.size(0)", rows.size(0), minimum=4)
    d = check_d_model(rows.size(1), "table.size(1)")
    if d < 4:
        raise ValueError(f"table.size(1) must be >= 4, got {d}")
    base = check_base(base)
    if atol is not None:
        atol = check_real("atol", atol, minimum=0.0, open_minimum=True)
    checker = _Checker(rows.detach().to("cpu"), base, atol)

    # 1. correct families: best placement of each, by error on the sample
    families: list[_Candidate] = []
    for fam in _FAMILIES:
        tried = [_Candidate(fam.name, offset, descending, fam) for offset, descending in checker.placements(fam)]
        for cand in tried:
            cand.error = checker.sample_error(cand)
        within = [c for c in tried if c.error <= checker.tolerance(c)]
        if within:  # the placement with the smallest positions among those that fit
            families.append(min(within, key=lambda c: c.largest_position(checker.length)))
        else:
            families.append(min(tried, key=lambda c: c.error, default=_Candidate(fam.name, family=fam)))
    # 2. formula bugs and constant rows, positions 0 … L − 1
    bugs = [_Candidate(name) for name in (*_BUG_NAMES, "constant-rows")]
    for cand in bugs:
        cand.error = checker.sample_error(cand)
    ordered = families + bugs
    errors = {c.name: c.error for c in ordered}

    matched = []
    for cand in ordered:
        if cand.error <= checker.tolerance(cand):
            cand.error, _ = checker.full(cand)
            errors[cand.name] = cand.error
            if cand.error <= checker.tolerance(cand):
                matched.append(cand)
    match = matched[0] if matched else None

    # 3. recomputed in float16 / bfloat16: the family (and placement) with the smallest bound ratio
    if match is None:
        for name, dtype in _LOW_PRECISION.items():
            if checker.precision != dtype:
                continue  # a table computed in a dtype holds only numbers of that dtype
            best = None
            for fam in _FAMILIES:
                for offset, descending in checker.placements(fam):
                    cand = _Candidate(name, offset, descending, fam)
                    cand.ratio = checker.sample_ratio(cand, dtype)
                    if cand.ratio <= 1 and (best is None or cand.ratio < best.ratio):
                        best = cand
            if best is not None:
                best.error, best.ratio = checker.full(best, dtype)
                errors[name] = best.error
                if best.ratio <= 1:
                    match = best
                    break

    closest = min(errors, key=lambda n: errors[n])
    fam = match.family if match is not None else None
    if fam is not None:
        layout: str | None = fam.layout
    elif match is not None and match.name in _BUG_NAMES:
        layout = "interleaved"
    else:
        layout = None
    return TableMatch(
        name=match.name if match is not None else "unknown",
        max_error=match.error if match is not None else errors[closest],
        atol=checker.tolerance(match if match is not None else families[0]),
        closest=closest,
        also_within_tolerance=tuple(c.name for c in matched[1:]),
        errors=errors,
        shift_residual=checker.residual(layout or "interleaved"),
        description=_describe(match, checker),
        layout=layout,
        spacing=fam.spacing if fam is not None else None,
        offset=match.offset if match is not None else 0,
        descending=match.descending if match is not None else False,
        zero_rows=checker.zero_rows,
        rows=how,
        libraries=fam.libraries if fam is not None else (),
    )


def _describe(match: _Candidate | None, checker: _Checker) -> str:
    if match is None:
        return "matches no known variant or bug within tolerance; see `closest` and `errors`"
    text = _DESCRIPTIONS[match.name]
    if match.family is not None and match.name not in _FAMILY:
        text += f"; the table recomputed is {match.family.name!r}"
    if match.offset or match.descending:
        last = match.offset - (checker.length - 1) if match.descending else match.offset + checker.length - 1
        text += f"; rows hold positions {match.offset} … {last}"
    if checker.zero_rows and match.family is not None:
        text += f"; zero rows {list(checker.zero_rows)} left out (padding)"
    return text
