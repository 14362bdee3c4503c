"""What the code page's production snippets claim, against transformers 5.24 itself.

* ``pe_docs.RotaryEmbedding`` (the code page's ``RotaryEmbedding`` is checked against it on the page) holds the
  ``inv_freq`` and ``attention_scaling`` of ``ROPE_INIT_FUNCTIONS`` / ``LlamaRotaryEmbedding`` for every rope type,
  and returns their ``cos, sin``, bit for bit (both compute ``inv_freq`` with the same float32 ``pow``); ``from_config``
  reads a config as transformers does (dynamic's trained length, a top-level original length, GPT-J's config object).
* A tiny ``LlamaForCausalLM`` (random weights, no download) on a left-padded batch gives the same logits with its
  own rotary embedding and with ``pe_docs``' (patched in, with ``apply_rope`` in place of
  ``apply_rotary_pos_emb``), for the default and the ``llama3`` rope type; and with the query and key projections
  reordered as llama.cpp's converter does (``LlamaModel.permute`` in ggml-org/llama.cpp ``convert_hf_to_gguf.py``),
  the ``"interleaved"`` pairing (llama.cpp's ``LLAMA_ROPE_TYPE_NORM``) gives them too.
* ``generate`` counts a left-padded sequence's positions from its first real token.
* ``pe_docs.sinusoidal_table_2d`` is ViTMAE's fixed table (``ViTMAEEmbeddings.initialize_weights``, the decoder's
  ``initialize_weights``) and, with ``first_half="row"``, ``build_2d_sinusoidal_position_embedding``.
"""

from __future__ import annotations

import importlib
import importlib.util
import math
import sys
import types
from pathlib import Path

import pytest
import torch

from pe_docs import RotaryEmbedding, apply_rope, sinusoidal_table_2d

pytestmark = pytest.mark.pages("code")  # every test here checks what the code page says

ROPE_PARAMETERS = [
    {"rope_type": "default"},
    {"rope_type": "linear", "factor": 4.0},
    {"rope_type": "dynamic", "factor": 2.0},
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024},
    {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 1024, "beta_fast": 16.0,
     "beta_slow": 2.0, "truncate": False},
    {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 1024, "mscale": 1.0,
     "mscale_all_dim": 0.707},
    {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
     "original_max_position_embeddings": 1024},
]  # fmt: skip
MAX_POSITIONS = 4096  # config.max_position_embeddings: 4 × the yarn and llama3 original length
# positions up to 131 072, and calls in an order that makes "dynamic" grow, keep and reset its frequencies
LONG = torch.tensor([[0, 1, 5, 100, 1000, 4095, 8191, 20000, 50000, 99999, 100000, 131071],
                     [131072, 3, 65536, 77777, 12345, 4096, 2, 30000, 1, 0, 9, 10]])  # fmt: skip
CALLS = [LONG, LONG[:, :6], LONG[:1, :8], LONG[:, :2], LONG, LONG[:1, 1:6] - 1]


def _config(dim: int, base: float, parameters: dict, **kwargs):
    from transformers import LlamaConfig

    small = {"vocab_size": 99, "hidden_size": 2 * dim, "intermediate_size": 64, "num_hidden_layers": 1,
             "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": MAX_POSITIONS,
             "rope_parameters": {**parameters, "rope_theta": base}}  # fmt: skip
    small.update(kwargs)
    return LlamaConfig(**small)


def _next_ulp(inv_freq: torch.Tensor) -> torch.Tensor:
    """``inv_freq`` with every entry one float32 ulp larger: what the site's float64-then-rounded buffer was."""
    return torch.nextafter(inv_freq, torch.full_like(inv_freq, math.inf))


