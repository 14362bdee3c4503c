"""RotaryEmbedding and apply_rope: frequencies, layouts, agreement with rope_rotate, dynamic scaling, meta device,
float32 only in forward, compile; and RoFormer's decay bound and the identical-content score."""

from __future__ import annotations

import math

import pytest
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from pe_docs import (
    RotaryEmbedding,
    apply_rope,
    inverse_frequencies,
    rope_decay_bound,
    rope_frequencies,
    rope_identical_score,
    rope_rotate,
    sinusoidal_table,
)

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
def test_inv_freq_is_rope_frequencies_rounded_once(scaling) -> None:
    rotary = RotaryEmbedding(64, base=500000.0, scaling=scaling)
    expected = rope_frequencies(64, base=500000.0, scaling=scaling)
    assert rotary.inv_freq.dtype == torch.float32
    assert torch.equal(rotary.inv_freq, expected.inv_freq.float())
    assert rotary.attention_scaling == expected.attention_scaling
    assert "inv_freq" not in rotary.state_dict()


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
def test_cos_sin_layout(pairing: str) -> None:
    rotary = RotaryEmbedding(8, pairing=pairing)
    position_ids = torch.tensor([[0, 3, 7], [2, 2, 9]])
    cos, sin = rotary(position_ids)
    assert cos.shape == sin.shape == (2, 3, 8) and cos.dtype == sin.dtype == torch.float32
    angle = position_ids[..., None].float() * rotary.inv_freq
    laid_out = torch.cat((angle, angle), -1) if pairing == "half" else angle.repeat_interleave(2, -1)
    assert torch.equal(cos, laid_out.cos()) and torch.equal(sin, laid_out.sin())


@pytest.mark.parametrize("pairing", ["half", "interleaved"])
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_apply_rope_is_rope_rotate_up_to_the_float32_angle(pairing: str, base: float) -> None:
    g = torch.Generator().manual_seed(0)
    q = torch.randn(2, 4, 6, 64, generator=g)
    k = torch.randn(2, 2, 6, 64, generator=g)  # grouped-query attention: fewer key heads
    position_ids = torch.tensor([[0, 1, 17, 1000, 4095, 8191], [5, 6, 7, 8, 9, 10]])
    rotary = RotaryEmbedding(64, base=base, pairing=pairing)
    q_rot, k_rot = apply_rope(q, k, *rotary(position_ids), pairing=pairing)
    assert q_rot.shape == q.shape and k_rot.shape == k.shape
    w = inverse_frequencies(64, base=base)
    for x, rotated in ((q, q_rot), (k, k_rot)):
        exact = rope_rotate(x.double(), position_ids[:, None, :], base=base, pairing=pairing)
        assert (rotated.double() - exact).abs().max() <= _phase_bound(x, position_ids, w)


def test_apply_rope_with_llama3_scaling_turns_by_the_scaled_frequencies() -> None:
    g = torch.Generator().manual_seed(1)
    q = torch.randn(1, 2, 4, 128, generator=g, dtype=torch.float64)
    position_ids = torch.tensor([[0, 100, 9000, 60000]])
    rotary = RotaryEmbedding(128, base=500000.0, scaling=LLAMA31)
    q_rot, _ = apply_rope(q, q, *rotary(position_ids))
    w = rope_frequencies(128, base=500000.0, scaling=LLAMA31).inv_freq
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


def test_dynamic_recomputes_past_the_original_length_only() -> None:
    scaling = {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 1000}
    rotary = RotaryEmbedding(32, scaling=scaling)
    assert torch.equal(rotary.inv_freq, inverse_frequencies(32).float())  # scale 1 up to the original length
    short = torch.arange(1000)[None]
    assert torch.equal(rotary(short)[0], RotaryEmbedding(32)(short)[0])
    long = torch.arange(3000)[None]
    w = rope_frequencies(32, scaling=scaling, seq_len=3000).inv_freq.float()
    angle = long[..., None].float() * w
    assert torch.equal(rotary(long)[0], torch.cat((angle, angle), -1).cos())
    assert torch.equal(rotary(short)[0], RotaryEmbedding(32)(short)[0])  # no state kept between calls


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


def test_meta_device_then_reset_parameters() -> None:
    with torch.device("meta"):
        rotary = RotaryEmbedding(64, base=500000.0, scaling=LLAMA31)
    rotary.reset_parameters()
    rotary = rotary.to_empty(device="cpu")
    rotary.inv_freq.fill_(float("nan"))
    rotary.reset_parameters()
    assert torch.equal(rotary.inv_freq, RotaryEmbedding(64, base=500000.0, scaling=LLAMA31).inv_freq)


def test_decoding_compiles_once() -> None:
    import torch._dynamo

    rotary = RotaryEmbedding(32, scaling=LLAMA31 | {"original_max_position_embeddings": 64})
    torch._dynamo.reset()
    compiled = torch.compile(rotary, fullgraph=True, backend="eager")
    start = torch.tensor([[0], [4]])
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(5):
            assert torch.equal(compiled(start + t)[0], rotary(start + t)[0])
    torch._dynamo.reset()


def test_scaling_is_copied_and_repr() -> None:
    scaling = dict(LLAMA31)
    rotary = RotaryEmbedding(128, base=500000.0, scaling=scaling)
    scaling["factor"] = 2.0
    assert rotary.scaling["factor"] == 8.0
    assert "head_dim=128, base=500000" in repr(rotary) and "pairing='half'" in repr(rotary)


@pytest.mark.parametrize(
    ("call", "error", "words"),
    [
        (lambda: RotaryEmbedding(63), ValueError, ["head_dim", "63"]),
        (lambda: RotaryEmbedding(64, pairing="neox"), ValueError, ["pairing", "'neox'"]),
        (lambda: RotaryEmbedding(64, scaling={"rope_type": "su"}), ValueError, ["rope_type", "'su'"]),
        (lambda: RotaryEmbedding(64, scaling=[1]), TypeError, ["scaling", "list"]),
        (lambda: RotaryEmbedding(8)(torch.arange(3)), ValueError, ["position_ids", "(batch, seq)", "(3,)"]),
        (lambda: RotaryEmbedding(8)(torch.zeros(1, 3)), TypeError, ["position_ids", "torch.float32"]),
        (lambda: RotaryEmbedding(8)([[0, 1]]), TypeError, ["position_ids", "list"]),
    ],
)
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
        (((1, 2, 4, 8), (1, 2, 4, 8), (1, 3, 8)), {}, ValueError, ["q", "(1, 2, 4, 8)"]),
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
    with pytest.raises(ValueError, match="d_head"):
        rope_identical_score(torch.arange(3), 7)
