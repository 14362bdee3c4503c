"""Sinusoidal tables as real libraries build them.

Two groups:

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
  ``d2l_buffer``, and ``tutorial_buffer`` above). ``tests/upstream/`` compares them with the libraries
  themselves, installed from PyPI (``make test-upstream``).
"""

from __future__ import annotations

import math

import numpy as np
import torch

from pe_docs._checks import (
    check_base,
    check_d_model,
    check_float_dtype,
    check_int,
    check_real,
)
from pe_docs._tables import phases_of, t2t_frequencies
from pe_docs.analysis.numerics import rows_in_dtype
from pe_docs.frequencies import inverse_frequencies

# ---------------------------------------------------------------------------------------- the formulas


def _odd_width_frequencies(d: int, base: float) -> torch.Tensor:
    """``base^(-2i/d)`` for ``i = 0 … (d - 1)/2`` and odd ``d`` (DistilBERT/Marian), which
    ``pe_docs.inverse_frequencies`` rejects; the same expression, so it matches it bit for bit."""
    two_i = torch.arange(0, d, 2, dtype=torch.float64)
    return torch.pow(torch.tensor(base, dtype=torch.float64), -(two_i / d))


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
    phase = phases_of(torch.arange(max_len), w)
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
    phase = phases_of(torch.arange(start, start + max_len), t2t_frequencies(d, max_timescale, min_timescale))
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
    ``pe_docs.analysis.rows_in_dtype`` with ``method="log"`` and ``dtype=float32``; the buffer is exactly that,
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
    """Hugging Face's ``MarianSinusoidalPositionalEmbedding`` weights (``create_weight``; ``_init_weight`` before
    transformers 5).

    Source: ``huggingface/transformers``, ``src/transformers/models/marian/modeling_marian.py``. A port: it
    takes XLM's float64 NumPy formula ``pos / 10000^(2·(j // 2)/dim)`` (the paper's spacing) and puts the
    ``sin`` of the even columns first and the ``cos`` of the odd ones after them (``[sin | cos]``), cast to
    float32. Marian's own C++ code uses tensor2tensor's spacing ``d/2 − 1`` instead
    (``marian_cpp_embeddings``): the two tables are different. An odd ``dim`` works: ``⌈dim/2⌉`` sines, then
    ``⌊dim/2⌋`` cosines. Row ``r`` is position ``r``; ``forward`` reads the rows from the length of the cache on.

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
