"""What the relative, relative-schemes, limitations and code pages say about RoPE, its context extensions, T5's buckets
and ALiBi, against transformers and x-transformers themselves.

The libraries compute in float32 (their frequencies, phases, cos and sin); ``pe_docs`` in float64. Where a
comparison goes through a library's float32 phases, the tolerance is that rounding, entry by entry; where the
library's function is pure algebra (``apply_rotary_pos_emb``), it is fed float64 cos and sin and must agree to
1e-11, the tolerance of the unit tests (tests/test_bias.py) the relative page cites. Each test names the
pages whose claims it checks (``@pytest.mark.pages``): what lets a page list the library in ``checked_against``.
"""

from __future__ import annotations

import math

import pytest
import torch

from pe_docs import (
    alibi_bias,
    alibi_slopes,
    identify_table,
    inverse_frequencies,
    rope_frequencies,
    t5_relative_bias,
    t5_relative_bucket,
)
from pe_docs.analysis import (
    dynamic_ntk_scale,
    llama3_frequencies,
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    rope_rotate,
    yarn_attention_factor,
    yarn_boundaries,
    yarn_frequencies,
)

RTOL_FLOAT32_POW = 4e-6  # float32 frequencies base ** (2i/d): a few ulps (as tests/test_rope_scaling.py)


def _close(ours: torch.Tensor, theirs: torch.Tensor) -> None:
    assert ours.dtype == torch.float64 and theirs.dtype == torch.float32
    torch.testing.assert_close(ours, theirs.double(), rtol=RTOL_FLOAT32_POW, atol=0)


def _llama_config(**kwargs):
    from transformers import LlamaConfig

    small = {"vocab_size": 99, "hidden_size": 256, "intermediate_size": 64, "num_hidden_layers": 1,
             "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": 8192}  # fmt: skip
    small.update(kwargs)
    return LlamaConfig(**small)


