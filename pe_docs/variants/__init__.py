"""Sinusoidal tables as real libraries build them, the bugs people ship, and a checker for your own table.

One module per kind of thing, each one's public names re-exported here (``from pe_docs.variants import X``). The layout
converters and the checker, which a model's code uses, live in the package's core and are ``pe_docs``' names only
(``from pe_docs import identify_table``): :mod:`pe_docs.layouts` (``interleaved_to_concat``,
``concat_to_interleaved``) and :mod:`pe_docs.identify` (``identify_table``, ``TableMatch``, ``KNOWN_TABLES``).

* :mod:`pe_docs.variants.libraries` — the formulas (``concat_paper_table``, ``tensor2tensor_table``,
  ``fairseq_table``, ``tutorial_buffer``) and each library's code re-implemented in its own dtypes and buffer
  shape (``t2t_timing_signal``, ``fairseq_weights``, ``whisper_sinusoids``, ``marian_cpp_embeddings``,
  ``hf_marian_weights``, ``distilbert_weights``, ``diffusers_timestep_embedding``,
  ``keras_sine_position_encoding``, ``transformer_xl_pos_emb``, ``d2l_buffer``);
* :mod:`pe_docs.variants.bugs` — the bug gallery (``odd_cosine_exponent_table``, ``doubled_exponent_table``,
  ``doubled_and_odd_exponent_table``, ``integer_exponent_table``, ``wrong_axis_rows``);
* :mod:`pe_docs.identify` — beside the checker, ``pairwise_shift_residual``.
"""

from pe_docs.identify import pairwise_shift_residual
from pe_docs.variants.bugs import (
    doubled_and_odd_exponent_table,
    doubled_exponent_table,
    integer_exponent_table,
    odd_cosine_exponent_table,
    wrong_axis_rows,
)
from pe_docs.variants.libraries import (
    concat_paper_table,
    d2l_buffer,
    diffusers_timestep_embedding,
    distilbert_weights,
    fairseq_table,
    fairseq_weights,
    hf_marian_weights,
    keras_sine_position_encoding,
    marian_cpp_embeddings,
    t2t_timing_signal,
    tensor2tensor_table,
    transformer_xl_pos_emb,
    tutorial_buffer,
    whisper_sinusoids,
)

__all__ = [
    "concat_paper_table",
    "d2l_buffer",
    "diffusers_timestep_embedding",
    "distilbert_weights",
    "doubled_and_odd_exponent_table",
    "doubled_exponent_table",
    "fairseq_table",
    "fairseq_weights",
    "hf_marian_weights",
    "integer_exponent_table",
    "keras_sine_position_encoding",
    "marian_cpp_embeddings",
    "odd_cosine_exponent_table",
    "pairwise_shift_residual",
    "t2t_timing_signal",
    "tensor2tensor_table",
    "transformer_xl_pos_emb",
    "tutorial_buffer",
    "whisper_sinusoids",
    "wrong_axis_rows",
]
