import inspect
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import (
    KNOWN_TABLES,
    concat_to_interleaved,
    identify_table,
    interleaved_to_concat,
    inverse_frequencies,
    sinusoidal_table,
)
from pe_docs.analysis import exact_rows, rows_in_dtype
from pe_docs.variants import (
    concat_paper_table,
    d2l_buffer,
    diffusers_timestep_embedding,
    distilbert_weights,
    doubled_and_odd_exponent_table,
    doubled_exponent_table,
    fairseq_table,
    fairseq_weights,
    hf_marian_weights,
    integer_exponent_table,
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


@settings(max_examples=25, deadline=None)
@given(length=st.integers(1, 40), half=st.integers(1, 32))
def test_layout_converters_are_bit_exact_inverses(length, half):
    d = 2 * half
    inter = sinusoidal_table(length, d)
    concat = sinusoidal_table(length, d, layout="concat")
    assert torch.equal(interleaved_to_concat(inter), concat)
    assert torch.equal(concat_to_interleaved(concat), inter)
    x = torch.randn(3, length, d)
    assert torch.equal(concat_to_interleaved(interleaved_to_concat(x)), x)


def test_concat_paper_table_even_and_odd():
    assert torch.equal(concat_paper_table(50, 16), sinusoidal_table(50, 16, dtype=torch.float64, layout="concat"))
    odd = concat_paper_table(10, 5)
    assert odd.shape == (10, 5)
    p = torch.arange(10, dtype=torch.float64)
    torch.testing.assert_close(odd[:, 2], torch.sin(p * 10000 ** (-4 / 5)))  # third sine: exponent 2*2/5
    torch.testing.assert_close(odd[:, 4], torch.cos(p * 10000 ** (-2 / 5)))


def test_tensor2tensor_formula():
    d = 512
    t = tensor2tensor_table(1001, d)
    p = torch.arange(1001, dtype=torch.float64)[:, None]
    i = torch.arange(d // 2, dtype=torch.float64)
    w = 10000.0 ** (-i / (d // 2 - 1))
    torch.testing.assert_close(t, torch.cat((torch.sin(p * w), torch.cos(p * w)), 1), rtol=0, atol=1e-12)
    # the longest wavelength is exactly 2*pi*10000
    assert math.isclose(2 * math.pi / float(w[-1]), 2 * math.pi * 10000, rel_tol=1e-12)
    diff = (interleaved_to_concat(sinusoidal_table(1001, d, dtype=torch.float64)) - t).abs().amax(1)
    assert 1e-3 < diff[1] < 2e-3 and diff[1000] > 1.0


def test_odd_width_pads_zero_column_in_t2t_and_fairseq():
    for t in (tensor2tensor_table(20, 7), fairseq_table(20, 7)):
        assert t.shape == (20, 7) and torch.equal(t[:, -1], torch.zeros(20, dtype=torch.float64))
    with pytest.raises(RuntimeError):
        tutorial_buffer(10, 7)
    with pytest.raises(ValueError, match=r"d_model must be even"):
        sinusoidal_table(10, 7)


def test_fairseq_offset():
    assert torch.equal(fairseq_table(10, 16, padding_idx=1), tensor2tensor_table(12, 16)[2:])
    assert torch.equal(fairseq_table(10, 16, padding_idx=0), tensor2tensor_table(11, 16)[1:])
    with pytest.raises(ValueError, match=r"padding_idx must be >= 0, got -1"):
        fairseq_table(10, 16, padding_idx=-1)


def test_tutorial_buffer_shape_and_values():
    buf = tutorial_buffer(100, 32)
    assert buf.shape == (100, 1, 32) and buf.dtype == torch.float32
    assert torch.equal(buf[:, 0], rows_in_dtype(torch.arange(100), 32, method="log", dtype=torch.float32))
    assert (buf[:, 0].double() - sinusoidal_table(100, 32, dtype=torch.float64)).abs().max() < 1e-5


def test_bug_formulas():
    p = torch.arange(30, dtype=torch.float64)
    odd = odd_cosine_exponent_table(30, 8)
    torch.testing.assert_close(odd[:, 3], torch.cos(p * 10000 ** (-3 / 8)))
    torch.testing.assert_close(odd[:, 2], torch.sin(p * 10000 ** (-2 / 8)))
    dbl = doubled_exponent_table(30, 8)
    torch.testing.assert_close(dbl[:, 2], torch.sin(p * 10000 ** (-4 / 8)))
    both = doubled_and_odd_exponent_table(30, 8)
    torch.testing.assert_close(both[:, 3], torch.cos(p * 10000 ** (-6 / 8)))
    integer = integer_exponent_table(30, 8)
    assert torch.equal(integer[:, 0], integer[:, 6]) and torch.equal(integer[:, 0], torch.sin(p))
    assert torch.equal(wrong_axis_rows(6, 8), sinusoidal_table(1, 8, dtype=torch.float64).expand(6, 8))
    rows = wrong_axis_rows(6, 8, batch=3)
    assert torch.equal(rows, sinusoidal_table(4, 8, dtype=torch.float64)[3].expand(6, 8))


def test_shift_residual_separates_valid_and_broken_tables():
    assert pairwise_shift_residual(sinusoidal_table(64, 32, dtype=torch.float64)) < 1e-12
    assert pairwise_shift_residual(tensor2tensor_table(64, 32), layout="concat") < 1e-12
    assert pairwise_shift_residual(doubled_exponent_table(64, 32), k=5) < 1e-12
    assert pairwise_shift_residual(odd_cosine_exponent_table(64, 32)) > 0.5
    assert pairwise_shift_residual(doubled_and_odd_exponent_table(64, 32)) > 0.5
    with pytest.raises(ValueError, match=r"more than k \+ 2 = 12 rows, got 5"):
        pairwise_shift_residual(torch.zeros(5, 4), k=10)
    with pytest.raises(ValueError, match=r"layout must be one of 'interleaved', 'concat'; got 'sin-first'"):
        pairwise_shift_residual(torch.zeros(8, 4), layout="sin-first")


def _every_table(length, d):
    p = torch.arange(length)
    return {
        "paper": sinusoidal_table(length, d),
        "concat": sinusoidal_table(length, d, layout="concat"),
        "tensor2tensor": tensor2tensor_table(length, d, dtype=torch.float32),
        "odd-cosine-exponent": odd_cosine_exponent_table(length, d),
        "doubled-exponent": doubled_exponent_table(length, d),
        "doubled-and-odd-exponent": doubled_and_odd_exponent_table(length, d),
        "integer-exponent": integer_exponent_table(length, d).float(),
        "bfloat16-recomputed": rows_in_dtype(p, d, method="log", dtype=torch.bfloat16),
        "float16-recomputed": rows_in_dtype(p, d, method="log", dtype=torch.float16),
        "constant-rows": wrong_axis_rows(length, d, batch=2),
    }


@pytest.mark.parametrize(("length", "d"), [(64, 32), (128, 64), (50, 512)])
def test_identify_every_variant_and_bug(length, d):
    tables = _every_table(length, d)
    for name, table in tables.items():
        match = identify_table(table)
        assert match.name == name, (name, match)
        assert match.is_bug == (name not in ("paper", "concat", "tensor2tensor"))
        if not name.endswith("-recomputed"):
            assert match.max_error <= match.atol
    fairseq = identify_table(fairseq_table(length, d))
    assert (fairseq.name, fairseq.offset, fairseq.descending) == ("tensor2tensor", 2, False)


def test_known_tables_and_descriptions():
    assert KNOWN_TABLES == (
        "paper", "concat", "concat-cos-first", "tensor2tensor", "tensor2tensor-cos-first",
        "tensor2tensor-interleaved", "odd-cosine-exponent", "doubled-exponent", "doubled-and-odd-exponent",
        "integer-exponent", "constant-rows", "float16-recomputed", "bfloat16-recomputed",
    )  # fmt: skip
    t2t = identify_table(tensor2tensor_table(64, 32))
    assert t2t.description.startswith(
        "tensor2tensor spacing w_i = base^(-i/(d/2 - 1)), [sin | cos]: tensor2tensor, fairseq, Whisper, Marian C++, "
        "diffusers default (downscale_freq_shift=1); correct"
    )
    assert t2t.libraries == ("tensor2tensor", "fairseq", "Whisper", "Marian C++",
                             "diffusers default (downscale_freq_shift=1)")  # fmt: skip
    assert (t2t.layout, t2t.spacing) == ("concat", "tensor2tensor")


def test_identify_low_precision_casts_and_tutorial_as_paper():
    """A table cast once to bfloat16/float16 (the fix) is correct, even upcast again to float32."""
    for dtype in (torch.bfloat16, torch.float16):
        cast = sinusoidal_table(64, 32, dtype=dtype)
        assert identify_table(cast).name == "paper"
        assert identify_table(cast.float()).name == "paper"
        assert identify_table(transformer_xl_pos_emb(300, 64).to(dtype)).name == "concat"
    tut = identify_table(tutorial_buffer(64, 32))
    assert (tut.name, tut.rows) == ("paper", "table[:, 0]")
    assert tut.shift_residual < 1e-5


def test_identify_unknown_and_bad_input():
    g = torch.Generator().manual_seed(0)
    m = identify_table(torch.randn(32, 16, generator=g))
    assert m.name == "unknown" and m.closest in KNOWN_TABLES and m.max_error > 0.5 and not m.is_bug
    assert (m.layout, m.spacing, m.libraries) == (None, None, ())
    nan = sinusoidal_table(32, 16)
    nan[3, 4] = math.nan
    assert identify_table(nan).name == "unknown"
    with pytest.raises(ValueError, match=r"got \(3, 10, 8\) \(pass one sequence's rows: table\[b\] for a batch-first"):
        identify_table(torch.zeros(3, 10, 8))
    with pytest.raises(ValueError, match=r"must have shape \(L, d\), \(1, L, d\) or \(L, 1, d\), got \(2, 3, 4, 8\)"):
        identify_table(torch.zeros(2, 3, 4, 8))
    with pytest.raises(TypeError, match=r"floating-point"):
        identify_table(torch.zeros(10, 8, dtype=torch.int64))
    with pytest.raises(TypeError, match=r"table must hold real floating-point numbers .* got a str"):
        identify_table("[[0.0]]")
    with pytest.raises(ValueError, match=r"table.size\(1\) must be even"):
        identify_table(torch.zeros(10, 7))
    with pytest.raises(ValueError, match=r"table.size\(0\) must be >= 4, got 2"):
        identify_table(torch.zeros(2, 8))
    with pytest.raises(ValueError, match=r"table.size\(1\) must be >= 4, got 2"):
        identify_table(torch.zeros(10, 2))
    with pytest.raises(ValueError, match=r"atol must be > 0.0, got -1"):
        identify_table(sinusoidal_table(8, 8), atol=-1)
    with pytest.raises(ValueError, match=r"base must be finite and > 0, got 0.0"):
        identify_table(sinusoidal_table(8, 8), base=0.0)


def test_converter_bad_input():
    with pytest.raises(ValueError, match=r"table.size\(-1\) must be even"):
        interleaved_to_concat(torch.zeros(3, 5))
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor"):
        concat_to_interleaved([1.0, 2.0])


def _broadcast_bug(seq: int, batch: int, d: int) -> torch.Tensor:
    """The bug itself: a batch-first buffer added to a sequence-first input, shape (seq, batch, d)."""
    pe = sinusoidal_table(max(seq, batch), d, dtype=torch.float64)[None]
    x = torch.zeros(seq, batch, d, dtype=torch.float64)
    return x + pe[:, : x.size(1)]


def test_wrong_axis_rows_returns_what_batch_element_b_receives():
    """Regression: `batch` used to do nothing (always batch element 0, documented as "sequence item 0")."""
    wrong = _broadcast_bug(7, 4, 16)
    for b in range(4):
        rows = wrong_axis_rows(7, 16, batch=b)
        assert rows.shape == (7, 16) and rows.is_contiguous()
        assert torch.equal(rows, wrong[:, b])
    assert not torch.equal(wrong_axis_rows(7, 16, batch=1), wrong_axis_rows(7, 16, batch=2))
    assert identify_table(wrong_axis_rows(64, 32, batch=5)).name == "constant-rows"
    with pytest.raises(ValueError, match=r"batch must be >= 0, got -1"):
        wrong_axis_rows(4, 8, batch=-1)
    with pytest.raises(TypeError, match=r"batch must be an integer, got 1.0"):
        wrong_axis_rows(4, 8, batch=1.0)
    with pytest.raises(ValueError, match=r"batch must be <= 2\*\*53"):
        wrong_axis_rows(4, 8, batch=2**53 + 1)


def test_shared_helpers_give_the_same_tables_bit_for_bit():
    """The variants reuse inverse_frequencies / exact_rows / rows_in_dtype; the tables did not change."""
    p = torch.arange(40, dtype=torch.float64)[:, None]
    for d in (4, 16, 64):
        two_i = 2.0 * torch.arange(d // 2, dtype=torch.float64)
        w = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -(two_i / d))
        assert torch.equal(inverse_frequencies(d), w)
        paper = torch.stack((torch.sin(p * w), torch.cos(p * w)), dim=-1).flatten(-2)
        assert torch.equal(exact_rows(torch.arange(40), d), paper)
        assert torch.equal(concat_paper_table(40, d), interleaved_to_concat(paper))
        assert torch.equal(wrong_axis_rows(40, d, batch=7), paper[7].expand(40, d))
    # odd widths keep their own frequencies: ceil(d/2) of them, exponent 2i/d
    w5 = torch.pow(torch.tensor(10000.0, dtype=torch.float64), -(2.0 * torch.arange(3, dtype=torch.float64) / 5))
    assert torch.equal(concat_paper_table(40, 5), torch.cat((torch.sin(p * w5), torch.cos(p * w5[:2])), dim=1))


def test_tutorial_buffer_is_the_tutorial_code():
    """tutorial_buffer now reuses rows_in_dtype; compare with the tutorial's own lines."""
    for d in (2, 8, 512):
        position = torch.arange(50, dtype=torch.float32).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d, 2, dtype=torch.float32) * (-math.log(10000.0) / d))
        pe = torch.zeros(50, 1, d)
        pe[:, 0, 0::2] = torch.sin(position * div_term)
        pe[:, 0, 1::2] = torch.cos(position * div_term)
        buf = tutorial_buffer(50, d)
        assert buf.dtype == torch.float32 and buf.shape == (50, 1, d) and torch.equal(buf, pe)
    with pytest.raises(RuntimeError, match=r"odd d_model=7: 4 cosines do not fit the 3 columns"):
        tutorial_buffer(10, 7)
    with pytest.raises(ValueError, match=r"d_model must be >= 1, got 0"):
        tutorial_buffer(10, 0)


def test_integer_exponent_table_takes_no_base():
    """Regression: `base` was checked and then ignored (every exponent is 0, so the base drops out)."""
    assert list(inspect.signature(integer_exponent_table).parameters) == ["max_len", "d_model"]
    with pytest.raises(TypeError):
        integer_exponent_table(10, 8, base=10000.0)  # type: ignore[call-arg]
    # identify_table still recognises it whatever base the other candidates are built with
    assert identify_table(integer_exponent_table(64, 32), base=500.0).name == "integer-exponent"


def test_shift_residual_rejects_non_finite_and_non_float_tables():
    """Regression: a NaN table crashed inside the least-squares solver (MKL)."""
    nan = sinusoidal_table(16, 8, dtype=torch.float64)
    nan[3, 2] = math.nan
    with pytest.raises(ValueError, match=r"table must be finite, got NaN or infinite entries \(shape \(16, 8\)\)"):
        pairwise_shift_residual(nan)
    inf = sinusoidal_table(16, 8)
    inf[0, 0] = math.inf
    with pytest.raises(ValueError, match=r"table must be finite"):
        pairwise_shift_residual(inf)
    with pytest.raises(TypeError, match=r"table must be a real floating-point tensor, got dtype torch.int64"):
        pairwise_shift_residual(torch.zeros(16, 8, dtype=torch.int64))
    with pytest.raises(ValueError, match=r"table must have 2 dimensions, got shape \(2, 16, 8\)"):
        pairwise_shift_residual(torch.zeros(2, 16, 8))


def test_identify_atol_uses_the_shared_number_check():
    table = sinusoidal_table(64, 32)
    assert identify_table(table, atol=np.float32(1e-3)).name == "paper"
    assert identify_table(table, atol=1).atol == 1.0
    with pytest.raises(TypeError, match=r"atol must be a real number, got '1e-3' of type str"):
        identify_table(table, atol="1e-3")
    with pytest.raises(TypeError, match=r"atol must be a real number, got True"):
        identify_table(table, atol=True)
    with pytest.raises(ValueError, match=r"atol must be finite, got nan"):
        identify_table(table, atol=math.nan)
    with pytest.raises(ValueError, match=r"atol must be > 0.0, got 0"):
        identify_table(table, atol=0)


def test_identify_non_finite_tables_match_nothing():
    for bad in (math.nan, math.inf):
        table = sinusoidal_table(32, 16)
        table[3, 4] = bad
        match = identify_table(table)
        assert match.name == "unknown" and math.isnan(match.shift_residual)
        assert all(math.isinf(e) for e in match.errors.values()), match.errors


@pytest.mark.parametrize(
    "module_name", ["pe_docs.identify", "pe_docs.analysis.extrapolation", "pe_docs.analysis.learned"]
)
def test_attribute_docstring_examples_run(module_name):
    """--doctest-modules cannot see attribute docstrings (e.g. KNOWN_TABLES'): run their examples here."""
    import ast
    import doctest
    import importlib

    module = importlib.import_module(module_name)
    tree = ast.parse(inspect.getsource(module))
    found = 0
    for node, following in zip(tree.body, tree.body[1:], strict=False):
        is_assignment = isinstance(node, (ast.Assign, ast.AnnAssign))
        if not (is_assignment and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)):
            continue
        text = following.value.value
        test = doctest.DocTestParser().get_doctest(text, vars(module).copy(), module_name, module.__file__, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
        runner.run(test)
        assert runner.failures == 0, text
        found += len(test.examples)
    assert found >= (1 if module_name == "pe_docs.identify" else 0)


# ------------------------------------------------------------------------------ library code, re-implemented


def _reference(positions, w, layout):
    """float64 reference rows: sin/cos of positions·w in the given layout."""
    phase = torch.as_tensor(positions, dtype=torch.float64)[:, None] * w[None, :]
    s, c = torch.sin(phase), torch.cos(phase)
    if layout == "interleaved":
        return torch.stack((s, c), dim=-1).flatten(-2)
    return torch.cat((s, c) if layout == "concat" else (c, s), dim=1)


def _w_paper(d):
    return 10000.0 ** (-torch.arange(0, d, 2, dtype=torch.float64) / d)


def _w_t2t(d):
    return 10000.0 ** (-torch.arange(d // 2, dtype=torch.float64) / (d // 2 - 1))


FLOAT32_PHASE = 4 * 2.0**-24  # per unit of position: the float32 rounding of p·w, with margin


@pytest.mark.parametrize(
    ("build", "positions", "w", "layout"),
    [
        (lambda: t2t_timing_signal(300, 64)[0], range(300), _w_t2t(64), "concat"),
        (lambda: t2t_timing_signal(300, 64, start_index=5)[0], range(5, 305), _w_t2t(64), "concat"),
        (lambda: fairseq_weights(300, 64, padding_idx=None), range(300), _w_t2t(64), "concat"),
        (lambda: whisper_sinusoids(300, 64), range(300), _w_t2t(64), "concat"),
        (lambda: marian_cpp_embeddings(300, 64)[:, 0], range(300), _w_t2t(64), "concat"),
        (lambda: marian_cpp_embeddings(300, 64, start=7)[:, 0], range(7, 307), _w_t2t(64), "concat"),
        (lambda: hf_marian_weights(300, 64), range(300), _w_paper(64), "concat"),
        (lambda: distilbert_weights(300, 64), range(300), _w_paper(64), "interleaved"),
        (lambda: diffusers_timestep_embedding(torch.arange(300), 64), range(300), _w_t2t(64), "concat"),
        (
            lambda: diffusers_timestep_embedding(torch.arange(300), 64, flip_sin_to_cos=True, downscale_freq_shift=0),
            range(300), _w_paper(64), "concat-cos-first",
        ),
        (lambda: keras_sine_position_encoding(300, 64)[0], range(300), _w_paper(64), "interleaved"),
        (lambda: transformer_xl_pos_emb(300, 64)[:, 0], range(299, -1, -1), _w_paper(64), "concat"),
        (lambda: d2l_buffer(300, 64)[0], range(300), _w_paper(64), "interleaved"),
    ],
)  # fmt: skip
def test_library_tables_follow_their_formulas(build, positions, w, layout):
    """Each re-implementation against the float64 formula of its source, to float32's phase rounding."""
    rows = build()
    assert rows.dtype == torch.float32
    expected = _reference(list(positions), w, layout)
    largest = max(positions)
    assert (rows.double() - expected).abs().max() <= 1e-6 + FLOAT32_PHASE * largest


def test_library_table_shapes_and_details():
    assert t2t_timing_signal(10, 8).shape == (1, 10, 8)
    assert marian_cpp_embeddings(10, 8).shape == (10, 1, 8)
    assert transformer_xl_pos_emb(10, 8).shape == (10, 1, 8)
    assert d2l_buffer(10, 8).shape == (1, 10, 8)
    assert keras_sine_position_encoding(10, 8).shape == (1, 10, 8)
    # fairseq: row padding_idx is zero, row 0 is position 0, tokens start at padding_idx + 1
    w = fairseq_weights(12, 16)
    assert torch.equal(w[1], torch.zeros(16)) and torch.equal(w[0], torch.tensor([0.0] * 8 + [1.0] * 8))
    assert torch.equal(w[2:], fairseq_weights(12, 16, padding_idx=None)[2:])
    torch.testing.assert_close(w[2:].double(), fairseq_table(10, 16), rtol=0, atol=1e-6)
    with pytest.raises(ValueError, match=r"padding_idx must be < num_embeddings=4, got 4"):
        fairseq_weights(4, 8, padding_idx=4)
    # odd widths: zero column (t2t, fairseq, diffusers), ⌈d/2⌉ sines (HF Marian, DistilBERT), crash (d2l)
    padded = (t2t_timing_signal(5, 7)[0], fairseq_weights(5, 7, None), diffusers_timestep_embedding(torch.arange(5), 7))
    for table in padded:
        assert table.shape == (5, 7) and torch.equal(table[:, -1], torch.zeros(5))
    assert hf_marian_weights(1, 7)[0].tolist() == [0.0] * 4 + [1.0] * 3
    assert distilbert_weights(1, 7)[0].tolist() == [0.0, 1.0] * 3 + [0.0]
    with pytest.raises(RuntimeError, match=r"odd num_hiddens=7: 4 cosines do not fit the 3 columns"):
        d2l_buffer(10, 7)
    with pytest.raises(ValueError, match=r"channels must be even"):
        whisper_sinusoids(10, 7)
    # Marian C++ with an odd width: float numTimescales 3.5, integer part 3: 3 sines, then 4 cosines
    odd = marian_cpp_embeddings(3, 7)[:, 0]
    assert odd[0].tolist() == [0.0] * 3 + [1.0] * 4
    step = math.log(10000) / 2.5
    w7 = torch.exp(-step * torch.arange(3, dtype=torch.float64))
    torch.testing.assert_close(odd[2, 3:].double(), torch.cos(2 * w7[[0, 1, 2, 0]]), rtol=0, atol=1e-6)
    # Transformer-XL's clamp_len: positions above it repeat it
    clamped = transformer_xl_pos_emb(10, 8, clamp_len=4)[:, 0]
    assert torch.equal(clamped[0], clamped[5]) and not torch.equal(clamped[5], clamped[6])
    # diffusers' fractional timesteps and scale
    half = diffusers_timestep_embedding(torch.tensor([0.5]), 4, downscale_freq_shift=0, scale=2.0)
    torch.testing.assert_close(half.double(), _reference([1.0], _w_paper(4), "concat"), rtol=0, atol=1e-7)
    with pytest.raises(ValueError, match=r"timesteps must be 1-D, got shape \(2, 2\)"):
        diffusers_timestep_embedding(torch.zeros(2, 2), 4)
    with pytest.raises(ValueError, match=r"downscale_freq_shift must differ from embedding_dim // 2 = 2, got 2.0"):
        diffusers_timestep_embedding(torch.arange(3), 4, downscale_freq_shift=2)
    with pytest.raises(TypeError, match=r"flip_sin_to_cos must be a bool, got 1"):
        diffusers_timestep_embedding(torch.arange(3), 4, flip_sin_to_cos=1)


def test_hf_marian_port_differs_from_marian_cpp():
    """Hugging Face's port uses the paper's spacing; Marian's C++ uses tensor2tensor's: different tables."""
    port, cpp = hf_marian_weights(1001, 512), marian_cpp_embeddings(1001, 512)[:, 0]
    gap = (port.double() - cpp.double()).abs().amax(dim=1)
    assert 1e-3 < gap[1] < 2e-3 and gap[1000] > 1
    assert identify_table(port).name == "concat" and identify_table(cpp).name == "tensor2tensor"


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
def test_keras_computes_in_the_compute_dtype(dtype):
    table = keras_sine_position_encoding(100, 64, compute_dtype=dtype)
    assert table.dtype == dtype
    # a recomputed table, not a cast one: far worse than rounding the exact table once
    exact = _reference(range(100), _w_paper(64), "interleaved")
    cast_error = (exact.to(dtype).double() - exact).abs().max()
    assert (table[0].double() - exact).abs().max() > 10 * cast_error


# ----------------------------------------------------------------------- identify_table on real code


@pytest.mark.parametrize(
    ("table", "name", "rows", "offset", "descending", "zero_rows"),
    [
        (t2t_timing_signal(1000, 512), "tensor2tensor", "table[0]", 0, False, ()),
        (fairseq_weights(1026, 512), "tensor2tensor", "table", 0, False, (1,)),
        (fairseq_weights(1025, 512, padding_idx=0), "tensor2tensor", "table", 0, False, (0,)),
        (fairseq_weights(1026, 512)[2:], "tensor2tensor", "table", 2, False, ()),
        (whisper_sinusoids(1500, 384), "tensor2tensor", "table", 0, False, ()),
        (marian_cpp_embeddings(512, 512), "tensor2tensor", "table[:, 0]", 0, False, ()),
        (hf_marian_weights(512, 512), "concat", "table", 0, False, ()),
        (distilbert_weights(512, 768), "paper", "table", 0, False, ()),
        (
            diffusers_timestep_embedding(torch.arange(1000), 320, flip_sin_to_cos=True, downscale_freq_shift=0),
            "concat-cos-first", "table", 0, False, (),
        ),
        (diffusers_timestep_embedding(torch.arange(1000), 320), "tensor2tensor", "table", 0, False, ()),
        (
            diffusers_timestep_embedding(torch.arange(1000), 256, flip_sin_to_cos=True, downscale_freq_shift=1),
            "tensor2tensor-cos-first", "table", 0, False, (),
        ),
        (keras_sine_position_encoding(1000, 256), "paper", "table[0]", 0, False, ()),
        (keras_sine_position_encoding(1000, 256, start_index=30), "paper", "table[0]", 30, False, ()),
        (transformer_xl_pos_emb(640, 512), "concat", "table[:, 0]", 639, True, ()),
        (d2l_buffer(1000, 32), "paper", "table[0]", 0, False, ()),
        (tutorial_buffer(5000, 512), "paper", "table[:, 0]", 0, False, ()),
        (sinusoidal_table(1001, 64)[1:], "paper", "table", 1, False, ()),
        (exact_rows(torch.arange(70000, 70100), 64), "paper", "table", 70000, False, ()),
    ],
)  # fmt: skip
def test_identify_real_library_tables(table, name, rows, offset, descending, zero_rows):
    match = identify_table(table)
    assert (match.name, match.rows, match.offset, match.descending, match.zero_rows) == (
        name, rows, offset, descending, zero_rows
    ), match  # fmt: skip
    assert not match.is_bug and match.max_error <= match.atol and match.also_within_tolerance == ()


def test_identify_diffusers_cos_sin_was_unknown():
    """Regression: [cos | sin] (diffusers, Stable Diffusion's UNet) came back "unknown" with error 1.41."""
    sd = diffusers_timestep_embedding(torch.arange(1000), 320, flip_sin_to_cos=True, downscale_freq_shift=0)
    match = identify_table(sd)
    assert (match.name, match.layout, match.spacing) == ("concat-cos-first", "concat-cos-first", "paper")
    assert "UNet2DConditionModel" in match.description and match.max_error < 1e-4


def test_identify_batch_first_and_sequence_first_buffers():
    table = sinusoidal_table(100, 32)
    for buffer, how in ((table[None], "table[0]"), (table[:, None], "table[:, 0]"), (table, "table")):
        match = identify_table(buffer)
        assert (match.name, match.rows) == ("paper", how)
    with pytest.raises(ValueError, match=r"table\[b\] for a batch-first \(B, L, d\) tensor, table\[:, b\] for a "):
        identify_table(table[None].expand(2, 100, 32))


@pytest.mark.parametrize("length", [16384, 32768, 65536])
@pytest.mark.parametrize(
    ("build", "name"),
    [
        (lambda n: d2l_buffer(n, 128), "paper"),
        (lambda n: tutorial_buffer(n, 128), "paper"),
        (lambda n: t2t_timing_signal(n, 128), "tensor2tensor"),
        (lambda n: fairseq_weights(n, 128), "tensor2tensor"),
        (lambda n: whisper_sinusoids(n, 128), "tensor2tensor"),
    ],
)
def test_identify_long_float32_tables(build, name, length):
    """Regression: correct float32 tables of 16k-64k rows came back "unknown" (a fixed tolerance of 1e-3)."""
    match = identify_table(build(length))
    assert match.name == name
    assert match.atol == 2.0**-20 + 4 * 2.0**-24 * (length - 1)  # the float32 phase rounding at P = L - 1
    assert match.max_error > 1e-3 or length == 16384  # what the old fixed tolerance rejected


def test_identify_tolerance_is_the_float32_phase_rounding():
    match = identify_table(sinusoidal_table(4096, 64))
    assert match.atol == 2.0**-20 + 4 * 2.0**-24 * 4095
    descending = identify_table(transformer_xl_pos_emb(4096, 64))
    assert descending.atol == match.atol  # its largest position is row 0's
    assert identify_table(sinusoidal_table(4096, 64, dtype=torch.bfloat16)).atol == 2.0**-7 + 4 * 2.0**-24 * 4095
    assert identify_table(sinusoidal_table(4096, 64), atol=0.5).atol == 0.5


@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float16])
@pytest.mark.parametrize(("length", "d"), [(64, 32), (1000, 256), (4096, 128)])
def test_identify_low_precision_recomputation_by_its_effect(dtype, length, d):
    """The tutorial's exp/log recipe, the pow recipe and keras_hub's recipe, all in bfloat16 and float16."""
    expected = "bfloat16-recomputed" if dtype == torch.bfloat16 else "float16-recomputed"
    recipes = {
        "tutorial (log)": rows_in_dtype(torch.arange(length), d, method="log", dtype=dtype),
        "pow": rows_in_dtype(torch.arange(length), d, method="pow", dtype=dtype),
        "keras_hub": keras_sine_position_encoding(length, d, compute_dtype=dtype),
        "keras_hub, upcast": keras_sine_position_encoding(length, d, compute_dtype=dtype).float(),
    }
    for recipe, table in recipes.items():
        match = identify_table(table)
        assert match.name == expected, (recipe, match)
        assert match.is_bug and (match.layout, match.spacing) == ("interleaved", "paper")
        assert "the table recomputed is 'paper'" in match.description


def test_identify_float16_overflow_rows():
    """float16 positions from 65 520 on are inf, their rows NaN: accepted as float16-recomputed, nothing else."""
    table = rows_in_dtype(torch.arange(66000), 32, method="log", dtype=torch.float16)
    assert bool(torch.isnan(table[65520:]).all()) and bool(torch.isfinite(table[:65520]).all())
    assert identify_table(table).name == "float16-recomputed"
    early_nan = table.clone()
    early_nan[100] = math.nan
    assert identify_table(early_nan).name == "unknown"


def test_identify_no_low_precision_false_alarms():
    """Correct tables near a family, or float32 tables with a wrong frequency, are not called recomputed."""
    assert identify_table(sinusoidal_table(1000, 512, base=9000.0)).name == "unknown"
    noisy = sinusoidal_table(1000, 512) + 1e-2 * torch.randn(1000, 512, generator=torch.Generator().manual_seed(0))
    assert identify_table(noisy).name == "unknown"
    p = torch.arange(1000, dtype=torch.float64)[:, None]
    w = _w_t2t(512)
    t2t_interleaved = torch.stack((torch.sin(p * w), torch.cos(p * w)), dim=-1).flatten(-2)
    assert identify_table(t2t_interleaved.float()).name == "tensor2tensor-interleaved"
    assert identify_table(t2t_interleaved.bfloat16()).name == "tensor2tensor-interleaved"


@settings(max_examples=12, deadline=None)
@given(
    offset=st.integers(0, 3000),
    descending=st.booleans(),
    family=st.sampled_from(["paper", "concat", "concat-cos-first", "tensor2tensor", "tensor2tensor-cos-first"]),
    length=st.integers(4, 300),
    half=st.integers(4, 64),
)
def test_identify_finds_offset_and_direction(offset, descending, family, length, half):
    d = 2 * half
    w = _w_paper(d) if family.startswith(("paper", "concat")) else _w_t2t(d)
    layout = {"paper": "interleaved", "concat": "concat", "concat-cos-first": "concat-cos-first",
              "tensor2tensor": "concat", "tensor2tensor-cos-first": "concat-cos-first"}[family]  # fmt: skip
    first = offset + length - 1 if descending else offset
    positions = [first - r for r in range(length)] if descending else [first + r for r in range(length)]
    match = identify_table(_reference(positions, w, layout).float())
    assert match.name == family or family in (match.name, *match.also_within_tolerance), match
    if match.name == family:
        assert (match.offset, match.descending) == (first, descending) or length == 1


def test_variants_package_layout_and_public_names():
    """pe_docs.variants is a package of modules by what they hold, none over 800 lines; each public name has one
    home: the tables and bugs (and pairwise_shift_residual) in pe_docs.variants, the converters and the checker
    (which a model's code uses) in pe_docs alone."""
    import importlib
    import pathlib

    import pe_docs
    import pe_docs.variants as variants

    core = {"interleaved_to_concat", "concat_to_interleaved", "identify_table", "TableMatch", "KNOWN_TABLES"}
    assert core <= set(pe_docs.__all__) and not core & set(variants.__all__)  # one home: pe_docs
    assert not any(hasattr(variants, name) for name in core), [n for n in core if hasattr(variants, n)]
    homes = {
        "bugs": {
            "odd_cosine_exponent_table",
            "doubled_exponent_table",
            "doubled_and_odd_exponent_table",
            "integer_exponent_table",
            "wrong_axis_rows",
        },
        "identify": {"pairwise_shift_residual"},
    }
    homes["libraries"] = set(variants.__all__) - set().union(*homes.values())
    assert len(homes["libraries"]) == 14, sorted(homes["libraries"])
    for module_name, names in homes.items():
        # pairwise_shift_residual is in the package's core module pe_docs.identify, beside the checker
        module = importlib.import_module(
            f"pe_docs.{module_name}" if module_name == "identify" else f"pe_docs.variants.{module_name}"
        )
        for name in names:
            assert getattr(variants, name) is getattr(module, name), name
            assert not hasattr(pe_docs, name), name  # the other libraries' tables and the bugs only here
            if callable(getattr(module, name)):
                assert getattr(module, name).__module__ == module.__name__, name
    package = pathlib.Path(pe_docs.__file__).parent
    lengths = {str(p.relative_to(package)): len(p.read_text().splitlines()) for p in package.rglob("*.py")}
    assert {"layouts.py", "variants/libraries.py", "variants/bugs.py", "identify.py"} <= set(lengths)
    assert max(lengths.values()) <= 800, {k: v for k, v in lengths.items() if v > 800}


# ------------------------------------------------------------------------- identify_table on NumPy and lists


def _same_match(a, b):
    """Two TableMatch results are equal field by field (NaN equal to NaN)."""
    import dataclasses

    left, right = dataclasses.asdict(a), dataclasses.asdict(b)
    for key in ("shift_residual", "max_error"):
        if math.isnan(left[key]) and math.isnan(right[key]):
            left[key] = right[key] = 0.0
    return left == right


@pytest.mark.parametrize(("length", "d"), [(64, 32), (200, 64)])
def test_identify_numpy_arrays_get_the_same_answers(length, d):
    """The TensorFlow and JAX tutorials build their tables in NumPy: a NumPy array (float16, float32 or
    float64, any strides, read-only) is answered exactly as the tensor holding the same numbers."""
    tables = {
        **_every_table(length, d),
        "t2t buffer": t2t_timing_signal(length, d),
        "fairseq": fairseq_weights(length + 2, d),
        "transformer-xl": transformer_xl_pos_emb(length, d),
        "hf marian": hf_marian_weights(length, d),
        "keras bfloat16 as float32": keras_sine_position_encoding(length, d, compute_dtype=torch.bfloat16).float(),
        "noise": torch.randn(length, d, generator=torch.Generator().manual_seed(1)),
    }
    for name, table in tables.items():
        if table.dtype == torch.bfloat16:  # NumPy has no bfloat16 (ml_dtypes does: tests/upstream)
            table = table.float()
        expected = identify_table(table)
        array = table.numpy()
        assert array.dtype in (np.float16, np.float32, np.float64), name
        assert _same_match(identify_table(array), expected), name
        read_only = array.copy()
        read_only.setflags(write=False)
        assert _same_match(identify_table(read_only), expected), name
    reversed_rows = tables["paper"].numpy()[::-1]  # negative strides
    assert _same_match(identify_table(reversed_rows), identify_table(tables["paper"].flip(0)))
    assert identify_table(reversed_rows).descending
    strided = sinusoidal_table(2 * length, 2 * d).numpy()[::2, :]  # a view with a row stride of two rows
    assert _same_match(identify_table(strided), identify_table(torch.from_numpy(strided.copy())))


def test_identify_accepts_what_numpy_asarray_takes():
    table = sinusoidal_table(64, 16, dtype=torch.float64)
    as_list = identify_table(table.tolist())  # nested lists: float64, as numpy.asarray reads them
    assert _same_match(as_list, identify_table(table))
    assert as_list.name == "paper"

    class ArrayLike:  # a JAX or TensorFlow array converts itself through __array__
        def __array__(self, dtype=None, copy=None):
            return tensor2tensor_table(64, 16, dtype=torch.float32).numpy()

    assert identify_table(ArrayLike()).name == "tensor2tensor"
    with pytest.raises(TypeError, match=r"real floating-point numbers .* got a ndarray .* dtype int64"):
        identify_table(np.arange(64 * 16).reshape(64, 16))
    with pytest.raises(TypeError, match=r"got a ndarray that numpy.asarray reads as dtype complex128"):
        identify_table(np.zeros((64, 16), dtype=np.complex128))
    with pytest.raises(TypeError, match=r"got a NoneType that numpy.asarray reads as dtype object"):
        identify_table(None)
    with pytest.raises(ValueError, match=r"got a list that numpy.asarray refuses: setting an array element"):
        identify_table([[0.0, 1.0], [0.0]])
    with pytest.raises(ValueError, match=r"table.size\(0\) must be >= 4, got 1"):
        identify_table([[0.0, 1.0, 0.0, 1.0]])


@pytest.mark.parametrize("d", [7, 9, 65])
def test_identify_odd_width_says_what_to_do_and_that_works(d):
    """An odd width is refused with what to do; doing it identifies the table."""
    for padded, name in (
        (t2t_timing_signal(64, d), "tensor2tensor"),
        (fairseq_weights(66, d), "tensor2tensor"),
        (diffusers_timestep_embedding(torch.arange(64), d), "tensor2tensor"),
        (diffusers_timestep_embedding(torch.arange(64), d, flip_sin_to_cos=True, downscale_freq_shift=0),
         "concat-cos-first"),
    ):  # fmt: skip
        with pytest.raises(ValueError, match=rf"got {d}: its last column is all zeros.* pass table\[\.\.\., :-1\]$"):
            identify_table(padded)
        assert identify_table(padded[..., :-1]).name == name
        assert identify_table(padded[..., :-1].numpy()).name == name
    port, xlm = hf_marian_weights(64, d), distilbert_weights(64, d)
    for table in (port, xlm, port.numpy()):
        with pytest.raises(
            ValueError,
            match=rf"must be even .* got {d}: drop the unpaired column and pass base=base \*\* \({d - 1} / {d}\)",
        ):
            identify_table(table)
    base = 10000.0 ** ((d - 1) / d)
    kept = [j for j in range(d) if j != d // 2]
    assert f"table[..., [j for j in range({d}) if j != {d // 2}]]" in _odd_width_error(port)
    assert identify_table(port[..., kept], base=base).name == "concat"
    assert identify_table(xlm[..., :-1], base=base).name == "paper"
    assert identify_table(xlm[..., :-1].numpy(), base=base).name == "paper"


def _odd_width_error(table):
    with pytest.raises(ValueError) as info:
        identify_table(table)
    return str(info.value)
