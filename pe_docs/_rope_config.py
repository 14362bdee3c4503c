"""How transformers' configs spell RoPE's settings: ``rope_parameters`` checked against each ``rope_type``'s keys,
and the arguments of ``RotaryEmbedding`` read from a whole config (``RotaryEmbedding.from_config``).

The config dialects live here, apart from the computation in ``rotary.py``: GPT-J's ``rotary_dim``, Phi-3's
top-level original length, transformers 4's ``rope_scaling`` and its ``"type"`` key, and the keys of other models'
``config.json`` files that are refused rather than misread. When transformers changes how it reads a config (the
upstream tier, ``make test-upstream``, finds out), this is the file to change.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

from pe_docs._checks import check_base, check_int, check_real


def rope_parameters(
    scaling: object, base: float, types: Mapping[str, tuple[set[str], set[str], object]]
) -> tuple[str, dict[str, Any]]:
    """``scaling`` checked against its ``rope_type``'s keys (``types``: ``rotary``'s table, each type's required
    keys, optional keys and function): the type and the other keys (``rope_theta`` removed)."""
    if scaling is None:
        scaling = {}
    if not isinstance(scaling, Mapping):
        raise TypeError(f"scaling must be a mapping (a config's rope_parameters) or None, got {type(scaling).__name__}")
    params = dict(scaling)
    rope_type = params.pop("rope_type", "default")
    if rope_type not in types:
        raise ValueError(f"scaling['rope_type'] must be one of {', '.join(map(repr, types))}; got {rope_type!r}")
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
    required, optional, _ = types[rope_type]
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


def _first_set(*values: Any) -> Any:
    """The first of ``values`` that is not ``None``."""
    return next(value for value in values if value is not None)


def constructor_arguments(config: object) -> dict[str, Any]:
    """The arguments of ``RotaryEmbedding`` for ``config``, read as its ``from_config`` documents."""
    get: Callable[[str], Any] = config.get if isinstance(config, Mapping) else lambda name: getattr(config, name, None)
    # other models' names, refused; a config object maps n_embd and n_head (GPT-J's), not rotary_pct
    names = ("rotary_pct", "rotary_emb_base") + (("n_embd", "n_head") if isinstance(config, Mapping) else ())
    foreign = [key for key in names if get(key) is not None]
    if foreign:
        raise ValueError(
            f"config has {', '.join(map(repr, foreign))}: keys of another model's config.json, which this reads "
            "as transformers' config objects name them; load it with transformers.AutoConfig and pass the object"
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
    # the first of each that is set: a 0 is a value (refused below, as the constructor refuses it), not a gap
    base = _first_set(parameters.pop("rope_theta", None), get("rope_theta"), 10000.0)
    base = check_base(base, "config's rope_theta")
    partial = _first_set(parameters.pop("partial_rotary_factor", None), get("partial_rotary_factor"), 1.0)
    partial = check_real("config's partial_rotary_factor", partial, minimum=0.0, maximum=1.0, open_minimum=True)
    max_positions = get("max_position_embeddings")
    rope_type = parameters.setdefault("rope_type", "default")
    if rope_type in ("yarn", "llama3"):  # a top-level original length (Phi-3's place) comes first
        if get("original_max_position_embeddings") is not None:
            parameters["original_max_position_embeddings"] = get("original_max_position_embeddings")
        parameters.setdefault("original_max_position_embeddings", max_positions)
    if rope_type == "dynamic" and "original_max_position_embeddings" in parameters:
        ignored = parameters.pop("original_max_position_embeddings")
        warnings.warn(
            f"rope_type 'dynamic' ignores original_max_position_embeddings={ignored!r}, as transformers does: "
            f"its trained length is max_position_embeddings={max_positions!r}",
            stacklevel=3,  # the caller of RotaryEmbedding.from_config
        )
    rotary_dim = get("rotary_dim")  # GPT-J's rotated width, in features
    width = (
        check_int("config.rotary_dim", rotary_dim, minimum=2)
        if rotary_dim is not None
        else int(check_int("head_dim", head_dim) * partial)
    )
    return {
        "head_dim": width,
        "base": base,
        "scaling": parameters,
        "max_position_embeddings": max_positions if rope_type == "dynamic" else None,
    }
