"""sinusoidal_table_2d: MAE's layout (re-typed from facebookresearch/mae util/pos_embed.py), each half a 1-D table,
the row/column order, the class token, and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pe_docs import sinusoidal_table, sinusoidal_table_2d


def mae_2d_sincos(embed_dim: int, grid_size: int, cls_token: bool = False) -> np.ndarray:
    """``get_2d_sincos_pos_embed`` of facebookresearch/mae (``util/pos_embed.py``), re-typed in float64."""
    grid_h = np.arange(grid_size, dtype=np.float64)
    grid_w = np.arange(grid_size, dtype=np.float64)
    grid = np.stack(np.meshgrid(grid_w, grid_h), axis=0).reshape([2, 1, grid_size, grid_size])  # w goes first

    def one_d(dim: int, pos: np.ndarray) -> np.ndarray:
        omega = np.arange(dim // 2, dtype=np.float64) / (dim / 2.0)
        omega = 1.0 / 10000**omega
        out = np.einsum("m,d->md", pos.reshape(-1), omega)
        return np.concatenate([np.sin(out), np.cos(out)], axis=1)

    emb = np.concatenate([one_d(embed_dim // 2, grid[0]), one_d(embed_dim // 2, grid[1])], axis=1)
    if cls_token:
        emb = np.concatenate([np.zeros([1, embed_dim]), emb], axis=0)
    return emb


@pytest.mark.parametrize(("d", "grid", "cls"), [(768, 14, True), (64, 5, False), (16, 3, True)])
def test_default_layout_is_maes(d: int, grid: int, cls: bool) -> None:
    ours = sinusoidal_table_2d(grid, grid, d, cls_token=cls, dtype=torch.float64)
    np.testing.assert_allclose(ours.numpy(), mae_2d_sincos(d, grid, cls), rtol=0, atol=1e-12)


def test_each_half_is_the_1d_concat_table_of_half_the_width() -> None:
    height, width, d = 3, 5, 32
    table = sinusoidal_table_2d(height, width, d, dtype=torch.float64)
    by_column = sinusoidal_table(width, d // 2, layout="concat", dtype=torch.float64)
    by_row = sinusoidal_table(height, d // 2, layout="concat", dtype=torch.float64)
    for r in range(height):
        for c in range(width):
            torch.testing.assert_close(table[r * width + c], torch.cat((by_column[c], by_row[r])), rtol=0, atol=1e-15)
    swapped = sinusoidal_table_2d(height, width, d, first_half="row", dtype=torch.float64)
    assert torch.equal(swapped, torch.cat((table[:, d // 2 :], table[:, : d // 2]), dim=1))


def test_rounded_once_from_float64() -> None:
    exact = sinusoidal_table_2d(14, 14, 768, dtype=torch.float64)
    assert torch.equal(sinusoidal_table_2d(14, 14, 768), exact.float())
    assert torch.equal(
        sinusoidal_table_2d(4, 4, 8, base=100.0), sinusoidal_table_2d(4, 4, 8, base=100.0, dtype=torch.float64).float()
    )


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"d_model": 30}, ValueError, ["d_model", "multiple of 4", "30"]),
        ({"height": 0}, ValueError, ["height", "0"]),
        ({"width": 2.0}, TypeError, ["width", "2.0"]),
        ({"first_half": "x"}, ValueError, ["first_half", "'x'"]),
        ({"cls_token": 1}, TypeError, ["cls_token", "1"]),
        ({"dtype": torch.int32}, TypeError, ["dtype", "torch.int32"]),
        ({"base": -1.0}, ValueError, ["base", "-1.0"]),
    ],
)
def test_bad_arguments(kwargs: dict, error: type[Exception], words: list[str]) -> None:
    arguments = {"height": 2, "width": 2, "d_model": 8} | kwargs
    with pytest.raises(error) as info:
        sinusoidal_table_2d(**arguments)
    for word in words:
        assert word in str(info.value)
