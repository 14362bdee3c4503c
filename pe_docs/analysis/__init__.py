"""What the chapters measure and explain with: teaching constructions, measurements and analyses.

Nothing here is needed to run a model (that is :mod:`pe_docs`); every name is imported from here by the pages
(``from pe_docs.analysis import neighbour_similarity``), one module per idea:

* precision — :mod:`~pe_docs.analysis.numerics` (ulps, exact rows), :mod:`~pe_docs.analysis.dtypes` (tables in
  low precision);
* what the table is — :mod:`~pe_docs.analysis.relative` (the relative transform),
  :mod:`~pe_docs.analysis.similarity`, :mod:`~pe_docs.analysis.uniqueness`, :mod:`~pe_docs.analysis.geometry`,
  :mod:`~pe_docs.analysis.spectrum`, :mod:`~pe_docs.analysis.capacity`;
* what a model does with it — :mod:`~pe_docs.analysis.attention`, :mod:`~pe_docs.analysis.attention_bias`,
  :mod:`~pe_docs.analysis.residual`, :mod:`~pe_docs.analysis.extrapolation`, :mod:`~pe_docs.analysis.learned`;
* RoPE measured — :mod:`~pe_docs.analysis.rope` (the exact rotation, the long-term decay),
  each context-extension method in float64 (from :mod:`pe_docs.rope_scaling`, where ``pe_docs.rope_frequencies``
  starts from them);
* other relative schemes — :mod:`~pe_docs.analysis.relative_schemes` (Shaw et al., Transformer-XL).
"""

from pe_docs.analysis.attention import self_attention
from pe_docs.analysis.attention_bias import non_relative_fraction, offset_statistics, position_scores
from pe_docs.analysis.capacity import effective_rank, energy_rank, singular_values
from pe_docs.analysis.dtypes import RECIPES, first_overflowing_integer, last_exact_integer, recipe_error, recipe_rows
from pe_docs.analysis.extrapolation import ExtrapolationResult, TinyCausalAttention, run_extrapolation
from pe_docs.analysis.geometry import (
    BandContributions,
    PrincipalComponents,
    band_contributions,
    offset_distances,
    principal_components,
)
from pe_docs.analysis.learned import LearnedPositionalEmbedding
from pe_docs.analysis.numerics import exact_rows, reference_frequencies, row_errors, rows_in_dtype, ulp, ulp_error
from pe_docs.analysis.relative import relative_transform
from pe_docs.analysis.relative_schemes import (
    TransformerXLTerms,
    rel_shift,
    shaw_attention,
    shaw_relative_indices,
    transformer_xl_scores,
    transformer_xl_terms,
)
from pe_docs.analysis.residual import PositionSignal, position_signal
from pe_docs.analysis.rope import rope_decay_bound, rope_identical_score, rope_rotate
from pe_docs.analysis.similarity import (
    RowDistance,
    binary_code,
    first_negative,
    first_rise,
    min_row_distance,
    neighbour_similarity,
)
from pe_docs.analysis.spectrum import measured_frequencies, peak_frequencies
from pe_docs.analysis.uniqueness import ClosestReturn, closest_returns, first_duplicate_row, misplaced_rows
from pe_docs.rope_scaling import (
    dynamic_ntk_scale,
    llama3_frequencies,
    ntk_aware_base,
    ntk_aware_frequencies,
    position_interpolation_frequencies,
    yarn_attention_factor,
    yarn_boundaries,
    yarn_frequencies,
)

__all__ = [
    "RECIPES",
    "BandContributions",
    "ClosestReturn",
    "ExtrapolationResult",
    "LearnedPositionalEmbedding",
    "PositionSignal",
    "PrincipalComponents",
    "RowDistance",
    "TinyCausalAttention",
    "TransformerXLTerms",
    "band_contributions",
    "binary_code",
    "closest_returns",
    "dynamic_ntk_scale",
    "effective_rank",
    "energy_rank",
    "exact_rows",
    "first_duplicate_row",
    "first_negative",
    "first_overflowing_integer",
    "first_rise",
    "last_exact_integer",
    "llama3_frequencies",
    "measured_frequencies",
    "min_row_distance",
    "misplaced_rows",
    "neighbour_similarity",
    "non_relative_fraction",
    "ntk_aware_base",
    "ntk_aware_frequencies",
    "offset_distances",
    "offset_statistics",
    "peak_frequencies",
    "position_interpolation_frequencies",
    "position_scores",
    "position_signal",
    "principal_components",
    "recipe_error",
    "recipe_rows",
    "reference_frequencies",
    "rel_shift",
    "relative_transform",
    "rope_decay_bound",
    "rope_identical_score",
    "rope_rotate",
    "row_errors",
    "rows_in_dtype",
    "run_extrapolation",
    "self_attention",
    "shaw_attention",
    "shaw_relative_indices",
    "singular_values",
    "transformer_xl_scores",
    "transformer_xl_terms",
    "ulp",
    "ulp_error",
    "yarn_attention_factor",
    "yarn_boundaries",
    "yarn_frequencies",
]
