"""RoPE as production code writes it: frequencies once, ``cos``/``sin`` once per forward, shared by every layer.

``RotaryEmbedding`` holds ``inv_freq`` (computed once in float64 by ``rope_frequencies`` for a model's
``rope_parameters``, stored in float32) and ``attention_scaling``, the names transformers uses. Its ``forward``
turns a ``(batch, seq)`` tensor of positions into ``cos, sin`` of shape ``(batch, seq, head_dim)``, laid out for
the pairing, with float32 arithmetic only (Apple's MPS has no float64); ``apply_rope`` rotates the queries and
keys of every layer with them. For the ``"half"`` pairing this is transformers' ``LlamaRotaryEmbedding`` with
``apply_rotary_pos_emb``; the upstream tier checks it against them for every ``rope_type``.

Two analysis helpers measure RoFormer's "long-term decay" (Su et al., 2021, §3.4.3): ``rope_decay_bound``, the
upper bound the paper plots, and ``rope_identical_score``, the score of a query and key with the same content.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

import torch
from torch import nn

from pe_docs._checks import check_base, check_choice, check_d_model
from pe_docs.alternatives import PAIRINGS, Pairing
from pe_docs.frequencies import inverse_frequencies
from pe_docs.rope_scaling import rope_frequencies


def _integer_tensor(name: str, value: object) -> torch.Tensor:
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"{name} must be an integer tensor, got {type(value).__name__}")
    if value.is_floating_point() or value.is_complex() or value.dtype == torch.bool:
        raise TypeError(f"{name} must be an integer tensor, got dtype {value.dtype}")
    return value


class RotaryEmbedding(nn.Module):
    """RoPE's ``cos`` and ``sin`` for given positions, computed once per forward and shared by every layer.

    The frequencies are ``rope_frequencies(head_dim, base=base, scaling=scaling)``: computed once, in float64,
    and stored in float32 in the non-persistent buffer ``inv_freq``, with the factor ``attention_scaling`` (YaRN's
    temperature, 1 for the other types) that multiplies both ``cos`` and ``sin``. ``forward`` forms the angle
    ``position · inv_freq`` in float32, as transformers' ``LlamaRotaryEmbedding`` does, so that a model runs
    with the angles it was trained with (at position 10⁵ a float32 angle is off by up to about 0.006 rad: the
    code page measures what that does). Nothing in ``forward`` uses float64.

    For ``rope_type: "dynamic"`` the frequencies are recomputed, in ``forward``, for the current length
    ``max(position_ids) + 1`` when it exceeds ``original_max_position_embeddings`` (transformers'
    ``dynamic_rope_update``; reading the largest position is a host synchronisation, so this type does not
    compile into one graph). Unlike transformers, which keeps the frequencies of the longest length seen until a
    call shorter than the original length, they depend on the current call only.

    Args:
        head_dim: The rotated width, the head dimension; a positive even integer.
        base: RoPE's base (``rope_theta``); finite and > 0.
        scaling: A model's ``rope_parameters`` (``{"rope_type": "linear" | "dynamic" | "yarn" | "llama3",
            "factor": …, "original_max_position_embeddings": …, …}``) or ``None`` for the plain ladder; see
            ``rope_frequencies`` for the keys of each type.
        pairing: ``"half"`` (feature ``i`` with ``i + head_dim/2``: Hugging Face's ``rotate_half``, every
            Llama-format checkpoint on the Hub) or ``"interleaved"`` (features ``2i, 2i + 1``: Meta's original
            code, RoFormer, GPT-J). It sets the layout of ``cos`` and ``sin``.

    Attributes:
        inv_freq: The ``(head_dim // 2,)`` float32 frequencies (a non-persistent buffer).
        attention_scaling: The factor on ``cos`` and ``sin``, a float.

    Raises:
        TypeError: ``head_dim`` is not an integer, ``base`` not a real number, ``scaling`` not a mapping.
        ValueError: ``head_dim`` odd or < 1, ``base`` invalid, an unknown ``pairing``, or a ``scaling`` that
            ``rope_frequencies`` rejects.

    Examples:
        >>> rotary = RotaryEmbedding(128, base=500000.0, scaling={"rope_type": "llama3", "factor": 8.0,
        ...     "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192})
        >>> cos, sin = rotary(torch.arange(6)[None])
        >>> cos.shape, cos.dtype
        (torch.Size([1, 6, 128]), torch.float32)
    """

    inv_freq: torch.Tensor

    def __init__(
        self,
        head_dim: int,
        *,
        base: float = 10000.0,
        scaling: Mapping[str, Any] | None = None,
        pairing: Pairing = "half",
    ) -> None:
        super().__init__()
        self.head_dim = check_d_model(head_dim, "head_dim")
        self.base = check_base(base)
        self.pairing: Pairing = check_choice("pairing", pairing, PAIRINGS)  # type: ignore[assignment]
        frequencies = rope_frequencies(self.head_dim, base=self.base, scaling=scaling)  # checks scaling
        self.scaling: dict[str, Any] | None = None if scaling is None else copy.deepcopy(dict(scaling))
        self.rope_type: str = (self.scaling or {}).get("rope_type", "default")
        self.attention_scaling = frequencies.attention_scaling
        self.register_buffer("inv_freq", torch.empty(self.head_dim // 2), persistent=False)
        self.reset_parameters()

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
            w = rope_frequencies(self.head_dim, base=self.base, scaling=self.scaling).inv_freq
        self.inv_freq.copy_(w)

    def _frequencies(self, position_ids: torch.Tensor) -> torch.Tensor:
        if self.rope_type != "dynamic" or self.scaling is None:
            return self.inv_freq
        seq_len = int(position_ids.max()) + 1  # a host synchronisation, as in transformers
        if seq_len <= int(self.scaling["original_max_position_embeddings"]):
            return self.inv_freq
        w = rope_frequencies(self.head_dim, base=self.base, scaling=self.scaling, seq_len=seq_len).inv_freq
        return w.to(device=self.inv_freq.device, dtype=torch.float32)

    def forward(self, position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """``cos`` and ``sin`` of the angles ``position · inv_freq``, times ``attention_scaling``.

        Args:
            position_ids: Each token's position, an integer tensor of shape ``(batch, seq)`` on the module's
                device (Hugging Face's ``position_ids``: ``arange`` for one sequence, counted from each
                sequence's first real token in a left-padded batch, restarting in packed sequences).

        Returns:
            ``(cos, sin)``, two float32 tensors of shape ``(batch, seq, head_dim)``: for ``"half"`` the
            ``head_dim / 2`` angles twice in a row, for ``"interleaved"`` each angle twice in place.

        Raises:
            TypeError: ``position_ids`` is not an integer tensor.
            ValueError: ``position_ids`` does not have 2 dimensions.

        Examples:
            >>> cos, sin = RotaryEmbedding(4)(torch.tensor([[0, 1]]))
            >>> cos[0, 1]  # angles 1 and 0.01, twice
            tensor([0.5403, 0.9999, 0.5403, 0.9999])
        """
        position_ids = _integer_tensor("position_ids", position_ids)
        if position_ids.dim() != 2:
            raise ValueError(f"position_ids must have shape (batch, seq), got {tuple(position_ids.shape)}")
        w = self._frequencies(position_ids)
        angle = position_ids[..., None].float() * w.float()  # float32, as the checkpoint's own code forms it
        # "half": the d/2 angles twice in a row; "interleaved": each angle twice in place
        angle = torch.cat((angle, angle), dim=-1) if self.pairing == "half" else angle.repeat_interleave(2, dim=-1)
        return angle.cos() * self.attention_scaling, angle.sin() * self.attention_scaling

    def extra_repr(self) -> str:
        """The constructor's arguments, shown by ``repr(module)``.

        Examples:
            >>> RotaryEmbedding(64)
            RotaryEmbedding(head_dim=64, base=10000, scaling=None, pairing='half')
        """
        return f"head_dim={self.head_dim}, base={self.base:g}, scaling={self.scaling!r}, pairing={self.pairing!r}"


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

    ``rotate`` turns each pair ``(a, b)`` into ``(−b, a)`` (``rotate_half`` for ``"half"``, ``rotate_every_two``
    for ``"interleaved"``), so pair ``i`` becomes ``(a·cos − b·sin, a·sin + b·cos)`` of its angle. The products
    are formed in the promoted dtype of ``x`` and ``cos`` (float32 for a bfloat16 model with float32 ``cos``) and
    the result is rounded once to ``x``'s dtype. Apply it to queries and keys after the projections, never to
    values.

    Args:
        q: Queries, ``(batch, heads, seq, head_dim)``, real floating point.
        k: Keys, ``(batch, kv_heads, seq, head_dim)``, real floating point (the same ``batch``, ``seq`` and
            ``head_dim`` as ``q``).
        cos: ``(batch, seq, head_dim)`` from ``RotaryEmbedding``, laid out for ``pairing``.
        sin: Like ``cos``.
        pairing: ``"half"`` or ``"interleaved"``, the pairing ``cos`` and ``sin`` were laid out for.

    Returns:
        ``(q_rotated, k_rotated)``, in the dtypes of ``q`` and ``k``.

    Raises:
        TypeError: an argument is not a real floating-point tensor.
        ValueError: an unknown ``pairing``, or shapes that do not match as above.

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
    if q.dim() != 4 or k.dim() != 4:
        raise ValueError(
            f"q and k must have shape (batch, heads, seq, head_dim), got {tuple(q.shape)} and {tuple(k.shape)}"
        )
    if cos.shape != sin.shape or cos.dim() != 3:
        raise ValueError(
            "cos and sin must have the same shape (batch, seq, head_dim), "
            f"got {tuple(cos.shape)} and {tuple(sin.shape)}"
        )
    for name, x in (("q", q), ("k", k)):
        if x.size(-1) != cos.size(-1) or x.size(-2) != cos.size(-2) or cos.size(0) not in (1, x.size(0)):
            raise ValueError(
                f"{name} of shape {tuple(x.shape)} does not match cos and sin of shape {tuple(cos.shape)} "
                "(batch, seq and head_dim must agree)"
            )
    if cos.size(-1) % 2:
        raise ValueError(f"head_dim must be even, got {cos.size(-1)}")
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
