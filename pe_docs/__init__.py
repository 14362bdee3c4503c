"""pe_docs — the sinusoidal positional encoding of "Attention Is All You Need", measured and explained.

The library behind the pe-docs site: every code block on every page imports it and runs in the tests.
Plotting lives in :mod:`pe_docs.plotting` (imports matplotlib); everything here needs only torch.
"""

from pe_docs.alternatives import LearnedPositionalEmbedding, alibi_bias, alibi_slopes, rope_rotate
from pe_docs.attention import self_attention
from pe_docs.attention_bias import non_relative_fraction, offset_statistics, position_scores
from pe_docs.capacity import effective_rank, energy_rank, singular_values
from pe_docs.dtypes import (
    RECIPES,
    first_overflowing_integer,
    last_exact_integer,
    recipe_error,
    recipe_rows,
)
from pe_docs.encoding import sinusoidal_table
from pe_docs.extrapolation import ExtrapolationResult, TinyCausalAttention, run_extrapolation
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.geometry import (
    BandContributions,
    PrincipalComponents,
    band_contributions,
    offset_distances,
    principal_components,
)
from pe_docs.module import PositionalEncoding
from pe_docs.numerics import exact_rows, reference_frequencies, row_errors, rows_in_dtype, ulp, ulp_error
from pe_docs.relative import relative_transform
from pe_docs.similarity import (
    RowDistance,
    binary_code,
    first_negative,
    first_rise,
    min_row_distance,
    neighbour_similarity,
)
from pe_docs.spectrum import measured_frequencies, peak_frequencies
from pe_docs.variants import (
    KNOWN_TABLES,
    TableMatch,
    concat_paper_table,
    concat_to_interleaved,
    d2l_buffer,
    diffusers_timestep_embedding,
    distilbert_weights,
    doubled_and_odd_exponent_table,
    doubled_exponent_table,
    fairseq_table,
    fairseq_weights,
    hf_marian_weights,
    identify_table,
    integer_exponent_table,
    interleaved_to_concat,
    keras_sine_position_encoding,
    marian_cpp_embeddings,
    odd_cosine_exponent_table,
    pairwise_shift_residual,
    t2t_timing_signal,
    tensor2tensor_table,
    transformer_xl_pos_emb,
    tutorial_buffer,
    whisper_sinusoids,
    wrong_axis_rows,
)

__all__ = [
    "KNOWN_TABLES",
    "RECIPES",
    "BandContributions",
    "ExtrapolationResult",
    "LearnedPositionalEmbedding",
    "PositionalEncoding",
    "PrincipalComponents",
    "RowDistance",
    "TableMatch",
    "TinyCausalAttention",
    "alibi_bias",
    "alibi_slopes",
    "band_contributions",
    "binary_code",
    "concat_paper_table",
    "concat_to_interleaved",
    "d2l_buffer",
    "diffusers_timestep_embedding",
    "distilbert_weights",
    "doubled_and_odd_exponent_table",
    "doubled_exponent_table",
    "effective_rank",
    "energy_rank",
    "exact_rows",
    "fairseq_table",
    "fairseq_weights",
    "first_negative",
    "first_overflowing_integer",
    "first_rise",
    "hf_marian_weights",
    "identify_table",
    "integer_exponent_table",
    "interleaved_to_concat",
    "inverse_frequencies",
    "keras_sine_position_encoding",
    "last_exact_integer",
    "marian_cpp_embeddings",
    "measured_frequencies",
    "min_row_distance",
    "neighbour_similarity",
    "non_relative_fraction",
    "odd_cosine_exponent_table",
    "offset_distances",
    "offset_statistics",
    "pairwise_shift_residual",
    "peak_frequencies",
    "position_scores",
    "principal_components",
    "recipe_error",
    "recipe_rows",
    "reference_frequencies",
    "relative_transform",
    "rope_rotate",
    "row_errors",
    "rows_in_dtype",
    "run_extrapolation",
    "self_attention",
    "singular_values",
    "sinusoidal_table",
    "t2t_timing_signal",
    "tensor2tensor_table",
    "transformer_xl_pos_emb",
    "tutorial_buffer",
    "ulp",
    "ulp_error",
    "wavelengths",
    "whisper_sinusoids",
    "wrong_axis_rows",
]
__version__ = "0.1.0"
