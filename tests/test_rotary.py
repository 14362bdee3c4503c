"""RotaryEmbedding and apply_rope: frequencies, layouts, agreement with rope_rotate and torchtune's rotation, dynamic
scaling, dtype casts, meta device, float32 only in forward, compile, from_config, bad input; and RoFormer's decay
bound and the identical-content score."""

from __future__ import annotations

import math
import re
import types

import numpy as np
import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from pe_docs import RotaryEmbedding, apply_rope, inverse_frequencies, rope_frequencies, sinusoidal_table
from pe_docs.analysis import llama3_frequencies, rope_decay_bound, rope_identical_score, rope_rotate

LLAMA31 = {
    "rope_type": "llama3",
    "factor": 8.0,
    "low_freq_factor": 1.0,
    "high_freq_factor": 4.0,
    "original_max_position_embeddings": 8192,
}
SCALINGS = [
    None,
    {"rope_type": "linear", "factor": 4.0},
    {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024},
    LLAMA31,
]


def _phase_bound(x: torch.Tensor, positions: torch.Tensor, w: torch.Tensor) -> float:
    """What a float32 angle p·w (and float32 cos, sin, products) can change in a rotated entry of x."""
    return float(x.abs().max() * 2 * (positions.max() * w.max() * 3 * 2.0**-24 + 8 * 2.0**-24))


@pytest.mark.parametrize("scaling", SCALINGS, ids=lambda s: (s or {}).get("rope_type", "default"))
def test_inv_freq_is_rope_frequencies(scaling) -> None:
    rotary = RotaryEmbedding(64, base=500000.0, scaling=scaling)
    expected = rope_frequencies(64, base=500000.0, scaling=scaling)
    assert rotary.inv_freq.dtype == torch.float32
    assert torch.equal(rotary.inv_freq, expected.inv_freq)
    assert rotary.attention_scaling == expected.attention_scaling
    assert "inv_freq" not in rotary.state_dict()


def test_inv_freq_is_the_checkpoint_code_s_expression() -> None:
    """transformers' ``compute_default_rope_parameters``, Meta's ``precompute_freqs_cis`` and torchtune's
    ``rope_init`` all write ``1.0 / (base ** (torch.arange(0, d, 2).float() / d))``: the buffer is that, not the
    float64 value rounded once (they differ by an ulp in some entries, which moves far positions' angles)."""
    reference = 1.0 / (500000.0 ** (torch.arange(0, 128, 2).float() / 128))
    assert torch.equal(RotaryEmbedding(128, base=500000.0).inv_freq, reference)
    rounded_once = inverse_frequencies(128, base=500000.0).float()
    assert not torch.equal(reference, rounded_once)  # so the choice matters


def test_cos_sin_layout() -> None:
    rotary = RotaryEmbedding(8)
    position_ids = torch.tensor([[0, 3, 7], [2, 2, 9]])
    cos, sin = rotary(position_ids)
    assert cos.shape == sin.shape == (2, 3, 8) and cos.dtype == sin.dtype == torch.float32
    angle = position_ids[..., None].float() * rotary.inv_freq
    assert torch.equal(cos, torch.cat((angle, angle), -1).cos()) and torch.equal(
        sin, torch.cat((angle, angle), -1).sin()
    )


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_apply_rope_is_rope_rotate_up_to_the_float32_angle(pairing: str, base: float) -> None:
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 6, 64, generator=g)
    k = torch.randn(2, 2, 6, 64, generator=g)  # grouped-query attention: fewer key heads
    position_ids = torch.tensor([[0, 1, 17, 1000, 4095, 8191], [5, 6, 7, 8, 9, 10]])
    rotary = RotaryEmbedding(64, base=base)
    q_rot, k_rot = apply_rope(q, k, *rotary(position_ids), pairing=pairing)
    assert q_rot.shape == q.shape and k_rot.shape == k.shape
    w = inverse_frequencies(64, base=base)
    for x, rotated in ((q, q_rot), (k, k_rot)):
        exact = rope_rotate(x.double(), position_ids[:, None, :], base=base, pairing=pairing)
        assert (rotated.double() - exact).abs().max() <= _phase_bound(x, position_ids, w)