def _phase_bound(x: torch.Tensor, positions: torch.Tensor, w: torch.Tensor, pairing: str) -> torch.Tensor:
    """Per entry: what rounding the phase ``p·w`` (and cos, sin, the products) to float32 can change.

    The float32 phase is within ``p·w·3·2⁻²⁴`` of the exact one (frequency to a couple of ulps, product rounded);
    the rotated pair moves by its norm times that, plus a few float32 ulps of the result."""
    d = x.size(-1)
    pairs = x.reshape(*x.shape[:-1], d // 2, 2) if pairing == "interleaved" else x.unflatten(-1, (2, d // 2)).mT
    norm = pairs.double().norm(dim=-1)  # (..., seq, d/2)
    per_pair = norm * (positions.double()[:, None] * w[None, :] * 3 * 2.0**-24 + 4 * 2.0**-24)
    return per_pair.repeat_interleave(2, dim=-1) if pairing == "interleaved" else per_pair.repeat(1, 1, 1, 2)


# ------------------------------------------------------------------------------------------ rope_theta, v5


@pytest.mark.pages("code")
def test_transformers_5_keeps_rope_theta_in_rope_parameters():
    """transformers/models/llama/configuration_llama.py (``LlamaConfig``) and transformers/modeling_rope_utils.py
    (``RotaryEmbeddingConfigMixin.standardize_rope_params``); the code page: ``config.rope_theta`` in
    transformers 4, ``config.rope_parameters["rope_theta"]`` from transformers 5 on, where ``config.rope_theta`` no
    longer exists. On transformers 5 ``LlamaConfig(rope_theta=500000.0).rope_theta`` raises AttributeError and the
    value sits in ``rope_parameters``; Llama's rotary embedding reads it from there (LLaMA 3's 500 000)."""
    import transformers
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    assert int(transformers.__version__.split(".")[0]) >= 5
    config = _llama_config(rope_theta=500000.0)
    with pytest.raises(AttributeError, match="rope_theta"):
        _ = config.rope_theta
    assert config.rope_parameters["rope_theta"] == 500000.0
    assert config.rope_parameters["rope_type"] == "default"
    _close(inverse_frequencies(128, base=500000.0), LlamaRotaryEmbedding(config).inv_freq)


@pytest.mark.pages("code")
def test_rope_width_is_head_dim_else_hidden_size_over_heads():
    """transformers/modeling_rope_utils.py: every ``_compute_*_parameters`` takes ``config.head_dim`` when set and
    ``hidden_size // num_attention_heads`` otherwise (the code page); ``LlamaConfig`` fills ``head_dim`` with
    that quotient when it is not given."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    linear = {"rope_type": "linear", "factor": 2.0, "rope_theta": 10000.0}
    given = _llama_config(hidden_size=256, num_attention_heads=4, head_dim=32, rope_parameters=dict(linear))
    derived = _llama_config(hidden_size=256, num_attention_heads=4, rope_parameters=dict(linear))
    assert derived.head_dim == 64
    assert ROPE_INIT_FUNCTIONS["linear"](given)[0].shape == (16,)
    assert ROPE_INIT_FUNCTIONS["linear"](derived)[0].shape == (32,)


# -------------------------------------------------------------------------------------- Llama's RoPE, "half"


@pytest.mark.pages("relative", "limitations", "code")
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_llama_apply_rotary_pos_emb_is_rope_rotate_half(base):
    """transformers/models/llama/modeling_llama.py: ``rotate_half`` and ``apply_rotary_pos_emb`` (cos and sin over
    the two halves, ``torch.cat((freqs, freqs))`` as ``LlamaRotaryEmbedding.forward`` lays them out): feature ``i``
    turns with feature ``i + d/2`` — ``rope_rotate(pairing="half")``. Fed float64 cos and sin it agrees to 1e-11;
    on permuted features it is ``rope_rotate``'s interleaved pairing (Meta's), and the scores are the same.

    Page (limitations): “feature i with i + head_dim/2 in Hugging Face's”.

    Page (relative): “Hugging Face's Llama pairs halves, x_i with x_{i+d/2}”.
    """
    from transformers.models.llama.modeling_llama import apply_rotary_pos_emb

    g = torch.Generator().manual_seed(3)
    q = torch.randn(2, 3, 6, 128, dtype=torch.float64, generator=g)  # (batch, heads, seq, head_dim)
    k = torch.randn(2, 3, 6, 128, dtype=torch.float64, generator=g)
    pos = torch.tensor([0, 1, 17, 1000, 4095, 8191])
    freqs = pos.double()[:, None] * inverse_frequencies(128, base=base)[None, :]
    emb = torch.cat((freqs, freqs), dim=-1)[None]  # (batch 1, seq, head_dim)
    q_hf, k_hf = apply_rotary_pos_emb(q, k, emb.cos(), emb.sin())
    torch.testing.assert_close(q_hf, rope_rotate(q, pos, base=base, pairing="half"), rtol=0, atol=1e-11)
    torch.testing.assert_close(k_hf, rope_rotate(k, pos, base=base, pairing="half"), rtol=0, atol=1e-11)
    # neighbours (Meta) on features x, halves (Hugging Face) on the features permuted 0, 2, 4, …, 1, 3, 5, …
    perm = torch.cat((torch.arange(0, 128, 2), torch.arange(1, 128, 2)))
    q_perm, k_perm = apply_rotary_pos_emb(q[..., perm], k[..., perm], emb.cos(), emb.sin())
    torch.testing.assert_close(
        q_perm, rope_rotate(q, pos, base=base, pairing="interleaved")[..., perm], rtol=0, atol=1e-11
    )
    neighbours_q = rope_rotate(q, pos, base=base, pairing="interleaved")
    neighbours_k = rope_rotate(k, pos, base=base, pairing="interleaved")
    torch.testing.assert_close(q_perm @ k_perm.mT, neighbours_q @ neighbours_k.mT, rtol=0, atol=1e-10)
    assert (
        q_hf - rope_rotate(q, pos, base=base, pairing="interleaved")
    ).abs().max() > 0.1  # without the permutation: another function


@pytest.mark.pages("code")
def test_llama_rotary_embedding_module_end_to_end():
    """transformers/models/llama/modeling_llama.py: ``LlamaRotaryEmbedding`` (``compute_default_rope_parameters``,
    ``forward``: float32 frequencies and phases) with ``apply_rotary_pos_emb``, on float32 queries: within the
    rounding of the float32 phase of ``rope_rotate(pairing="half")``, entry by entry."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding, apply_rotary_pos_emb

    config = _llama_config()
    rotary = LlamaRotaryEmbedding(config)
    w = inverse_frequencies(128)
    _close(w, rotary.inv_freq)
    g = torch.Generator().manual_seed(5)
    q = torch.randn(1, 2, 7, 128, generator=g)
    pos = torch.tensor([0, 1, 5, 100, 1000, 4095, 8191])
    cos, sin = rotary(q, pos[None])
    q_hf, _ = apply_rotary_pos_emb(q, q, cos, sin)
    exact = rope_rotate(q.double(), pos, pairing="half")
    error = (q_hf.double() - exact).abs()
    bound = _phase_bound(q, pos, w, "half")
    assert (error <= bound).all(), (error - bound).max()
    assert error[..., :2, :].max() < 1e-6  # positions 0 and 1: float32 rounding only


