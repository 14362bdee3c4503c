"""pe_docs.analysis.relative_schemes against the reference code it follows, re-typed from the sources read.

* Shaw et al.: tensor2tensor ``tensor2tensor/layers/common_attention.py`` (commit bafdc1b):
  ``_generate_relative_positions_matrix``, ``_relative_attention_inner``, ``dot_product_attention_relative``.
* T5: huggingface/transformers ``src/transformers/models/t5/modeling_t5.py`` (commit 6b8b757):
  ``T5Attention._relative_position_bucket`` and ``compute_bias``.
* Transformer-XL: kimiyoung/transformer-xl ``pytorch/mem_transformer.py`` (commit 44781ed):
  ``PositionalEmbedding``, ``RelMultiHeadAttn._rel_shift``, ``RelPartialLearnableMultiHeadAttn.forward``.

TensorFlow code is re-typed in torch with the same operations in the same order.
"""

from __future__ import annotations

import math

import pytest
import torch

from pe_docs import sinusoidal_table, t5_relative_bias, t5_relative_bucket
from pe_docs.analysis import (
    TransformerXLTerms,
    rel_shift,
    shaw_attention,
    shaw_relative_indices,
    transformer_xl_scores,
    transformer_xl_terms,
)

# ----------------------------------------------------------------------------------- reference re-types


def t2t_relative_positions_matrix(length_q: int, length_k: int, max_relative_position: int) -> torch.Tensor:
    if length_q == length_k:
        range_vec_q = range_vec_k = torch.arange(length_q)
    else:
        range_vec_k = torch.arange(length_k)
        range_vec_q = range_vec_k[-length_q:]
    distance_mat = range_vec_k[None, :] - range_vec_q[:, None]
    distance_mat_clipped = distance_mat.clamp(-max_relative_position, max_relative_position)
    return distance_mat_clipped + max_relative_position


def t2t_relative_attention_inner(x, y, z, transpose):
    batch_size, heads, length = x.shape[0], x.shape[1], x.shape[2]
    xy_matmul = x @ (y.transpose(-2, -1) if transpose else y)
    x_t = x.permute(2, 0, 1, 3)
    x_t_r = x_t.reshape(length, heads * batch_size, -1)
    x_tz_matmul = x_t_r @ (z.transpose(-2, -1) if transpose else z)
    x_tz_matmul_r = x_tz_matmul.reshape(length, batch_size, heads, -1)
    x_tz_matmul_r_t = x_tz_matmul_r.permute(1, 2, 0, 3)
    return xy_matmul + x_tz_matmul_r_t


def t2t_dot_product_attention_relative(q, k, v, max_relative_position, table_k, table_v):
    """q is already scaled by depth**-0.5, as tensor2tensor's multihead_attention does before the call."""
    length_k = k.shape[2]
    index = t2t_relative_positions_matrix(length_k, length_k, max_relative_position)
    relations_keys, relations_values = table_k[index], table_v[index]
    logits = t2t_relative_attention_inner(q, k, relations_keys, True)
    weights = torch.softmax(logits, dim=-1)
    return t2t_relative_attention_inner(weights, v, relations_values, False), weights


def hf_relative_position_bucket(relative_position, bidirectional=True, num_buckets=32, max_distance=128):
    relative_buckets = 0
    if bidirectional:
        num_buckets //= 2
        relative_buckets += (relative_position > 0).to(torch.long) * num_buckets
        relative_position = torch.abs(relative_position)
    else:
        relative_position = -torch.min(relative_position, torch.zeros_like(relative_position))
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    relative_position_if_large = max_exact + (
        torch.log(relative_position.float() / max_exact)
        / math.log(max_distance / max_exact)
        * (num_buckets - max_exact)
    ).to(torch.long)
    relative_position_if_large = torch.min(
        relative_position_if_large, torch.full_like(relative_position_if_large, num_buckets - 1)
    )
    relative_buckets += torch.where(is_small, relative_position, relative_position_if_large)
    return relative_buckets


