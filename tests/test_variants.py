import inspect
import math

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from pe_docs import (
    KNOWN_TABLES,
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
    sinusoidal_table,
    tensor2tensor_table,
    tutorial_buffer,
    wrong_axis_rows,
)
from pe_docs.frequencies import inverse_frequencies
from pe_docs.numerics import exact_rows, rows_in_dtype


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
    assert torch.equal(
        concat_paper_table(50, 16), sinusoidal_table(50, 16, dtype=torch.float64, layout="concat")
    )
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
        "fairseq": fairseq_table(length, d),
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
    assert set(tables) | {"float32-phase"} == set(KNOWN_TABLES)
    for name, table in tables.items():
        match = identify_table(table)
        assert match.name == name, (name, match)
        assert match.max_error <= match.atol
        assert match.is_bug == (name not in ("paper", "concat", "tensor2tensor", "fairseq"))


def test_identify_low_precision_casts_and_tutorial_as_paper():
    assert identify_table(sinusoidal_table(64, 32, dtype=torch.bfloat16)).name == "paper"
    assert identify_table(sinusoidal_table(64, 32, dtype=torch.float16)).name == "paper"
    tut = identify_table(tutorial_buffer(64, 32)[:, 0])
    assert tut.name == "paper" and "float32-phase" in tut.also_within_tolerance
    assert tut.shift_residual < 1e-5


def test_identify_unknown_and_bad_input():
    g = torch.Generator().manual_seed(0)
    m = identify_table(torch.randn(32, 16, generator=g))
    assert m.name == "unknown" and m.closest in KNOWN_TABLES and m.max_error > 0.5
    nan = sinusoidal_table(32, 16)
    nan[3, 4] = math.nan
    assert identify_table(nan).name == "unknown"
    with pytest.raises(ValueError, match=r"pass buffer\[:, 0\]"):
        identify_table(tutorial_buffer(10, 8))
    with pytest.raises(TypeError, match=r"floating-point"):
        identify_table(torch.zeros(10, 8, dtype=torch.int64))
    with pytest.raises(TypeError, match=r"table must be a torch.Tensor"):
        identify_table([[0.0]])
    with pytest.raises(ValueError, match=r"table.size\(1\) must be even"):
        identify_table(torch.zeros(10, 7))
    with pytest.raises(ValueError, match=r"table.size\(0\) must be >= 4, got 2"):
        identify_table(torch.zeros(2, 8))
    with pytest.raises(ValueError, match=r"atol must be > 0.0, got -1"):
        identify_table(sinusoidal_table(8, 8), atol=-1)


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


@pytest.mark.parametrize("module_name", ["pe_docs.variants", "pe_docs.extrapolation", "pe_docs.alternatives"])
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
    assert found >= (1 if module_name == "pe_docs.variants" else 0)