def test_interleaved_is_torchtune_s_rotation() -> None:
    """torchtune ``RotaryPositionalEmbeddings.forward`` (re-typed): neighbours ``(x0, x1)`` become
    ``(x0·cos − x1·sin, x1·cos + x0·sin)`` from a cache of ``cos, sin`` per angle — the same float32 numbers."""
    g = torch.Generator().manual_seed(3)
    x = torch.randn(2, 5, 3, 16, generator=g)  # torchtune's layout: (batch, seq, heads, head_dim)
    position_ids = torch.tensor([[0, 1, 2, 3, 4], [7, 8, 9, 10, 11]])
    rotary = RotaryEmbedding(16)
    angle = position_ids[..., None].float() * rotary.inv_freq  # (batch, seq, 8)
    cache = torch.stack([angle.cos(), angle.sin()], dim=-1)[:, :, None]  # broadcast over the heads
    pairs = x.float().reshape(*x.shape[:-1], -1, 2)
    theirs = torch.stack([pairs[..., 0] * cache[..., 0] - pairs[..., 1] * cache[..., 1],
                          pairs[..., 1] * cache[..., 0] + pairs[..., 0] * cache[..., 1]], -1).flatten(3)  # fmt: skip
    ours, _ = apply_rope(x.transpose(1, 2), x.transpose(1, 2), *rotary(position_ids), pairing="interleaved")
    assert torch.equal(ours.transpose(1, 2), theirs)


def test_apply_rope_with_llama3_scaling_turns_by_the_scaled_frequencies() -> None:
    g = torch.Generator().manual_seed(1)
    q = torch.randn(1, 2, 4, 128, generator=g, dtype=torch.float64)
    position_ids = torch.tensor([[0, 100, 9000, 60000]])
    rotary = RotaryEmbedding(128, base=500000.0, scaling=LLAMA31)
    q_rot, _ = apply_rope(q, q, *rotary(position_ids))
    w = llama3_frequencies(128, 8.0, 8192, base=500000.0)
    angle = position_ids[0, :, None].double() * w
    a, b = q[..., :64], q[..., 64:]
    exact = torch.cat((a * angle.cos() - b * angle.sin(), a * angle.sin() + b * angle.cos()), dim=-1)
    assert (q_rot - exact).abs().max() < 60000 * 3 * 2.0**-24 * q.abs().max() * 2
    plain = apply_rope(q, q, *RotaryEmbedding(128, base=500000.0)(position_ids))[0]
    assert (plain - q_rot)[..., 2, :].abs().max() > 0.5  # the scaling changes the slow pairs


def test_scores_depend_on_the_offset_only() -> None:
    g = torch.Generator().manual_seed(2)
    q = torch.randn(1, 1, 8, 32, generator=g, dtype=torch.float64)
    k = torch.randn(1, 1, 8, 32, generator=g, dtype=torch.float64)
    rotary = RotaryEmbedding(32)
    near = torch.arange(8)[None]
    q1, k1 = apply_rope(q, k, *rotary(near))
    q2, k2 = apply_rope(q, k, *rotary(near + 500))
    torch.testing.assert_close(q1 @ k1.mT, q2 @ k2.mT, rtol=0, atol=1e-4)


def test_yarn_attention_scaling_multiplies_cos_and_sin() -> None:
    scaling = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 2048}
    rotary = RotaryEmbedding(64, scaling=scaling)
    cos, sin = rotary(torch.tensor([[0, 5]]))
    assert math.isclose(rotary.attention_scaling, 0.1 * math.log(16) + 1)
    torch.testing.assert_close(cos.square() + sin.square(), torch.full_like(cos, rotary.attention_scaling**2))