@pytest.mark.pages("code")
def test_gptj_rotate_every_two_is_the_interleaved_pairing():
    """transformers/models/gptj/modeling_gptj.py: ``rotate_every_two`` and ``apply_rotary_pos_emb`` (sin and cos
    repeated for neighbouring features) turn pairs ``(2i, 2i + 1)`` — ``rope_rotate``'s default pairing, Meta's (the
    code page); ``create_sinusoidal_positions``, which ``GPTJRotaryEmbedding`` splits into sin and cos, is the paper's
    table in ``[sin | cos]`` over ``rotary_dim`` features; ``GPTJAttention`` rotates only the first ``rotary_dim``."""
    from transformers.models.gptj.modeling_gptj import apply_rotary_pos_emb, create_sinusoidal_positions

    g = torch.Generator().manual_seed(11)
    x = torch.randn(1, 6, 2, 64, dtype=torch.float64, generator=g)  # GPT-J's layout: (batch, seq, heads, head_dim)
    pos = torch.tensor([0, 1, 17, 1000, 1500, 2047])
    angles = pos.double()[:, None] * inverse_frequencies(64)[None, :]
    theirs = apply_rotary_pos_emb(x, angles.sin()[None], angles.cos()[None])
    ours = rope_rotate(x.transpose(1, 2), pos, pairing="interleaved").transpose(1, 2)
    torch.testing.assert_close(theirs, ours, rtol=0, atol=1e-11)
    table = create_sinusoidal_positions(2048, 64)
    match = identify_table(table)
    assert (match.name, match.layout, match.spacing) == ("concat", "concat", "paper")


@pytest.mark.pages("code")
def test_gpt_neox_rotate_half_on_the_leading_rotary_features():
    """transformers/models/gpt_neox/modeling_gpt_neox.py: ``rotate_half`` and ``apply_rotary_pos_emb``: the first
    ``rotary_dim`` features of each head (``partial_rotary_factor`` of them) turn in the halves pairing, the rest pass
    through unchanged (the code page)."""
    from transformers.models.gpt_neox.modeling_gpt_neox import apply_rotary_pos_emb

    g = torch.Generator().manual_seed(13)
    q = torch.randn(1, 2, 6, 64, dtype=torch.float64, generator=g)
    pos = torch.tensor([0, 1, 17, 1000, 1500, 2047])
    freqs = pos.double()[:, None] * inverse_frequencies(16)[None, :]  # rotary_dim 16 = 0.25 · 64
    emb = torch.cat((freqs, freqs), dim=-1)[None]
    theirs, _ = apply_rotary_pos_emb(q, q, emb.cos(), emb.sin())
    ours = torch.cat((rope_rotate(q[..., :16], pos, pairing="half"), q[..., 16:]), dim=-1)
    torch.testing.assert_close(theirs, ours, rtol=0, atol=1e-11)
    assert torch.equal(theirs[..., 16:], q[..., 16:])


