"""pe_docs.rope_scaling (imported from pe_docs.analysis, as the pages do) against the reference code, re-typed
from the sources read.

* huggingface/transformers ``src/transformers/modeling_rope_utils.py`` (commit ef46806, a 4.x version):
  ``_compute_default_rope_parameters``, ``_compute_linear_scaling_rope_parameters``,
  ``_compute_dynamic_ntk_parameters``, ``_compute_yarn_parameters`` (``config.max_position_embeddings`` is
  the trained length there). In transformers 5 the default moved into each model's file
  (``LlamaRotaryEmbedding.compute_default_rope_parameters``) and YaRN reads the trained length from
  ``rope_parameters["original_max_position_embeddings"]``; tests/upstream/ checks pe_docs against the installed
  release itself.
* jquesnelle/yarn ``scaled_rope/LlamaYaRNScaledRotaryEmbedding.py``, ``LlamaNTKScaledRotaryEmbedding.py``,
  ``LlamaLinearScaledRotaryEmbedding.py`` (commit 995db5b).

The references compute in float32; pe_docs in float64, so the comparison allows float32 rounding.
"""

from __future__ import annotations

import math

import pytest
import torch

from pe_docs import ROPE_TYPES, RopeFrequencies, inverse_frequencies, rope_frequencies
from pe_docs.analysis import (
    dynamic_ntk_scale,
    llama3_frequencies,
    ntk_aware_base,
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    yarn_attention_factor,
    yarn_boundaries,
    yarn_frequencies,
)

# ----------------------------------------------------------------------------------- reference re-types


def hf_default(base, dim):
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def hf_linear(base, dim, factor):
    inv_freq = hf_default(base, dim)
    inv_freq /= factor
    return inv_freq


def hf_dynamic_ntk(base, dim, max_position_embeddings, factor, seq_len=None):
    seq_len = seq_len if seq_len is not None and seq_len > max_position_embeddings else max_position_embeddings
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


def hf_yarn(base, dim, max_position_embeddings, factor, beta_fast=None, beta_slow=None, attention_factor=None):
    if attention_factor is None:
        attention_factor = 0.1 * math.log(factor) + 1.0
    beta_fast = beta_fast or 32
    beta_slow = beta_slow or 1

    def find_correction_dim(num_rotations, dim, base, max_position_embeddings):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    def find_correction_range(low_rot, high_rot, dim, base, max_position_embeddings):
        low = math.floor(find_correction_dim(low_rot, dim, base, max_position_embeddings))
        high = math.ceil(find_correction_dim(high_rot, dim, base, max_position_embeddings))
        return max(low, 0), min(high, dim - 1)

    def linear_ramp_factor(min, max, dim):  # the reference's names
        if min == max:
            max += 0.001
        linear_func = (torch.arange(dim, dtype=torch.float32) - min) / (max - min)
        return torch.clamp(linear_func, 0, 1)

    pos_freqs = base ** (torch.arange(0, dim, 2).float() / dim)
    inv_freq_extrapolation = 1.0 / pos_freqs
    inv_freq_interpolation = 1.0 / (factor * pos_freqs)
    low, high = find_correction_range(beta_fast, beta_slow, dim, base, max_position_embeddings)
    inv_freq_extrapolation_factor = 1 - linear_ramp_factor(low, high, dim // 2).float()
    inv_freq = (
        inv_freq_interpolation * (1 - inv_freq_extrapolation_factor)
        + inv_freq_extrapolation * inv_freq_extrapolation_factor
    )
    return inv_freq, attention_factor, (low, high)


def hf5_yarn_range(base, dim, max_position_embeddings, beta_fast=32, beta_slow=1, truncate=True):
    """transformers 5.24 ``find_correction_range`` with its ``truncate`` switch (floor/ceil only when true)."""

    def find_correction_dim(num_rotations):
        return (dim * math.log(max_position_embeddings / (num_rotations * 2 * math.pi))) / (2 * math.log(base))

    low, high = find_correction_dim(beta_fast), find_correction_dim(beta_slow)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def hf_llama3(base, dim, factor, low_freq_factor, high_freq_factor, old_context_len):
    """transformers 5.24 ``_compute_llama3_parameters`` (the same rule as Meta's ``apply_scaling``)."""
    inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))
    low_freq_wavelen = old_context_len / low_freq_factor
    high_freq_wavelen = old_context_len / high_freq_factor
    wavelen = 2 * math.pi / inv_freq
    inv_freq_llama = torch.where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
    smooth_factor = (old_context_len / wavelen - low_freq_factor) / (high_freq_factor - low_freq_factor)
    smoothed_inv_freq = (1 - smooth_factor) * inv_freq_llama / factor + smooth_factor * inv_freq_llama
    is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
    return torch.where(is_medium_freq, smoothed_inv_freq, inv_freq_llama)