def test_dynamic_grows_keeps_and_resets_as_transformers_does() -> None:
    """transformers' ``dynamic_rope_update``: frequencies for ``max(position_ids) + 1`` when a call is longer than any
    before it (and than the trained length), kept for shorter calls, the original ones again below the trained
    length."""
    rotary = RotaryEmbedding(32, scaling={"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=1000)
    original = RotaryEmbedding(32).inv_freq
    assert torch.equal(rotary.inv_freq, original)  # scale 1 up to the trained length

    def frequencies_after(length: int) -> torch.Tensor:
        rotary(torch.arange(length)[None])
        return rotary.inv_freq.clone()

    def grown(length: int) -> torch.Tensor:
        return rope_frequencies(32, scaling=rotary.scaling, max_position_embeddings=1000, seq_len=length).inv_freq

    assert torch.equal(frequencies_after(1000), original)
    assert torch.equal(frequencies_after(3000), grown(3000))
    assert torch.equal(frequencies_after(8000), grown(8000))
    assert torch.equal(frequencies_after(3000), grown(8000))  # shorter, but past the trained length: kept
    assert torch.equal(frequencies_after(1000), grown(8000))  # the trained length itself: kept, as in transformers
    assert torch.equal(frequencies_after(999), original)  # below it: reset
    assert torch.equal(frequencies_after(2000), grown(2000))
    long = torch.arange(3000)[None]
    angle = long[..., None].float() * grown(3000)
    fresh = RotaryEmbedding(32, scaling={"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=1000)
    assert torch.equal(fresh(long)[0], torch.cat((angle, angle), -1).cos())


class _Dtypes(TorchDispatchMode):
    def __init__(self) -> None:
        super().__init__()
        self.seen: set[torch.dtype] = set()

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        for t in out if isinstance(out, (tuple, list)) else (out,):
            if isinstance(t, torch.Tensor):
                self.seen.add(t.dtype)
        return out


@pytest.mark.parametrize("scaling", SCALINGS, ids=lambda s: (s or {}).get("rope_type", "default"))
def test_forward_and_apply_use_no_float64(scaling) -> None:
    rotary = RotaryEmbedding(64, scaling=scaling)
    q = torch.randn(1, 2, 5, 64, dtype=torch.bfloat16)
    with _Dtypes() as mode:
        cos, sin = rotary(torch.arange(5)[None] + 70000)
        apply_rope(q, q, cos, sin)
    assert torch.float64 not in mode.seen and torch.float32 in mode.seen


def test_bfloat16_queries_come_back_in_bfloat16_rounded_once() -> None:
    q = torch.randn(1, 1, 3, 16, dtype=torch.bfloat16)
    cos, sin = RotaryEmbedding(16)(torch.tensor([[1, 2, 3]]))
    q_rot, _ = apply_rope(q, q, cos, sin)
    expected = q.float() * cos[:, None] + torch.cat((-q.float()[..., 8:], q.float()[..., :8]), -1) * sin[:, None]
    assert q_rot.dtype == torch.bfloat16 and torch.equal(q_rot, expected.to(torch.bfloat16))


@pytest.mark.parametrize("cast", ["to_bfloat16", "half", "double", "parent_to"])
def test_a_dtype_cast_keeps_the_float32_frequencies(cast: str) -> None:
    """``model.to(torch.bfloat16)`` rounds every floating-point buffer — transformers' ``inv_freq`` too, which moves
    the angle at position 10⁵ by up to 2 rad; here the frequencies stay float32 and ``cos``, ``sin`` do not move."""
    rotary = RotaryEmbedding(128, base=500000.0, scaling=LLAMA31)
    position_ids = torch.tensor([[0, 1000, 100000]])
    before = rotary(position_ids)
    if cast == "parent_to":
        model = torch.nn.Sequential(torch.nn.Linear(4, 4), rotary).to(torch.bfloat16)
        assert model[0].weight.dtype == torch.bfloat16
    else:
        rotary = {"to_bfloat16": lambda: rotary.to(torch.bfloat16), "half": rotary.half, "double": rotary.double}[
            cast
        ]()
    assert rotary.inv_freq.dtype == torch.float32
    after = rotary(position_ids)
    assert all(torch.equal(a, b) for a, b in zip(before, after, strict=True))
    rounded = rotary.inv_freq.to(torch.bfloat16).float()  # what the cast does to a plain buffer
    gap = (position_ids[..., None].float() * (rounded - rotary.inv_freq)).abs().max().item()
    assert gap > 1.0  # radians at position 10⁵


def test_meta_device_then_reset_parameters() -> None:
    with torch.device("meta"):
        rotary = RotaryEmbedding(64, base=500000.0, scaling=LLAMA31)
    rotary.reset_parameters()
    rotary = rotary.to_empty(device="cpu")
    assert rotary.inv_freq.dtype == torch.float32
    rotary.inv_freq.fill_(float("nan"))
    rotary.reset_parameters()
    assert torch.equal(rotary.inv_freq, RotaryEmbedding(64, base=500000.0, scaling=LLAMA31).inv_freq)


def _graphs(module: torch.nn.Module, calls, **compile_kwargs) -> tuple[int, list]:
    """How many graphs ``torch.compile`` makes of ``module`` over ``calls`` (a backend that counts), and the outputs."""
    import torch._dynamo

    graphs = []

    def counting(gm: torch.fx.GraphModule, example_inputs: list) -> object:
        graphs.append(gm)
        return gm.forward

    torch._dynamo.reset()
    compiled = torch.compile(module, backend=counting, **compile_kwargs)
    outputs = [compiled(*args) for args in calls]
    torch._dynamo.reset()
    return len(graphs), outputs


def test_decoding_compiles_once() -> None:
    rotary = RotaryEmbedding(32, scaling=LLAMA31 | {"original_max_position_embeddings": 64})
    start = torch.tensor([[0], [4]])
    count, outputs = _graphs(rotary, [(start + t,) for t in range(5)], fullgraph=True)
    assert count == 1
    assert all(torch.equal(out[0], rotary(start + t)[0]) for t, out in enumerate(outputs))


def test_dynamic_breaks_the_graph_where_it_reads_the_length() -> None:
    import torch._dynamo

    rotary = RotaryEmbedding(32, scaling={"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=64)
    torch._dynamo.reset()
    explanation = torch._dynamo.explain(rotary)(torch.arange(100)[None])
    torch._dynamo.reset()
    assert explanation.graph_break_count >= 1
    assert any("item" in str(reason.reason) or "Tensor.__int__" in str(reason.reason)
               for reason in explanation.break_reasons)  # fmt: skip


def test_from_config_reads_what_transformers_reads() -> None:
    llama31 = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
               "rope_parameters": {**LLAMA31, "rope_theta": 500000.0}}  # fmt: skip
    rotary = RotaryEmbedding.from_config(llama31)
    assert (rotary.head_dim, rotary.base, rotary.rope_type) == (128, 500000.0, "llama3")
    assert torch.equal(rotary.inv_freq, RotaryEmbedding(128, base=500000.0, scaling=LLAMA31).inv_freq)
    # an object with attributes, head_dim set, the base outside rope_parameters (transformers 4), partial rotation
    neox = types.SimpleNamespace(
        head_dim=64,
        rope_theta=10000,
        partial_rotary_factor=0.25,
        max_position_embeddings=2048,
        rope_scaling={"type": "linear", "factor": 2.0},
    )
    rotary = RotaryEmbedding.from_config(neox)
    assert (rotary.head_dim, rotary.rope_type) == (16, "linear")
    assert torch.equal(rotary.inv_freq, rope_frequencies(16, scaling={"rope_type": "linear", "factor": 2.0}).inv_freq)
    # yarn and llama3 without their original length take max_position_embeddings, as transformers standardises them
    yarn = {"head_dim": 64, "max_position_embeddings": 4096, "rope_parameters": {"rope_type": "yarn", "factor": 4.0}}
    assert RotaryEmbedding.from_config(yarn).scaling["original_max_position_embeddings"] == 4096
    # dynamic reads max_position_embeddings, and drops (with a warning, as transformers) the key it ignores
    dynamic = {
        "head_dim": 64,
        "max_position_embeddings": 4096,
        "rope_parameters": {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 2048},
    }
    with pytest.warns(UserWarning, match="ignores original_max_position_embeddings=2048"):
        rotary = RotaryEmbedding.from_config(dynamic)
    assert rotary.max_position_embeddings == 4096 and "original_max_position_embeddings" not in rotary.scaling
    with pytest.raises(ValueError, match="hidden_size and num_attention_heads"):
        RotaryEmbedding.from_config({"max_position_embeddings": 4096})
    # GPT-J rotates its first rotary_dim features (transformers' GPTJConfig.rotary_dim)
    # GPTJConfig keeps n_embd and n_head as its fields (hidden_size and num_attention_heads map to them): an object
    # with them is taken, a dict with them is refused
    gptj = types.SimpleNamespace(
        hidden_size=512, num_attention_heads=8, n_embd=512, n_head=8, rotary_dim=16, rope_theta=10000.0
    )
    assert RotaryEmbedding.from_config(gptj).head_dim == 16
    with pytest.raises(ValueError, match="config has 'n_embd', 'n_head'"):
        RotaryEmbedding.from_config(vars(gptj))
    # a top-level original length (Phi-3's place for it) comes before the scaling's, as transformers reads it
    top = {**yarn, "original_max_position_embeddings": 1024}
    top["rope_parameters"] = {**yarn["rope_parameters"], "original_max_position_embeddings": 2048}
    assert RotaryEmbedding.from_config(top).scaling["original_max_position_embeddings"] == 1024
    # another model's config.json names: refused rather than misread (GPT-NeoX's rotary_pct is a partial factor)
    neox_json = {"hidden_size": 2560, "num_attention_heads": 32, "rotary_pct": 0.25, "rotary_emb_base": 10000}
    with pytest.raises(ValueError, match="'rotary_pct', 'rotary_emb_base'.*AutoConfig"):
        RotaryEmbedding.from_config(neox_json)
    # transformers 4's GPTNeoXConfig object kept rotary_pct (5 maps it to partial_rotary_factor): refused, not ignored
    with pytest.raises(ValueError, match="'rotary_pct'"):
        RotaryEmbedding.from_config(types.SimpleNamespace(hidden_size=2560, num_attention_heads=32, rotary_pct=0.25))
    # a value that is set but falsy is refused, as the constructor refuses it, never replaced by the default
    for config, message in [
        ({"head_dim": 64, "rope_parameters": {"rope_theta": 0}}, "config's rope_theta must be finite and > 0, got 0"),
        ({"head_dim": 64, "rope_theta": 0.0}, "config's rope_theta must be finite and > 0, got 0.0"),
        ({"head_dim": 64, "partial_rotary_factor": 0.0}, "config's partial_rotary_factor must be > 0.0, got 0.0"),
        ({"head_dim": 64, "partial_rotary_factor": 1.5}, "config's partial_rotary_factor must be <= 1.0, got 1.5"),
        ({"head_dim": 64, "rotary_dim": 0}, "config.rotary_dim must be >= 2, got 0"),
    ]:
        with pytest.raises(ValueError, match=re.escape(message)):
            RotaryEmbedding.from_config(config)
    with pytest.raises(TypeError, match="config's rope_theta must be a real number, got '1e4' of type str"):
        RotaryEmbedding.from_config({"head_dim": 64, "rope_theta": "1e4"})


def test_no_positions_no_update() -> None:
    rotary = RotaryEmbedding(32, scaling={"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=64)
    cos, _ = rotary(torch.zeros(2, 0, dtype=torch.long))
    assert cos.shape == (2, 0, 32) and rotary.max_seq_len_cached == 64


def test_scaling_is_copied_and_repr() -> None:
    scaling = dict(LLAMA31)
    rotary = RotaryEmbedding(128, base=500000.0, scaling=scaling)
    scaling["factor"] = 2.0
    assert rotary.scaling["factor"] == 8.0
    assert "head_dim=128, base=500000" in repr(rotary) and "rope_type': 'llama3'" in repr(rotary)
    assert RotaryEmbedding(np.int64(64)).head_dim == 64  # any integer type


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: RotaryEmbedding(63), ValueError, ["head_dim", "63"]),
        (lambda: RotaryEmbedding(64.0), TypeError, ["head_dim", "64.0", "float"]),
        (lambda: RotaryEmbedding(64, pairing="half"), TypeError, ["pairing"]),  # apply_rope takes the pairing
        (lambda: RotaryEmbedding(64, scaling={"rope_type": "su"}), ValueError, ["rope_type", "'su'"]),
        (lambda: RotaryEmbedding(64, scaling=[1]), TypeError, ["scaling", "list"]),
        (lambda: RotaryEmbedding(64, scaling={"rope_type": "llama3", "factor": 8.0}), ValueError,
         ["rope_type 'llama3' needs the key", "'high_freq_factor'"]),
        (lambda: RotaryEmbedding(64, scaling={"rope_type": "dynamic", "factor": 2.0}), ValueError,
         ["max_position_embeddings"]),
        (lambda: RotaryEmbedding(8)(torch.arange(3)), ValueError, ["position_ids", "(batch, seq)", "(3,)"]),
        (lambda: RotaryEmbedding(8)(torch.zeros(1, 3)), TypeError, ["position_ids", "torch.float32"]),
        (lambda: RotaryEmbedding(8)(torch.ones(1, 3, dtype=torch.bool)), TypeError, ["position_ids", "torch.bool"]),
        (lambda: RotaryEmbedding(8)([[0, 1]]), TypeError, ["position_ids", "list"]),
        (lambda: RotaryEmbedding(8)(torch.tensor([[-1, 0]])), ValueError, ["position_ids", "[-1, 0]"]),
        (lambda: RotaryEmbedding(8)(torch.tensor([[0, 2**24 + 1]])), ValueError, ["2**24", "16777217"]),
    ],
)  # fmt: skip
def test_bad_rotary_arguments(call, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as info:
        call()
    for word in words:
        assert word in str(info.value)


@pytest.mark.parametrize(
    ("shapes", "kwargs", "error", "words"),
    [
        (((1, 2, 3, 8), (1, 2, 3, 8), (1, 3, 6)), {}, ValueError, ["q", "(1, 3, 6)"]),
        (((1, 3, 8), (1, 2, 3, 8), (1, 3, 8)), {}, ValueError, ["(batch, heads, seq, head_dim)", "(1, 3, 8)"]),
        (((1, 2, 4, 8), (1, 2, 4, 8), (1, 3, 8)), {}, ValueError, ["q", "(1, 2, 4, 8)", "(1, 3, 8)"]),
        (((1, 2, 3, 8), (1, 2, 4, 8), (1, 3, 8)), {}, ValueError, ["k", "(1, 2, 4, 8)", "(1, 3, 8)"]),
        (((2, 2, 3, 8), (2, 2, 3, 8), (3, 3, 8)), {}, ValueError, ["q", "(2, 2, 3, 8)", "(3, 3, 8)"]),
        (((1, 2, 3, 8), (1, 2, 3, 8), (1, 3, 8)), {"pairing": "neox"}, ValueError, ["pairing", "'neox'"]),
    ],
)
def test_bad_apply_rope_arguments(shapes, kwargs, error, words) -> None:
    q_shape, k_shape, cos_shape = shapes
    with pytest.raises(error) as info:
        apply_rope(torch.zeros(q_shape), torch.zeros(k_shape), torch.zeros(cos_shape), torch.zeros(cos_shape), **kwargs)
    for word in words:
        assert word in str(info.value)
    with pytest.raises(TypeError, match="q must be a real floating-point tensor, got dtype torch.int64"):
        apply_rope(torch.zeros(1, 1, 2, 4, dtype=torch.long), torch.zeros(1, 1, 2, 4), torch.zeros(1, 2, 4),
                   torch.zeros(1, 2, 4))  # fmt: skip
    with pytest.raises(ValueError, match=r"cos and sin must have the same shape"):
        apply_rope(torch.zeros(1, 1, 2, 4), torch.zeros(1, 1, 2, 4), torch.zeros(1, 2, 4), torch.zeros(1, 3, 4))


# ----------------------------------------------------------------------------------------- long-term decay


def test_decay_bound_is_the_papers_sum_of_partial_sums() -> None:
    d, base = 16, 10000.0
    theta = [base ** (-2 * k / d) for k in range(d // 2)]
    for m in (0, 1, 7, 100, 2500):
        partial, total = 0j, 0.0
        for t in theta:
            partial += complex(math.cos(m * t), math.sin(m * t))
            total += abs(partial)
        assert math.isclose(rope_decay_bound(torch.tensor(m), d).item(), total / (d // 2), rel_tol=1e-12)
    assert rope_decay_bound(torch.tensor([0]), 128).item() == (64 + 1) / 2


def test_identical_score_is_the_table_dot_product_over_half_the_width() -> None:
    table = sinusoidal_table(300, 64, dtype=torch.float64)
    m = torch.arange(300)
    torch.testing.assert_close(rope_identical_score(m, 64), table @ table[0] / 32, rtol=0, atol=1e-12)
    # the score of a query and key with the same content, each pair of the same length, RoPE-rotated
    x = torch.ones(1, 1, 1, 64, dtype=torch.float64)
    rotated = rope_rotate(x.expand(1, 1, 300, 64), m, pairing="half")
    torch.testing.assert_close((rotated[0, 0] @ rotated[0, 0, 0]) / 64, rope_identical_score(m, 64), atol=1e-12,
                               rtol=0)  # fmt: skip


def test_decay_helpers_reject_bad_input() -> None:
    with pytest.raises(TypeError, match="distances"):
        rope_decay_bound([1, 2], 8)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="head_dim"):
        rope_identical_score(torch.arange(3), 7)