# ---------------------------------------------------------------------------------- ROPE_INIT_FUNCTIONS

CASES = [(128, 10000.0), (64, 10000.0), (128, 500000.0), (96, 10000.0), (16, 10000.0)]


def _scaled(rope_type: str, dim: int, base: float, **parameters):
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    config = _llama_config(hidden_size=2 * dim, num_attention_heads=2,
                           rope_parameters={"rope_type": rope_type, "rope_theta": base, **parameters})  # fmt: skip
    return config, ROPE_INIT_FUNCTIONS[rope_type]


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize("factor", [1.0, 2.0, 8.0, 32.0])
def test_linear_is_position_interpolation(dim, base, factor):
    """transformers/modeling_rope_utils.py: ``_compute_linear_scaling_rope_parameters`` (``inv_freq /= factor``) —
    ``position_interpolation_frequencies``; the attention factor is 1.

    Page (relative-schemes): “feed position p / s, i.e. divide every w_i by s”.
    """
    config, init = _scaled("linear", dim, base, factor=factor)
    inv_freq, attention = init(config)
    _close(position_interpolation_frequencies(dim, factor, base=base), inv_freq)
    assert attention == 1.0


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize(("factor", "seq_len", "original"), [(2.0, 100, 2048), (2.0, 4096, 2048), (4.0, 9000, 4096),
                                                             (8.0, None, 4096)])  # fmt: skip
def test_dynamic_is_ntk_aware_with_dynamic_ntk_scale(dim, base, factor, seq_len, original):
    """transformers/modeling_rope_utils.py: ``_compute_dynamic_ntk_parameters`` — the NTK-aware base with the scale
    ``factor · L'/L − (factor − 1)``, ``L' = max(seq_len, max_position_embeddings)`` (``seq_len`` None at
    initialisation): ``ntk_aware_frequencies(d, dynamic_ntk_scale(factor, L', L))``."""
    config, init = _scaled("dynamic", dim, base, factor=factor)
    config.max_position_embeddings = original
    inv_freq, attention = init(config, seq_len=seq_len)
    scale = dynamic_ntk_scale(factor, seq_len if seq_len is not None else original, original)
    _close(ntk_aware_frequencies(dim, scale, base=base), inv_freq)
    assert attention == 1.0


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize(("factor", "original"), [(2.0, 2048), (8.0, 4096), (16.0, 4096), (4.0, 8192), (32.0, 2048)])
def test_yarn_is_yarn_frequencies(dim, base, factor, original):
    """transformers/modeling_rope_utils.py: ``_compute_yarn_parameters`` (``find_correction_range`` with
    ``truncate``, ``linear_ramp_factor``, ``get_mscale``) — ``yarn_frequencies`` with ``yarn_boundaries`` and the
    attention factor ``yarn_attention_factor`` (0.1 ln s + 1). The trained length is
    ``rope_parameters["original_max_position_embeddings"]``."""
    config, init = _scaled("yarn", dim, base, factor=factor, original_max_position_embeddings=original)
    inv_freq, attention = init(config)
    _close(yarn_frequencies(dim, factor, original, base=base), inv_freq)
    assert math.isclose(attention, yarn_attention_factor(factor), rel_tol=1e-15)
    low, high = yarn_boundaries(dim, original, base=base)
    w = inverse_frequencies(dim, base=base)
    torch.testing.assert_close(inv_freq[: low + 1].double(), w[: low + 1], rtol=RTOL_FLOAT32_POW, atol=0)
    torch.testing.assert_close(inv_freq[high:].double(), w[high:] / factor, rtol=RTOL_FLOAT32_POW, atol=0)


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize(("dim", "base"), [(128, 500000.0), (128, 10000.0), (64, 500000.0)])
@pytest.mark.parametrize(("factor", "low", "high", "original"), [(8.0, 1.0, 4.0, 8192), (32.0, 1.0, 4.0, 8192),
                                                                 (4.0, 2.0, 8.0, 4096)])  # fmt: skip
