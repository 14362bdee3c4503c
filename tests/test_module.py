"""PositionalEncoding: shapes, layouts, buffer behaviour and errors."""

from __future__ import annotations

import pytest
import torch

from pe_docs import PositionalEncoding, sinusoidal_table


def test_adds_table_batch_first() -> None:
    m = PositionalEncoding(32, max_len=64, dropout=0.0)
    x = torch.randn(3, 20, 32)
    assert torch.equal(m(x), x + sinusoidal_table(20, 32)[None])


def test_adds_table_seq_first() -> None:
    m = PositionalEncoding(32, max_len=64, dropout=0.0, batch_first=False)
    x = torch.randn(20, 3, 32)
    assert torch.equal(m(x), x + sinusoidal_table(20, 32)[:, None])


def test_dropout_in_training_only() -> None:
    m = PositionalEncoding(16, max_len=8, dropout=0.5)
    x = torch.zeros(4, 8, 16)
    torch.manual_seed(0)
    y = m(x)
    assert (y == 0).float().mean() > 0.2  # some entries dropped
    m.eval()
    assert torch.equal(m(x), sinusoidal_table(8, 16).expand(4, 8, 16))


def test_buffer_is_cast_not_recomputed() -> None:
    m = PositionalEncoding(64, max_len=3000).to(torch.bfloat16)
    assert m.pe.dtype == torch.bfloat16
    assert torch.equal(m.pe, sinusoidal_table(3000, 64).to(torch.bfloat16))
    # output keeps the input dtype
    assert m.eval()(torch.zeros(1, 5, 64, dtype=torch.bfloat16)).dtype == torch.bfloat16


def test_buffer_not_in_state_dict() -> None:
    m = PositionalEncoding(16, max_len=8)
    assert "pe" not in m.state_dict()
    assert "pe" in dict(m.named_buffers())


def test_repr() -> None:
    assert "d_model=16, max_len=8, base=10000, batch_first=True" in repr(PositionalEncoding(16, max_len=8))


def test_gradient_flows() -> None:
    m = PositionalEncoding(8, max_len=4, dropout=0.0)
    x = torch.randn(2, 4, 8, requires_grad=True)
    m(x).sum().backward()
    assert torch.equal(x.grad, torch.ones_like(x))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"d_model": 15}, ValueError, ["d_model", "15"]),
        ({"d_model": 0}, ValueError, ["d_model", "0"]),
        ({"d_model": 16, "max_len": 0}, ValueError, ["max_len", "0"]),
        ({"d_model": 16, "max_len": -1}, ValueError, ["max_len", "-1"]),
        ({"d_model": 16, "max_len": 10.5}, TypeError, ["max_len", "10.5"]),
        ({"d_model": 16, "base": 0}, ValueError, ["base", "0"]),
        ({"d_model": 16, "dropout": 1.5}, ValueError, ["dropout", "1.5"]),
        ({"d_model": 16, "dropout": float("nan")}, ValueError, ["dropout", "nan"]),
        ({"d_model": 16, "dropout": True}, TypeError, ["dropout", "True"]),
        ({"d_model": 16, "dropout": "0.1"}, TypeError, ["dropout", "'0.1'"]),
        ({"d_model": 16, "batch_first": "yes"}, TypeError, ["batch_first", "'yes'"]),
    ],
)
def test_bad_construction(kwargs: dict, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as info:
        PositionalEncoding(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_too_long_sequence_names_both_numbers() -> None:
    m = PositionalEncoding(16, max_len=10)
    with pytest.raises(ValueError) as info:
        m(torch.zeros(1, 11, 16))
    assert "11" in str(info.value) and "max_len=10" in str(info.value)


def test_wrong_width_and_rank() -> None:
    m = PositionalEncoding(16, max_len=10)
    with pytest.raises(ValueError, match=r"d_model=16, got 12"):
        m(torch.zeros(1, 5, 12))
    with pytest.raises(ValueError, match=r"shape \(batch, seq, d_model\).*\(5, 16\)"):
        m(torch.zeros(5, 16))
    with pytest.raises(TypeError, match="floating-point.*torch.int64"):
        m(torch.zeros(1, 5, 16, dtype=torch.int64))
    with pytest.raises(TypeError, match="x must be a torch.Tensor, got list"):
        m([[0.0] * 16])