@pytest.mark.parametrize("parameters", ROPE_PARAMETERS, ids=lambda p: "-".join(f"{v}" for v in p.values()))
@pytest.mark.parametrize(("dim", "base"), [(64, 10000.0), (128, 500000.0)])
def test_rotary_embedding_is_llama_rotary_embedding(parameters, dim, base):
    """transformers/models/llama/modeling_llama.py ``LlamaRotaryEmbedding`` (``__init__``: ``ROPE_INIT_FUNCTIONS``;
    ``forward``: ``position_ids[..., None].float() * inv_freq``, ``torch.cat((freqs, freqs))``, times
    ``attention_scaling``, the dynamic type's ``dynamic_rope_update``), built from the config as it stands
    (``RotaryEmbedding.from_config``, the code page): the same ``inv_freq`` bit for bit, the same factor, the same
    ``cos`` and ``sin`` at positions up to 131 072, over calls that make the dynamic type grow, keep and reset —
    with a tolerance (2e-6) that a buffer one ulp off fails.

    Page (code): “The first in turn equals transformers 5.24's LlamaRotaryEmbedding exactly: the same inv_freq, bit
    for bit”.
    """
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = _config(dim, base, parameters)
    theirs = LlamaRotaryEmbedding(config)
    ours = RotaryEmbedding.from_config(config)
    assert torch.equal(ours.inv_freq, theirs.inv_freq)
    assert ours.attention_scaling == theirs.attention_scaling
    if parameters["rope_type"] != "default":
        inv_freq, attention = ROPE_INIT_FUNCTIONS[parameters["rope_type"]](config)
        assert torch.equal(ours.inv_freq, inv_freq) and attention == ours.attention_scaling
    for position_ids in CALLS:
        cos, sin = theirs(torch.zeros(1), position_ids)
        our_cos, our_sin = ours(position_ids)
        assert our_cos.shape == cos.shape and our_cos.dtype == cos.dtype == torch.float32
        assert torch.equal(ours.inv_freq, theirs.inv_freq), position_ids.max()
        assert max((our_cos - cos).abs().max().item(), (our_sin - sin).abs().max().item()) <= 2e-6
    off_by_one_ulp = LONG[..., None].float() * _next_ulp(theirs.original_inv_freq)
    assert (off_by_one_ulp.cos() - theirs(torch.zeros(1), LONG)[0][..., : dim // 2]).abs().max().item() > 2e-6


def test_dynamic_from_a_config_with_an_original_length_as_transformers_reads_it():
    """transformers 5.24 ``_compute_dynamic_ntk_parameters`` reads the trained length from
    ``config.max_position_embeddings`` and ``_validate_dynamic_rope_parameters`` warns that
    ``original_max_position_embeddings`` is not a key of this type (it is ignored): ``from_config`` drops it, with a
    warning, and computes the same ``cos``."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = _config(64, 10000.0, {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 1000})
    theirs = LlamaRotaryEmbedding(config)
    with pytest.warns(UserWarning, match="ignores original_max_position_embeddings=1000"):
        ours = RotaryEmbedding.from_config(config)
    assert ours.max_position_embeddings == MAX_POSITIONS
    for position_ids in CALLS:
        assert torch.equal(ours(position_ids)[0], theirs(torch.zeros(1), position_ids)[0])


def test_a_top_level_original_length_comes_first_as_transformers_reads_it():
    """transformers 5.24 ``standardize_rope_params`` (run again by each rope type's function when the model is
    built): for yarn and llama3 a config's own ``original_max_position_embeddings`` (where Phi-3 keeps it) replaces
    the one in ``rope_parameters``; ``from_config`` reads it the same way, from the config as loaded."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    for parameters in (ROPE_PARAMETERS[3], ROPE_PARAMETERS[6]):
        ours = RotaryEmbedding.from_config(_config(64, 10000.0, parameters, original_max_position_embeddings=512))
        config = _config(64, 10000.0, parameters, original_max_position_embeddings=512)
        theirs = LlamaRotaryEmbedding(config)
        assert config.rope_parameters["original_max_position_embeddings"] == 512  # transformers moved it in
        assert ours.scaling["original_max_position_embeddings"] == 512
        assert torch.equal(ours.inv_freq, theirs.inv_freq) and ours.attention_scaling == theirs.attention_scaling


def test_from_config_takes_gptj_config_object():
    """GPT-J's config object names its widths ``n_embd`` and ``n_head`` and maps ``hidden_size`` and
    ``num_attention_heads`` to them (``GPTJConfig.attribute_map``): ``from_config`` takes the object (it refuses
    those names only in a dict), rotates ``rotary_dim`` features, and its angles are GPT-J's own
    (``create_sinusoidal_positions``, whose rows are the sines then the cosines)."""
    from transformers import AutoConfig
    from transformers.models.gptj.modeling_gptj import create_sinusoidal_positions

    config = AutoConfig.for_model("gptj", n_embd=256, n_head=4, rotary_dim=16, n_layer=1, n_positions=2048)
    rotary = RotaryEmbedding.from_config(config)
    assert rotary.head_dim == 16
    cos, sin = rotary(torch.arange(2048)[None])
    theirs = create_sinusoidal_positions(2048, 16)
    assert torch.equal(sin[0, :, :8], theirs[:, :8]) and torch.equal(cos[0, :, :8], theirs[:, 8:])
    with pytest.raises(ValueError, match="config has 'n_embd', 'n_head'"):
        RotaryEmbedding.from_config(config.to_dict())


def test_a_bfloat16_cast_rounds_transformers_inv_freq_and_not_ours(tmp_path):
    """``model.to(torch.bfloat16)`` casts ``LlamaRotaryEmbedding.inv_freq`` (the code page: "after
    model.to(torch.bfloat16)"), whose ``forward`` then forms the angles from the rounded frequencies — what the page's
    block computes by rounding the buffer; ``from_pretrained(..., dtype=torch.bfloat16)`` keeps it float32;
    ``RotaryEmbedding`` keeps its frequencies through the cast."""
    from transformers import LlamaForCausalLM

    config = _config(128, 500000.0, {"rope_type": "default"})
    model = LlamaForCausalLM(config)
    exact = model.model.rotary_emb.inv_freq.clone()
    model.save_pretrained(tmp_path)
    loaded = LlamaForCausalLM.from_pretrained(tmp_path, dtype=torch.bfloat16)
    assert loaded.model.layers[0].self_attn.q_proj.weight.dtype == torch.bfloat16
    assert loaded.model.rotary_emb.inv_freq.dtype == torch.float32
    assert torch.equal(loaded.model.rotary_emb.inv_freq, exact)
    cast = model.to(torch.bfloat16).model.rotary_emb
    assert cast.inv_freq.dtype == torch.bfloat16 and torch.equal(cast.inv_freq, exact.to(torch.bfloat16))
    position_ids = torch.tensor([[1000, 100000]])
    theirs = cast(torch.zeros(1), position_ids)[0]  # float32, as x is
    angle = position_ids[..., None].float() * exact.to(torch.bfloat16).float()
    assert torch.equal(theirs, torch.cat((angle, angle), -1).cos())  # what the page's block computes
    ours = RotaryEmbedding.from_config(config).to(torch.bfloat16)
    assert ours.inv_freq.dtype == torch.float32 and torch.equal(ours.inv_freq, exact)
    assert (ours(position_ids)[0] - theirs).abs().max().item() > 1.9


def _permute_like_llama_cpp(weights: torch.Tensor, n_head: int) -> torch.Tensor:
    """``LlamaModel.permute`` of ggml-org/llama.cpp ``convert_hf_to_gguf.py``: per head, the rows of halves
    ``(i, i + d/2)`` back to neighbours ``(2i, 2i + 1)`` — undoing Hugging Face's ``permute``."""
    return (
        weights.reshape(n_head, 2, weights.shape[0] // n_head // 2, *weights.shape[1:])
        .swapaxes(1, 2)
        .reshape(weights.shape)
    )


class _PeDocsRotary(torch.nn.Module):
    """``pe_docs.RotaryEmbedding`` behind ``LlamaRotaryEmbedding``'s interface: ``forward(x, position_ids)``."""

    def __init__(self, rotary: RotaryEmbedding) -> None:
        super().__init__()
        self.rotary = rotary

    def forward(self, x: torch.Tensor, position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        cos, sin = self.rotary(position_ids)
        return cos.to(x.dtype), sin.to(x.dtype)


LLAMA3 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
          "original_max_position_embeddings": 32}  # fmt: skip


DYNAMIC = {"rope_type": "dynamic", "factor": 2.0}


@pytest.mark.parametrize(
    "parameters", [{"rope_type": "default"}, LLAMA3, DYNAMIC], ids=["default", "llama3", "dynamic"]
)
@pytest.mark.parametrize("start", [0, 120000], ids=["near", "far"])
def test_tiny_llama_gives_the_same_logits_with_pe_docs_rotary(parameters, start, monkeypatch):
    """A 2-layer ``LlamaForCausalLM`` (head_dim 16, grouped-query attention, random weights) on a left-padded batch
    with its attention mask and the position ids ``generate`` would pass (``attention_mask.cumsum(-1) − 1``), near
    the start and past position 120 000: the logits of the real tokens are the same, bit for bit, with
    ``pe_docs.RotaryEmbedding`` + ``apply_rope`` patched in (built from the config, computed once per forward); with
    the llama.cpp-reordered projections and the interleaved pairing they agree to 1e-5 (the sums run in another
    order). The padded row's logits are those of its sequence run alone — and, RoPE seeing only offsets, also with
    positions counted from the pad tokens."""
    from transformers import LlamaForCausalLM
    from transformers.models.llama import modeling_llama

    torch.manual_seed(0)
    config = _config(16, 10000.0, parameters, hidden_size=64, num_attention_heads=4, num_key_value_heads=2,
                     num_hidden_layers=2, max_position_embeddings=256)  # fmt: skip
    config._attn_implementation = "eager"
    model = LlamaForCausalLM(config).eval()
    input_ids = torch.randint(3, 99, (2, 12), generator=torch.Generator().manual_seed(1))
    attention_mask = torch.ones(2, 12, dtype=torch.long)
    attention_mask[0, :4] = 0  # four pad tokens on the left of the first sequence
    input_ids[0, :4] = 0
    position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0) + start
    real = attention_mask.bool()

    def logits(**kwargs) -> torch.Tensor:
        with torch.no_grad():
            return model(input_ids=input_ids, attention_mask=attention_mask, **kwargs).logits

    theirs = logits(position_ids=position_ids)
    if start == 0 and parameters is not DYNAMIC:  # (dynamic's frequencies depend on the largest position)
        with torch.no_grad():
            alone = model(input_ids=input_ids[:1, 4:]).logits
        torch.testing.assert_close(theirs[0, 4:], alone[0], rtol=0, atol=1e-5)
        # RoPE sees offsets only: positions counted from the pads (all shifted by 4) give the same logits too
        counted_from_pads = torch.arange(12).expand(2, 12)
        torch.testing.assert_close(logits(position_ids=counted_from_pads)[0, 4:], alone[0], rtol=0, atol=1e-5)

    calls = []
    model.model.rotary_emb = _PeDocsRotary(RotaryEmbedding.from_config(config))
    model.model.rotary_emb.register_forward_hook(lambda *args: calls.append(1))
    monkeypatch.setattr(modeling_llama, "apply_rotary_pos_emb", lambda q, k, cos, sin: apply_rope(q, k, cos, sin))
    ours = logits(position_ids=position_ids)
    assert len(calls) == 1  # cos and sin computed once per forward, for both layers (LlamaModel.forward)
    assert torch.equal(ours[real], theirs[real])

    # llama.cpp's converter: rows reordered to neighbours, then RoPE pairs neighbours (LLAMA_ROPE_TYPE_NORM)
    with torch.no_grad():
        for layer in model.model.layers:
            attention = layer.self_attn
            attention.q_proj.weight.copy_(_permute_like_llama_cpp(attention.q_proj.weight, 4))
            attention.k_proj.weight.copy_(_permute_like_llama_cpp(attention.k_proj.weight, 2))
    model.model.rotary_emb = _PeDocsRotary(RotaryEmbedding.from_config(config))
    monkeypatch.setattr(
        modeling_llama,
        "apply_rotary_pos_emb",
        lambda q, k, cos, sin: apply_rope(q, k, cos, sin, pairing="interleaved"),
    )
    torch.testing.assert_close(logits(position_ids=position_ids)[real], theirs[real], rtol=0, atol=1e-5)
    monkeypatch.setattr(modeling_llama, "apply_rotary_pos_emb", lambda q, k, cos, sin: apply_rope(q, k, cos, sin))
    assert (logits(position_ids=position_ids)[real] - theirs[real]).abs().max().item() > 1e-3  # reordered, "half"


def _module_alone(package: str, module: str):
    """Import ``package.module`` as installed, without running the ``__init__`` of ``package`` or of the packages
    between: torchtune's imports torchao and datasets, timm's torchvision, none of which this tier installs (PyPI's
    torchvision does not load beside the CPU build of torch 2.13). The module's own code runs unchanged; its
    packages are bare modules pointing at their folders, removed again by the fixture below."""
    parent = sys.modules.get(package)
    root = Path(
        parent.__path__[0] if parent is not None else importlib.util.find_spec(package).submodule_search_locations[0]
    )
    parts = module.split(".")
    for i in range(len(parts)):
        name = ".".join([package, *parts[:i]])
        if name not in sys.modules:
            bare = types.ModuleType(name)
            bare.__path__ = [str(root.joinpath(*parts[:i]))]
            sys.modules[name] = bare
    return importlib.import_module(f"{package}.{module}")


@pytest.fixture
def alone():
    before = set(sys.modules)
    yield _module_alone
    for name in set(sys.modules) - before:
        if name.split(".")[0] in ("torchtune", "timm"):
            del sys.modules[name]


def test_interleaved_is_torchtune_rotary_positional_embeddings(alone):
    """torchtune 0.6 ``torchtune/modules/position_embeddings.py`` ``RotaryPositionalEmbeddings`` (``theta``: ``1.0 /
    base ** (arange(0, dim, 2).float() / dim)``; a cache of ``cos, sin`` per position; neighbouring features
    ``(x0, x1)`` become ``(x0·cos − x1·sin, x1·cos + x0·sin)``; input ``(batch, seq, heads, head_dim)``): the same
    frequencies and the same rotated queries, bit for bit, as ``apply_rope(..., pairing="interleaved")``, at positions
    up to 131 072 given per token (``input_pos``, packed or left-padded batches).

    Page (code): “holds the "interleaved" pairing to torchtune's RotaryPositionalEmbeddings and Llama3ScaledRoPE”.
    """
    theirs = alone("torchtune", "modules.position_embeddings").RotaryPositionalEmbeddings(64, max_seq_len=131073)
    ours = RotaryEmbedding(64)
    assert torch.equal(theirs.theta, ours.inv_freq)
    x = torch.randn(2, LONG.shape[1], 4, 64, generator=torch.Generator().manual_seed(0))  # (batch, seq, heads, d)
    rotated, _ = apply_rope(x.transpose(1, 2), x.transpose(1, 2), *ours(LONG), pairing="interleaved")
    assert torch.equal(rotated.transpose(1, 2), theirs(x, input_pos=LONG))
    assert not torch.equal(apply_rope(x.transpose(1, 2), x.transpose(1, 2), *ours(LONG))[0].transpose(1, 2),
                           theirs(x, input_pos=LONG))  # the "half" pairing is another function  # fmt: skip


def test_llama3_scaling_is_torchtune_llama3_scaled_rope(alone):
    """torchtune 0.6 ``torchtune/models/llama3_1/_position_embeddings.py`` ``Llama3ScaledRoPE`` (Meta's
    ``apply_scaling``, a Python loop over the frequencies; interleaved pairs): the frequencies of
    ``rope_type: "llama3"`` and the rotated queries, bit for bit.

    Page (code): “holds the "interleaved" pairing to torchtune's RotaryPositionalEmbeddings and Llama3ScaledRoPE”.
    """
    module = alone("torchtune", "models.llama3_1._position_embeddings")
    theirs = module.Llama3ScaledRoPE(128, max_seq_len=131073, base=500000, scale_factor=8, low_freq_factor=1,
                                     high_freq_factor=4, old_context_len=8192)  # fmt: skip
    llama31 = {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 8192}  # fmt: skip
    ours = RotaryEmbedding(128, base=500000.0, scaling=llama31)
    assert torch.equal(theirs.theta, ours.inv_freq)
    x = torch.randn(2, LONG.shape[1], 2, 128, generator=torch.Generator().manual_seed(1))
    rotated, _ = apply_rope(x.transpose(1, 2), x.transpose(1, 2), *ours(LONG), pairing="interleaved")
    assert torch.equal(rotated.transpose(1, 2), theirs(x, input_pos=LONG))


def test_interleaved_is_rotary_embedding_torch():
    """rotary-embedding-torch 0.9 (lucidrains) ``RotaryEmbedding.rotate_queries_or_keys``: neighbouring pairs
    (its ``rotate_half`` rotates every two features), frequencies ``1 / theta ** (arange(0, dim, 2).float() / dim)``,
    positions ``arange(seq) + offset`` in the queries' dtype: the same rotated queries, bit for bit, as
    ``apply_rope(..., pairing="interleaved")``, here at positions 131 000 to 131 071.

    Page (code): “holds the "interleaved" pairing to torchtune's RotaryPositionalEmbeddings and Llama3ScaledRoPE and
    to rotary-embedding-torch”.
    """
    from rotary_embedding_torch import RotaryEmbedding as Lucidrains

    theirs = Lucidrains(dim=32, theta=10000)
    ours = RotaryEmbedding(32)
    assert torch.equal(theirs.freqs, ours.inv_freq)
    q = torch.randn(1, 3, 72, 32, generator=torch.Generator().manual_seed(2))  # (batch, heads, seq, head_dim)
    position_ids = torch.arange(131000, 131072)[None]
    rotated, _ = apply_rope(q, q, *ours(position_ids), pairing="interleaved")
    assert torch.equal(rotated, theirs.rotate_queries_or_keys(q, offset=131000))


def test_vit_mae_table_is_sinusoidal_table_2d():
    """transformers/models/vit_mae/modeling_vit_mae.py: ``ViTMAEEmbeddings.initialize_weights`` and the decoder's
    ``initialize_weights`` copy ``build_2d_sinusoidal_position_embedding(..., cls_token=True)`` with its two halves
    swapped — the column index first, as MAE's checkpoints were trained (facebookresearch/mae); the function itself
    puts the row first (``[sin_h | cos_h | sin_w | cos_w]``). In 5.24 a model built from a config holds zeros in
    both tables (the code page says so): ``initialize_weights`` returns early once the patch projection is marked
    ``_is_hf_initialized``, and ``ViTMAEPreTrainedModel._init_weights`` zeroes ``decoder_pos_embed``; a checkpoint
    loaded with ``from_pretrained`` brings its own table. Here the two methods are called directly."""
    from transformers import ViTMAEConfig, ViTMAEForPreTraining
    from transformers.models.vit_mae.modeling_vit_mae import build_2d_sinusoidal_position_embedding

    torch.manual_seed(0)
    config = ViTMAEConfig(image_size=56, patch_size=8, hidden_size=64, num_hidden_layers=1, num_attention_heads=2,
                          intermediate_size=32, decoder_hidden_size=32, decoder_num_hidden_layers=1,
                          decoder_num_attention_heads=2, decoder_intermediate_size=32)  # fmt: skip
    model = ViTMAEForPreTraining(config)
    embeddings, decoder = model.vit.embeddings, model.decoder
    assert not embeddings.position_embeddings.requires_grad and not decoder.decoder_pos_embed.requires_grad
    assert not embeddings.position_embeddings.any().item() and not decoder.decoder_pos_embed.any().item()  # zeros
    embeddings.patch_embeddings.projection._is_hf_initialized = False
    with torch.no_grad():
        embeddings.initialize_weights()
        decoder.initialize_weights(7 * 7)
    encoder_table, decoder_table = embeddings.position_embeddings[0], decoder.decoder_pos_embed[0]
    assert encoder_table.shape == (1 + 7 * 7, 64)
    assert torch.equal(encoder_table, sinusoidal_table_2d(7, 7, 64, cls_token=True))
    assert torch.equal(decoder_table, sinusoidal_table_2d(7, 7, 32, cls_token=True))
    for height, width in ((7, 7), (3, 5)):
        theirs = build_2d_sinusoidal_position_embedding(height, width, embed_dim=48)
        assert torch.equal(theirs, sinusoidal_table_2d(height, width, 48, first_half="row"))
        assert not torch.equal(theirs, sinusoidal_table_2d(height, width, 48))


def test_generate_counts_positions_from_the_first_real_token():
    """transformers/generation/utils.py ``_prepare_position_ids_for_generation``: with an attention mask,
    ``attention_mask.cumsum(-1) − 1``, the pad positions set to 0 — what the code page's left-padding block
    computes and passes as ``position_ids``."""
    from transformers import LlamaForCausalLM

    model = LlamaForCausalLM(_config(16, 10000.0, {"rope_type": "default"}, hidden_size=32, num_attention_heads=2))
    attention_mask = torch.tensor([[0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1]])
    input_ids = torch.ones(2, 6, dtype=torch.long)
    position_ids = model._prepare_position_ids_for_generation(input_ids, {"attention_mask": attention_mask})
    assert position_ids.tolist() == [[0, 0, 0, 1, 2, 3], [0, 1, 2, 3, 4, 5]]
    assert torch.equal(position_ids, (attention_mask.cumsum(-1) - 1).masked_fill(attention_mask == 0, 0))


def test_timm_2d_table_is_sinusoidal_table_2d_in_another_order(alone):
    """timm 1.0 ``timm/layers/pos_embed_sincos.py`` ``build_sincos2d_pos_embed`` (the code page's 2-D section):
    ``[sin row | sin col | cos row | cos col]`` over a row-major grid, frequencies ``1 / temperature ** (i / q)``
    in float32 — the column order the page converts back with ``to_mae``, within float32's rounding of the float64
    phase; ``reverse_coord=True`` builds the table of the transposed grid (width × height), on a square grid the
    same table.

    Page (code): “timm (build_sincos2d_pos_embed in timm/layers/pos_embed_sincos.py, 1.0) keeps the row first and
    puts both sines before both cosines”.
    """
    build = alone("timm", "layers.pos_embed_sincos").build_sincos2d_pos_embed
    height, width, d = 3, 5, 32
    q = d // 4
    to_mae = torch.cat([torch.arange(q) + start * q for start in (1, 3, 0, 2)])
    mae = sinusoidal_table_2d(height, width, d)
    theirs = build([height, width], dim=d)
    assert theirs.shape == (height * width, d) and theirs.dtype == torch.float32
    torch.testing.assert_close(theirs[:, to_mae], mae, rtol=0, atol=2e-7)
    assert (theirs - mae).abs().max().item() > 1.9  # unconverted
    reversed_coord = build([height, width], dim=d, reverse_coord=True)
    assert torch.equal(reversed_coord, build([width, height], dim=d))  # the transposed grid's table
    torch.testing.assert_close(reversed_coord[:, to_mae], sinusoidal_table_2d(width, height, d), rtol=0, atol=2e-7)
    assert torch.equal(build([4, 4], dim=d, reverse_coord=True), build([4, 4], dim=d))  # square: the same table


def test_into_a_bfloat16_llama_both_pieces_must_be_replaced(monkeypatch):
    """The code page's "Into a transformers model": a module returning RotaryEmbedding's float32 ``cos, sin`` in
    place of ``LlamaModel.rotary_emb`` alone makes transformers' ``apply_rotary_pos_emb`` upcast bfloat16 queries and
    keys, and attention refuses the mixed dtypes; with ``apply_rope`` patched in too, the model runs in bfloat16."""
    from transformers import LlamaForCausalLM
    from transformers.models.llama import modeling_llama

    class Adapter(torch.nn.Module):  # the page's three lines
        def __init__(self, rotary: RotaryEmbedding) -> None:
            super().__init__()
            self.rotary = rotary

        def forward(self, x: torch.Tensor, position_ids: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            return self.rotary(position_ids)

    torch.manual_seed(0)
    config = _config(16, 10000.0, {"rope_type": "default"}, hidden_size=64, num_attention_heads=4,
                     num_key_value_heads=2, num_hidden_layers=1, max_position_embeddings=256)  # fmt: skip
    config._attn_implementation = "eager"
    model = LlamaForCausalLM(config).eval().to(torch.bfloat16)
    model.model.rotary_emb = Adapter(RotaryEmbedding.from_config(config))
    input_ids = torch.randint(3, 99, (1, 8), generator=torch.Generator().manual_seed(1))
    with torch.no_grad(), pytest.raises(RuntimeError, match="dtype"):
        model(input_ids=input_ids)
    monkeypatch.setattr(modeling_llama, "apply_rotary_pos_emb", lambda q, k, cos, sin: apply_rope(q, k, cos, sin))
    with torch.no_grad():
        logits = model(input_ids=input_ids).logits
    assert logits.dtype == torch.bfloat16 and torch.isfinite(logits).all()