def hf_compute_bias(weight, query_length, key_length, is_decoder, max_distance=128):
    context_position = torch.arange(query_length, dtype=torch.long)[:, None]
    memory_position = torch.arange(key_length, dtype=torch.long)[None, :]
    relative_position = memory_position - context_position
    relative_position_bucket = hf_relative_position_bucket(
        relative_position, bidirectional=(not is_decoder), num_buckets=weight.shape[0], max_distance=max_distance
    )
    values = weight[relative_position_bucket]
    return values.permute([2, 0, 1]).unsqueeze(0)


class TXLPositionalEmbedding:
    def __init__(self, demb):
        self.inv_freq = 1 / (10000 ** (torch.arange(0.0, demb, 2.0) / demb))

    def __call__(self, pos_seq):
        sinusoid_inp = torch.outer(pos_seq, self.inv_freq)  # torch.ger in the original
        return torch.cat([sinusoid_inp.sin(), sinusoid_inp.cos()], dim=-1)[:, None, :]


def txl_rel_shift(x, zero_triu=False):
    zero_pad = torch.zeros((x.size(0), 1, *x.size()[2:]), device=x.device, dtype=x.dtype)
    x_padded = torch.cat([zero_pad, x], dim=1)
    x_padded = x_padded.view(x.size(1) + 1, x.size(0), *x.size()[2:])
    x = x_padded[1:].view_as(x)
    if zero_triu:
        ones = torch.ones((x.size(0), x.size(1)))
        x = x * torch.tril(ones, x.size(1) - x.size(0))[:, :, None, None]
    return x


def txl_scores(w_head_q, w_head_k, r_head_k, r_w_bias, r_r_bias):
    """AC + BD of RelPartialLearnableMultiHeadAttn.forward (before the scale and the mask)."""
    rw_head_q = w_head_q + r_w_bias
    AC = torch.einsum("ibnd,jbnd->ijbn", (rw_head_q, w_head_k))
    rr_head_q = w_head_q + r_r_bias
    BD = torch.einsum("ibnd,jnd->ijbn", (rr_head_q, r_head_k))
    BD = txl_rel_shift(BD)
    return AC + BD


# ------------------------------------------------------------------------------------------------ Shaw


@pytest.mark.parametrize(("n", "k"), [(1, 1), (5, 2), (9, 3), (4, 10)])
def test_shaw_indices_match_tensor2tensor(n, k):
    assert torch.equal(shaw_relative_indices(n, k), t2t_relative_positions_matrix(n, n, k))


def test_shaw_indices_are_the_clipped_offset():
    idx = shaw_relative_indices(7, 2)
    i, j = torch.meshgrid(torch.arange(7), torch.arange(7), indexing="ij")
    assert torch.equal(idx, torch.maximum(torch.tensor(-2), torch.minimum(torch.tensor(2), j - i)) + 2)


def test_shaw_attention_matches_tensor2tensor():
    g = torch.Generator().manual_seed(0)
    b, h, n, d, m = 2, 3, 7, 8, 2
    q, k, v = (torch.randn(b, h, n, d, generator=g, dtype=torch.float64) for _ in range(3))
    table_k, table_v = (torch.randn(2 * m + 1, d, generator=g, dtype=torch.float64) for _ in range(2))
    z, weights = shaw_attention(q, k, v, table_k, table_v)
    z_ref, w_ref = t2t_dot_product_attention_relative(q * d**-0.5, k, v, m, table_k, table_v)
    torch.testing.assert_close(weights, w_ref, rtol=0, atol=1e-13)
    torch.testing.assert_close(z, z_ref, rtol=0, atol=1e-13)