def yarn_repo_ntk(base, dim, alpha):
    base = base * alpha ** (dim / (dim - 2))
    return 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))


def yarn_repo_get_mscale(scale=1):
    if scale <= 1:
        return 1.0
    return 0.1 * math.log(scale) + 1.0


def close(ours: torch.Tensor, ref: torch.Tensor) -> None:
    """Float32 and float64 frequencies within a few float32 ulps (float32's pow, division and ramp)."""
    torch.testing.assert_close(ours.double(), ref.double(), rtol=4e-6, atol=0)


# ----------------------------------------------------------------------------------------------- tests


CASES = [(128, 10000.0), (64, 10000.0), (128, 500000.0), (96, 10000.0), (16, 10000.0)]


@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize("factor", [1.0, 2.0, 4.0, 8.0, 32.0])
def test_linear_and_ntk_match_the_references(dim, base, factor):
    close(position_interpolation_frequencies(dim, factor, base=base), hf_linear(base, dim, factor))
    close(ntk_aware_frequencies(dim, factor, base=base), yarn_repo_ntk(base, dim, factor))
    assert math.isclose(ntk_aware_base(dim, factor, base=base), base * factor ** (dim / (dim - 2)), rel_tol=1e-15)


@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize(("factor", "seq_len", "original"), [(2.0, 100, 2048), (2.0, 4096, 2048), (4.0, 9000, 4096)])
def test_dynamic_ntk_matches_hugging_face(dim, base, factor, seq_len, original):
    scale = dynamic_ntk_scale(factor, seq_len, original)
    close(ntk_aware_frequencies(dim, scale, base=base), hf_dynamic_ntk(base, dim, original, factor, seq_len))


@pytest.mark.parametrize(("dim", "base"), CASES)
@pytest.mark.parametrize(("factor", "original"), [(2.0, 2048), (8.0, 4096), (16.0, 4096), (4.0, 8192), (32.0, 2048)])
def test_yarn_matches_hugging_face(dim, base, factor, original):
    ref, attention, bounds = hf_yarn(base, dim, original, factor)
    close(yarn_frequencies(dim, factor, original, base=base), ref)
    assert yarn_boundaries(dim, original, base=base) == bounds
    assert math.isclose(yarn_attention_factor(factor), attention, rel_tol=1e-15)
    assert math.isclose(yarn_attention_factor(factor), yarn_repo_get_mscale(factor), rel_tol=1e-15)


def test_yarn_keeps_fast_pairs_and_interpolates_slow_ones():
    d, s, L = 128, 8.0, 4096
    w = inverse_frequencies(d)
    y = yarn_frequencies(d, s, L)
    low, high = yarn_boundaries(d, L)
    turns = L * w / (2 * math.pi)
    assert torch.equal(y[: low + 1], w[: low + 1])
    torch.testing.assert_close(y[high:], w[high:] / s, rtol=1e-15, atol=0)
    assert (turns[: low + 1] > 32).all() and (turns[high:] < 1).all()
    inside = y[low + 1 : high] / w[low + 1 : high]
    assert ((inside < 1) & (inside > 1 / s)).all() and (inside[1:] < inside[:-1]).all()


