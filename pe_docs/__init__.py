"""pe_docs — the sinusoidal positional encoding of "Attention Is All You Need", exact and explained.

The library behind the pe-docs site: every code block on every page imports it and runs in the tests.
Plotting lives in :mod:`pe_docs.plotting` (imports matplotlib); everything here needs only torch.
"""

from pe_docs.attention import self_attention
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.module import PositionalEncoding
from pe_docs.numerics import exact_rows, reference_frequencies, row_errors, rows_in_dtype, ulp, ulp_error
from pe_docs.similarity import (
    RowDistance,
    binary_code,
    first_negative,
    first_rise,
    min_row_distance,
    neighbour_similarity,
)

__all__ = [
    "PositionalEncoding",
    "RowDistance",
    "binary_code",
    "exact_rows",
    "first_negative",
    "first_rise",
    "inverse_frequencies",
    "min_row_distance",
    "neighbour_similarity",
    "reference_frequencies",
    "row_errors",
    "rows_in_dtype",
    "self_attention",
    "sinusoidal_table",
    "ulp",
    "ulp_error",
    "wavelengths",
]
__version__ = "0.1.0"