def test_shaw_attention_is_the_published_formula():
    """Eqs. 3-4 of Shaw et al. written as loops: e_ij = q_i (k_j + a^K_ij) / sqrt(d); z_i = sum a_ij (v_j + a^V_ij)."""
    g = torch.Generator().manual_seed(1)
    n, d, m = 5, 4, 1
    q, k, v = (torch.randn(n, d, generator=g, dtype=torch.float64) for _ in range(3))
    wk, wv = (torch.randn(2 * m + 1, d, generator=g, dtype=torch.float64) for _ in range(2))
    z, weights = shaw_attention(q, k, v, wk, wv)

    def clip(x):
        return max(-m, min(m, x))

    for i in range(n):
        e = torch.stack([q[i] @ (k[j] + wk[clip(j - i) + m]) / math.sqrt(d) for j in range(n)])
        alpha = torch.softmax(e, 0)
        torch.testing.assert_close(weights[i], alpha, rtol=0, atol=1e-14)
        zi = sum(alpha[j] * (v[j] + wv[clip(j - i) + m]) for j in range(n))
        torch.testing.assert_close(z[i], zi, rtol=0, atol=1e-14)


def test_shaw_attention_causal():
    g = torch.Generator().manual_seed(2)
    x = torch.randn(12, 6, generator=g, dtype=torch.float64)
    wk, wv = (torch.randn(5, 6, generator=g, dtype=torch.float64) for _ in range(2))
    z, weights = shaw_attention(x, x, x, wk, wv, causal=True)
    assert (weights.triu(1) == 0).all() and torch.allclose(weights.sum(-1), torch.ones(12, dtype=torch.float64))
    # a causal query sees only its past: the first 6 outputs do not change when later tokens are dropped
    z_head, _ = shaw_attention(x[:6], x[:6], x[:6], wk, wv, causal=True)
    torch.testing.assert_close(z_head, z[:6], rtol=0, atol=1e-14)


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"rel_k": torch.zeros(4, 4)}, ValueError, "rel_k must have shape (2m + 1, d=4)"),
        ({"rel_v": torch.zeros(5, 3)}, ValueError, "rel_v must have shape (2m + 1, d=4)"),
        ({"k": torch.zeros(3, 4)}, ValueError, "k must have the shape of q (5, 4), got (3, 4)"),
        ({"causal": 1}, TypeError, "causal must be a bool, got 1"),
        ({"q": torch.zeros(5, 4, dtype=torch.long)}, TypeError, "q must be a real floating-point tensor"),
        ({"rel_v": torch.zeros(3, 4)}, ValueError, "rel_k and rel_v must have the same rows, got 5 and 3"),
    ],
)
def test_shaw_attention_rejects_bad_input(kwargs, error, message):
    args = {
        "q": torch.zeros(5, 4),
        "k": torch.zeros(5, 4),
        "v": torch.zeros(5, 4),
        "rel_k": torch.zeros(5, 4),
        "rel_v": torch.zeros(5, 4),
    }
    args.update(kwargs)
    with pytest.raises(error) as info:
        shaw_attention(**args)
    assert message in str(info.value)


def test_shaw_indices_reject_bad_input():
    with pytest.raises(ValueError, match="max_relative_position must be >= 1, got 0"):
        shaw_relative_indices(4, 0)
    with pytest.raises(TypeError, match="seq_len must be an integer"):
        shaw_relative_indices(4.0, 2)


# -------------------------------------------------------------------------------------------------- T5


@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), [(32, 128), (16, 64), (64, 256), (8, 20), (32, 1000)])
def test_t5_buckets_equal_hugging_face_for_every_offset(bidirectional, num_buckets, max_distance):
    offsets = torch.arange(-5000, 5001)
    ours = t5_relative_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    ref = hf_relative_position_bucket(offsets, bidirectional, num_buckets, max_distance)
    assert torch.equal(ours, ref)


def test_t5_bucket_layout_with_the_defaults():
    offsets = torch.arange(-300, 301)
    both = t5_relative_bucket(offsets)
    assert torch.equal(both, hf_relative_position_bucket(offsets))
    assert set(both.tolist()) == set(range(32)) - {16}  # bucket 16 (positive side, distance 0) is never used
    assert both[offsets == 0].item() == 0 and both[offsets == 1].item() == 17
    assert offsets[both == 15].abs().min().item() == 91  # the last bucket starts well before max_distance
    causal = t5_relative_bucket(offsets, bidirectional=False)
    assert (causal[offsets >= 0] == 0).all()
    assert offsets[causal == 31].abs().min().item() == 113
    assert torch.equal(causal[(offsets > -16) & (offsets <= 0)], -offsets[(offsets > -16) & (offsets <= 0)])