def test_ntk_keeps_pair_zero_and_divides_the_last_pair_by_s():
    for d in (16, 64, 128):
        for s in (2.0, 8.0):
            ratio = ntk_aware_frequencies(d, s) / inverse_frequencies(d)
            assert ratio[0] == 1
            torch.testing.assert_close(ratio[-1].item(), 1 / s, rtol=1e-13, atol=0)
            i = torch.arange(d // 2, dtype=torch.float64)
            torch.testing.assert_close(ratio, s ** (-2 * i / (d - 2)), rtol=1e-12, atol=0)


def test_dynamic_scale_values():
    assert dynamic_ntk_scale(4.0, 10, 4096) == 1.0
    assert dynamic_ntk_scale(4.0, 4096, 4096) == 1.0
    assert dynamic_ntk_scale(4.0, 4 * 4096, 4096) == 13.0  # factor² − factor + 1, not factor


@pytest.mark.parametrize(("dim", "original"), [(16, 1), (16, 2), (8, 30), (64, 5)])
def test_degenerate_ramps_follow_the_reference(dim, original):
    """Tiny contexts: equal boundaries (the reference's 0.001 nudge) or high < low (a negative slope)."""
    ref, _, bounds = hf_yarn(10000.0, dim, original, 4.0)
    assert yarn_boundaries(dim, original) == bounds
    y = yarn_frequencies(dim, 4.0, original)
    assert torch.isfinite(y).all()
    close(y, ref)


@pytest.mark.parametrize(
    ("fn", "args", "error", "message"),
    [
        (position_interpolation_frequencies, (7, 2.0), ValueError, "head_dim must be even"),
        (position_interpolation_frequencies, (8, 0.5), ValueError, "factor must be >= 1.0, got 0.5"),
        (ntk_aware_frequencies, (2, 2.0), ValueError, "head_dim must be >= 4 for the NTK-aware base"),
        (ntk_aware_base, (8, "2"), TypeError, "factor must be a real number"),
        (yarn_frequencies, (8, 2.0, 0), ValueError, "original_len must be >= 1, got 0"),
        (yarn_boundaries, (8, 64), None, None),
        (dynamic_ntk_scale, (0.5, 10, 10), ValueError, "factor must be >= 1.0, got 0.5"),
        (yarn_attention_factor, (0.9,), ValueError, "factor must be >= 1.0, got 0.9"),
    ],
)
def test_bad_arguments(fn, args, error, message):
    if error is None:
        fn(*args)
        return
    with pytest.raises(error) as info:
        fn(*args)
    assert message in str(info.value)


def test_yarn_rejects_bad_betas_and_base():
    with pytest.raises(ValueError, match="beta_slow must be <= beta_fast=1.0, got 2.0"):
        yarn_boundaries(64, 2048, beta_fast=1.0, beta_slow=2.0)
    with pytest.raises(ValueError, match="base must be > 1 for YaRN"):
        yarn_boundaries(64, 2048, base=0.5)


# ------------------------------------------------------------------------------------------------ Llama 3

LLAMA31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
           "original_max_position_embeddings": 8192}  # fmt: skip


LLAMA3_CASES = [(8.0, 1.0, 4.0, 8192), (32.0, 1.0, 4.0, 8192), (4.0, 2.0, 8.0, 4096), (1.0, 1.0, 4.0, 8192)]


@pytest.mark.parametrize(("dim", "base"), [(128, 500000.0), (64, 500000.0), (128, 10000.0), (16, 10000.0)])
@pytest.mark.parametrize(("factor", "low", "high", "original"), LLAMA3_CASES)
def test_llama3_matches_the_reference(dim, base, factor, low, high, original):
    ours = llama3_frequencies(dim, factor, original, base=base, low_freq_factor=low, high_freq_factor=high)
    close(ours, hf_llama3(base, dim, factor, low, high, original))


def test_llama3_keeps_fast_pairs_interpolates_slow_ones_and_ramps_between():
    w = inverse_frequencies(128, base=500000.0)
    ours = llama3_frequencies(128, 8.0, 8192, base=500000.0)
    wavelength = 2 * math.pi / w
    kept, interpolated = wavelength < 8192 / 4, wavelength > 8192 / 1
    assert torch.equal(ours[kept], w[kept]) and kept.sum() == 29
    torch.testing.assert_close(ours[interpolated], w[interpolated] / 8, rtol=1e-15, atol=0)
    assert interpolated.sum() == 29
    between = ~kept & ~interpolated
    assert between.sum() == 6 and ((ours[between] > w[between] / 8) & (ours[between] < w[between])).all()
    assert (ours[1:] < ours[:-1]).all()  # still a falling ladder


# ------------------------------------------------------------------------------------- rope_frequencies


def hf_dynamic_at_run_time(base, dim, max_position_embeddings, factor, seq_len):
    """transformers 5.24 ``_compute_dynamic_ntk_parameters`` as ``dynamic_rope_update`` calls it in ``forward``: with
    the tensor ``torch.max(position_ids) + 1``, so the base is formed in float32."""
    seq_len = torch.maximum(torch.tensor(seq_len), torch.tensor(max_position_embeddings))
    base = base * ((factor * seq_len / max_position_embeddings) - (factor - 1)) ** (dim / (dim - 2))
    return 1.0 / (base ** (torch.arange(0, dim, 2, dtype=torch.int64).float() / dim))


