"""SinusoidalPositionalEncoding: shapes, layouts, offsets, buffer behaviour and errors."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from pe_docs import SinusoidalPositionalEncoding, sinusoidal_table


def test_adds_table_batch_first() -> None:
    m = SinusoidalPositionalEncoding(32, max_len=64, dropout=0.0)
    x = torch.randn(3, 20, 32)
    assert torch.equal(m(x), x + sinusoidal_table(20, 32)[None])


def test_adds_table_seq_first() -> None:
    m = SinusoidalPositionalEncoding(32, max_len=64, dropout=0.0, batch_first=False)
    x = torch.randn(20, 3, 32)
    assert torch.equal(m(x), x + sinusoidal_table(20, 32)[:, None])


def test_dropout_in_training_only() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=8, dropout=0.5)
    x = torch.zeros(4, 8, 16)
    torch.manual_seed(0)
    y = m(x)
    assert (y == 0).float().mean() > 0.2  # some entries dropped
    m.eval()
    assert torch.equal(m(x), sinusoidal_table(8, 16).expand(4, 8, 16))


def test_buffer_is_cast_not_recomputed() -> None:
    m = SinusoidalPositionalEncoding(64, max_len=3000).to(torch.bfloat16)
    assert m.pe.dtype == torch.bfloat16
    assert torch.equal(m.pe, sinusoidal_table(3000, 64).to(torch.bfloat16))
    # output keeps the input dtype
    assert m.eval()(torch.zeros(1, 5, 64, dtype=torch.bfloat16)).dtype == torch.bfloat16


def test_buffer_not_in_state_dict() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=8)
    assert "pe" not in m.state_dict()
    assert "pe" in dict(m.named_buffers())


def test_repr() -> None:
    text = repr(SinusoidalPositionalEncoding(16, max_len=8))
    assert "d_model=16, max_len=8, base=10000, batch_first=True, layout='interleaved'" in text
    assert "layout='concat'" in repr(SinusoidalPositionalEncoding(16, max_len=8, layout="concat"))


def test_positional_arguments_keep_working() -> None:
    """The constructor's first three arguments stay positional, the rest keyword-only, as before."""
    m = SinusoidalPositionalEncoding(16, 8, 0.0)
    assert (m.d_model, m.max_len, m.dropout.p) == (16, 8, 0.0)
    with pytest.raises(TypeError):
        SinusoidalPositionalEncoding(16, 8, 0.0, 100.0)  # base is keyword-only


@pytest.mark.parametrize("batch_first", [True, False])
@pytest.mark.parametrize("layout", ["interleaved", "concat"])
def test_offset_gives_the_rows_of_the_positions(batch_first: bool, layout: str) -> None:
    m = SinusoidalPositionalEncoding(32, max_len=64, dropout=0.0, batch_first=batch_first, layout=layout)
    table = sinusoidal_table(64, 32, layout=layout)
    x = torch.randn(3, 5, 32) if batch_first else torch.randn(5, 3, 32)
    rows = table[10:15][None] if batch_first else table[10:15][:, None]
    assert torch.equal(m(x, offset=10), x + rows)
    assert torch.equal(m(x, offset=0), m(x))
    # the last rows of the table: offset + seq_len == max_len is allowed
    assert torch.equal(m(x, offset=59), x + (table[59:][None] if batch_first else table[59:][:, None]))


def test_incremental_decoding_matches_the_whole_sequence() -> None:
    """Feeding the tokens one at a time with offset=t gives what the whole sequence gets at once."""
    m = SinusoidalPositionalEncoding(16, max_len=32, dropout=0.0)
    x = torch.randn(2, 12, 16)
    whole = m(x)
    steps = torch.cat([m(x[:, t : t + 1], offset=t) for t in range(12)], dim=1)
    assert torch.equal(steps, whole)
    # a prompt of 7 tokens, then 5 single steps
    prompt = m(x[:, :7])
    rest = [m(x[:, t : t + 1], offset=t) for t in range(7, 12)]
    assert torch.equal(torch.cat([prompt, *rest], dim=1), whole)
    # the mistake the offset prevents: every new token encoded as position 0
    wrong = torch.cat([m(x[:, t : t + 1]) for t in range(12)], dim=1)
    assert not torch.allclose(wrong, whole)


def test_offset_is_keyword_only() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=8, dropout=0.0)
    with pytest.raises(TypeError):
        m(torch.zeros(1, 2, 16), 3)  # type: ignore[misc]


def test_concat_layout_is_the_interleaved_table_with_columns_permuted() -> None:
    inter = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0)
    concat = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0, layout="concat")
    perm = torch.cat((torch.arange(0, 16, 2), torch.arange(1, 16, 2)))  # sines, then cosines
    assert torch.equal(concat.pe, inter.pe[:, perm])
    assert torch.equal(concat.pe, sinusoidal_table(20, 16, layout="concat"))


def test_base_changes_the_table() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0, base=500000.0)
    assert torch.equal(m.pe, sinusoidal_table(20, 16, base=500000.0))
    assert "base=500000" in repr(m)


