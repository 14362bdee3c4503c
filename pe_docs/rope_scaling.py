"""RoPE context extension: what position interpolation, the NTK-aware base change and YaRN do to the frequencies.

RoPE turns pair ``i`` of each query and key head by ``p · w_i`` with the sinusoidal ladder
``w_i = base^(−2i/d)`` — but ``d`` is the *head* dimension (128 in LLaMA, whose ``d_model`` is 4096), not
``d_model``. A model trained on ``L`` positions has seen each pair turn by at most ``(L − 1) · w_i``; the
pairs whose wavelength ``2π / w_i`` exceeds ``L`` never completed a turn. To run the model on ``s · L``
positions, each method below rewrites the ladder:

* position interpolation (Chen et al., 2023): every frequency divided by ``s`` — positions are squeezed
  into the trained range, and neighbouring tokens end up ``s`` times closer in every pair;
* "NTK-aware" (bloc97, 2023; YaRN paper §3.1, eq. 16): the base becomes ``base · s^(d/(d−2))``, which
  leaves pair 0 unchanged and divides the last pair's frequency by exactly ``s``;
* YaRN (Peng et al., 2023, §3.2–3.4): "NTK-by-parts" — pairs that turn more than ``β`` (32) times within
  ``L`` are left alone, pairs that turn less than ``α`` (1) time are interpolated by ``s``, and a linear ramp
  blends the two in between — plus an attention temperature ``√(1/t) = 0.1 ln s + 1`` applied to both
  queries and keys;
* Llama 3's rule (Meta's ``apply_scaling`` in llama-models; Hugging Face ``_compute_llama3_parameters``), which
  Llama 3.1, 3.2 and 3.3 checkpoints carry as ``rope_type: "llama3"``: pairs whose wavelength is below
  ``L / high_freq_factor`` keep their frequency, pairs whose wavelength is above ``L / low_freq_factor`` are
  interpolated by ``factor``, and the pairs in between are blended linearly in the number of turns ``L / λ_i``
  — the YaRN paper's eq. 18 ramp, with no attention temperature.

``rope_frequencies`` takes a model's ``rope_parameters`` (``{"rope_type": …, "factor": …, …}``, the dictionary
transformers 5 keeps in the config) and returns ``inv_freq`` and ``attention_scaling`` for any of these types.

The functions of each method return float64 frequencies: what the method means. ``rope_frequencies`` returns
what a checkpoint's code computes — the float32 operations of huggingface/transformers
``src/transformers/modeling_rope_utils.py``, bit for bit — or, with ``dtype=torch.float64``, those float64 values;
the tests compare both with the reference code (jquesnelle/yarn ``scaled_rope/*.py``; transformers).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any, NamedTuple

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real
from pe_docs.frequencies import inverse_frequencies


def _check_scale(scale: object) -> float:
    return check_real("scale", scale, minimum=1.0)


def position_interpolation_frequencies(d_head: int, scale: float, *, base: float = 10000.0) -> torch.Tensor:
    """Position interpolation (Chen et al., 2023): ``w_i / s`` for every pair.

    Feeding position ``p / s`` to the original RoPE is the same as turning by ``p · (w_i / s)``: the
    reference code divides the positions (jquesnelle/yarn ``LlamaLinearScaledRotaryEmbedding``: ``t /=
    self.scale``), Hugging Face divides the frequencies (``_compute_linear_scaling_rope_parameters``:
    ``inv_freq /= factor``).

    Args:
        d_head: The rotated dimension (the head dimension); a positive even integer.
        scale: The extension factor ``s`` (new length / trained length); a real number >= 1.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(d_head // 2,)``.

    Raises:
        TypeError: ``d_head`` is not an integer, or ``scale``/``base`` not a real number.
        ValueError: ``d_head`` is odd or < 1, ``scale`` < 1 or not finite, ``base`` invalid.

    Examples:
        >>> position_interpolation_frequencies(4, 2.0)
        tensor([0.5000, 0.0050], dtype=torch.float64)
    """
    d = check_d_model(d_head, "d_head")
    s = _check_scale(scale)
    return inverse_frequencies(d, base=base) / s


def ntk_aware_base(d_head: int, scale: float, *, base: float = 10000.0) -> float:
    """The "NTK-aware" base ``base · s^(d/(d−2))`` (YaRN paper eq. 16; jquesnelle/yarn
    ``LlamaNTKScaledRotaryEmbedding``: ``base = base * alpha ** (dim / (dim-2))``).

    The exponent is chosen so that the last pair, ``w_{d/2−1} = base^(−(d−2)/d)``, is divided by exactly ``s``.

    Args:
        d_head: The rotated dimension; a positive even integer >= 4 (for ``d = 2`` the exponent is undefined).
        scale: The extension factor ``s``; a real number >= 1.
        base: RoPE's base; finite and > 0.

    Returns:
        The new base, a float.

    Raises:
        TypeError: ``d_head`` is not an integer, or ``scale``/``base`` not a real number.
        ValueError: ``d_head`` is odd or < 4, ``scale`` < 1 or not finite, ``base`` invalid.

    Examples:
        >>> round(ntk_aware_base(128, 4.0))
        40890
    """
    d = check_d_model(d_head, "d_head")
    if d < 4:
        raise ValueError(f"d_head must be >= 4 for the NTK-aware base (exponent d/(d-2)), got {d}")
    s = _check_scale(scale)
    return check_base(base) * s ** (d / (d - 2))


def ntk_aware_frequencies(d_head: int, scale: float, *, base: float = 10000.0) -> torch.Tensor:
    """ "NTK-aware" frequencies: the original ladder with the base ``base · s^(d/(d−2))``.

    Pair ``i``'s frequency is divided by ``s^(2i/(d−2))``: pair 0 is unchanged, the last pair is divided by
    ``s``, and the wavelengths in between are stretched by factors that grow geometrically with ``i``.
    "Dynamic NTK" (Hugging Face ``_compute_dynamic_ntk_parameters``) uses the same rule with the scale
    ``factor · seq_len / max_position_embeddings − (factor − 1)`` recomputed for the current length
    (``dynamic_ntk_scale``).

    Args:
        d_head: The rotated dimension; a positive even integer >= 4.
        scale: The extension factor ``s``; a real number >= 1.
        base: RoPE's original base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(d_head // 2,)``.

    Raises:
        TypeError: as for ``ntk_aware_base``.
        ValueError: as for ``ntk_aware_base``.

    Examples:
        >>> ntk_aware_frequencies(4, 2.0)  # d = 4: base' = base · 2², the last pair halves
        tensor([1.0000, 0.0050], dtype=torch.float64)
    """
    return inverse_frequencies(check_d_model(d_head, "d_head"), base=ntk_aware_base(d_head, scale, base=base))


def dynamic_ntk_scale(factor: float, seq_len: int, original_len: int) -> float:
    """The scale "Dynamic NTK" uses for a sequence of ``seq_len`` tokens.

    Hugging Face ``_compute_dynamic_ntk_parameters`` sets ``base · (factor · L' / L − (factor − 1))^(d/(d−2))``
    with ``L' = max(seq_len, L)``: the scale is 1 up to the trained length ``L`` and grows linearly after it,
    reaching ``factor² − factor + 1`` (not ``factor``) at ``L' = factor · L``.

    Args:
        factor: The configured factor; a real number >= 1.
        seq_len: Current sequence length; an integer >= 1.
        original_len: The trained length ``L`` (``max_position_embeddings``); an integer >= 1.

    Returns:
        The scale to pass to ``ntk_aware_frequencies``, a float >= 1.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> dynamic_ntk_scale(4.0, 2048, 4096), dynamic_ntk_scale(4.0, 8192, 4096)
        (1.0, 5.0)
    """
    factor = check_real("factor", factor, minimum=1.0)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    original_len = check_int("original_len", original_len, minimum=1)
    length = max(seq_len, original_len)
    return factor * length / original_len - (factor - 1)


def yarn_boundaries(
    d_head: int, original_len: int, *, base: float = 10000.0, beta_fast: float = 32.0, beta_slow: float = 1.0
) -> tuple[int, int]:
    """The pair indices between which YaRN's ramp runs, as the reference code computes them.

    Pair ``i`` turns ``r_i = L / λ_i = L · w_i / (2π)`` times within the trained length ``L``. Solving
    ``r_i = β`` for ``i`` gives ``d · ln(L / (2πβ)) / (2 ln base)``; the ramp starts at the floor of that for
    ``β = beta_fast`` and ends at the ceiling for ``β = beta_slow``, clamped to ``[0, d − 1]``
    (jquesnelle/yarn ``find_correction_range``; Hugging Face ``_compute_yarn_parameters``).

    Args:
        d_head: The rotated dimension; a positive even integer.
        original_len: The trained context length ``L``; an integer >= 1.
        base: RoPE's base; finite and > 1.
        beta_fast: Rotations above which a pair is left alone (the paper's ``β``, 32); a real number > 0.
        beta_slow: Rotations below which a pair is fully interpolated (the paper's ``α``, 1); a real number
            > 0, at most ``beta_fast``.

    Returns:
        ``(low, high)``: pairs ``i <= low`` keep their frequency, pairs ``i >= high`` are interpolated.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> yarn_boundaries(128, 4096)
        (20, 46)
    """
    low, high, d = _yarn_ends(d_head, original_len, base=base, beta_fast=beta_fast, beta_slow=beta_slow)
    return max(math.floor(low), 0), min(math.ceil(high), d - 1)


def _yarn_ends(
    d_head: object, original_len: object, *, base: object, beta_fast: object, beta_slow: object
) -> tuple[float, float, int]:
    """The unrounded pair indices where YaRN's ramp starts and ends, and the checked ``d_head``."""
    d = check_d_model(d_head, "d_head")
    length = check_int("original_len", original_len, minimum=1)
    b = check_base(base)
    if b <= 1:
        raise ValueError(f"base must be > 1 for YaRN (the frequencies must decrease), got {base!r}")
    fast = check_real("beta_fast", beta_fast, minimum=0.0, open_minimum=True)
    slow = check_real("beta_slow", beta_slow, minimum=0.0, open_minimum=True)
    if slow > fast:
        raise ValueError(f"beta_slow must be <= beta_fast={fast}, got {slow}")

    def pair_index(rotations: float) -> float:
        return d * math.log(length / (rotations * 2 * math.pi)) / (2 * math.log(b))

    return pair_index(fast), pair_index(slow), d


def _yarn_range(
    d_head: object, original_len: object, *, base: object, beta_fast: object, beta_slow: object
) -> tuple[float, float]:
    """YaRN's ramp ends without rounding (transformers' ``truncate: false``), clamped to ``[0, d − 1]``."""
    low, high, d = _yarn_ends(d_head, original_len, base=base, beta_fast=beta_fast, beta_slow=beta_slow)
    return max(low, 0.0), min(high, float(d - 1))


def yarn_frequencies(
    d_head: int,
    scale: float,
    original_len: int,
    *,
    base: float = 10000.0,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> torch.Tensor:
    """YaRN's frequencies ("NTK-by-parts"): unchanged, interpolated by ``s``, or a blend, pair by pair.

    With ``(low, high) = yarn_boundaries(...)`` and the ramp ``γ_i = clamp((i − low) / (high − low), 0, 1)``,
    pair ``i`` gets ``(1 − γ_i) · w_i + γ_i · w_i / s``: the fast pairs (many turns within ``L``) keep their
    frequency, the slow ones are interpolated like position interpolation. This is the reference code
    (jquesnelle/yarn ``LlamaYaRNScaledRotaryEmbedding.yarn``; Hugging Face ``_compute_yarn_parameters``),
    whose ramp is linear in the pair index between the two boundary indices; the paper's eq. 18 writes the
    ramp as linear in the number of turns ``r``, which gives different blends inside the ramp and the same
    frequencies outside it. The attention temperature is ``yarn_attention_factor``.

    Args:
        d_head: The rotated dimension; a positive even integer.
        scale: The extension factor ``s``; a real number >= 1.
        original_len: The trained context length ``L``; an integer >= 1.
        base: RoPE's base; finite and > 1.
        beta_fast: See ``yarn_boundaries``.
        beta_slow: See ``yarn_boundaries``.
        truncate: Round the ramp's ends to whole pair indices (floor and ceiling), as the reference code and
            transformers' default (``rope_parameters["truncate"]``, true unless set) do; ``False`` keeps the
            fractional indices, as some checkpoints ask (transformers' ``truncate: false``).

    Returns:
        A float64 tensor of shape ``(d_head // 2,)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> w = yarn_frequencies(128, 8.0, 4096)
        >>> ladder = 10000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
        >>> bool((w[:21] == ladder[:21]).all()), bool(torch.allclose(w[46:], ladder[46:] / 8))
        (True, True)
    """
    d = check_d_model(d_head, "d_head")
    s = _check_scale(scale)
    if not isinstance(truncate, bool):
        raise TypeError(f"truncate must be a bool, got {truncate!r}")
    if truncate:
        low, high = yarn_boundaries(d, original_len, base=base, beta_fast=beta_fast, beta_slow=beta_slow)
    else:
        low, high = _yarn_range(d, original_len, base=base, beta_fast=beta_fast, beta_slow=beta_slow)
    # as in the reference: equal boundaries move the end of the ramp by 0.001 (no division by zero); for a
    # context so short that high < low (both clamped) the slope is negative and every pair keeps its frequency
    span = high - low if high != low else 0.001
    ramp = ((torch.arange(d // 2, dtype=torch.float64) - low) / span).clamp(0, 1)
    w = inverse_frequencies(d, base=base)
    return (1 - ramp) * w + ramp * (w / s)


def yarn_attention_factor(scale: float) -> float:
    """YaRN's ``√(1/t) = 0.1 ln s + 1`` (paper eq. 22), the factor applied to both queries and keys.

    The reference code multiplies the cached cos and sin by it (jquesnelle/yarn ``get_mscale``; Hugging
    Face ``attention_factor``, applied as ``cos * self.attention_scaling`` in e.g. ``LlamaRotaryEmbedding``),
    so the logits ``q·k`` grow by its square, ``1/t``: a sharper softmax over the longer context.

    Args:
        scale: The extension factor ``s``; a real number >= 1 (1 gives 1).

    Returns:
        The factor, a float >= 1.

    Raises:
        TypeError: ``scale`` is not a real number.
        ValueError: ``scale`` < 1 or not finite.

    Examples:
        >>> round(yarn_attention_factor(16.0), 4)
        1.2773
    """
    return 0.1 * math.log(_check_scale(scale)) + 1.0


def llama3_frequencies(
    d_head: int,
    factor: float,
    original_len: int,
    *,
    base: float = 10000.0,
    low_freq_factor: float = 1.0,
    high_freq_factor: float = 4.0,
) -> torch.Tensor:
    """Llama 3's frequencies (``rope_type: "llama3"``): high frequencies kept, low ones interpolated, a ramp between.

    With the wavelength ``λ_i = 2π / w_i`` and the trained length ``L``: pairs with ``λ_i < L / high_freq_factor``
    keep ``w_i``; pairs with ``λ_i > L / low_freq_factor`` get ``w_i / factor``; in between, with
    ``γ_i = (L / λ_i − low_freq_factor) / (high_freq_factor − low_freq_factor)``, pair ``i`` gets
    ``(1 − γ_i) · w_i / factor + γ_i · w_i``. This is Meta's ``apply_scaling`` (meta-llama/llama-models,
    ``models/llama3/...``) and Hugging Face ``_compute_llama3_parameters``; ``L / λ_i`` is the number of turns pair
    ``i`` makes within ``L``, so the ramp is the YaRN paper's eq. 18 with ``α, β = low_freq_factor,
    high_freq_factor``. Llama 3.1, 3.2 and 3.3 checkpoints use ``factor = 8``, ``low_freq_factor = 1``,
    ``high_freq_factor = 4`` and ``L = 8192`` (3.2's small models ``factor = 32``); the attention scaling is 1.

    Args:
        d_head: The rotated dimension (the head dimension); a positive even integer.
        factor: The interpolation factor of the low frequencies; a real number >= 1.
        original_len: The trained context length ``L`` (``original_max_position_embeddings``); an integer >= 1.
        base: RoPE's base (``rope_theta``: 500 000 for Llama 3); finite and > 0.
        low_freq_factor: ``L / low_freq_factor`` is the wavelength above which a pair is fully interpolated; a real
            number > 0.
        high_freq_factor: ``L / high_freq_factor`` is the wavelength below which a pair is left alone; a real number
            > ``low_freq_factor``.

    Returns:
        A float64 tensor of shape ``(d_head // 2,)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> w = llama3_frequencies(128, 8.0, 8192, base=500000.0)
        >>> ladder = 500000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
        >>> bool((w[:29] == ladder[:29]).all()), bool(torch.allclose(w[35:], ladder[35:] / 8))
        (True, True)
    """
    d = check_d_model(d_head, "d_head")
    s = check_real("factor", factor, minimum=1.0)
    length = check_int("original_len", original_len, minimum=1)
    low = check_real("low_freq_factor", low_freq_factor, minimum=0.0, open_minimum=True)
    high = check_real("high_freq_factor", high_freq_factor, minimum=0.0, open_minimum=True)
    if high <= low:
        raise ValueError(f"high_freq_factor must be > low_freq_factor={low}, got {high_freq_factor!r}")
    w = inverse_frequencies(d, base=base)
    wavelength = 2 * math.pi / w
    turns = length / wavelength  # L / λ_i
    gamma = ((turns - low) / (high - low)).clamp(0, 1)
    # the reference's three cases: γ = 0 above L / low (interpolated), γ = 1 below L / high (kept), the ramp between
    return (1 - gamma) * (w / s) + gamma * w


ROPE_TYPES = ("default", "linear", "dynamic", "yarn", "llama3")
"""The ``rope_type`` values ``rope_frequencies`` understands (transformers' names)."""

_ROPE_KEYS: dict[str, tuple[set[str], set[str]]] = {  # rope_type -> (required keys, optional keys)
    "default": (set(), set()),
    "linear": ({"factor"}, set()),
    "dynamic": ({"factor"}, set()),  # the trained length is max_position_embeddings, as in transformers
    "yarn": (
        {"factor", "original_max_position_embeddings"},
        {"attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate"},
    ),
    "llama3": ({"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}, set()),
}


class RopeFrequencies(NamedTuple):
    """What a RoPE configuration gives: the frequencies and the factor on cos and sin (transformers' names)."""

    inv_freq: torch.Tensor
    """The frequencies, one per pair, shape ``(head_dim // 2,)``: float32 as transformers computes them, or float64."""
    attention_scaling: float
    """The factor both cos and sin are multiplied by (YaRN's temperature; 1 for the other types)."""


def _ladder(head_dim: int, base: float | torch.Tensor) -> torch.Tensor:
    """``base^(2i/d)`` in float32: the expression of transformers, Meta's llama and torchtune."""
    return base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).to(torch.float32) / head_dim)


def _rope_parameters(scaling: object, base: float) -> tuple[str, dict[str, Any]]:
    """``scaling`` checked against its ``rope_type``'s keys: the type and the other keys (``rope_theta`` removed)."""
    if scaling is None:
        scaling = {}
    if not isinstance(scaling, Mapping):
        raise TypeError(f"scaling must be a mapping (a config's rope_parameters) or None, got {type(scaling).__name__}")
    params = dict(scaling)
    rope_type = params.pop("rope_type", "default")
    if rope_type not in ROPE_TYPES:
        raise ValueError(f"scaling['rope_type'] must be one of {', '.join(map(repr, ROPE_TYPES))}; got {rope_type!r}")
    if "rope_theta" in params:
        theta = check_base(params.pop("rope_theta"), "scaling['rope_theta']")
        if theta != base:
            raise ValueError(f"scaling['rope_theta']={theta!r} differs from base={base!r}; pass base={theta!r}")
    if "partial_rotary_factor" in params:
        raise ValueError(
            f"scaling has 'partial_rotary_factor'={params['partial_rotary_factor']!r}: pass the rotated width as "
            "head_dim (int(head_dim * partial_rotary_factor)), or build with RotaryEmbedding.from_config(config)"
        )
    if rope_type == "dynamic" and "original_max_position_embeddings" in params:
        raise ValueError(
            "scaling for rope_type 'dynamic' has 'original_max_position_embeddings'="
            f"{params['original_max_position_embeddings']!r}: transformers ignores that key for this type (with a "
            "warning) and reads the trained length from config.max_position_embeddings; remove the key and pass "
            "max_position_embeddings=…"
        )
    required, optional = _ROPE_KEYS[rope_type]
    for name in sorted(required):
        if name not in params or params[name] is None:
            raise ValueError(f"scaling for rope_type {rope_type!r} needs the key {name!r}; got {dict(scaling)!r}")
    unknown = sorted(params.keys() - required - optional)
    if unknown:
        allowed = ", ".join(map(repr, sorted(required | optional | {"rope_type", "rope_theta"})))
        raise ValueError(
            f"scaling for rope_type {rope_type!r} has unknown keys {', '.join(map(repr, unknown))}; allowed: {allowed}"
        )
    return rope_type, params


def rope_frequencies(
    head_dim: int,
    *,
    base: float = 10000.0,
    scaling: Mapping[str, Any] | None = None,
    max_position_embeddings: int | None = None,
    seq_len: int | None = None,
    dtype: torch.dtype = torch.float32,
) -> RopeFrequencies:
    """RoPE's ``inv_freq`` and ``attention_scaling`` for a model's ``rope_parameters``, as transformers computes them.

    In float32 (the default) the frequencies are computed with transformers' own float32 operations
    (``ROPE_INIT_FUNCTIONS`` and ``LlamaRotaryEmbedding.compute_default_rope_parameters``, v5.24.0), starting from
    ``1.0 / base ** (arange(0, d, 2).float() / d)`` — the expression of Meta's llama and torchtune too — so
    they equal a checkpoint's own, bit for bit (the upstream tier checks it); this is what ``RotaryEmbedding``
    holds. With ``dtype=torch.float64`` they are the exact values, each type's float64 function of this module
    (``position_interpolation_frequencies``, ``ntk_aware_frequencies``, ``yarn_frequencies``,
    ``llama3_frequencies``): what each type means, what the live figures draw, and the reference that measures
    what float32 costs.

    ``scaling`` is a transformers 5 config's ``rope_parameters``: ``None`` or ``{"rope_type": "default"}`` for the
    plain ladder, else one of

    * ``{"rope_type": "linear", "factor": s}`` — position interpolation (``position_interpolation_frequencies``);
    * ``{"rope_type": "dynamic", "factor": s}`` — the NTK-aware base with ``dynamic_ntk_scale(s, seq_len, L)``,
      where ``L`` is ``max_position_embeddings`` (transformers reads it from the config, and ignores an
      ``original_max_position_embeddings`` key for this type: one here is refused) and ``seq_len`` the length of
      the current call (default ``L``: the frequencies at initialisation); with ``seq_len`` given, the base is
      formed in float32, as transformers forms it from the tensor ``max(position_ids) + 1`` at run time;
    * ``{"rope_type": "yarn", "factor": s, "original_max_position_embeddings": L}`` plus optional ``beta_fast``,
      ``beta_slow``, ``truncate`` (``yarn_frequencies``) and ``attention_factor``, or ``mscale`` and
      ``mscale_all_dim`` (DeepSeek's form: ``(0.1·mscale·ln s + 1) / (0.1·mscale_all_dim·ln s + 1)``, used as in
      transformers only when both are given and non-zero); else the attention scaling is
      ``yarn_attention_factor(s)``;
    * ``{"rope_type": "llama3", "factor": s, "low_freq_factor": α, "high_freq_factor": β,
      "original_max_position_embeddings": L}`` (``llama3_frequencies``).

    A ``"rope_theta"`` key may be present (transformers 5 keeps the base there); it must then equal ``base``.
    Unknown keys and types are refused rather than ignored, so a checkpoint's scaling is never silently dropped;
    so are a ``beta_fast`` or ``beta_slow`` of 0, which transformers silently replaces by its default.

    Args:
        head_dim: The rotated width (the head dimension); a positive even integer (>= 4 for ``"dynamic"``).
        base: RoPE's base (``rope_theta``); finite and > 0 (> 1 for ``"yarn"``).
        scaling: The ``rope_parameters`` mapping, or ``None``.
        max_position_embeddings: The config's ``max_position_embeddings``; needed by ``"dynamic"`` only.
        seq_len: The current sequence length, ``max(position_ids) + 1``; used by ``"dynamic"`` only.
        dtype: ``torch.float32`` (transformers' arithmetic) or ``torch.float64`` (the exact values).

    Returns:
        ``RopeFrequencies(inv_freq, attention_scaling)``: ``inv_freq`` a tensor of shape ``(head_dim // 2,)`` in
        ``dtype`` on the default device, ``attention_scaling`` a float.

    Raises:
        TypeError: ``scaling`` is not a mapping, or a value has the wrong type.
        ValueError: an unknown ``rope_type`` or key, a missing key (named, with the rope type), a ``rope_theta``
            that differs from ``base``, ``max_position_embeddings`` missing for ``"dynamic"``, ``seq_len`` given for
            another type, a ``dtype`` other than float32 and float64, or a value out of range.

    Examples:
        >>> llama31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
        ...            "original_max_position_embeddings": 8192}
        >>> inv_freq, attention_scaling = rope_frequencies(128, base=500000.0, scaling=llama31)
        >>> inv_freq.shape, inv_freq.dtype, attention_scaling
        (torch.Size([64]), torch.float32, 1.0)
        >>> yarn = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}
        >>> round(rope_frequencies(64, scaling=yarn).attention_scaling, 4)  # 0.1 ln 4 + 1
        1.1386
    """
    d = check_d_model(head_dim, "head_dim")
    b = check_base(base)
    rope_type, params = _rope_parameters(scaling, b)
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(
            f"dtype must be torch.float32 (transformers' arithmetic) or torch.float64 (exact), got {dtype}"
        )
    exact = dtype == torch.float64
    if max_position_embeddings is not None:
        max_position_embeddings = check_int("max_position_embeddings", max_position_embeddings, minimum=1)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, minimum=1)
        if rope_type != "dynamic":
            raise ValueError(f"seq_len is used by rope_type 'dynamic' only, got seq_len={seq_len} for {rope_type!r}")

    def key(name: str) -> str:
        return f"scaling[{name!r}]"

    if rope_type == "default":
        return RopeFrequencies(inverse_frequencies(d, base=b) if exact else 1.0 / _ladder(d, b), 1.0)
    factor = check_real(key("factor"), params["factor"], minimum=1.0)
    if rope_type == "linear":  # transformers: _compute_linear_scaling_rope_parameters
        if exact:
            return RopeFrequencies(position_interpolation_frequencies(d, factor, base=b), 1.0)
        inv_freq = 1.0 / _ladder(d, b)
        inv_freq /= factor
        return RopeFrequencies(inv_freq, 1.0)
    if rope_type == "dynamic":  # transformers: _compute_dynamic_ntk_parameters
        if d < 4:
            raise ValueError(f"head_dim must be >= 4 for the NTK-aware base (exponent d/(d-2)), got {d}")
        if max_position_embeddings is None:
            raise ValueError(
                "rope_type 'dynamic' needs max_position_embeddings (the config's max_position_embeddings: "
                "transformers reads the trained length there)"
            )
        trained = max_position_embeddings
        if exact:
            scale = dynamic_ntk_scale(factor, trained if seq_len is None else seq_len, trained)
            return RopeFrequencies(ntk_aware_frequencies(d, scale, base=b), 1.0)
        if seq_len is None:  # at initialisation: Python floats, as transformers
            scaled = b * ((factor * trained / trained) - (factor - 1)) ** (d / (d - 2))
        else:  # at run time transformers has the tensor max(position_ids) + 1: float32 arithmetic
            length = torch.maximum(torch.tensor(seq_len), torch.tensor(trained))
            scaled = b * ((factor * length.to(torch.float32) / trained) - (factor - 1)) ** (d / (d - 2))
        return RopeFrequencies(1.0 / _ladder(d, scaled), 1.0)
    original = check_int(key("original_max_position_embeddings"), params["original_max_position_embeddings"], minimum=1)
    if rope_type == "llama3":  # transformers: _compute_llama3_parameters (Meta's apply_scaling, vectorised)
        low = check_real(key("low_freq_factor"), params["low_freq_factor"], minimum=0.0, open_minimum=True)
        high = check_real(key("high_freq_factor"), params["high_freq_factor"], minimum=0.0, open_minimum=True)
        if high <= low:
            raise ValueError(f"{key('high_freq_factor')} must be > low_freq_factor={low}, got {high}")
        if exact:
            w = llama3_frequencies(d, factor, original, base=b, low_freq_factor=low, high_freq_factor=high)
            return RopeFrequencies(w, 1.0)
        inv_freq = 1.0 / _ladder(d, b)
        wavelen = 2 * math.pi / inv_freq
        scaled = torch.where(wavelen > original / low, inv_freq / factor, inv_freq)
        smooth = (original / wavelen - low) / (high - low)
        smoothed = (1 - smooth) * scaled / factor + smooth * scaled
        medium = ~(wavelen < original / high) * ~(wavelen > original / low)
        return RopeFrequencies(torch.where(medium, smoothed, scaled), 1.0)
    # yarn: transformers' _compute_yarn_parameters

    def beta(name: str, default: float) -> float:  # None is the default; 0 is refused, not replaced
        value = params.get(name)
        return check_real(key(name), default if value is None else value, minimum=0.0, open_minimum=True)

    beta_fast, beta_slow = beta("beta_fast", 32.0), beta("beta_slow", 1.0)
    truncate = params.get("truncate", True)
    if not isinstance(truncate, bool):
        raise TypeError(f"{key('truncate')} must be a bool, got {truncate!r}")
    attention = params.get("attention_factor")
    if attention is not None:
        attention = check_real(key("attention_factor"), attention, minimum=0.0, open_minimum=True)
    elif params.get("mscale") and params.get("mscale_all_dim"):
        m = check_real(key("mscale"), params["mscale"])
        m_all = check_real(key("mscale_all_dim"), params["mscale_all_dim"])
        attention = (0.1 * m * math.log(factor) + 1.0) / (0.1 * m_all * math.log(factor) + 1.0)
    else:
        attention = yarn_attention_factor(factor)
    options = {"base": b, "beta_fast": beta_fast, "beta_slow": beta_slow}
    if exact:
        return RopeFrequencies(yarn_frequencies(d, factor, original, truncate=truncate, **options), attention)
    low, high = (yarn_boundaries if truncate else _yarn_range)(d, original, **options)
    if low == high:
        high += 0.001  # as transformers' linear_ramp_factor: no division by zero
    pos_freqs = _ladder(d, b)
    extrapolation, interpolation = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ((torch.arange(d // 2, dtype=torch.float32) - low) / (high - low)).clamp(0, 1)
    inv_freq = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
    return RopeFrequencies(inv_freq, attention)