def test_llama3_is_the_yarn_papers_ramp_in_turns(dim, base, factor, low, high, original):
    """transformers/modeling_rope_utils.py: ``_compute_llama3_parameters`` — ``llama3_frequencies``, whose rule
    the relative-schemes page writes out as the YaRN paper's Eq. 18 ramp: with the turns ``r = L·w/(2π)`` within
    the trained length ``L``, ``γ = clamp((r − α)/(β − α), 0, 1)`` and ``w' = (1 − γ)·w/s + γ·w``, here with
    ``α, β = low_freq_factor, high_freq_factor`` (1 and 4 for LLaMA 3.1)."""
    config, init = _scaled("llama3", dim, base, factor=factor, low_freq_factor=low, high_freq_factor=high,
                           original_max_position_embeddings=original)  # fmt: skip
    inv_freq, attention = init(config)
    _close(llama3_frequencies(dim, factor, original, base=base, low_freq_factor=low, high_freq_factor=high), inv_freq)
    w = inverse_frequencies(dim, base=base)
    turns = original * w / (2 * math.pi)
    gamma = ((turns - low) / (high - low)).clamp(0, 1)
    expected = (1 - gamma) * position_interpolation_frequencies(dim, factor, base=base) + gamma * w
    _close(expected, inv_freq)
    assert attention == 1.0
    assert ((gamma > 0) & (gamma < 1)).any()  # the ramp is exercised


ROPE_PARAMETERS = [
    {"rope_type": "default"},
    {"rope_type": "linear", "factor": 4.0},
    {"rope_type": "dynamic", "factor": 2.0},
    {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024},
    {
        "rope_type": "yarn",
        "factor": 16.0,
        "original_max_position_embeddings": 1024,
        "beta_fast": 16.0,
        "beta_slow": 2.0,
        "truncate": False,
    },
    {
        "rope_type": "yarn",
        "factor": 40.0,
        "original_max_position_embeddings": 1024,
        "mscale": 1.0,
        "mscale_all_dim": 0.707,
    },
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024, "attention_factor": 1.25},
    {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 1024,
    },
]


