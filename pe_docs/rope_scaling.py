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

Each function here returns the method's frequencies in float64: what the method means, and what
``pe_docs.rope_frequencies`` starts from (so this module is part of the package's core, below :mod:`pe_docs.rotary`;
the chapters import its names from :mod:`pe_docs.analysis`). A model reads its ``rope_parameters`` with
``pe_docs.rope_frequencies`` (in :mod:`pe_docs.rotary`), which computes what a checkpoint's code computes — the
float32 operations of huggingface/transformers ``src/transformers/modeling_rope_utils.py``, bit for bit — or, with
``dtype=torch.float64``, these functions' values. The tests compare both with the reference code (jquesnelle/yarn
``scaled_rope/*.py``; transformers).
"""

from __future__ import annotations

import math

import torch

from pe_docs._checks import check_base, check_d_model, check_int, check_real
from pe_docs.frequencies import inverse_frequencies


def _check_factor(factor: object) -> float:
    return check_real("factor", factor, minimum=1.0)


def position_interpolation_frequencies(head_dim: int, factor: float, *, base: float = 10000.0) -> torch.Tensor:
    """Position interpolation (Chen et al., 2023): ``w_i / s`` for every pair.

    Feeding position ``p / s`` to the original RoPE is the same as turning by ``p · (w_i / s)``: the
    reference code divides the positions (jquesnelle/yarn ``LlamaLinearScaledRotaryEmbedding``: ``t /=
    self.scale``), Hugging Face divides the frequencies (``_compute_linear_scaling_rope_parameters``:
    ``inv_freq /= factor``).

    Args:
        head_dim: The rotated dimension (the head dimension); a positive even integer.
        factor: The extension factor ``s`` (new length / trained length); a real number >= 1.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(head_dim // 2,)``.

    Raises:
        TypeError: ``head_dim`` is not an integer, or ``factor``/``base`` not a real number.
        ValueError: ``head_dim`` is odd or < 1, ``factor`` < 1 or not finite, ``base`` invalid.

    Examples:
        >>> position_interpolation_frequencies(4, 2.0)
        tensor([0.5000, 0.0050], dtype=torch.float64)
    """
    d = check_d_model(head_dim, "head_dim")
    s = _check_factor(factor)
    return inverse_frequencies(d, base=base) / s


def ntk_aware_base(head_dim: int, factor: float, *, base: float = 10000.0) -> float:
    """The "NTK-aware" base ``base · s^(d/(d−2))`` (YaRN paper eq. 16; jquesnelle/yarn
    ``LlamaNTKScaledRotaryEmbedding``: ``base = base * alpha ** (dim / (dim-2))``).

    The exponent is chosen so that the last pair, ``w_{d/2−1} = base^(−(d−2)/d)``, is divided by exactly ``s``.

    Args:
        head_dim: The rotated dimension; a positive even integer >= 4 (for ``d = 2`` the exponent is undefined).
        factor: The extension factor ``s``; a real number >= 1.
        base: RoPE's base; finite and > 0.

    Returns:
        The new base, a float.

    Raises:
        TypeError: ``head_dim`` is not an integer, or ``factor``/``base`` not a real number.
        ValueError: ``head_dim`` is odd or < 4, ``factor`` < 1 or not finite, ``base`` invalid.

    Examples:
        >>> round(ntk_aware_base(128, 4.0))
        40890
    """
    d = check_d_model(head_dim, "head_dim")
    if d < 4:
        raise ValueError(f"head_dim must be >= 4 for the NTK-aware base (exponent d/(d-2)), got {d}")
    s = _check_factor(factor)
    return check_base(base) * s ** (d / (d - 2))


def ntk_aware_frequencies(head_dim: int, factor: float, *, base: float = 10000.0) -> torch.Tensor:
    """ "NTK-aware" frequencies: the original ladder with the base ``base · s^(d/(d−2))``.

    Pair ``i``'s frequency is divided by ``s^(2i/(d−2))``: pair 0 is unchanged, the last pair is divided by
    ``s``, and the wavelengths in between are stretched by factors that grow geometrically with ``i``.
    "Dynamic NTK" (Hugging Face ``_compute_dynamic_ntk_parameters``) uses the same rule with the factor
    ``factor · seq_len / max_position_embeddings − (factor − 1)`` recomputed for the current length
    (``dynamic_ntk_scale``).

    Args:
        head_dim: The rotated dimension; a positive even integer >= 4.
        factor: The extension factor ``s``; a real number >= 1.
        base: RoPE's original base; finite and > 0.

    Returns:
        A float64 tensor of shape ``(head_dim // 2,)``.

    Raises:
        TypeError: as for ``ntk_aware_base``.
        ValueError: as for ``ntk_aware_base``.

    Examples:
        >>> ntk_aware_frequencies(4, 2.0)  # d = 4: base' = base · 2², the last pair halves
        tensor([1.0000, 0.0050], dtype=torch.float64)
    """
    return inverse_frequencies(check_d_model(head_dim, "head_dim"), base=ntk_aware_base(head_dim, factor, base=base))


def dynamic_ntk_scale(factor: float, seq_len: int, original_len: int) -> float:
    """The effective factor "Dynamic NTK" uses for a sequence of ``seq_len`` tokens.

    Hugging Face ``_compute_dynamic_ntk_parameters`` sets ``base · (factor · L' / L − (factor − 1))^(d/(d−2))``
    with ``L' = max(seq_len, L)``: it is 1 up to the trained length ``L`` and grows linearly after it,
    reaching ``factor² − factor + 1`` (not ``factor``) at ``L' = factor · L``.

    Args:
        factor: The configured factor; a real number >= 1.
        seq_len: Current sequence length; an integer >= 1.
        original_len: The trained length ``L`` (``max_position_embeddings``); an integer >= 1.

    Returns:
        The ``factor`` to pass to ``ntk_aware_frequencies``, a float >= 1.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> dynamic_ntk_scale(4.0, 2048, 4096), dynamic_ntk_scale(4.0, 8192, 4096)
        (1.0, 5.0)
    """
    factor = _check_factor(factor)
    seq_len = check_int("seq_len", seq_len, minimum=1)
    original_len = check_int("original_len", original_len, minimum=1)
    length = max(seq_len, original_len)
    return factor * length / original_len - (factor - 1)


def yarn_boundaries(
    head_dim: int,
    original_len: int,
    *,
    base: float = 10000.0,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
) -> tuple[float, float]:
    """The pair indices between which YaRN's ramp runs, as the reference code computes them.

    Pair ``i`` turns ``r_i = L / λ_i = L · w_i / (2π)`` times within the trained length ``L``. Solving
    ``r_i = β`` for ``i`` gives ``d · ln(L / (2πβ)) / (2 ln base)``; the ramp starts at the floor of that for
    ``β = beta_fast`` and ends at the ceiling for ``β = beta_slow``, clamped to ``[0, d − 1]``
    (jquesnelle/yarn ``find_correction_range``; Hugging Face ``_compute_yarn_parameters``).

    Args:
        head_dim: The rotated dimension; a positive even integer.
        original_len: The trained context length ``L``; an integer >= 1.
        base: RoPE's base; finite and > 1.
        beta_fast: Rotations above which a pair is left alone (the paper's ``β``, 32); a real number > 0.
        beta_slow: Rotations below which a pair is fully interpolated (the paper's ``α``, 1); a real number
            > 0, at most ``beta_fast``.
        truncate: Round the two indices to whole pairs (floor and ceiling), as the reference code and
            transformers' default do; ``False`` keeps them fractional (transformers' ``truncate: false``), still
            clamped.

    Returns:
        ``(low, high)``: pairs ``i <= low`` keep their frequency, pairs ``i >= high`` are interpolated; two
        ``int`` when ``truncate``, else two ``float``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> yarn_boundaries(128, 4096)
        (20, 46)
        >>> tuple(round(i, 2) for i in yarn_boundaries(128, 4096, truncate=False))
        (20.94, 45.03)
    """
    d = check_d_model(head_dim, "head_dim")
    length = check_int("original_len", original_len, minimum=1)
    b = check_base(base)
    if b <= 1:
        raise ValueError(f"base must be > 1 for YaRN (the frequencies must decrease), got {base!r}")
    fast = check_real("beta_fast", beta_fast, minimum=0.0, open_minimum=True)
    slow = check_real("beta_slow", beta_slow, minimum=0.0, open_minimum=True)
    if slow > fast:
        raise ValueError(f"beta_slow must be <= beta_fast={fast}, got {slow}")
    if not isinstance(truncate, bool):
        raise TypeError(f"truncate must be a bool, got {truncate!r}")

    def pair_index(rotations: float) -> float:
        return d * math.log(length / (rotations * 2 * math.pi)) / (2 * math.log(b))

    low, high = pair_index(fast), pair_index(slow)
    if truncate:
        return max(math.floor(low), 0), min(math.ceil(high), d - 1)
    return max(low, 0.0), min(high, float(d - 1))


def yarn_frequencies(
    head_dim: int,
    factor: float,
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
        head_dim: The rotated dimension; a positive even integer.
        factor: The extension factor ``s``; a real number >= 1.
        original_len: The trained context length ``L``; an integer >= 1.
        base: RoPE's base; finite and > 1.
        beta_fast: See ``yarn_boundaries``.
        beta_slow: See ``yarn_boundaries``.
        truncate: Round the ramp's ends to whole pair indices (floor and ceiling), as the reference code and
            transformers' default (``rope_parameters["truncate"]``, true unless set) do; ``False`` keeps the
            fractional indices, as some checkpoints ask (transformers' ``truncate: false``).

    Returns:
        A float64 tensor of shape ``(head_dim // 2,)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> w = yarn_frequencies(128, 8.0, 4096)
        >>> ladder = 10000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
        >>> bool((w[:21] == ladder[:21]).all()), bool(torch.allclose(w[46:], ladder[46:] / 8))
        (True, True)
    """
    d = check_d_model(head_dim, "head_dim")
    s = _check_factor(factor)
    low, high = yarn_boundaries(d, original_len, base=base, beta_fast=beta_fast, beta_slow=beta_slow, truncate=truncate)
    # as in the reference: equal boundaries move the end of the ramp by 0.001 (no division by zero); for a
    # context so short that high < low (both clamped) the slope is negative and every pair keeps its frequency
    span = high - low if high != low else 0.001
    ramp = ((torch.arange(d // 2, dtype=torch.float64) - low) / span).clamp(0, 1)
    w = inverse_frequencies(d, base=base)
    return (1 - ramp) * w + ramp * (w / s)


def yarn_attention_factor(factor: float) -> float:
    """YaRN's ``√(1/t) = 0.1 ln s + 1`` (paper eq. 22), the factor applied to both queries and keys.

    The reference code multiplies the cached cos and sin by it (jquesnelle/yarn ``get_mscale``; Hugging
    Face ``attention_factor``, applied as ``cos * self.attention_scaling`` in e.g. ``LlamaRotaryEmbedding``),
    so the logits ``q·k`` grow by its square, ``1/t``: a sharper softmax over the longer context.

    Args:
        factor: The extension factor ``s``; a real number >= 1 (1 gives 1).

    Returns:
        The factor, a float >= 1.

    Raises:
        TypeError: ``factor`` is not a real number.
        ValueError: ``factor`` < 1 or not finite.

    Examples:
        >>> round(yarn_attention_factor(16.0), 4)
        1.2773
    """
    return 0.1 * math.log(_check_factor(factor)) + 1.0


def llama3_frequencies(
    head_dim: int,
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
        head_dim: The rotated dimension (the head dimension); a positive even integer.
        factor: The interpolation factor of the low frequencies; a real number >= 1.
        original_len: The trained context length ``L`` (``original_max_position_embeddings``); an integer >= 1.
        base: RoPE's base (``rope_theta``: 500 000 for Llama 3); finite and > 0.
        low_freq_factor: ``L / low_freq_factor`` is the wavelength above which a pair is fully interpolated; a real
            number > 0.
        high_freq_factor: ``L / high_freq_factor`` is the wavelength below which a pair is left alone; a real number
            > ``low_freq_factor``.

    Returns:
        A float64 tensor of shape ``(head_dim // 2,)``.

    Raises:
        TypeError: an argument has the wrong type.
        ValueError: an argument is out of range.

    Examples:
        >>> w = llama3_frequencies(128, 8.0, 8192, base=500000.0)
        >>> ladder = 500000.0 ** (-torch.arange(0, 128, 2, dtype=torch.float64) / 128)
        >>> bool((w[:29] == ladder[:29]).all()), bool(torch.allclose(w[35:], ladder[35:] / 8))
        (True, True)
    """
    d = check_d_model(head_dim, "head_dim")
    s = _check_factor(factor)
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
