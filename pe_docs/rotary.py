"""RoPE as production code writes it: frequencies once, ``cos``/``sin`` once per forward, shared by every layer.

``RotaryEmbedding`` holds ``inv_freq`` — computed by ``rope_frequencies`` for a model's ``rope_parameters`` with
transformers' own float32 operations, so it equals a checkpoint's buffer bit for bit — and ``attention_scaling``,
the names transformers uses. Its ``forward`` turns a ``(batch, seq)`` tensor of positions into ``cos, sin`` of
shape ``(batch, seq, head_dim)`` with float32 arithmetic only (Apple's MPS has no float64), as
``LlamaRotaryEmbedding.forward`` does; ``apply_rope`` rotates the queries and keys of every layer with them, in
either pairing. With the ``"half"`` pairing this is transformers' ``LlamaRotaryEmbedding`` with
``apply_rotary_pos_emb``; the upstream tier checks it against them for every ``rope_type``, and against
torchtune and rotary-embedding-torch for ``"interleaved"``.

``rope_frequencies`` is the one reader of ``rope_parameters``: the frequencies and attention scaling of every
``rope_type``, in transformers' float32 arithmetic (or, with ``dtype=torch.float64``, the exact values that
``pe_docs.analysis`` explains).
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Mapping
from typing import Any, Literal, NamedTuple

import torch
from torch import nn

from pe_docs import _rope_config
from pe_docs._checks import check_base, check_choice, check_d_model, check_int, check_real
from pe_docs.frequencies import inverse_frequencies
from pe_docs.rope_scaling import (
    dynamic_ntk_scale,
    llama3_frequencies,
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    yarn_attention_factor,
    yarn_boundaries,
    yarn_frequencies,
)

Pairing = Literal["interleaved", "half"]
PAIRINGS: tuple[Pairing, ...] = ("interleaved", "half")

# Positions above 2**24 are not all integers in float32, where the angle position · inv_freq is formed.
_EXACT_IN_FLOAT32 = 2**24


class RopeFrequencies(NamedTuple):
    """What a RoPE configuration gives: the frequencies and the factor on cos and sin (transformers' names)."""

    inv_freq: torch.Tensor
    """The frequencies, one per pair, shape ``(head_dim // 2,)``: float32 as transformers computes them, or float64."""
    attention_scaling: float
    """The factor both cos and sin are multiplied by (YaRN's temperature; 1 for the other types)."""


def _ladder(head_dim: int, base: float | torch.Tensor) -> torch.Tensor:
    """``base^(2i/d)`` in float32: the expression of transformers, Meta's llama and torchtune."""
    return base ** (torch.arange(0, head_dim, 2, dtype=torch.int64).to(torch.float32) / head_dim)


class _Setting(NamedTuple):
    """What ``rope_frequencies`` hands a ``rope_type``'s function once the common checks have passed."""

    d: int
    base: float
    params: dict[str, Any]  # the scaling's keys, rope_type and rope_theta removed
    exact: bool  # float64 (the exact values) rather than transformers' float32 arithmetic
    max_position_embeddings: int | None
    seq_len: int | None


def _key(name: str) -> str:
    return f"scaling[{name!r}]"


def _factor(setting: _Setting) -> float:
    return check_real(_key("factor"), setting.params["factor"], minimum=1.0)


def _default(setting: _Setting) -> RopeFrequencies:
    d, b = setting.d, setting.base
    return RopeFrequencies(inverse_frequencies(d, base=b) if setting.exact else 1.0 / _ladder(d, b), 1.0)


def _linear(setting: _Setting) -> RopeFrequencies:
    """transformers' ``_compute_linear_scaling_rope_parameters``."""
    d, b, factor = setting.d, setting.base, _factor(setting)
    if setting.exact:
        return RopeFrequencies(position_interpolation_frequencies(d, factor, base=b), 1.0)
    inv_freq = 1.0 / _ladder(d, b)
    inv_freq /= factor
    return RopeFrequencies(inv_freq, 1.0)


def _dynamic(setting: _Setting) -> RopeFrequencies:
    """transformers' ``_compute_dynamic_ntk_parameters``."""
    d, b, factor, seq_len = setting.d, setting.base, _factor(setting), setting.seq_len
    if d < 4:
        raise ValueError(f"head_dim must be >= 4 for the NTK-aware base (exponent d/(d-2)), got {d}")
    if setting.max_position_embeddings is None:
        raise ValueError(
            "rope_type 'dynamic' needs max_position_embeddings (the config's max_position_embeddings: "
            "transformers reads the trained length there)"
        )
    trained = setting.max_position_embeddings
    if setting.exact:
        effective = dynamic_ntk_scale(factor, trained if seq_len is None else seq_len, trained)
        return RopeFrequencies(ntk_aware_frequencies(d, effective, base=b), 1.0)
    if seq_len is None:  # at initialisation: Python floats, as transformers
        scaled = b * ((factor * trained / trained) - (factor - 1)) ** (d / (d - 2))
    else:  # at run time transformers has the tensor max(position_ids) + 1: float32 arithmetic
        length = torch.maximum(torch.tensor(seq_len), torch.tensor(trained))
        scaled = b * ((factor * length.to(torch.float32) / trained) - (factor - 1)) ** (d / (d - 2))
    return RopeFrequencies(1.0 / _ladder(d, scaled), 1.0)


def _original(setting: _Setting) -> int:
    value = setting.params["original_max_position_embeddings"]
    return check_int(_key("original_max_position_embeddings"), value, minimum=1)


def _llama3(setting: _Setting) -> RopeFrequencies:
    """transformers' ``_compute_llama3_parameters`` (Meta's ``apply_scaling``, vectorised)."""
    d, b, params, factor, original = setting.d, setting.base, setting.params, _factor(setting), _original(setting)
    low = check_real(_key("low_freq_factor"), params["low_freq_factor"], minimum=0.0, open_minimum=True)
    high = check_real(_key("high_freq_factor"), params["high_freq_factor"], minimum=0.0, open_minimum=True)
    if high <= low:
        raise ValueError(f"{_key('high_freq_factor')} must be > low_freq_factor={low}, got {high}")
    if setting.exact:
        w = llama3_frequencies(d, factor, original, base=b, low_freq_factor=low, high_freq_factor=high)
        return RopeFrequencies(w, 1.0)
    inv_freq = 1.0 / _ladder(d, b)
    wavelen = 2 * math.pi / inv_freq
    scaled = torch.where(wavelen > original / low, inv_freq / factor, inv_freq)
    smooth = (original / wavelen - low) / (high - low)
    smoothed = (1 - smooth) * scaled / factor + smooth * scaled
    medium = ~(wavelen < original / high) * ~(wavelen > original / low)
    return RopeFrequencies(torch.where(medium, smoothed, scaled), 1.0)


def _yarn(setting: _Setting) -> RopeFrequencies:
    """transformers' ``_compute_yarn_parameters``."""
    d, b, params, factor, original = setting.d, setting.base, setting.params, _factor(setting), _original(setting)

    def beta(name: str, default: float) -> float:  # None is the default; 0 is refused, not replaced
        value = params.get(name)
        return check_real(_key(name), default if value is None else value, minimum=0.0, open_minimum=True)

    beta_fast, beta_slow = beta("beta_fast", 32.0), beta("beta_slow", 1.0)
    truncate = params.get("truncate", True)
    if not isinstance(truncate, bool):
        raise TypeError(f"{_key('truncate')} must be a bool, got {truncate!r}")
    attention = params.get("attention_factor")
    if attention is not None:
        attention = check_real(_key("attention_factor"), attention, minimum=0.0, open_minimum=True)
    elif params.get("mscale") and params.get("mscale_all_dim"):
        m = check_real(_key("mscale"), params["mscale"])
        m_all = check_real(_key("mscale_all_dim"), params["mscale_all_dim"])
        attention = (0.1 * m * math.log(factor) + 1.0) / (0.1 * m_all * math.log(factor) + 1.0)
    else:
        attention = yarn_attention_factor(factor)
    options = {"base": b, "beta_fast": beta_fast, "beta_slow": beta_slow}
    if setting.exact:
        return RopeFrequencies(yarn_frequencies(d, factor, original, truncate=truncate, **options), attention)
    low, high = yarn_boundaries(d, original, truncate=truncate, **options)
    if low == high:
        high += 0.001  # as transformers' linear_ramp_factor: no division by zero
    pos_freqs = _ladder(d, b)
    extrapolation, interpolation = 1.0 / pos_freqs, 1.0 / (factor * pos_freqs)
    extrapolation_factor = 1 - ((torch.arange(d // 2, dtype=torch.float32) - low) / (high - low)).clamp(0, 1)
    inv_freq = interpolation * (1 - extrapolation_factor) + extrapolation * extrapolation_factor
    return RopeFrequencies(inv_freq, attention)


# rope_type -> (required keys, optional keys, its frequencies): adding a type is adding an entry.
_ROPE_TYPES: dict[str, tuple[set[str], set[str], Callable[[_Setting], RopeFrequencies]]] = {
    "default": (set(), set(), _default),
    "linear": ({"factor"}, set(), _linear),
    "dynamic": ({"factor"}, set(), _dynamic),  # the trained length is max_position_embeddings, as in transformers
    "yarn": (
        {"factor", "original_max_position_embeddings"},
        {"attention_factor", "beta_fast", "beta_slow", "mscale", "mscale_all_dim", "truncate"},
        _yarn,
    ),
    "llama3": ({"factor", "original_max_position_embeddings", "low_freq_factor", "high_freq_factor"}, set(), _llama3),
}

ROPE_TYPES = tuple(_ROPE_TYPES)
"""The ``rope_type`` values ``rope_frequencies`` understands (transformers' names)."""


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
    rope_type, params = _rope_config.rope_parameters(scaling, b, _ROPE_TYPES)
    if dtype not in (torch.float32, torch.float64):
        raise ValueError(
            f"dtype must be torch.float32 (transformers' arithmetic) or torch.float64 (exact), got {dtype}"
        )
    if max_position_embeddings is not None:
        max_position_embeddings = check_int("max_position_embeddings", max_position_embeddings, minimum=1)
    if seq_len is not None:
        seq_len = check_int("seq_len", seq_len, minimum=1)
        if rope_type != "dynamic":
            raise ValueError(f"seq_len is used by rope_type 'dynamic' only, got seq_len={seq_len} for {rope_type!r}")

    setting = _Setting(d, b, params, dtype == torch.float64, max_position_embeddings, seq_len)
    return _ROPE_TYPES[rope_type][2](setting)


def _check_positions(position_ids: object) -> torch.Tensor:
    """``position_ids``: an integer ``(batch, seq)`` tensor; in eager mode also ``0 <= p <= 2**24``."""
    if not isinstance(position_ids, torch.Tensor):
        raise TypeError(f"position_ids must be an integer tensor, got {type(position_ids).__name__}")
    if position_ids.is_floating_point() or position_ids.is_complex() or position_ids.dtype == torch.bool:
        raise TypeError(f"position_ids must be an integer tensor, got dtype {position_ids.dtype}")
    if position_ids.dim() != 2:
        raise ValueError(f"position_ids must have shape (batch, seq), got {tuple(position_ids.shape)}")
    if not torch.compiler.is_compiling() and position_ids.numel():  # reads them on the host: eager mode only
        low, high = (int(v) for v in torch.aminmax(position_ids))
        if low < 0 or high > _EXACT_IN_FLOAT32:
            raise ValueError(
                f"position_ids must lie in [0, 2**24] (exact in float32, where the angles are formed), "
                f"got values in [{low}, {high}]"
            )
    return position_ids


class RotaryEmbedding(nn.Module):
    """RoPE's ``cos`` and ``sin`` for given positions, computed once per forward and shared by every layer.

    ``inv_freq`` (a non-persistent float32 buffer) is ``rope_frequencies(head_dim, base=base, scaling=scaling,
    max_position_embeddings=…)``: transformers' own float32 arithmetic, so that it equals the buffer of the
    checkpoint's code. ``forward`` forms the angle ``position · inv_freq`` in float32, as transformers'
    ``LlamaRotaryEmbedding`` and Meta's ``precompute_freqs_cis`` do, and returns float32 ``cos`` and ``sin``
    times ``attention_scaling`` (YaRN's temperature, 1 for the other types). A cast of the module —
    ``model.to(torch.bfloat16)``, ``.half()`` — leaves ``inv_freq`` in float32 (transformers' buffer is rounded to
    bfloat16 by the same call, and its angles at position 10⁵ move by up to 2 radians): nothing here uses the
    model's dtype. ``cos`` and ``sin`` are the same for either pairing: ``apply_rope`` takes the pairing.

    For ``rope_type: "dynamic"`` the frequencies follow transformers' ``dynamic_rope_update``: recomputed for
    ``max(position_ids) + 1`` when a call is longer than any before it and than ``max_position_embeddings``,
    kept for shorter calls, and reset to the original ones by a call shorter than ``max_position_embeddings``.
    Reading the largest position is a host synchronisation, so this type breaks a compiled graph there.

    Args:
        head_dim: The rotated width: the head dimension (with a ``partial_rotary_factor``, the rotated part of it,
            as ``from_config`` computes it); a positive even integer.
        base: RoPE's base (``rope_theta``); finite and > 0.
        scaling: A model's ``rope_parameters`` (``{"rope_type": "linear" | "dynamic" | "yarn" | "llama3",
            "factor": …, …}``) or ``None`` for the plain ladder; ``rope_frequencies`` lists the keys of each type.
        max_position_embeddings: The config's ``max_position_embeddings``: the trained length of the
            ``"dynamic"`` type, required for it and unused by the others.

    Attributes:
        inv_freq: The ``(head_dim // 2,)`` float32 frequencies (a non-persistent buffer).
        attention_scaling: The factor on ``cos`` and ``sin``, a float.
        rope_type: The ``rope_type`` of ``scaling`` (``"default"`` without one).

    Raises:
        TypeError: ``head_dim`` is not an integer, ``base`` not a real number, ``scaling`` not a mapping.
        ValueError: ``head_dim`` odd or < 1, ``base`` invalid, or a ``scaling`` that ``rope_frequencies`` refuses
            (its message names the key and the rope type).

    Examples:
        >>> rotary = RotaryEmbedding(128, base=500000.0, scaling={"rope_type": "llama3", "factor": 8.0,
        ...     "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})
        >>> cos, sin = rotary(torch.arange(6)[None])
        >>> cos.shape, cos.dtype
        (torch.Size([1, 6, 128]), torch.float32)
        >>> rotary.to(torch.bfloat16).inv_freq.dtype  # the frequencies stay float32
        torch.float32
    """

    inv_freq: torch.Tensor

    def __init__(
        self,
        head_dim: int,
        *,
        base: float = 10000.0,
        scaling: Mapping[str, Any] | None = None,
        max_position_embeddings: int | None = None,
    ) -> None:
        super().__init__()
        self.head_dim = check_d_model(head_dim, "head_dim")
        self.base = check_base(base)
        self.max_position_embeddings = (
            None
            if max_position_embeddings is None
            else check_int("max_position_embeddings", max_position_embeddings, minimum=1)
        )
        frequencies = self._frequencies(scaling)  # checks scaling
        self.scaling: dict[str, Any] | None = None if scaling is None else copy.deepcopy(dict(scaling))
        self.rope_type: str = (self.scaling or {}).get("rope_type", "default")
        self.attention_scaling = frequencies.attention_scaling
        self.register_buffer("inv_freq", frequencies.inv_freq, persistent=False)
        self.max_seq_len_cached = self.max_position_embeddings  # the dynamic type's state, as transformers

    @classmethod
    def from_config(cls, config: object) -> RotaryEmbedding:
        """Build it from a transformers-style config, reading what transformers reads.

        ``config`` is a ``PretrainedConfig`` or a mapping (a Llama-family ``config.json``): the rotated width is
        GPT-J's ``rotary_dim``, or ``int(head_dim * partial_rotary_factor)`` with ``head_dim`` or else
        ``hidden_size // num_attention_heads`` (Llama's own default type ignores ``partial_rotary_factor``; GPT-NeoX
        and Phi apply it, as this does); keys that other models' ``config.json`` files use for the same things
        (``rotary_pct``, ``rotary_emb_base``, ``n_embd``, ``n_head``) are refused rather than misread: transformers'
        config classes map them, so pass the config object (GPT-J's keeps ``n_embd`` and ``n_head``, which this
        takes from an object; an object with ``rotary_pct``, transformers 4's GPT-NeoX, is refused);
        the base is ``rope_parameters["rope_theta"]`` or else ``rope_theta`` (10000 without either); the scaling
        is ``rope_parameters`` (or transformers 4's ``rope_scaling``, whose ``"type"`` key names the rope type);
        ``yarn`` and ``llama3`` take a top-level ``original_max_position_embeddings`` first (Phi-3's place for it,
        which transformers prefers), then the scaling's, then ``max_position_embeddings``; and
        ``dynamic`` drops that key with a warning, as transformers does (``standardize_rope_params``,
        ``_validate_dynamic_rope_parameters``).

        Args:
            config: The model's configuration.

        Returns:
            A ``RotaryEmbedding`` whose ``inv_freq``, ``cos`` and ``sin`` equal those of the model's own code.

        Raises:
            ValueError: the config lacks what it needs (``hidden_size`` and ``num_attention_heads`` without
                ``head_dim``, ``max_position_embeddings`` for ``"dynamic"``), a ``rope_theta``, a
                ``partial_rotary_factor`` or a ``rotary_dim`` out of range (a 0 is refused, never read as unset),
                or a scaling this module refuses.
            TypeError: one of them is not a number.

        Examples:
            >>> config = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
            ...           "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
            ...                               "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            ...                               "original_max_position_embeddings": 8192}}
            >>> rotary = RotaryEmbedding.from_config(config)
            >>> rotary.head_dim, rotary.base, rotary.rope_type
            (128, 500000.0, 'llama3')
        """
        return cls(**_rope_config.constructor_arguments(config))

    def _frequencies(self, scaling: Mapping[str, Any] | None, seq_len: int | None = None) -> RopeFrequencies:
        return rope_frequencies(
            self.head_dim,
            base=self.base,
            scaling=scaling,
            max_position_embeddings=self.max_position_embeddings,
            seq_len=seq_len,
        )

    def _apply(self, fn: Callable[[torch.Tensor], torch.Tensor], recurse: bool = True) -> RotaryEmbedding:
        """``Module._apply`` (behind ``to``, ``half``, ``bfloat16``, ``cuda``, ``to_empty``): devices move
        ``inv_freq``, dtype casts do not change it (the frequencies are float32 whatever the model's dtype)."""
        inv_freq = self.inv_freq
        super()._apply(fn, recurse)
        if self.inv_freq.dtype != inv_freq.dtype:
            self.inv_freq = inv_freq.to(device=self.inv_freq.device)
        return self

    @torch.no_grad()
    def reset_parameters(self) -> None:
        """Recompute ``inv_freq`` in place (after ``to_empty`` on a module built on the meta device).

        Examples:
            >>> with torch.device("meta"):
            ...     rotary = RotaryEmbedding(8)
            >>> rotary = rotary.to_empty(device="cpu")
            >>> rotary.reset_parameters()
            >>> rotary.inv_freq
            tensor([1.0000, 0.1000, 0.0100, 0.0010])
        """
        if self.inv_freq.is_meta:
            return
        with torch.device("cpu"):
            self.inv_freq.copy_(self._frequencies(self.scaling).inv_freq)
        self.max_seq_len_cached = self.max_position_embeddings

    @torch.no_grad()
    def _dynamic_update(self, position_ids: torch.Tensor) -> None:
        """transformers' ``dynamic_frequency_update``: grow past the longest call, reset below the trained length.

        Reading the length is a host synchronisation, as in transformers; under ``torch.compile`` it breaks the
        graph, and each new length compiles another graph (the code page counts them)."""
        if not position_ids.numel():
            return
        seq_len = int(position_ids.max()) + 1
        trained = self.max_position_embeddings
        assert trained is not None and self.max_seq_len_cached is not None  # the constructor required it
        if seq_len > self.max_seq_len_cached:  # growth
            with torch.device("cpu"):
                self.inv_freq.copy_(self._frequencies(self.scaling, seq_len).inv_freq)
            self.max_seq_len_cached = seq_len
        elif seq_len < trained < self.max_seq_len_cached:  # back to the original frequencies
            with torch.device("cpu"):
                self.inv_freq.copy_(self._frequencies(self.scaling).inv_freq)
            self.max_seq_len_cached = trained

    def forward(self, position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``cos`` and ``sin`` of the angles ``position · inv_freq``, times ``attention_scaling``.

        Args:
            position_ids: Each token's position, an integer tensor of shape ``(batch, seq)`` on the module's
                device (Hugging Face's ``position_ids``: ``arange`` for one sequence, counted from each
                sequence's first real token in a left-padded batch, restarting in packed sequences). In eager
                mode positions below 0 or above 2**24 (where float32 stops counting in ones) are refused; a
                compiled model skips that check.

        Returns:
            ``(cos, sin)``, two float32 tensors of shape ``(batch, seq, head_dim)``: the ``head_dim / 2`` angles
            twice in a row, transformers' layout (``apply_rope`` lays them out for its pairing).

        Raises:
            TypeError: ``position_ids`` is not an integer tensor (floating-point and boolean ones included).
            ValueError: ``position_ids`` does not have 2 dimensions, or (eager mode) holds a position outside
                ``[0, 2**24]``.

        Examples:
            >>> cos, sin = RotaryEmbedding(4)(torch.tensor([[0, 1]]))
            >>> cos[0, 1]  # angles 1 and 0.01, twice
            tensor([0.5403, 0.9999, 0.5403, 0.9999])
        """
        position_ids = _check_positions(position_ids)
        if self.rope_type == "dynamic":
            self._dynamic_update(position_ids)
        angle = position_ids[..., None].float() * self.inv_freq  # float32, as the checkpoint's own code
        angle = torch.cat((angle, angle), dim=-1)
        return angle.cos() * self.attention_scaling, angle.sin() * self.attention_scaling

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> RotaryEmbedding(64)
            RotaryEmbedding(head_dim=64, base=10000, scaling=None)
        """
        text = f"head_dim={self.head_dim}, base={self.base:g}, scaling={self.scaling!r}"
        if self.max_position_embeddings is not None:
            text += f", max_position_embeddings={self.max_position_embeddings}"
        return text


def _rotate(x: torch.Tensor, pairing: str) -> torch.Tensor:
    """The partner of each feature, with the sign of the rotation: ``(a, b) -> (−b, a)`` pair by pair."""
    if pairing == "half":
        half = x.size(-1) // 2
        return torch.cat((-x[..., half:], x[..., :half]), dim=-1)
    return torch.stack((-x[..., 1::2], x[..., 0::2]), dim=-1).flatten(-2)


def _turn(x: torch.Tensor, cos: torch.Tensor, sin: torch.Tensor, pairing: str) -> torch.Tensor:
    """``x·cos + rotate(x)·sin``: every pair of ``x`` turned by its angle, the one rotation of the package.

    ``cos`` and ``sin`` are laid out as ``RotaryEmbedding`` returns them (the ``d/2`` angles twice in a row) and
    broadcast against ``x``; for ``"interleaved"`` each angle is repeated in place. ``apply_rope`` and
    ``pe_docs.analysis.rope_rotate`` call it (internal: not part of the public face); the arguments are theirs to
    check.
    """
    if pairing == "interleaved":
        half = cos.size(-1) // 2
        cos, sin = cos[..., :half].repeat_interleave(2, -1), sin[..., :half].repeat_interleave(2, -1)
    return x * cos + _rotate(x, pairing) * sin


def apply_rope(
    q: torch.Tensor,
    k: torch.Tensor,
    cos: torch.Tensor,
    sin: torch.Tensor,
    *,
    pairing: Pairing = "half",
) -> tuple[torch.Tensor, torch.Tensor]:
    """Rotate queries and keys with the ``cos`` and ``sin`` of ``RotaryEmbedding``: ``x·cos + rotate(x)·sin``.

    ``rotate`` turns each pair ``(a, b)`` into ``(−b, a)``, so pair ``i`` becomes ``(a·cos − b·sin,
    a·sin + b·cos)`` of its angle. The pairs are ``(x_i, x_{i + d/2})`` for ``"half"`` (transformers'
    ``rotate_half``: every Llama-format checkpoint on the Hub, GPT-NeoX) and ``(x_{2i}, x_{2i+1})`` for
    ``"interleaved"`` (RoFormer, Meta's original code, GPT-J, torchtune, GGUF files). The products are formed in
    the promoted dtype of ``x`` and ``cos`` (float32 for a bfloat16 model with float32 ``cos``) and the result is
    rounded once to ``x``'s dtype. Apply it to queries and keys after the projections, never to values.

    Args:
        q: Queries, ``(batch, heads, seq, head_dim)``, real floating point.
        k: Keys, ``(batch, kv_heads, seq, head_dim)``, real floating point (the same ``batch``, ``seq`` and
            ``head_dim`` as ``q``).
        cos: ``(batch, seq, head_dim)`` from ``RotaryEmbedding`` (a batch of 1 broadcasts).
        sin: Like ``cos``.
        pairing: ``"half"`` or ``"interleaved"``: which features of ``q`` and ``k`` form a pair.

    Returns:
        ``(q_rotated, k_rotated)``, in the dtypes of ``q`` and ``k``.

    Raises:
        TypeError: an argument is not a real floating-point tensor.
        ValueError: an unknown ``pairing``, or shapes that do not fit as above (the message names the argument
            and both shapes). A ``(batch, seq, heads, head_dim)`` tensor (torchtune's layout) whose ``seq`` equals its
            ``heads`` fits the shapes and is rotated by head instead of position: transpose such inputs first.

    Examples:
        >>> rotary = RotaryEmbedding(2)
        >>> cos, sin = rotary(torch.tensor([[1]]))
        >>> q = torch.tensor([[[[1.0, 0.0]]]])  # (batch, heads, seq, head_dim)
        >>> apply_rope(q, q, cos, sin)[0]  # turned by 1 radian
        tensor([[[[0.5403, 0.8415]]]])
    """
    pairing = check_choice("pairing", pairing, PAIRINGS)
    for name, value in (("q", q), ("k", k), ("cos", cos), ("sin", sin)):
        if not isinstance(value, torch.Tensor):
            raise TypeError(f"{name} must be a torch.Tensor, got {type(value).__name__}")
        if not value.is_floating_point():
            raise TypeError(f"{name} must be a real floating-point tensor, got dtype {value.dtype}")
    if cos.shape != sin.shape or cos.dim() != 3:
        raise ValueError(
            "cos and sin must have the same shape (batch, seq, head_dim), "
            f"got {tuple(cos.shape)} and {tuple(sin.shape)}"
        )
    for name, x in (("q", q), ("k", k)):
        if x.dim() != 4:
            raise ValueError(f"{name} must have shape (batch, heads, seq, head_dim), got {tuple(x.shape)}")
        if x.size(-1) != cos.size(-1) or x.size(-2) != cos.size(-2) or cos.size(0) not in (1, x.size(0)):
            raise ValueError(
                f"{name} of shape {tuple(x.shape)} (batch, heads, seq, head_dim) does not fit cos and sin of shape "
                f"{tuple(cos.shape)} (batch, seq, head_dim): batch, seq and head_dim must agree"
            )
    if cos.size(-1) % 2:
        raise ValueError(f"head_dim must be even, got {cos.size(-1)}")
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # broadcast over the heads
    return _turn(q, cos, sin, pairing).to(q.dtype), _turn(k, cos, sin, pairing).to(k.dtype)