@pytest.mark.parametrize("dim", [128, 64, 16])
def test_rope_frequencies_are_transformers_float32_arithmetic(dim):
    """Every type's ``inv_freq`` is, bit for bit, the float32 tensor of the re-typed reference, and within a few
    ulps of the float64 function that explains the type."""
    base = 10000.0
    default = rope_frequencies(dim, base=base)
    assert isinstance(default, RopeFrequencies) and default.inv_freq.dtype == torch.float32
    assert torch.equal(default.inv_freq, hf_default(base, dim)) and default.attention_scaling == 1.0
    close(default.inv_freq, inverse_frequencies(dim, base=base))
    assert torch.equal(rope_frequencies(dim, scaling={"rope_type": "default", "rope_theta": base}).inv_freq,
                       default.inv_freq)  # fmt: skip
    linear = rope_frequencies(dim, scaling={"rope_type": "linear", "factor": 4.0})
    assert torch.equal(linear.inv_freq, hf_linear(base, dim, 4.0))
    close(linear.inv_freq, position_interpolation_frequencies(dim, 4.0))
    dynamic = {"rope_type": "dynamic", "factor": 2.0}
    at_init = rope_frequencies(dim, scaling=dynamic, max_position_embeddings=2048).inv_freq
    assert torch.equal(at_init, hf_dynamic_ntk(base, dim, 2048, 2.0)) and torch.equal(at_init, default.inv_freq)
    grown = rope_frequencies(dim, scaling=dynamic, max_position_embeddings=2048, seq_len=5000).inv_freq
    assert torch.equal(grown, hf_dynamic_at_run_time(base, dim, 2048, 2.0, 5000))
    close(grown, ntk_aware_frequencies(dim, dynamic_ntk_scale(2.0, 5000, 2048)))
    yarn = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096}
    ref, attention, _ = hf_yarn(base, dim, 4096, 8.0)
    got = rope_frequencies(dim, scaling=yarn)
    assert torch.equal(got.inv_freq, ref)
    close(got.inv_freq, yarn_frequencies(dim, 8.0, 4096))
    assert math.isclose(got.attention_scaling, attention, rel_tol=1e-15)
    llama = rope_frequencies(dim, base=500000.0, scaling={**LLAMA31, "rope_theta": 500000.0})
    assert torch.equal(llama.inv_freq, hf_llama3(500000.0, dim, 8.0, 1.0, 4.0, 8192))
    close(llama.inv_freq, llama3_frequencies(dim, 8.0, 8192, base=500000.0))
    assert llama.attention_scaling == 1.0
    assert set(ROPE_TYPES) == {"default", "linear", "dynamic", "yarn", "llama3"}


def test_rope_frequencies_in_float64_are_each_type_s_function():
    """``dtype=torch.float64``: the exact values, each type's float64 function (what the live figures draw)."""
    yarn = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "beta_fast": 16.0}
    cases = [
        (None, inverse_frequencies(64)),
        ({"rope_type": "linear", "factor": 4.0}, position_interpolation_frequencies(64, 4.0)),
        ({"rope_type": "dynamic", "factor": 2.0}, ntk_aware_frequencies(64, dynamic_ntk_scale(2.0, 5000, 2048))),
        (yarn, yarn_frequencies(64, 8.0, 4096, beta_fast=16.0)),
        ({**yarn, "truncate": False}, yarn_frequencies(64, 8.0, 4096, beta_fast=16.0, truncate=False)),
        ({**LLAMA31, "low_freq_factor": 2.0}, llama3_frequencies(64, 8.0, 8192, low_freq_factor=2.0)),
    ]
    for scaling, expected in cases:
        dynamic = (scaling or {}).get("rope_type") == "dynamic"
        extra = {"max_position_embeddings": 2048, "seq_len": 5000} if dynamic else {}
        exact = rope_frequencies(64, scaling=scaling, dtype=torch.float64, **extra)
        assert exact.inv_freq.dtype == torch.float64 and torch.equal(exact.inv_freq, expected), scaling
        float32 = rope_frequencies(64, scaling=scaling, **extra)
        assert float32.attention_scaling == exact.attention_scaling
        close(float32.inv_freq, exact.inv_freq)
    with pytest.raises(ValueError, match="dtype must be torch.float32"):
        rope_frequencies(64, dtype=torch.float16)


