"""pe_docs — the sinusoidal positional encoding of "Attention Is All You Need", exact and explained.

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
    rows_exact,
    rows_in_dtype,
)
from pe_docs.encoding import sinusoidal_table
from pe_docs.extrapolation import ExtrapolationResult, TinyCausalAttention, run_extrapolation
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.module import PositionalEncoding
from pe_docs.variants import (
    KNOWN_TABLES,
    TableMatch,
    concat_paper_table,
    concat_to_interleaved,
    doubled_and_odd_exponent_table,
    doubled_exponent_table,
    fairseq_table,
    identify_table,
    integer_exponent_table,
    interleaved_to_concat,
    odd_cosine_exponent_table,
    pairwise_shift_residual,
    tensor2tensor_table,
    tutorial_buffer,
    wrong_axis_rows,
)

__all__ = [
    "KNOWN_TABLES",
    "RECIPES",
    "ExtrapolationResult",
    "LearnedPositionalEmbedding",
    "PositionalEncoding",
    "TableMatch",
    "TinyCausalAttention",
    "alibi_bias",
    "alibi_slopes",
    "concat_paper_table",
    "concat_to_interleaved",
    "doubled_and_odd_exponent_table",
    "doubled_exponent_table",
    "effective_rank",
    "energy_rank",
    "fairseq_table",
    "first_overflowing_integer",
    "identify_table",
    "integer_exponent_table",
    "interleaved_to_concat",
    "inverse_frequencies",
    "last_exact_integer",
    "non_relative_fraction",
    "odd_cosine_exponent_table",
    "offset_statistics",
    "pairwise_shift_residual",
    "position_scores",
    "recipe_error",
    "recipe_rows",
    "rope_rotate",
    "rows_exact",
    "rows_in_dtype",
    "run_extrapolation",
    "self_attention",
    "singular_values",
    "sinusoidal_table",
    "tensor2tensor_table",
    "tutorial_buffer",
    "wavelengths",
    "wrong_axis_rows",
]
__version__ = "0.1.0"
