"""What the code page's production snippets claim, against transformers 5.24 itself.

* ``pe_docs.RotaryEmbedding`` (the code page's ``RotaryEmbedding`` is checked against it on the page) holds the
  ``inv_freq`` and ``attention_scaling`` of ``ROPE_INIT_FUNCTIONS`` / ``LlamaRotaryEmbedding`` for every rope type,
  and returns their ``cos, sin``; transformers computes ``inv_freq`` with a float32 ``pow``, ``pe_docs`` rounds the
  float64 value once, so the two differ by at most an ulp per entry and the angles by at most position × that.
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

import math

import pytest
import torch

from pe_docs import RotaryEmbedding, apply_rope, rope_frequencies, sinusoidal_table_2d

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


def _config(dim: int, base: float, parameters: dict, **kwargs):
    from transformers import LlamaConfig

    small = {"vocab_size": 99, "hidden_size": 2 * dim, "intermediate_size": 64, "num_hidden_layers": 1,
             "num_attention_heads": 2, "num_key_value_heads": 2, "max_position_embeddings": MAX_POSITIONS,
             "rope_parameters": {**parameters, "rope_theta": base}}  # fmt: skip
    small.update(kwargs)
    return LlamaConfig(**small)


def _scaling(config) -> dict:
    scaling = dict(config.rope_parameters)  # as transformers standardised it (rope_theta inside)
    if scaling["rope_type"] == "dynamic":  # transformers reads the trained length from max_position_embeddings
        scaling["original_max_position_embeddings"] = config.max_position_embeddings
    return scaling


def _ulps(ours: torch.Tensor, theirs: torch.Tensor) -> torch.Tensor:
    """How many float32 ulps apart two float32 tensors of positive numbers are."""
    return (ours.view(torch.int32).long() - theirs.view(torch.int32).long()).abs()


@pytest.mark.parametrize("parameters", ROPE_PARAMETERS, ids=lambda p: "-".join(f"{v}" for v in p.values()))
@pytest.mark.parametrize(("dim", "base"), [(64, 10000.0), (128, 500000.0)])
def test_rotary_embedding_is_llama_rotary_embedding(parameters, dim, base):
    """transformers/models/llama/modeling_llama.py ``LlamaRotaryEmbedding`` (``__init__``: ``ROPE_INIT_FUNCTIONS``;
    ``forward``: ``position_ids[..., None].float() * inv_freq``, ``torch.cat((freqs, freqs))``, times
    ``attention_scaling``): the same buffer to an ulp, the same factor, the same cos and sin within what that
    ulp moves the float32 angle, at positions up to 10⁵ (past the dynamic type's trained length, where both
    recompute the frequencies)."""
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = _config(dim, base, parameters)
    theirs = LlamaRotaryEmbedding(config)
    ours = RotaryEmbedding(dim, base=base, scaling=_scaling(config))
    assert _ulps(ours.inv_freq, theirs.inv_freq).max().item() <= 8  # theirs: a chain of float32 operations
    assert math.isclose(ours.attention_scaling, theirs.attention_scaling, rel_tol=1e-12)
    if parameters["rope_type"] != "default":
        inv_freq, attention = ROPE_INIT_FUNCTIONS[parameters["rope_type"]](config)
        assert torch.equal(theirs.inv_freq, inv_freq) and attention == theirs.attention_scaling
    position_ids = torch.tensor([[0, 1, 5, 100, 1000, 4095], [8191, 20000, 50000, 99999, 100000, 3]])
    cos, sin = theirs(torch.zeros(1), position_ids)
    our_cos, our_sin = ours(position_ids)
    assert our_cos.shape == cos.shape == (2, 6, dim) and our_cos.dtype == cos.dtype == torch.float32
    w, w_theirs = ours.inv_freq.double(), theirs.inv_freq.double()
    if parameters["rope_type"] == "dynamic":  # both recomputed for max(position_ids) + 1 = 100001
        w = rope_frequencies(dim, base=base, scaling=_scaling(config), seq_len=100001).inv_freq
        w_theirs = w * (1 + 8 * 2.0**-23)
    # the position times the gap between the frequencies, and each float32 product rounded (2⁻²⁴ of the angle)
    p = position_ids[..., None].double()
    angle_gap = p * (w - w_theirs).abs() + p * w * 2 * 2.0**-24
    bound = ours.attention_scaling * (torch.cat((angle_gap, angle_gap), -1) + 4 * 2.0**-24)
    assert ((our_cos - cos).abs() <= bound).all().item() and ((our_sin - sin).abs() <= bound).all().item()
    near = position_ids < 1000
    assert (our_cos - cos)[near].abs().max().item() < 1e-5


def test_dynamic_keeps_no_state_where_transformers_does():
    """transformers/modeling_rope_utils.py ``dynamic_rope_update``: ``LlamaRotaryEmbedding`` keeps the frequencies of
    the longest length seen (``max_seq_len_cached``) until a call shorter than ``max_position_embeddings``;
    ``RotaryEmbedding`` uses the current call's length. They agree on growing lengths and below the trained
    length, and differ for a call between the two after a longer one — as the docstring says."""
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    config = _config(64, 10000.0, {"rope_type": "dynamic", "factor": 2.0}, max_position_embeddings=1000)
    theirs = LlamaRotaryEmbedding(config)
    ours = RotaryEmbedding(64, scaling=_scaling(config))

    def gap(length: int) -> float:
        position_ids = torch.arange(length)[None]
        return (ours(position_ids)[0] - theirs(torch.zeros(1), position_ids)[0]).abs().max().item()

    assert gap(500) < 1e-4 and gap(2000) < 1e-3 and gap(8000) < 5e-3  # growing
    assert gap(3000) > 0.1  # after 8000: transformers still uses the frequencies of 8000
    assert gap(800) < 1e-4  # below the trained length: both back to the original ladder


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


@pytest.mark.parametrize("parameters", [{"rope_type": "default"}, LLAMA3], ids=["default", "llama3"])
def test_tiny_llama_gives_the_same_logits_with_pe_docs_rotary(parameters, monkeypatch):
    """A 2-layer ``LlamaForCausalLM`` (head_dim 16, grouped-query attention, random weights) on a left-padded batch
    with its attention mask and the position ids ``generate`` would pass (``attention_mask.cumsum(-1) − 1``): the
    logits of the real tokens are the same with ``pe_docs.RotaryEmbedding`` + ``apply_rope`` patched in, and with
    the llama.cpp-reordered projections and the interleaved pairing. The padded row's logits are those of its
    sequence run alone — and, RoPE seeing only offsets, also with positions counted from the pad tokens."""
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
    position_ids = (attention_mask.cumsum(-1) - 1).clamp(min=0)
    real = attention_mask.bool()

    def logits(**kwargs) -> torch.Tensor:
        with torch.no_grad():
            return model(input_ids=input_ids, attention_mask=attention_mask, **kwargs).logits

    theirs = logits(position_ids=position_ids)
    with torch.no_grad():
        alone = model(input_ids=input_ids[:1, 4:]).logits
    torch.testing.assert_close(theirs[0, 4:], alone[0], rtol=0, atol=1e-5)
    # RoPE sees offsets only: positions counted from the pads (all shifted by 4) give the same logits too
    counted_from_pads = torch.arange(12).expand(2, 12)
    torch.testing.assert_close(logits(position_ids=counted_from_pads)[0, 4:], alone[0], rtol=0, atol=1e-5)

    scaling = _scaling(config)
    calls = []
    model.model.rotary_emb = _PeDocsRotary(RotaryEmbedding(16, scaling=scaling))
    model.model.rotary_emb.register_forward_hook(lambda *args: calls.append(1))
    monkeypatch.setattr(modeling_llama, "apply_rotary_pos_emb", lambda q, k, cos, sin: apply_rope(q, k, cos, sin))
    ours = logits(position_ids=position_ids)
    assert len(calls) == 1  # cos and sin computed once per forward, for both layers (LlamaModel.forward)
    torch.testing.assert_close(ours[real], theirs[real], rtol=0, atol=1e-5)

    # llama.cpp's converter: rows reordered to neighbours, then RoPE pairs neighbours (LLAMA_ROPE_TYPE_NORM)
    with torch.no_grad():
        for layer in model.model.layers:
            attention = layer.self_attn
            attention.q_proj.weight.copy_(_permute_like_llama_cpp(attention.q_proj.weight, 4))
            attention.k_proj.weight.copy_(_permute_like_llama_cpp(attention.k_proj.weight, 2))
    interleaved = RotaryEmbedding(16, scaling=scaling, pairing="interleaved")
    model.model.rotary_emb = _PeDocsRotary(interleaved)
    monkeypatch.setattr(
        modeling_llama,
        "apply_rotary_pos_emb",
        lambda q, k, cos, sin: apply_rope(q, k, cos, sin, pairing="interleaved"),
    )
    torch.testing.assert_close(logits(position_ids=position_ids)[real], theirs[real], rtol=0, atol=1e-5)
    model.model.rotary_emb = _PeDocsRotary(RotaryEmbedding(16, scaling=scaling))
    monkeypatch.setattr(modeling_llama, "apply_rotary_pos_emb", lambda q, k, cos, sin: apply_rope(q, k, cos, sin))
    assert (logits(position_ids=position_ids)[real] - theirs[real]).abs().max().item() > 1e-3  # reordered, "half"


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
