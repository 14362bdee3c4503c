"""RoPE as production code writes it: frequencies once, ``cos``/``sin`` once per forward, shared by every layer.

``RotaryEmbedding`` holds ``inv_freq`` — computed by ``rope_frequencies`` for a model's ``rope_parameters`` with
transformers' own float32 operations, so it equals a checkpoint's buffer bit for bit — and ``attention_scaling``,
the names transformers uses. Its ``forward`` turns a ``(batch, seq)`` tensor of positions into ``cos, sin`` of
shape ``(batch, seq, head_dim)`` with float32 arithmetic only (Apple's MPS has no float64), as
``LlamaRotaryEmbedding.forward`` does; ``apply_rope`` rotates the queries and keys of every layer with them, in
either pairing. With the ``"half"`` pairing this is transformers' ``LlamaRotaryEmbedding`` with
``apply_rotary_pos_emb``; the upstream tier checks it against them for every ``rope_type``, and against
torchtune and rotary-embedding-torch for ``"interleaved"``.

Two analysis helpers measure RoFormer's "long-term decay" (Su et al., 2021, §3.4.3): ``rope_decay_bound``, the
upper bound the paper plots, and ``rope_identical_score``, the score of a query and key with the same content.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Mapping
from typing import Any, Literal

import torch
from torch import nn

from pe_docs._checks import check_base, check_choice, check_d_model, check_int
from pe_docs.frequencies import inverse_frequencies
from pe_docs.rope_scaling import rope_frequencies

Pairing = Literal["interleaved", "half"]
PAIRINGS: tuple[str, ...] = ("interleaved", "half")

# Positions above 2**24 are not all integers in float32, where the angle position · inv_freq is formed.
_EXACT_IN_FLOAT32 = 2**24


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

        ``config`` is a ``PretrainedConfig`` or a mapping (a ``config.json``): the rotated width is
        ``int(head_dim * partial_rotary_factor)``, with ``head_dim`` or else ``hidden_size // num_attention_heads``;
        the base is ``rope_parameters["rope_theta"]`` or else ``rope_theta`` (10000 without either); the scaling
        is ``rope_parameters`` (or transformers 4's ``rope_scaling``, whose ``"type"`` key names the rope type);
        ``yarn`` and ``llama3`` without ``original_max_position_embeddings`` take ``max_position_embeddings``, and
        ``dynamic`` drops that key with a warning, as transformers does (``standardize_rope_params``,
        ``_validate_dynamic_rope_parameters``).

        Args:
            config: The model's configuration.

        Returns:
            A ``RotaryEmbedding`` whose ``inv_freq``, ``cos`` and ``sin`` equal those of the model's own code.

        Raises:
            ValueError: the config lacks what it needs (``hidden_size`` and ``num_attention_heads`` without
                ``head_dim``, ``max_position_embeddings`` for ``"dynamic"``), or a scaling this module refuses.

        Examples:
            >>> config = {"hidden_size": 4096, "num_attention_heads": 32, "max_position_embeddings": 131072,
            ...           "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
            ...                               "low_freq_factor": 1.0, "high_freq_factor": 4.0,
            ...                               "original_max_position_embeddings": 8192}}
            >>> rotary = RotaryEmbedding.from_config(config)
            >>> rotary.head_dim, rotary.base, rotary.rope_type
            (128, 500000.0, 'llama3')
        """
        get: Callable[[str], Any] = (
            config.get if isinstance(config, Mapping) else lambda name: getattr(config, name, None)  # type: ignore[union-attr]
        )
        head_dim = get("head_dim")
        if head_dim is None:
            hidden, heads = get("hidden_size"), get("num_attention_heads")
            if hidden is None or heads is None:
                raise ValueError("config needs head_dim, or hidden_size and num_attention_heads")
            head_dim = check_int("config.hidden_size", hidden) // check_int("config.num_attention_heads", heads)
        parameters = dict(get("rope_parameters") or get("rope_scaling") or {})
        if "type" in parameters:  # transformers 4's name of the rope type
            parameters.setdefault("rope_type", parameters.pop("type"))
        base = parameters.pop("rope_theta", None) or get("rope_theta") or 10000.0
        partial = parameters.pop("partial_rotary_factor", None) or get("partial_rotary_factor") or 1.0
        max_positions = get("max_position_embeddings")
        rope_type = parameters.setdefault("rope_type", "default")
        if rope_type in ("yarn", "llama3") and "original_max_position_embeddings" not in parameters:
            parameters["original_max_position_embeddings"] = max_positions
        if rope_type == "dynamic" and "original_max_position_embeddings" in parameters:
            ignored = parameters.pop("original_max_position_embeddings")
            warnings.warn(
                f"rope_type 'dynamic' ignores original_max_position_embeddings={ignored!r}, as transformers does: "
                f"its trained length is max_position_embeddings={max_positions!r}",
                stacklevel=2,
            )
        return cls(
            int(check_int("head_dim", head_dim) * partial),
            base=base,
            scaling=parameters,
            max_position_embeddings=max_positions if rope_type == "dynamic" else None,
        )

    def _frequencies(self, scaling: Mapping[str, Any] | None, seq_len: int | None = None) -> Any:
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
        """transformers' ``dynamic_frequency_update``: grow past the longest call, reset below the trained length."""
        seq_len = int(position_ids.max()) + 1  # a host synchronisation, as in transformers
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
            and both shapes).

    Examples:
        >>> rotary = RotaryEmbedding(2)
        >>> cos, sin = rotary(torch.tensor([[1]]))
        >>> q = torch.tensor([[[[1.0, 0.0]]]])  # (batch, heads, seq, head_dim)
        >>> apply_rope(q, q, cos, sin)[0]  # turned by 1 radian
        tensor([[[[0.5403, 0.8415]]]])
    """
    pairing = check_choice("pairing", pairing, PAIRINGS)  # type: ignore[assignment]
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
    if pairing == "interleaved":  # the d/2 angles, each twice in place
        half = cos.size(-1) // 2
        cos, sin = cos[..., :half].repeat_interleave(2, -1), sin[..., :half].repeat_interleave(2, -1)
    cos, sin = cos.unsqueeze(1), sin.unsqueeze(1)  # broadcast over the heads
    q_out = q * cos + _rotate(q, pairing) * sin
    k_out = k * cos + _rotate(k, pairing) * sin
    return q_out.to(q.dtype), k_out.to(k.dtype)


def _distance_angles(distances: torch.Tensor, d_head: int, base: float) -> tuple[int, torch.Tensor]:
    """``d_head`` checked, and the angles ``m θ_i`` in float64, one row per distance (``distances`` flattened)."""
    d = check_d_model(d_head, "d_head")
    if not isinstance(distances, torch.Tensor) or distances.is_complex() or distances.dtype == torch.bool:
        raise TypeError(f"distances must be a real tensor, got {type(distances).__name__}")
    return d, distances.to(torch.float64).reshape(-1, 1) * inverse_frequencies(d, base=base)


def rope_decay_bound(distances: torch.Tensor, d_head: int, *, base: float = 10000.0) -> torch.Tensor:
    """RoFormer's upper bound on the score at relative distance ``m``, divided by ``max |h|`` (its Figure 2).

    Su et al. (2021, §3.4.3) write the rotated score as ``Re Σ_i h_i e^{i m θ_i}`` over the ``d/2`` pairs and
    bound it, by Abel summation, with ``(max_i |h_{i+1} − h_i|) · Σ_{j=1}^{d/2} |S_j|``, where
    ``S_j = Σ_{k=0}^{j−1} e^{i m θ_k}`` and ``θ_k = base^(−2k/d)``. The paper plots the "relative upper bound"
    ``(1/(d/2)) Σ_j |S_j|`` against ``m``; this function computes it, in float64. It bounds the score of the
    worst-case content; it says nothing about the score of the content a model computes.

    Args:
        distances: Relative distances ``m``, an integer or floating-point tensor of any shape.
        d_head: The head dimension; a positive even integer.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor shaped like ``distances``: ``(d/2 + 1)/2`` at ``m = 0`` (every ``S_j = j``), less elsewhere.

    Raises:
        TypeError: ``distances`` is not a real tensor, ``d_head`` not an integer.
        ValueError: ``d_head`` is odd or < 1, ``base`` invalid.

    Examples:
        >>> rope_decay_bound(torch.tensor([0, 1]), 4).round(decimals=4)
        tensor([1.5000, 1.3800], dtype=torch.float64)
    """
    d, angles = _distance_angles(distances, d_head, base)
    phases = torch.polar(torch.ones_like(angles), angles)  # e^{i m θ_k}
    partial = phases.cumsum(dim=-1)  # S_1 … S_{d/2}
    return (partial.abs().sum(dim=-1) / (d // 2)).reshape(distances.shape)


def rope_identical_score(distances: torch.Tensor, d_head: int, *, base: float = 10000.0) -> torch.Tensor:
    """The RoPE score of a query and a key with the same content, ``m`` positions apart, per unit of ``|q|²``.

    With the same vector ``x`` as query and key and every pair of ``x`` of the same length, the score is
    ``|x|² · (2/d) Σ_i cos(m θ_i)``: the mean cosine of the angles — the dot product of two rows of the
    sinusoidal table, divided by ``d/2``. This is the situation in which RoPE's scores do fall with distance; for
    a query and key whose contents are unrelated, the expected score is 0 at every distance.

    Args:
        distances: Relative distances ``m``, a real tensor of any shape.
        d_head: The head dimension; a positive even integer.
        base: RoPE's base; finite and > 0.

    Returns:
        A float64 tensor shaped like ``distances``, 1 at ``m = 0``.

    Raises:
        TypeError: ``distances`` is not a real tensor.
        ValueError: ``d_head`` is odd or < 1, ``base`` invalid.

    Examples:
        >>> rope_identical_score(torch.tensor([0, 1]), 4).round(decimals=4)
        tensor([1.0000, 0.7701], dtype=torch.float64)
    """
    _, angles = _distance_angles(distances, d_head, base)
    return torch.cos(angles).mean(dim=-1).reshape(distances.shape)
