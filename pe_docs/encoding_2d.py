"""The 2-D sine–cosine table of ViT / MAE: half of the width for each axis of a grid of image patches.

MAE (He et al., 2022; facebookresearch/mae ``util/pos_embed.py``, ``get_2d_sincos_pos_embed``) gives the patch in
row ``r`` and column ``c`` of an ``H × W`` grid (patches numbered row by row, ``r · W + c``) the concatenation of
two 1-D tables of width ``d/2``, each laid out ``[sin | cos]`` with the frequencies ``base^(−2i/(d/2))``, one for
each coordinate. Which coordinate comes first is a convention with a history: MAE's code names the halves
``emb_h`` and ``emb_w`` but fills the first from ``np.meshgrid(grid_w, grid_h)[0]``, the column index ("here w
goes first"), and transformers 5.24 keeps that order in ``ViTMAEEmbeddings.initialize_weights`` by swapping the
halves of its own ``build_2d_sinusoidal_position_embedding``, whose docstring says ``[sin_h | cos_h | sin_w |
cos_w]`` — the row first.
"""

from __future__ import annotations

from typing import Literal

import torch

from pe_docs._checks import check_base, check_choice, check_float_dtype, check_int

FirstHalf = Literal["column", "row"]


def sinusoidal_table_2d(
    height: int,
    width: int,
    d_model: int,
    *,
    base: float = 10000.0,
    first_half: FirstHalf = "column",
    cls_token: bool = False,
    dtype: torch.dtype = torch.float32,
) -> torch.Tensor:
    """The 2-D sine–cosine table of an ``height × width`` grid of patches, one row per patch.

    Layout of the row of the patch in grid row ``r``, grid column ``c`` (table row ``r · width + c``, plus 1
    with ``cls_token``), with ``q = d_model / 4`` and ``w_i = base^(−i/q)``, ``i = 0 … q − 1``:

    * columns ``0 … q−1``: ``sin(a · w_i)``, columns ``q … 2q−1``: ``cos(a · w_i)``, with ``a = c`` (the
      column index) for ``first_half="column"``, else ``a = r``;
    * columns ``2q … 3q−1`` and ``3q … 4q−1``: the same for the other coordinate.

    Each half is the 1-D sinusoidal table of width ``d_model / 2`` in the concatenated ``[sin | cos]`` layout.
    ``first_half="column"`` is MAE's layout and that of transformers' ``ViTMAEModel`` checkpoints;
    ``first_half="row"`` is what transformers' ``build_2d_sinusoidal_position_embedding`` returns before
    ViTMAE swaps its halves. The phases are formed in float64 and each entry is rounded once to ``dtype``.

    Args:
        height: Rows of the patch grid; an integer >= 1.
        width: Columns of the patch grid; an integer >= 1.
        d_model: Embedding width; a positive multiple of 4.
        base: The frequency base; finite and > 0.
        first_half: ``"column"`` or ``"row"``: the coordinate the first ``d_model / 2`` columns encode.
        cls_token: Prepend a row of zeros for a classification token (MAE's ``cls_token=True``): that token
            gets no position.
        dtype: Floating-point dtype of the result.

    Returns:
        A tensor of shape ``(height · width, d_model)``, or ``(1 + height · width, d_model)`` with ``cls_token``.

    Raises:
        TypeError: ``height``, ``width`` or ``d_model`` is not an integer, ``base`` not a real number,
            ``cls_token`` not a bool, ``dtype`` not a floating-point dtype.
        ValueError: ``height`` or ``width`` < 1, ``d_model`` not a positive multiple of 4, ``base`` invalid, an
            unknown ``first_half``.

    Examples:
        >>> t = sinusoidal_table_2d(2, 3, 8)  # a 2 × 3 grid, 2 frequencies per coordinate
        >>> t.shape
        torch.Size([6, 8])
        >>> t[4]  # row 1, column 1: sin, sin, cos, cos of (1 · w) for the column, then for the row
        tensor([0.8415, 0.0100, 0.5403, 0.9999, 0.8415, 0.0100, 0.5403, 0.9999])
    """
    height = check_int("height", height, minimum=1)
    width = check_int("width", width, minimum=1)
    d = check_int("d_model", d_model, minimum=1)
    if d % 4:
        raise ValueError(f"d_model must be a multiple of 4 (sin and cos for each of 2 coordinates), got {d}")
    base = check_base(base)
    first_half = check_choice("first_half", first_half, ("column", "row"))
    if not isinstance(cls_token, bool):
        raise TypeError(f"cls_token must be a bool, got {cls_token!r}")
    dtype = check_float_dtype(dtype)
    q = d // 4
    w = base ** (-torch.arange(q, dtype=torch.float64) / q)
    row, column = torch.meshgrid(
        torch.arange(height, dtype=torch.float64), torch.arange(width, dtype=torch.float64), indexing="ij"
    )
    first, second = (column, row) if first_half == "column" else (row, column)
    halves = []
    for coordinate in (first, second):
        phase = coordinate.reshape(-1, 1) * w
        halves += [phase.sin(), phase.cos()]
    table = torch.cat(halves, dim=1)
    if cls_token:
        table = torch.cat((torch.zeros(1, d, dtype=torch.float64), table), dim=0)
    return table.to(dtype)
