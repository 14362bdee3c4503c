"""The attention biases models add to their scores instead of a positional encoding: ALiBi and T5's relative bias.

* ALiBi (Press, Smith & Lewis, 2022, "Train Short, Test Long"): no vectors at all, a per-head penalty
  ``−m_h · (i − j)`` added to the attention logits, with slopes ``m_h`` in a geometric sequence (BLOOM, MPT).
  Reference code: ofirpress/attention_with_linear_biases; huggingface/transformers
  ``src/transformers/models/bloom/modeling_bloom.py`` (``build_alibi_tensor``).
* T5 (Raffel et al., 2020): the offset ``j − i`` falls into one of ``num_buckets`` buckets — exact for small
  offsets, logarithmically wider up to ``max_distance`` — and each bucket holds one learned scalar per head,
  added to the attention logits. Reference code: huggingface/transformers
  ``src/transformers/models/t5/modeling_t5.py`` (``T5Attention._relative_position_bucket``, ``compute_bias``).

The upstream tier checks both against transformers.
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_float_dtype, check_int, check_real_tensor, float64_device


def alibi_slopes(n_heads: int) -> torch.Tensor:
    """ALiBi's per-head slopes ``m_h``, float64, shape ``(n_heads,)``.

    For ``n`` a power of two the slopes are the geometric sequence ``2^(-8/n), 2^(-16/n), …, 2^(-8)``.
    Otherwise (as in the paper's reference code) take the slopes of the nearest smaller power of two
    ``m = 2^⌊log2 n⌋`` and fill up with every other slope of ``2m`` heads.

    Args:
        n_heads: Number of attention heads; an integer >= 1.

    Returns:
        A float64 tensor of shape ``(n_heads,)``, on the CPU.

    Raises:
        TypeError: ``n_heads`` is not an integer.
        ValueError: ``n_heads`` is < 1.

    Examples:
        >>> alibi_slopes(4)
        tensor([0.2500, 0.0625, 0.0156, 0.0039], dtype=torch.float64)
        >>> alibi_slopes(3)  # the slopes of 2 heads, then every other slope of 4 heads (one needed)
        tensor([0.0625, 0.0039, 0.2500], dtype=torch.float64)
    """
    n = check_int("n_heads", n_heads, minimum=1)

    def power_of_two(k: int) -> torch.Tensor:
        exponent = -8.0 * torch.arange(1, k + 1, dtype=torch.float64) / k
        return torch.pow(torch.tensor(2.0, dtype=torch.float64), exponent)

    m = 2 ** math.floor(math.log2(n))
    if m == n:
        return power_of_two(n)
    return torch.cat((power_of_two(m), power_of_two(2 * m)[0::2][: n - m]))


def alibi_bias(
    n_heads: int,
    seq_len: int,
    *,
    causal: bool = True,
    dtype: torch.dtype = torch.float64,
    device: torch.device | str | None = None,
) -> torch.Tensor:
    """ALiBi's additive attention bias, shape ``(n_heads, seq_len, seq_len)``.

    ``bias[h, i, j] = −m_h · (i − j)`` for keys ``j <= i``; with ``causal=True`` keys ``j > i`` get
    ``-inf`` (the causal mask ALiBi was designed with), otherwise ``−m_h · |i − j|``. ``causal=False`` is not
    from the ALiBi paper (Press et al., 2022), which defines and measures the causal case only: the symmetric
    penalty is one extension used for encoders, and cannot tell a key before the query from one after it. The
    diagonal is ``+0.0``. The values are computed in float64 on ``device`` (on the CPU for MPS, which has no float64)
    and rounded once to ``dtype``.

    Args:
        n_heads: Number of heads; an integer >= 1.
        seq_len: Sequence length; an integer >= 1.
        causal: Mask future keys with ``-inf`` (the paper's setting); ``False`` gives the symmetric bias, an
            extension that is not in the paper.
        dtype: Floating-point dtype of the result.
        device: Device of the result; the CPU if omitted.

    Returns:
        A tensor of shape ``(n_heads, seq_len, seq_len)`` in ``dtype`` on ``device``.

    Raises:
        TypeError: ``n_heads`` or ``seq_len`` is not an integer, ``causal`` is not a bool, ``dtype`` is not
            a floating-point dtype.
        ValueError: ``n_heads`` or ``seq_len`` is < 1.

    Examples:
        >>> alibi_bias(1, 3)[0]
        tensor([[ 0.0000,    -inf,    -inf],
                [-0.0039,  0.0000,    -inf],
                [-0.0078, -0.0039,  0.0000]], dtype=torch.float64)
        >>> alibi_bias(1, 2, causal=False, dtype=torch.float32)[0]
        tensor([[ 0.0000, -0.0039],
                [-0.0039,  0.0000]])
    """
    slopes = alibi_slopes(n_heads)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    if not isinstance(causal, bool):
        raise TypeError(f"causal must be a bool, got {causal!r}")
    dtype = check_float_dtype(dtype)
    target = torch.device("cpu") if device is None else torch.device(device)
    work = float64_device(target)
    i = torch.arange(seq_len, device=work)
    distance = i[:, None] - i[None, :]  # integer i - j
    # Negate the integer distance before the conversion, so that the diagonal is +0.0, not -0.0.
    bias = slopes.to(work)[:, None, None] * (-distance.abs()).to(torch.float64)
    if causal:
        bias = bias.masked_fill(distance < 0, float("-inf"))
    return bias.to(device=target, dtype=dtype)


def t5_relative_bucket(
    relative_position: torch.Tensor,
    *,
    bidirectional: bool = True,
    num_buckets: int = 32,
    max_distance: int = 128,
) -> torch.Tensor:
    """T5's bucket of each offset ``relative_position = j − i`` (key minus query).

    Bidirectional (the encoder): half of the buckets are for ``j − i <= 0``, half for ``j − i > 0``. In each
    half of ``n`` buckets, distances ``0 … n/2 − 1`` get a bucket each, and a distance ``δ >= n/2`` gets
    ``n/2 + ⌊ln(δ / (n/2)) / ln(max_distance / (n/2)) · n/2⌋``, capped at ``n − 1``: every distance from
    some point below ``max_distance`` on shares the last bucket. Causal (``bidirectional=False``, the decoder):
    the same rule over all ``num_buckets`` for ``i − j >= 0``, and every key after the query (``j > i``) falls
    into bucket 0 with ``j = i``.

    Computed in float64 with the same formula as the reference (huggingface/transformers
    ``src/transformers/models/t5/modeling_t5.py``, ``T5Attention._relative_position_bucket``, itself adapted
    from Mesh TensorFlow), which takes the logarithm in float32; the tests compare the two for every offset
    in ``[−5000, 5000]``.

    Args:
        relative_position: Integer tensor of offsets ``j − i``, any shape.
        bidirectional: Encoder-style (both directions) if true, decoder-style if false.
        num_buckets: Number of buckets; an integer >= 4, even when ``bidirectional``.
        max_distance: Distance from which every offset shares the last bucket; an integer > the number of
            exact buckets (``num_buckets / 4`` bidirectional, ``num_buckets / 2`` causal).

    Returns:
        An int64 tensor of the same shape with values in ``[0, num_buckets)``.

    Raises:
        TypeError: ``relative_position`` is not an integer tensor, ``bidirectional`` not a bool, or a size not
            an integer.
        ValueError: ``num_buckets`` or ``max_distance`` is out of range.

    Examples:
        >>> t5_relative_bucket(torch.tensor([-200, -20, -1, 0, 1, 20, 200]))
        tensor([15, 10,  1,  0, 17, 26, 31])
        >>> t5_relative_bucket(torch.tensor([-200, -20, -1, 0, 1, 20]), bidirectional=False)
        tensor([31, 17,  1,  0,  0,  0])
    """
    if not isinstance(relative_position, torch.Tensor):
        raise TypeError(f"relative_position must be a torch.Tensor, got {type(relative_position).__name__}")
    rp = relative_position
    if rp.dtype.is_floating_point or rp.dtype.is_complex or rp.dtype == torch.bool:
        raise TypeError(f"relative_position must be an integer tensor, got dtype {rp.dtype}")
    if not isinstance(bidirectional, bool):
        raise TypeError(f"bidirectional must be a bool, got {bidirectional!r}")
    n = check_int("num_buckets", num_buckets, minimum=4)
    if bidirectional and n % 2:
        raise ValueError(f"num_buckets must be even when bidirectional, got {n}")
    rp = rp.to(torch.int64)
    offset = torch.zeros_like(rp)
    if bidirectional:
        n //= 2
        offset = (rp > 0).to(torch.int64) * n
        distance = rp.abs()
    else:
        distance = (-rp).clamp(min=0)
    exact = n // 2
    max_distance = check_int("max_distance", max_distance, minimum=exact + 1)
    # log(0) is never used: distances below `exact` take the first branch.
    scaled = torch.log(distance.clamp(min=exact).to(torch.float64) / exact) / math.log(max_distance / exact)
    large = (exact + torch.floor(scaled * (n - exact)).to(torch.int64)).clamp(max=n - 1)
    return offset + torch.where(distance < exact, distance, large)


def t5_relative_bias(
    weight: torch.Tensor,
    query_len: int,
    key_len: int,
    *,
    bidirectional: bool = True,
    max_distance: int = 128,
) -> torch.Tensor:
    """T5's position bias: ``bias[h, i, j] = weight[bucket(j − i), h]``, added to the attention logits.

    ``weight`` is the ``nn.Embedding(num_buckets, n_heads)`` table of scalars. In T5 only the first layer of
    each stack owns it and every layer adds the same bias (``T5Stack`` shares ``position_bias``); T5 does not
    divide the logits by ``√d`` (its initialisation accounts for that).

    Args:
        weight: Real tensor of shape ``(num_buckets, n_heads)``.
        query_len: Number of query positions ``0 … query_len − 1``; an integer >= 1.
        key_len: Number of key positions ``0 … key_len − 1``; an integer >= 1.
        bidirectional: As in ``t5_relative_bucket``.
        max_distance: As in ``t5_relative_bucket``.

    Returns:
        A tensor of shape ``(n_heads, query_len, key_len)`` in ``weight``'s dtype.

    Raises:
        TypeError: ``weight`` is not a real floating-point tensor, or another argument has the wrong type.
        ValueError: ``weight`` is not 2-D, or another argument is out of range.

    Examples:
        >>> weight = torch.arange(32.0)[:, None]  # one head; bucket b holds the value b
        >>> t5_relative_bias(weight, 2, 3)[0]
        tensor([[ 0., 17., 18.],
                [ 1.,  0., 17.]])
    """
    weight = check_real_tensor("weight", weight, ndim=2)
    q_len = check_int("query_len", query_len, minimum=1)
    k_len = check_int("key_len", key_len, minimum=1)
    offset = torch.arange(k_len)[None, :] - torch.arange(q_len)[:, None]  # memory - context = j - i
    bucket = t5_relative_bucket(
        offset, bidirectional=bidirectional, num_buckets=weight.size(0), max_distance=max_distance
    )
    return weight[bucket.to(weight.device)].permute(2, 0, 1)