@pytest.mark.parametrize(
    ("offset", "error", "words"),
    [
        (-1, ValueError, ["offset", "-1"]),
        (1.0, TypeError, ["offset", "1.0", "float"]),
        (True, TypeError, ["offset", "True"]),
        (torch.tensor([2]), TypeError, ["offset", "0-d integer tensor", "(1,)"]),
        (torch.tensor(2.0), TypeError, ["offset", "0-d integer tensor", "torch.float32"]),
        (torch.tensor(True), TypeError, ["offset", "torch.bool"]),
        (torch.tensor(6), ValueError, ["offset 6", "sequence length 5", "11", "max_len=10"]),
        (torch.tensor(-2), ValueError, ["offset", "-2"]),
        (np.int64(-1), ValueError, ["offset", "-1"]),
        (6, ValueError, ["offset 6", "sequence length 5", "11", "max_len=10"]),
        (10, ValueError, ["offset 10", "max_len=10"]),
    ],
)
def test_bad_offset(offset: object, error: type[Exception], words: list[str]) -> None:
    m = SinusoidalPositionalEncoding(16, max_len=10)
    with pytest.raises(error) as info:
        m(torch.zeros(1, 5, 16), offset=offset)
    for word in words:
        assert word in str(info.value)


def test_gradient_flows() -> None:
    m = SinusoidalPositionalEncoding(8, max_len=4, dropout=0.0)
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
        ({"d_model": 16, "layout": "concatenated"}, ValueError, ["layout", "'concatenated'", "'concat'"]),
        ({"d_model": 16, "layout": None}, TypeError, ["layout", "None", "NoneType"]),
        ({"d_model": 16, "base": "1e4"}, TypeError, ["base", "'1e4'"]),
    ],
)
def test_bad_construction(kwargs: dict, error: type[Exception], words: list[str]) -> None:
    with pytest.raises(error) as info:
        SinusoidalPositionalEncoding(**kwargs)
    for word in words:
        assert word in str(info.value)


def test_too_long_sequence_names_both_numbers() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=10)
    with pytest.raises(ValueError) as info:
        m(torch.zeros(1, 11, 16))
    assert "11" in str(info.value) and "max_len=10" in str(info.value)


def test_wrong_width_and_rank() -> None:
    m = SinusoidalPositionalEncoding(16, max_len=10)
    with pytest.raises(ValueError, match=r"d_model=16, got 12"):
        m(torch.zeros(1, 5, 12))
    with pytest.raises(ValueError, match=r"shape \(batch, seq, d_model\).*\(5, 16\)"):
        m(torch.zeros(5, 16))
    with pytest.raises(TypeError, match="floating-point.*torch.int64"):
        m(torch.zeros(1, 5, 16, dtype=torch.int64))
    with pytest.raises(TypeError, match="x must be a torch.Tensor, got list"):
        m([[0.0] * 16])


# ------------------------------------------------------------------------------- offsets and position_ids


@pytest.mark.parametrize("offset", [np.int64(7), np.int32(7), torch.tensor(7), torch.tensor(7, dtype=torch.int32)])
def test_any_integer_offset_gives_the_rows_of_a_python_int(offset: object) -> None:
    m = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0)
    x = torch.randn(2, 4, 16)
    assert torch.equal(m(x, offset=offset), m(x, offset=7))


@pytest.mark.parametrize("batch_first", [True, False])
def test_position_ids_pick_each_tokens_row(batch_first: bool) -> None:
    """Left padding: row 0 has two pad tokens, its real tokens are at positions 0, 1, 2; row 1 has none."""
    m = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0, batch_first=batch_first)
    table = sinusoidal_table(20, 16)
    position_ids = torch.tensor([[0, 0, 0, 1, 2], [0, 1, 2, 3, 4]])
    x = torch.randn(2, 5, 16)
    expected = x + table[position_ids]
    if batch_first:
        assert torch.equal(m(x, position_ids=position_ids), expected)
    else:
        assert torch.equal(m(x.transpose(0, 1), position_ids=position_ids), expected.transpose(0, 1))
    # (seq,) and (1, seq) apply to every sequence, like an offset
    x = torch.randn(2, 5, 16) if batch_first else torch.randn(5, 2, 16)
    shared = torch.arange(3, 8)
    assert torch.equal(m(x, position_ids=shared), m(x, offset=3))
    assert torch.equal(m(x, position_ids=shared[None]), m(x, offset=3))


def test_packed_sequences_restart_their_positions() -> None:
    """Two documents packed into one row of 7 tokens get the rows each would get alone."""
    m = SinusoidalPositionalEncoding(16, max_len=20, dropout=0.0)
    x = torch.randn(1, 7, 16)
    packed = m(x, position_ids=torch.tensor([[0, 1, 2, 0, 1, 2, 3]]))
    assert torch.equal(packed[:, :3], m(x[:, :3])) and torch.equal(packed[:, 3:], m(x[:, 3:]))


