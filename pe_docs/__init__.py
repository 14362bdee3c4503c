"""pe_docs — the sinusoidal positional encoding of "Attention Is All You Need", exact and explained.

The library behind the pe-docs site: every code block on every page imports it and runs in the tests.
Plotting lives in :mod:`pe_docs.plotting` (imports matplotlib); everything here needs only torch.
"""

from pe_docs.attention import self_attention
from pe_docs.encoding import sinusoidal_table
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.module import PositionalEncoding
from pe_docs.relative import relative_transform

__all__ = [
    "PositionalEncoding",
    "inverse_frequencies",
    "relative_transform",
    "self_attention",
    "sinusoidal_table",
    "wavelengths",
]
__version__ = "0.1.0"
