"""pe_docs — positional encodings as a model uses them: the sinusoidal table of "Attention Is All You Need", RoPE,
ALiBi and T5's bias, measured and explained on the pe-docs site.

This top level is what a model imports (every page's "code to copy" computes what it computes):

* the sinusoidal table and its module — ``sinusoidal_table``, ``SinusoidalPositionalEncoding``, the frequencies
  ``inverse_frequencies`` and ``wavelengths``, the 2-D table of image patches ``sinusoidal_table_2d``;
* RoPE — ``RotaryEmbedding`` (``cos`` and ``sin`` once per forward, bit for bit transformers'), ``apply_rope`` (both
  pairings), ``rope_frequencies`` for every ``rope_type`` (``ROPE_TYPES``, ``RopeFrequencies``);
* attention biases — ALiBi's ``alibi_slopes`` and ``alibi_bias``, T5's ``t5_relative_bucket`` and
  ``t5_relative_bias``;
* other libraries' tables — the layout converters ``concat_to_interleaved`` and ``interleaved_to_concat``, and
  ``identify_table`` (with ``TableMatch``, ``KNOWN_TABLES``), which names the table a checkpoint holds.

Apart from it: :mod:`pe_docs.analysis`, what the chapters measure and explain with (precision, similarity,
uniqueness, geometry, capacity, extrapolation, the scaling methods one by one, the exact RoPE rotation, other
relative schemes); :mod:`pe_docs.variants`, other libraries' tables and common bugs re-implemented;
:mod:`pe_docs.plotting`, the figures (it imports matplotlib; everything else needs only torch and NumPy).
"""

from pe_docs.bias import alibi_bias, alibi_slopes, t5_relative_bias, t5_relative_bucket
from pe_docs.encoding import sinusoidal_table
from pe_docs.encoding_2d import sinusoidal_table_2d
from pe_docs.frequencies import inverse_frequencies, wavelengths
from pe_docs.identify import KNOWN_TABLES, TableMatch, identify_table
from pe_docs.layouts import concat_to_interleaved, interleaved_to_concat
from pe_docs.module import SinusoidalPositionalEncoding
from pe_docs.rotary import ROPE_TYPES, RopeFrequencies, RotaryEmbedding, apply_rope, rope_frequencies

__all__ = [
    "KNOWN_TABLES",
    "ROPE_TYPES",
    "RopeFrequencies",
    "RotaryEmbedding",
    "SinusoidalPositionalEncoding",
    "TableMatch",
    "alibi_bias",
    "alibi_slopes",
    "apply_rope",
    "concat_to_interleaved",
    "identify_table",
    "interleaved_to_concat",
    "inverse_frequencies",
    "rope_frequencies",
    "sinusoidal_table",
    "sinusoidal_table_2d",
    "t5_relative_bias",
    "t5_relative_bucket",
    "wavelengths",
]
__version__ = "0.1.0"