def test_rope_frequencies_yarn_options():
    base, dim, original = 10000.0, 64, 4096
    plain = {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": original}
    # an explicit attention factor wins; DeepSeek's mscale pair divides two temperatures
    assert rope_frequencies(dim, scaling={**plain, "attention_factor": 1.5}).attention_scaling == 1.5
    deepseek = rope_frequencies(dim, scaling={**plain, "mscale": 1.0, "mscale_all_dim": 0.707})
    expected = (0.1 * math.log(16) + 1) / (0.1 * 0.707 * math.log(16) + 1)
    assert math.isclose(deepseek.attention_scaling, expected, rel_tol=1e-15)
    # truncate false keeps the ramp's fractional ends (transformers 5's switch)
    low, high = hf5_yarn_range(base, dim, original, truncate=False)
    assert low != math.floor(low) and high != math.ceil(high)
    assert yarn_boundaries(dim, original, base=base, truncate=False) == (low, high)  # the public function, unrounded
    with pytest.raises(TypeError, match="truncate must be a bool, got 0"):
        yarn_boundaries(dim, original, truncate=0)
    untruncated = rope_frequencies(dim, scaling={**plain, "truncate": False}).inv_freq
    ramp = ((torch.arange(dim // 2, dtype=torch.float64) - low) / (high - low)).clamp(0, 1)
    w = inverse_frequencies(dim, base=base)
    close(untruncated, (1 - ramp) * w + ramp * w / 16)
    close(untruncated, yarn_frequencies(dim, 16.0, original, truncate=False))
    assert not torch.equal(untruncated, rope_frequencies(dim, scaling=plain).inv_freq)
    # a beta given as None is absent (the default); a beta of 0 is refused (transformers would read it as 32)
    assert torch.equal(rope_frequencies(dim, scaling={**plain, "beta_slow": None}).inv_freq,
                       rope_frequencies(dim, scaling=plain).inv_freq)  # fmt: skip
    with pytest.raises(ValueError, match=r"scaling\['beta_fast'\] must be > 0.0, got 0"):
        rope_frequencies(dim, scaling={**plain, "beta_fast": 0})


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"scaling": [("rope_type", "linear")]}, TypeError, "scaling must be a mapping"),
        ({"scaling": {"rope_type": "longrope"}}, ValueError, "scaling['rope_type'] must be one of"),
        ({"scaling": {"rope_type": "linear"}}, ValueError, "rope_type 'linear' needs the key 'factor'"),
        ({"scaling": {"rope_type": "dynamic", "factor": 2.0}}, ValueError, "'dynamic' needs max_position_embeddings"),
        (
            {"scaling": {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}},
            ValueError,
            "transformers ignores that key for this type",
        ),
        ({"scaling": {"partial_rotary_factor": 0.5}}, ValueError, "pass the rotated width as head_dim"),
        ({"scaling": {"rope_type": "linear", "factor": 2.0, "type": "linear"}}, ValueError, "unknown keys 'type'"),
        ({"scaling": {"rope_type": "linear", "factor": 0.5}}, ValueError, "scaling['factor'] must be >= 1.0, got 0.5"),
        ({"scaling": {"rope_theta": 500000.0}}, ValueError, "scaling['rope_theta']=500000.0 differs from base=10000.0"),
        (
            {"scaling": {**LLAMA31, "high_freq_factor": 1.0}},
            ValueError,
            "scaling['high_freq_factor'] must be > low_freq_factor=1.0, got 1.0",
        ),
        (
            {
                "scaling": {
                    "rope_type": "yarn",
                    "factor": 2.0,
                    "original_max_position_embeddings": 4096,
                    "truncate": "no",
                }
            },
            TypeError,
            "scaling['truncate'] must be a bool",
        ),
        ({"seq_len": 100}, ValueError, "seq_len is used by rope_type 'dynamic' only"),
        (
            {"scaling": {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 2.5}},
            TypeError,
            "scaling['original_max_position_embeddings'] must be an integer",
        ),
        (
            {"scaling": {"rope_type": "dynamic", "factor": 2.0}, "max_position_embeddings": 0},
            ValueError,
            "max_position_embeddings must be >= 1, got 0",
        ),
    ],
)
def test_rope_frequencies_rejects_bad_settings(kwargs, error, message):
    with pytest.raises(error) as info:
        rope_frequencies(64, **kwargs)
    assert message in str(info.value)


def test_llama3_rejects_bad_arguments():
    with pytest.raises(ValueError, match="factor must be >= 1.0, got 0.5"):
        llama3_frequencies(64, 0.5, 8192)
    with pytest.raises(ValueError, match="low_freq_factor must be > 0.0"):
        llama3_frequencies(64, 8.0, 8192, low_freq_factor=0.0)
    with pytest.raises(TypeError, match="original_len must be an integer"):
        llama3_frequencies(64, 8.0, 8192.0)