def test_t5_bias_matches_hugging_face_compute_bias():
    g = torch.Generator().manual_seed(0)
    weight = torch.randn(32, 6, generator=g)
    for decoder in (False, True):
        ref = hf_compute_bias(weight, 9, 13, decoder)[0]
        assert torch.equal(t5_relative_bias(weight, 9, 13, bidirectional=not decoder), ref)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "message"),
    [
        ((torch.tensor([1.0]),), {}, TypeError, "relative_position must be an integer tensor, got dtype torch.float32"),
        (([1, 2],), {}, TypeError, "relative_position must be a torch.Tensor, got list"),
        ((torch.tensor([1]),), {"num_buckets": 7}, ValueError, "num_buckets must be even when bidirectional, got 7"),
        ((torch.tensor([1]),), {"num_buckets": 2}, ValueError, "num_buckets must be >= 4, got 2"),
        ((torch.tensor([1]),), {"max_distance": 8}, ValueError, "max_distance must be >= 9, got 8"),
        ((torch.tensor([1]),), {"bidirectional": 1}, TypeError, "bidirectional must be a bool, got 1"),
    ],
)
def test_t5_bucket_rejects_bad_input(args, kwargs, error, message):
    with pytest.raises(error) as info:
        t5_relative_bucket(*args, **kwargs)
    assert message in str(info.value)


def test_t5_bias_rejects_bad_input():
    with pytest.raises(ValueError, match="weight must have 2 dimensions"):
        t5_relative_bias(torch.zeros(32), 2, 2)
    with pytest.raises(ValueError, match="query_len must be >= 1, got 0"):
        t5_relative_bias(torch.zeros(32, 1), 0, 2)


# ----------------------------------------------------------------------------------------- Transformer-XL


def test_txl_positional_embedding_is_the_concatenated_sinusoidal_table():
    pos_seq = torch.arange(99, -1, -1.0)  # klen - 1 ... 0, as MemTransformerLM builds it
    ref = TXLPositionalEmbedding(64)(pos_seq)[:, 0, :]
    ours = sinusoidal_table(100, 64, layout="concat").flip(0)
    torch.testing.assert_close(ours, ref, rtol=0, atol=2e-5)  # the reference forms the phase in float32
    exact = sinusoidal_table(100, 64, layout="concat", dtype=torch.float64).flip(0)
    assert (ours.double() - exact).abs().max() < 2.5e-7


@pytest.mark.parametrize("shape", [(3, 3), (4, 7), (1, 5), (2, 2, 6)])
def test_rel_shift_matches_transformer_xl(shape):
    x = torch.randn(*shape, dtype=torch.float64)
    if x.dim() == 2:  # Transformer-XL's layout is (qlen, klen, batch, heads)
        ref = txl_rel_shift(x[:, :, None, None])[:, :, 0, 0]
    else:
        ref = txl_rel_shift(x.permute(1, 2, 0)[..., None])[..., 0].permute(2, 0, 1)
    assert torch.equal(rel_shift(x), ref)


def test_rel_shift_aligns_distances():
    q_len, k_len = 4, 7
    mem = k_len - q_len
    # column m holds distance k_len - 1 - m
    x = (k_len - 1 - torch.arange(k_len)).expand(q_len, k_len).double()
    shifted = rel_shift(x)
    i, j = torch.meshgrid(torch.arange(q_len), torch.arange(k_len), indexing="ij")
    valid = j <= mem + i
    assert torch.equal(shifted[valid], (mem + i - j)[valid].double())