@pytest.mark.parametrize(
    ("kwargs", "error", "words"),
    [
        ({"position_ids": torch.tensor([[0, 1, 2, 3, 10]])}, ValueError, ["position_ids", "max_len=10", "got 10"]),
        ({"position_ids": torch.tensor([[0, -1, 2, 3, 4]])}, ValueError, ["position_ids", ">= 0", "-1"]),
        ({"position_ids": torch.arange(5.0)}, TypeError, ["position_ids", "integer", "torch.float32"]),
        ({"position_ids": torch.ones(5, dtype=torch.bool)}, TypeError, ["position_ids", "torch.bool"]),
        ({"position_ids": [0, 1, 2, 3, 4]}, TypeError, ["position_ids", "list"]),
        ({"position_ids": torch.arange(4)}, ValueError, ["position_ids", "(3, 5)", "(4,)"]),
        ({"position_ids": torch.zeros(2, 5, dtype=torch.long)}, ValueError, ["position_ids", "(2, 5)"]),
        ({"position_ids": torch.arange(5), "offset": 2}, ValueError, ["offset or position_ids", "offset=2"]),
        ({"position_ids": torch.arange(5), "offset": torch.tensor(0)}, ValueError, ["offset or position_ids"]),
    ],
)
def test_bad_position_ids(kwargs: dict, error: type[Exception], words: list[str]) -> None:
    m = SinusoidalPositionalEncoding(16, max_len=10)
    with pytest.raises(error) as info:
        m(torch.zeros(3, 5, 16), **kwargs)
    for word in words:
        assert word in str(info.value)


def test_decoding_with_position_ids_compiles_once() -> None:
    """Under torch.compile(fullgraph=True), decoding token by token with position_ids reuses one graph; an int
    offset that changes at every step is a guard and recompiles (the eager backend: no compiler needed)."""
    import torch._dynamo

    m = SinusoidalPositionalEncoding(16, max_len=64, dropout=0.0).eval()
    x = torch.randn(2, 1, 16)
    start = torch.tensor([[3], [0]])  # a left-padded batch: the second sequence has 3 pad tokens more
    torch._dynamo.reset()
    compiled = torch.compile(m, fullgraph=True, backend="eager")
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(6):
            assert torch.equal(compiled(x, position_ids=start + t), m(x, position_ids=start + t))
    torch._dynamo.reset()
    compiled = torch.compile(m, fullgraph=True, backend="eager")
    with torch._dynamo.config.patch(error_on_recompile=True):
        for t in range(6):  # a 0-d tensor offset: no recompile either
            assert torch.equal(compiled(x, offset=torch.tensor(t)), m(x, offset=t))
    torch._dynamo.reset()
    compiled = torch.compile(m, fullgraph=True, backend="eager")
    with torch._dynamo.config.patch(error_on_recompile=True), pytest.raises(Exception, match="[Rr]ecompil"):
        for t in range(6):
            compiled(x, offset=t)
    torch._dynamo.reset()


# ------------------------------------------------------------------------------------------ meta device


@pytest.mark.parametrize("layout", ["interleaved", "concat"])
def test_built_on_the_meta_device_then_reset(layout: str) -> None:
    with torch.device("meta"):
        m = SinusoidalPositionalEncoding(32, max_len=50, layout=layout)
    assert m.pe.is_meta
    m.reset_parameters()  # nothing to compute on the meta device
    m = m.to_empty(device="cpu")
    m.pe.fill_(float("nan"))  # what uninitialised memory may hold
    m.load_state_dict(m.state_dict())  # the checkpoint has no "pe": loading does not repair it
    assert torch.isnan(m.pe).all()
    m.reset_parameters()
    assert torch.equal(m.pe, sinusoidal_table(50, 32, layout=layout))


def test_reset_parameters_keeps_the_buffers_dtype() -> None:
    m = SinusoidalPositionalEncoding(32, max_len=50).to(torch.bfloat16)
    m.pe.zero_()
    m.reset_parameters()
    assert m.pe.dtype == torch.bfloat16 and torch.equal(m.pe, sinusoidal_table(50, 32).to(torch.bfloat16))


def test_reset_parameters_computes_on_the_cpu_inside_another_device_context() -> None:
    m = SinusoidalPositionalEncoding(8, max_len=6)
    with torch.device("meta"):
        m.reset_parameters()  # the table is computed on the CPU, not on the context's device
    assert torch.equal(m.pe, sinusoidal_table(6, 8))


def test_uint8_position_ids_are_read_as_positions() -> None:
    """A uint8 index tensor selects rows as a mask in PyTorch; position_ids are positions whatever their dtype."""
    m = SinusoidalPositionalEncoding(8, max_len=12, dropout=0.0)
    x = torch.zeros(1, 12, 8)
    ones = torch.ones(12, dtype=torch.uint8)
    assert torch.equal(m(x, position_ids=ones)[0], m.pe[1].expand(12, 8))
    assert torch.equal(m(x, position_ids=torch.arange(12, dtype=torch.int16)), m(x))
