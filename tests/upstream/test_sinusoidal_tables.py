"""The sinusoidal tables of the libraries the variants page describes, as the libraries' own modules build them,
against ``pe_docs``' re-implementations (pe_docs/variants/libraries.py) and against what the page says of them.

Each model is built from a small config with random weights (nothing is downloaded); its table is read where the
module keeps it after initialisation. The re-implementations follow each library's arithmetic in its own dtypes,
so where the library computes with torch (or NumPy) the tables must be equal bit for bit; ``identify_table`` then
reads back the layout, spacing, first position and padding row the page's table ("Who ships which table") gives.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
import torch

from pe_docs import identify_table
from pe_docs.variants import (
    diffusers_timestep_embedding,
    fairseq_weights,
    hf_marian_weights,
    keras_sine_position_encoding,
    whisper_sinusoids,
)

pytestmark = pytest.mark.pages("variants")  # every test here checks what the variants page says

# ---------------------------------------------------------------------------------------------- transformers

SMALL = {"vocab_size": 99, "d_model": 64, "encoder_layers": 1, "decoder_layers": 1, "encoder_attention_heads": 2,
         "decoder_attention_heads": 2, "encoder_ffn_dim": 32, "decoder_ffn_dim": 32, "pad_token_id": 1,
         "bos_token_id": 0, "eos_token_id": 2, "decoder_start_token_id": 2}  # fmt: skip


def _identified(table, name, *, zero_rows=(), rows="table", offset=0):
    match = identify_table(table)
    assert (match.name, match.rows, match.offset, match.zero_rows) == (name, rows, offset, zero_rows), match
    assert not match.is_bug and match.max_error <= match.atol
    return match


def test_marian_port_builds_the_paper_table_in_sin_cos_layout():
    """transformers/models/marian/modeling_marian.py: ``MarianSinusoidalPositionalEmbedding.create_weight``, copied
    into the encoder's and decoder's ``embed_positions.weight`` by ``MarianPreTrainedModel._init_weights``.

    Page (variants): Hugging Face's Marian port computes XLM's float64 NumPy formula (the paper's spacing) with the
    sines first — ``hf_marian_weights`` — and rounds once to float32 (within 2⁻²⁵ of the float64 table).

    Page (variants): “MarianSinusoidalPositionalEmbedding computes XLM's formula (the paper's spacing) and only
    moves the sines first”.
    """
    from transformers import MarianConfig, MarianModel

    model = MarianModel(MarianConfig(**SMALL, max_position_embeddings=512)).eval()
    for weight in (model.encoder.embed_positions.weight, model.decoder.embed_positions.weight):
        assert weight.dtype == torch.float32 and not weight.requires_grad
        assert torch.equal(weight, hf_marian_weights(512, 64))
    _identified(model.encoder.embed_positions.weight.detach(), "concat")
    # an odd width: ⌈d/2⌉ sines, then ⌊d/2⌋ cosines, as the page's odd-width block says
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    odd = MarianSinusoidalPositionalEmbedding(10, 7)
    assert torch.equal(odd.create_weight(), hf_marian_weights(10, 7))
    # forward looks rows up by position, from the length of the cache on (its second argument, named
    # past_key_values_length up to transformers 5.23 and cache_length from 5.24)
    module = model.decoder.embed_positions
    assert torch.equal(module(torch.Size([1, 5]), 3), hf_marian_weights(8, 64)[3:8])


@pytest.mark.parametrize(
    ("model_name", "module_path"),
    [
        ("FSMT", "transformers/models/fsmt/modeling_fsmt.py: SinusoidalPositionalEmbedding.get_embedding"),
        ("M2M100", "transformers/models/m2m_100/modeling_m2m_100.py: "
                   "M2M100SinusoidalPositionalEmbedding.get_embedding"),
        ("Speech2Text", "transformers/models/speech_to_text/modeling_speech_to_text.py: "
                        "Speech2TextSinusoidalPositionalEmbedding.get_embedding"),
    ],
)  # fmt: skip
def test_fairseq_ports_build_fairseqs_weights(model_name, module_path):
    """The fairseq ports in transformers — FSMT (``SinusoidalPositionalEmbedding``), M2M100 and Speech2Text (their
    ``…SinusoidalPositionalEmbedding``; weights written by each ``PreTrainedModel._init_weights``) — build fairseq's
    ``get_embedding`` matrix: ``fairseq_weights`` bit for bit, tensor2tensor's spacing ``d/2 − 1`` in ``[sin | cos]``,
    row ``padding_idx`` zeroed, tokens numbered from ``padding_idx + 1`` (page: variants, the fairseq row and note).
    """
    import transformers

    pad = 1
    if model_name == "FSMT":
        config = transformers.FSMTConfig(
            langs=["en", "de"], src_vocab_size=99, tgt_vocab_size=99, d_model=64, encoder_layers=1,
            decoder_layers=1, encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
            decoder_ffn_dim=32, max_position_embeddings=300, pad_token_id=pad,
        )  # fmt: skip
        encoder = transformers.FSMTModel(config).eval().encoder
        module, weight = encoder.embed_positions, encoder.embed_positions.weight
        rows = 300 + pad + 1  # FSMTEncoder: max_position_embeddings + padding_idx + 1
    elif model_name == "M2M100":
        config = transformers.M2M100Config(**SMALL, max_position_embeddings=300)
        encoder = transformers.M2M100Model(config).eval().encoder
        module, weight = encoder.embed_positions, encoder.embed_positions.weights
        rows = 300 + 2  # M2M100SinusoidalPositionalEmbedding: num_positions + offset 2
    else:
        config = transformers.Speech2TextConfig(**SMALL, max_source_positions=300, max_target_positions=300,
                                                input_feat_per_channel=8, conv_channels=8)  # fmt: skip
        decoder = transformers.Speech2TextModel(config).eval().decoder
        module, weight = decoder.embed_positions, decoder.embed_positions.weights
        rows = 300 + 2
    assert weight.shape == (rows, 64), module_path
    assert torch.equal(weight, fairseq_weights(rows, 64, padding_idx=pad)), module_path
    _identified(weight.detach(), "tensor2tensor", zero_rows=(pad,))
    # a sequence of 5 real tokens reads rows padding_idx + 1 … padding_idx + 5
    tokens = torch.tensor([[4, 5, 6, 7, 8]])
    out = module(tokens)
    assert torch.equal(out.reshape(5, 64), fairseq_weights(rows, 64, padding_idx=pad)[pad + 1 : pad + 6])


def test_transformers_whisper_encoder_uses_whispers_sinusoids():
    """transformers/models/whisper/modeling_whisper.py: ``sinusoids``, copied into ``WhisperEncoder.embed_positions``
    by ``WhisperPreTrainedModel._init_weights``; the decoder's ``WhisperPositionalEmbedding`` is learned.

    Page (variants): Whisper's audio encoder uses tensor2tensor's spacing in ``[sin | cos]``, float32."""
    from transformers import WhisperConfig, WhisperModel
    from transformers.models.whisper.modeling_whisper import WhisperPositionalEmbedding, sinusoids

    config = WhisperConfig(vocab_size=99, num_mel_bins=8, d_model=64, encoder_layers=1, decoder_layers=1,
                           encoder_attention_heads=2, decoder_attention_heads=2, encoder_ffn_dim=32,
                           decoder_ffn_dim=32, max_source_positions=1500, max_target_positions=64, pad_token_id=1,
                           bos_token_id=0, eos_token_id=2, decoder_start_token_id=2)  # fmt: skip
    model = WhisperModel(config).eval()
    table = model.encoder.embed_positions.weight.detach()
    assert torch.equal(table, whisper_sinusoids(1500, 64))
    assert torch.equal(sinusoids(1500, 64), whisper_sinusoids(1500, 64))
    _identified(table, "tensor2tensor")
    assert isinstance(model.decoder.embed_positions, WhisperPositionalEmbedding)
    assert identify_table(model.decoder.embed_positions.weight.detach()).name == "unknown"  # random, learned


def test_distilbert_builds_the_paper_table_only_when_switched_on():
    """transformers/models/distilbert/modeling_distilbert.py: ``_create_sinusoidal_embeddings`` (called from
    ``DistilBertPreTrainedModel._init_weights`` when ``config.sinusoidal_pos_embds``), and
    ``configuration_distilbert.py``: ``sinusoidal_pos_embds=False`` by default.

    Page (variants): DistilBERT learns its positions by default; switched on, the table is the paper's,
    interleaved — ``distilbert_weights``."""
    from transformers import DistilBertConfig, DistilBertModel

    from pe_docs.variants import distilbert_weights

    assert DistilBertConfig().sinusoidal_pos_embds is False
    small = {"vocab_size": 99, "dim": 64, "n_layers": 1, "n_heads": 2, "hidden_dim": 32, "max_position_embeddings": 256}
    learned = DistilBertModel(DistilBertConfig(**small)).eval().embeddings.position_embeddings.weight.detach()
    assert identify_table(learned).name == "unknown"
    model = DistilBertModel(DistilBertConfig(**small, sinusoidal_pos_embds=True)).eval()
    table = model.embeddings.position_embeddings.weight.detach()
    assert torch.equal(table, distilbert_weights(256, 64))
    _identified(table, "paper")


# ------------------------------------------------------------------------------------------- openai-whisper


def test_openai_whisper_sinusoids_and_the_audio_encoder_buffer():
    """whisper/model.py (openai-whisper): ``sinusoids``, registered as ``AudioEncoder.positional_embedding``;
    ``TextDecoder.positional_embedding`` is an ``nn.Parameter`` (learned).

    Page (variants): ``whisper_sinusoids`` — ``log(max_timescale) / (channels // 2 − 1)`` in float64, then
    float32 — tensor2tensor's spacing in ``[sin | cos]``, in the audio encoder only.

    Page (variants): “Whisper uses this fixed table in its audio encoder only; its text decoder learns its
    positions”.
    """
    from whisper.model import AudioEncoder, TextDecoder, sinusoids

    for length, channels in ((1500, 384), (1500, 512), (100, 1280), (7, 4)):
        assert torch.equal(sinusoids(length, channels), whisper_sinusoids(length, channels)), (length, channels)
    encoder = AudioEncoder(n_mels=8, n_ctx=1500, n_state=64, n_head=2, n_layer=1)
    assert torch.equal(encoder.positional_embedding, whisper_sinusoids(1500, 64))
    _identified(encoder.positional_embedding, "tensor2tensor")
    decoder = TextDecoder(n_vocab=99, n_ctx=16, n_state=64, n_head=2, n_layer=1)
    assert isinstance(decoder.positional_embedding, torch.nn.Parameter)
    with pytest.raises(AssertionError):
        sinusoids(10, 7)  # Whisper asserts an even width; whisper_sinusoids raises ValueError


# ------------------------------------------------------------------------------------------------ diffusers


@pytest.mark.parametrize("flip", [False, True])
@pytest.mark.parametrize("shift", [0.0, 1.0])
@pytest.mark.parametrize("dim", [320, 256, 7])
def test_diffusers_get_timestep_embedding(flip, shift, dim):
    """diffusers/models/embeddings.py: ``get_timestep_embedding`` — ``diffusers_timestep_embedding`` bit for bit,
    integer and fractional timesteps, odd widths padded with a zero column.

    Page (variants): “diffusers' downscale_freq_shift = s sets the spacing w_i = 10000^(−i/(d/2 − s))”.
    """
    from diffusers.models.embeddings import get_timestep_embedding

    for steps in (torch.arange(1000), torch.linspace(0, 999.5, 77), torch.tensor([0, 1, 999])):
        theirs = get_timestep_embedding(steps, dim, flip_sin_to_cos=flip, downscale_freq_shift=shift)
        ours = diffusers_timestep_embedding(steps, dim, flip_sin_to_cos=flip, downscale_freq_shift=shift)
        assert torch.equal(theirs, ours)
    theirs = get_timestep_embedding(torch.arange(10), dim, flip_sin_to_cos=flip, scale=2.5, max_period=500)
    assert torch.equal(theirs, diffusers_timestep_embedding(torch.arange(10), dim, flip_sin_to_cos=flip, scale=2.5,
                                                            max_period=500))  # fmt: skip


def test_diffusers_layouts_and_the_defaults_the_page_names():
    """diffusers/models/unets/unet_2d_condition.py: ``UNet2DConditionModel.__init__`` defaults
    ``flip_sin_to_cos=True, freq_shift=0``; diffusers/models/embeddings.py: ``CombinedTimestepLabelEmbeddings``
    builds ``Timesteps(num_channels=256, flip_sin_to_cos=True, downscale_freq_shift=1)``.

    Page (variants): the default ``downscale_freq_shift=1`` is tensor2tensor's spacing in ``[sin | cos]``; the Stable
    Diffusion UNet's defaults give ``[cos | sin]`` with the paper's spacing; DiT's ``CombinedTimestepLabelEmbeddings``
    ``[cos | sin]`` with tensor2tensor's."""
    from diffusers import UNet2DConditionModel
    from diffusers.models.embeddings import CombinedTimestepLabelEmbeddings, get_timestep_embedding

    defaults = inspect.signature(UNet2DConditionModel.__init__).parameters
    assert (defaults["flip_sin_to_cos"].default, defaults["freq_shift"].default) == (True, 0)
    dit = CombinedTimestepLabelEmbeddings(num_classes=10, embedding_dim=64).time_proj
    assert (dit.num_channels, dit.flip_sin_to_cos, dit.downscale_freq_shift) == (256, True, 1)
    steps = torch.arange(1000)
    _identified(get_timestep_embedding(steps, 320), "tensor2tensor")
    _identified(get_timestep_embedding(steps, 320, flip_sin_to_cos=True, downscale_freq_shift=0), "concat-cos-first")
    _identified(dit(steps), "tensor2tensor-cos-first")


# ------------------------------------------------------------------------------------------------ keras-hub


@pytest.mark.parametrize(("policy", "dtype"), [("float32", torch.float32), ("mixed_bfloat16", torch.bfloat16),
                                               ("mixed_float16", torch.float16)])  # fmt: skip
def test_keras_hub_sine_position_encoding_on_torch(policy, dtype):
    """keras_hub/src/layers/modeling/sine_position_encoding.py: ``SinePositionEncoding.call``, on Keras's torch
    backend (KERAS_BACKEND=torch; keras-hub installed without TensorFlow).

    Page (variants): every step in the layer's compute dtype — bfloat16 under ``"mixed_bfloat16"`` — interleaved,
    rows ``start_index + r``, shape ``[1, L, d]`` broadcast to the batch: ``keras_sine_position_encoding``. Page
    (bugs): computed in bfloat16 the table is the "bfloat16-recomputed" bug.

    Page (variants): “keras_hub casts positions, 1/max_wavelength, the exponents, the frequencies and the phases to
    the layer's compute dtype”.
    """
    import keras
    from keras_hub.layers import SinePositionEncoding

    assert keras.backend.backend() == "torch"
    layer = SinePositionEncoding(dtype=policy)
    assert layer.compute_dtype == str(dtype).removeprefix("torch.")
    for length, width, start in ((1000, 256, 0), (100, 512, 0), (64, 32, 30)):
        out = layer(torch.zeros(3, length, width), start_index=start)
        assert isinstance(out, torch.Tensor) and out.shape == (3, length, width) and out.dtype == dtype
        ours = keras_sine_position_encoding(length, width, compute_dtype=dtype, start_index=start)
        assert torch.equal(out[1:2], ours) and torch.equal(out[0], out[2])
    table = layer(torch.zeros(1, 1000, 256))
    name = {torch.float32: "paper", torch.bfloat16: "bfloat16-recomputed", torch.float16: "float16-recomputed"}[dtype]
    match = identify_table(table)
    assert (match.name, match.rows, match.layout, match.spacing) == (name, "table[0]", "interleaved", "paper")


def test_identify_table_reads_ml_dtypes_bfloat16_arrays():
    """identify_table takes what numpy.asarray takes: a JAX or TensorFlow bfloat16 table arrives as an ml_dtypes
    bfloat16 array, and is read bit for bit (ml_dtypes is installed here with Keras)."""
    import ml_dtypes

    table = keras_sine_position_encoding(1000, 256, compute_dtype=torch.bfloat16)[0]
    array = table.float().numpy().astype(ml_dtypes.bfloat16)
    assert array.dtype == np.dtype(ml_dtypes.bfloat16)
    match = identify_table(array)
    assert match.name == "bfloat16-recomputed"
    assert match == identify_table(table)