@pytest.mark.parametrize(("q_len", "mem_len"), [(5, 0), (4, 3), (1, 6), (6, 1)])
def test_xl_scores_match_the_reference_and_the_four_terms(q_len, mem_len):
    g = torch.Generator().manual_seed(q_len * 10 + mem_len)
    d, k_len = 8, q_len + mem_len
    q = torch.randn(q_len, d, generator=g, dtype=torch.float64)
    k = torch.randn(k_len, d, generator=g, dtype=torch.float64)
    w_r = torch.randn(16, d, generator=g, dtype=torch.float64)
    r = sinusoidal_table(k_len, 16, layout="concat", dtype=torch.float64) @ w_r  # r[t] = W_{k,R} R_t
    u, v = torch.randn(d, generator=g, dtype=torch.float64), torch.randn(d, generator=g, dtype=torch.float64)
    scores = transformer_xl_scores(q, k, r, u, v, mem_len=mem_len)
    ref = txl_scores(q[:, None, None, :], k[:, None, None, :], r.flip(0)[:, None, :], u, v)[:, :, 0, 0]
    future = torch.arange(k_len)[None, :] > mem_len + torch.arange(q_len)[:, None]
    assert torch.isneginf(scores[future]).all()
    torch.testing.assert_close(scores[~future], ref[~future], rtol=0, atol=1e-12)
    terms = transformer_xl_terms(q, k, r, u, v, mem_len=mem_len)
    assert isinstance(terms, TransformerXLTerms)
    torch.testing.assert_close(sum(terms)[~future], scores[~future], rtol=0, atol=1e-12)
    # each term by its definition, entry by entry
    for i in range(q_len):
        for j in range(k_len):
            t = mem_len + i - j
            torch.testing.assert_close(terms.content[i, j], q[i] @ k[j], rtol=0, atol=1e-13)
            torch.testing.assert_close(terms.global_content[i, j], u @ k[j], rtol=0, atol=1e-13)
            if t >= 0:
                torch.testing.assert_close(terms.content_position[i, j], q[i] @ r[t], rtol=0, atol=1e-13)
                torch.testing.assert_close(terms.global_position[i, j], v @ r[t], rtol=0, atol=1e-13)


def test_xl_global_position_term_depends_on_the_distance_only():
    g = torch.Generator().manual_seed(5)
    q, k = torch.randn(6, 4, generator=g), torch.randn(6, 4, generator=g)
    r, u, v = torch.randn(6, 4, generator=g), torch.randn(4, generator=g), torch.randn(4, generator=g)
    d_term = transformer_xl_terms(q, k, r, u, v).global_position
    for t in range(6):
        assert torch.allclose(d_term.diagonal(-t), (v @ r[t]).expand(6 - t))


def test_xl_batched():
    g = torch.Generator().manual_seed(6)
    q, k = torch.randn(2, 3, 5, 4, generator=g), torch.randn(2, 3, 5, 4, generator=g)
    r, u, v = torch.randn(5, 4, generator=g), torch.randn(4, generator=g), torch.randn(4, generator=g)
    batched = transformer_xl_scores(q, k, r, u, v)
    torch.testing.assert_close(batched[1, 2], transformer_xl_scores(q[1, 2], k[1, 2], r, u, v))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"k": torch.zeros(4, 4)}, "k must have shape (..., query_len + mem_len = 3, d=4), got (4, 4)"),
        ({"r": torch.zeros(2, 4)}, "r must have shape (key_len=3, d=4), got (2, 4)"),
        ({"u": torch.zeros(3)}, "u must have shape (d=4,), got (3,)"),
        ({"mem_len": -1}, "mem_len must be >= 0, got -1"),
    ],
)
def test_xl_rejects_bad_input(kwargs, message):
    args = {
        "q": torch.zeros(3, 4),
        "k": torch.zeros(3, 4),
        "r": torch.zeros(3, 4),
        "u": torch.zeros(4),
        "v": torch.zeros(4),
    }
    args.update(kwargs)
    for fn in (transformer_xl_terms, transformer_xl_scores):
        with pytest.raises(ValueError) as info:
            fn(**args)
        assert message in str(info.value)


def test_rel_shift_rejects_bad_input():
    with pytest.raises(ValueError, match=r"key_len >= query_len\), got \(5, 3\)"):
        rel_shift(torch.zeros(5, 3))
    with pytest.raises(TypeError, match="x must be a torch.Tensor"):
        rel_shift([[1.0]])