@pytest.mark.pages("code")
@pytest.mark.parametrize("parameters", ROPE_PARAMETERS, ids=lambda p: "-".join(f"{v}" for v in p.values()))
@pytest.mark.parametrize(("dim", "base"), [(64, 10000.0), (128, 500000.0)])
def test_rope_frequencies_is_what_llama_rotary_embedding_holds(parameters, dim, base):
    """``pe_docs.rope_frequencies(d, base=…, scaling=rope_parameters, max_position_embeddings=…)`` — the ``inv_freq``
    and ``attention_scaling`` that transformers' ``LlamaRotaryEmbedding`` computes at initialisation
    (``ROPE_INIT_FUNCTIONS[rope_type]``, or ``compute_default_rope_parameters``) for the same ``rope_parameters``, bit
    for bit; with ``dtype=torch.float64``, each type's exact values, within float32's rounding of them."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = _llama_config(hidden_size=2 * dim, num_attention_heads=2, max_position_embeddings=4096,
                           rope_parameters={**parameters, "rope_theta": base})  # fmt: skip
    theirs = LlamaRotaryEmbedding(config)
    scaling = dict(config.rope_parameters)  # as transformers standardised it (rope_theta inside)
    ours = rope_frequencies(dim, base=base, scaling=scaling, max_position_embeddings=config.max_position_embeddings)
    assert torch.equal(ours.inv_freq, theirs.inv_freq)
    assert ours.attention_scaling == theirs.attention_scaling
    exact = rope_frequencies(dim, base=base, scaling=scaling, max_position_embeddings=4096, dtype=torch.float64)
    _close(exact.inv_freq, theirs.inv_freq)


# ------------------------------------------------------------------------------------------------------ T5


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize("bidirectional", [True, False])
@pytest.mark.parametrize(("num_buckets", "max_distance"), [(32, 128), (16, 64), (64, 256), (8, 20), (32, 1000)])
def test_t5_relative_position_bucket(bidirectional, num_buckets, max_distance):
    """transformers/models/t5/modeling_t5.py: ``T5Attention._relative_position_bucket`` — ``t5_relative_bucket``
    gives the same bucket for every offset in [−5000, 5000], for five settings, both directions (the
    relative-schemes page)."""
    from transformers.models.t5.modeling_t5 import T5Attention

    offsets = torch.arange(-5000, 5001)
    theirs = T5Attention._relative_position_bucket(offsets, bidirectional, num_buckets, max_distance)
    ours = t5_relative_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    assert torch.equal(ours, theirs)


@pytest.mark.pages("code")
def test_t5_config_defaults():
    """transformers/models/t5/configuration_t5.py: ``relative_attention_num_buckets=32``,
    ``relative_attention_max_distance=128`` (the code page quotes both)."""
    from transformers import T5Config

    config = T5Config()
    assert (config.relative_attention_num_buckets, config.relative_attention_max_distance) == (32, 128)


@pytest.mark.pages("relative-schemes", "code")
@pytest.mark.parametrize("decoder", [False, True])
def test_t5_attention_compute_bias(decoder):
    """transformers/models/t5/modeling_t5.py: ``T5Attention.compute_bias`` of a T5 attention layer with random
    weights — ``t5_relative_bias`` of its ``relative_attention_bias`` table, key minus query."""
    from transformers import T5Config
    from transformers.models.t5.modeling_t5 import T5Attention

    config = T5Config(vocab_size=99, d_model=64, d_kv=16, d_ff=32, num_layers=1, num_heads=4, is_decoder=decoder)
    attention = T5Attention(config, has_relative_attention_bias=True, layer_idx=0)
    theirs = attention.compute_bias(9, 13)[0].detach()
    weight = attention.relative_attention_bias.weight.detach()
    assert torch.equal(t5_relative_bias(weight, 9, 13, bidirectional=not decoder), theirs)


# --------------------------------------------------------------------------------------------------- ALiBi


@pytest.mark.pages("limitations")
@pytest.mark.parametrize("n_heads", [1, 2, 3, 6, 8, 12, 16, 32, 40, 64])
def test_bloom_alibi_slopes_and_bias(n_heads):
    """transformers/models/bloom/modeling_bloom.py: ``_get_alibi_slopes`` and ``build_alibi_tensor``. The slopes are
    ``alibi_slopes`` (in float32: within the rounding of its powers); for ``n`` a power of two they start at
    ``2^(−8/n)`` with that ratio (the limitations page). Bloom adds ``m_h·j`` for key ``j``, not ``−m_h·(i − j)``:
    the two differ by ``m_h·i``, a constant along each query's row, so after the causal mask the softmax — the
    attention — is the same as with ``alibi_bias``.

    Page (limitations): “a power of two, the sequence starts at 2^{-8/n} and has that ratio”.
    """
    from transformers.models.bloom.modeling_bloom import _get_alibi_slopes, build_alibi_tensor

    slopes = _get_alibi_slopes(n_heads, torch.device("cpu"))
    # float32: the base 2^(-8/m) rounded, then raised to powers up to 2n (error up to the power times 2⁻²⁴)
    torch.testing.assert_close(alibi_slopes(n_heads), slopes.double(), rtol=(2 * n_heads + 1) * 2.0**-24, atol=0)
    if n_heads & (n_heads - 1) == 0:
        assert slopes[0].item() == pytest.approx(2 ** (-8 / n_heads), rel=2**-23)
        ratios = slopes[1:].double() / slopes[:-1].double()
        torch.testing.assert_close(ratios, torch.full_like(ratios, 2 ** (-8 / n_heads)), rtol=2**-20, atol=0)
    seq = 24
    bloom = build_alibi_tensor(torch.ones(1, seq, dtype=torch.long), n_heads, torch.float32)  # (heads, 1, seq)
    ours = alibi_bias(n_heads, seq)
    i = torch.arange(seq, dtype=torch.float64)
    shifted = bloom.double() - slopes.double()[:, None, None] * i[None, :, None]  # m·j − m·i = −m·(i − j)
    causal = torch.isfinite(ours)
    torch.testing.assert_close(shifted.expand(-1, seq, -1)[causal], ours[causal], rtol=0, atol=seq * 2.0**-20)
    g = torch.Generator().manual_seed(0)
    scores = torch.randn(n_heads, seq, seq, dtype=torch.float64, generator=g)
    mask = torch.where(causal, 0.0, -math.inf)
    theirs = torch.softmax(scores + bloom.double() + mask, dim=-1)
    torch.testing.assert_close(theirs, torch.softmax(scores + ours, dim=-1), rtol=0, atol=1e-6)


# ------------------------------------------------------------------------------------- x-transformers (RoPE)


@pytest.mark.pages("relative")
def test_x_transformers_rotary_is_rope_rotate_interleaved():
    """x_transformers/x_transformers.py: ``RotaryEmbedding`` (``forward``: frequencies repeated for neighbouring
    features, ``stack((freqs, freqs), dim=-1)``) and ``apply_rotary_pos_emb`` with its ``rotate_half`` on pairs
    ``(2i, 2i + 1)``: the neighbour pairing of the paper and Meta's code — ``rope_rotate(pairing="interleaved")``.
    Fed float64 frequencies it agrees to 1e-11; the module's own float32 frequencies within their rounding.

    Page (relative): “This page passes pairing="interleaved", RoFormer's”.
    """
    from x_transformers.x_transformers import RotaryEmbedding, apply_rotary_pos_emb

    g = torch.Generator().manual_seed(7)
    t = torch.randn(2, 4, 6, 64, dtype=torch.float64, generator=g)  # (batch, heads, seq, head_dim)
    pos = torch.tensor([0, 1, 17, 1000, 4095, 8191])
    freqs = (pos.double()[:, None] * inverse_frequencies(64)[None, :]).repeat_interleave(2, dim=-1)[None]
    torch.testing.assert_close(
        apply_rotary_pos_emb(t, freqs), rope_rotate(t, pos, pairing="interleaved"), rtol=0, atol=1e-11
    )
    assert (apply_rotary_pos_emb(t, freqs) - rope_rotate(t, pos, pairing="half")).abs().max() > 0.1

    rotary = RotaryEmbedding(64)
    _close(inverse_frequencies(64), rotary.inv_freq)
    module_freqs, scale = rotary(pos)
    assert scale == 1.0
    x = t[:1, :1].float()
    out = apply_rotary_pos_emb(x, module_freqs)
    error = (out.double() - rope_rotate(x.double(), pos, pairing="interleaved")).abs()
    bound = _phase_bound(x, pos, inverse_frequencies(64), "interleaved")
    assert (error <= bound).all(), (error - bound).max()


@pytest.mark.pages("relative-schemes")
@pytest.mark.parametrize("scale", [2.0, 8.0])
def test_x_transformers_ntk_rescale_and_interpolation(scale):
    """x_transformers/x_transformers.py: ``RotaryEmbedding(base_rescale_factor=s)`` sets
    ``base · s^(d/(d − 2))`` — the NTK-aware base, ``ntk_aware_frequencies`` — and ``interpolation_factor=s`` divides
    the phases by ``s`` — position interpolation, ``position_interpolation_frequencies`` (relative-schemes page).

    Page (relative-schemes): “Pair 0 keeps its frequency, the last pair is divided by exactly s”.
    """
    from x_transformers.x_transformers import RotaryEmbedding

    _close(ntk_aware_frequencies(64, scale), RotaryEmbedding(64, base_rescale_factor=scale).inv_freq)
    freqs, _ = RotaryEmbedding(64, interpolation_factor=scale)(torch.tensor([1]))
    _close(position_interpolation_frequencies(64, scale), freqs[0, 0, 0::2])
