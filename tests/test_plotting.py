"""Cross-cutting tests of pe_docs.plotting: exports, docstrings, argument checks, honest labels."""

from __future__ import annotations

import inspect
import math
import re
import typing

import pytest
import torch
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from pe_docs import plotting
from pe_docs.plotting import (
    _style,
    plot_band_contributions,
    plot_binary_vs_sinusoid,
    plot_context_extension,
    plot_dtype_error,
    plot_encoding_curve,
    plot_frequency_ulps,
    plot_heatmap,
    plot_log_trick_error,
    plot_measured_frequencies,
    plot_neighbour_similarity,
    plot_position_scores,
    plot_principal_components,
    plot_rotating_pairs,
    plot_scale_shares,
    plot_scales,
    plot_similarity_matrix,
    plot_sine_alone,
    plot_singular_values,
    plot_step_walks,
    plot_t5_buckets,
    plot_transform_matrices,
    plot_variant_tables,
    plot_waveforms,
    plot_wavelengths,
)

PLOTS = [getattr(plotting, name) for name in plotting.__all__ if name.startswith("plot_")]


def _defined_plot_functions() -> set[str]:
    """Every public ``plot_*`` function defined in a module of the pe_docs.plotting package."""
    import importlib
    import pkgutil

    names = set()
    for info in pkgutil.iter_modules(plotting.__path__):
        module = importlib.import_module(f"{plotting.__name__}.{info.name}")
        names |= {
            name
            for name, obj in vars(module).items()
            if name.startswith("plot_") and inspect.isfunction(obj) and obj.__module__ == module.__name__
        }
    return names


def test_exports_are_the_figures_and_the_allowed_values() -> None:
    assert set(plotting.__all__) == {"LANGS", "LAYOUTS", "THEMES"} | {f.__name__ for f in PLOTS}
    assert {f.__name__ for f in PLOTS} == _defined_plot_functions()  # every figure function is exported
    for helper in ("text", "themed", "cjk_family"):
        assert helper not in plotting.__all__
        assert not hasattr(plotting, helper)
    assert typing.get_args(_style.Lang) == plotting.LANGS
    assert typing.get_args(_style.Theme) == plotting.THEMES
    assert typing.get_args(_style.Layout) == plotting.LAYOUTS


@pytest.mark.parametrize("fn", PLOTS, ids=lambda f: f.__name__)
def test_docstrings_are_google_style_and_complete(fn) -> None:
    doc = inspect.getdoc(fn)
    assert doc is not None
    for section in ("Args:", "Returns:", "Raises:"):
        assert f"\n{section}\n" in doc, f"{fn.__name__} lacks {section}"
    args = doc.split("\nArgs:\n")[1].split("\n\n")[0]
    documented = re.findall(r"^    (\w+):", args, flags=re.M)
    assert documented == list(inspect.signature(fn).parameters), fn.__name__
    sig = inspect.signature(fn)
    assert sig.parameters["lang"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["theme"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["layout"].kind is inspect.Parameter.KEYWORD_ONLY
    assert sig.parameters["layout"].default == "wide"
    hints = typing.get_type_hints(fn)
    assert hints["lang"] == _style.Lang and hints["theme"] == _style.Theme and hints["layout"] == _style.Layout
    assert hints["return"] is Figure


@pytest.mark.parametrize("fn", PLOTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"lang": "fr"}, "lang must be one of"),
        ({"theme": "sepia"}, "theme must be one of"),
        ({"layout": "tall"}, r"layout must be one of \('wide', 'narrow'\), got 'tall'"),
    ],
)
def test_every_figure_checks_lang_theme_and_layout(fn, kwargs, message) -> None:
    with pytest.raises(ValueError, match=message):
        fn(**kwargs)


def test_style_helpers_validate_lang_and_theme() -> None:
    with pytest.raises(ValueError, match=r"lang must be one of \('en', 'zh'\), got 'fr'"):
        _style.text("fr", en="a", zh="b")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="lang must be one of"), _style.themed("fr", "light"):  # type: ignore[arg-type]
        pass
    with (
        pytest.raises(ValueError, match=r"theme must be one of \('light', 'dark'\), got 'x'"),
        _style.themed(
            "en",
            "x",  # type: ignore[arg-type]
        ),
    ):
        pass
    assert _style.text("zh", en="a", zh="b") == "b"


def test_new_figure_returns_a_bare_figure_and_axes() -> None:
    fig, ax = _style.new_figure()
    assert isinstance(fig, Figure) and isinstance(ax, Axes)
    fig, axes = _style.new_figure(ncols=2, squeeze=False)
    assert axes.shape == (1, 2) and all(isinstance(a, Axes) for a in axes.flat)


def test_new_panels_centre_a_shorter_last_row() -> None:
    """Three panels two a row (a narrow layout): the third below the first two, centred."""
    fig, axes = _style.new_panels(_style.NARROW_WIDTH, 4.0, 3, 2)
    spans = [(ax.get_subplotspec().rowspan, ax.get_subplotspec().colspan) for ax in axes]
    assert [(r.start, c.start, c.stop) for r, c in spans] == [(0, 0, 2), (0, 2, 4), (1, 1, 3)]
    assert list(fig.axes) == axes
    _, one = _style.new_panels(3.0, 3.0, 1, 2)
    assert [ax.get_subplotspec().colspan for ax in one] == [range(0, 2)]
    with pytest.raises(ValueError, match="n must be >= 1, got 0"):
        _style.new_panels(3.0, 3.0, 0, 2)


def test_wrapped_breaks_long_legend_entries_where_a_line_may_break() -> None:
    assert _style.wrapped("a bb ccc", 4) == "a bb\nccc"
    assert _style.wrapped("float16，float64 表只舍入一次成 float32，再转成 float16", 32) == (
        "float16，float64 表只舍入一次成\nfloat32，再转成 float16"  # a Chinese character is two columns
    )
    assert _style.wrapped("unbreakable_name", 4) == "unbreakable_name"


@pytest.mark.parametrize(
    ("fn", "kwargs", "error", "message"),
    [
        (plot_waveforms, {"dims": ()}, ValueError, "dims must contain at least one"),
        (plot_sine_alone, {"theta": 0}, ValueError, "theta must be > 0.0, got 0"),
        (plot_sine_alone, {"theta": math.pi / 2}, ValueError, "at π/2 the two hands are one"),
        (plot_sine_alone, {"turn": math.pi}, ValueError, "a half turn keeps the two sines equal"),
        (plot_sine_alone, {"turn": "1"}, TypeError, "turn must be a real number"),
        (plot_step_walks, {"stretch": 1}, ValueError, "stretch must be > 1.0, got 1"),
        (plot_step_walks, {"stretch": 2.5}, ValueError, "stretch must be <= 2.0, got 2.5"),
        (plot_step_walks, {"turn": math.pi}, ValueError, "a half turn only flips the point"),
        (plot_step_walks, {"steps": 101}, ValueError, "steps must be <= 100, got 101"),
        (plot_step_walks, {"steps": 1}, ValueError, "steps must be >= 2, got 1"),
        (plot_step_walks, {"steps": 2.0}, TypeError, "steps must be an integer"),
        (plot_waveforms, {"dims": (0, 2.0)}, TypeError, "dims[1] must be an integer"),
        (plot_waveforms, {"dims": (0, -1)}, ValueError, "dims[1] must be >= 0, got -1"),
        (plot_waveforms, {"dims": 3}, TypeError, "dims must be a sequence of integers"),
        (plot_singular_values, {"lengths": ()}, ValueError, "lengths must contain at least one"),
        (plot_singular_values, {"lengths": (8, 1)}, ValueError, "lengths[1] must be >= 2, got 1"),
        (plot_singular_values, {"lengths": (8.0,)}, TypeError, "lengths[0] must be an integer"),
        (plot_singular_values, {"d_model": 7}, ValueError, "d_model must be even"),
        (plot_neighbour_similarity, {"d_models": ()}, ValueError, "d_models must contain at least one"),
        (plot_neighbour_similarity, {"d_models": (8, "8")}, TypeError, "d_models[1] must be an integer"),
        (plot_neighbour_similarity, {"base": 0.0}, ValueError, "base must be finite and > 0"),
        (plot_scales, {"low_dims": ()}, ValueError, "low_dims must contain at least one"),
        (plot_scales, {"high_dims": ()}, ValueError, "high_dims must contain at least one"),
        (plot_scales, {"high_dims": (1, None)}, TypeError, "high_dims[1] must be an integer"),
        (plot_scales, {"low_dims": (-1,)}, ValueError, "low_dims[0] must be >= 0, got -1"),
        (plot_transform_matrices, {"ks": ()}, ValueError, "ks must contain at least one offset"),
        (plot_rotating_pairs, {"pairs": ()}, ValueError, "pairs must contain at least one"),
        (plot_binary_vs_sinusoid, {"n_bits": 30}, ValueError, "n_bits must be <= 12"),
        (plot_binary_vs_sinusoid, {"n_bits": 2.5}, TypeError, "n_bits must be an integer"),
        (plot_frequency_ulps, {"dtypes": ()}, ValueError, "dtypes must contain at least one"),
        (plot_frequency_ulps, {"dtypes": (torch.int32,)}, TypeError, "dtypes[0] must be a floating-point"),
        (plot_heatmap, {"max_len": 0}, ValueError, "max_len must be >= 1, got 0"),
        (plot_position_scores, {"seed": -1}, ValueError, "seed must be >= 0, got -1"),
        (plot_position_scores, {"panels": "rope"}, TypeError, "panels must be a sequence of panel names, got 'rope'"),
        (plot_position_scores, {"panels": ("plain", "plain")}, ValueError, "at most once, and at least one"),
        (plot_position_scores, {"panels": ("ropes",)}, ValueError, "got ('ropes',)"),
        (plot_position_scores, {"ahead": 0}, ValueError, "ahead must be >= 1, got 0"),
        (plot_position_scores, {"names": ("m",)}, ValueError, "names must be two non-empty strings"),
        (
            plot_scale_shares,
            {"base": 10},
            ValueError,
            "base must be > 10 (the figure counts wavelengths per tenfold from 10 up), got 10",
        ),
        (plot_dtype_error, {"max_position": 5}, ValueError, "max_position must be >= 10, got 5"),
        (plot_log_trick_error, {"per_decade": 1.5}, TypeError, "per_decade must be an integer"),
        (plot_encoding_curve, {"pairs": (1,)}, ValueError, "pairs must hold exactly two pair indices"),
        (plot_encoding_curve, {"pairs": (1, 256)}, ValueError, "pairs must be < d_model / 2 = 256, got 256"),
        (plot_encoding_curve, {"positions": 1}, ValueError, "positions must be >= 2, got 1"),
        (plot_principal_components, {"lengths": (100, 2)}, ValueError, "lengths[1] must be >= 3, got 2"),
        (plot_principal_components, {"n_shown": 1}, ValueError, "n_shown must be >= 2, got 1"),
        (plot_similarity_matrix, {"d_models": (64, 7)}, ValueError, "d_models[1] must be even"),
        (plot_similarity_matrix, {"positions": 1}, ValueError, "positions must be >= 2, got 1"),
        (plot_measured_frequencies, {"n_positions": 3}, ValueError, "n_positions must be >= 4, got 3"),
        (plot_measured_frequencies, {"base": 0.5}, ValueError, "base must be >= 1"),
        (plot_band_contributions, {"n_bands": 300}, ValueError, "n_bands must be <= d_model / 2 = 256"),
        (plot_band_contributions, {"max_k": 1}, ValueError, "max_k must be >= 2, got 1"),
        (plot_t5_buckets, {"max_offset": 0}, ValueError, "max_offset must be >= 1, got 0"),
        (plot_t5_buckets, {"num_buckets": 7}, ValueError, "num_buckets must be even when bidirectional, got 7"),
        (plot_context_extension, {"head_dim": 6.0}, TypeError, "head_dim must be an integer"),
        (plot_context_extension, {"factor": 0.5}, ValueError, "factor must be >= 1.0, got 0.5"),
        (plot_context_extension, {"base": 0.5}, ValueError, "base must be > 1 for YaRN"),
        (plot_variant_tables, {"max_len": 1}, ValueError, "max_len must be >= 2, got 1"),
        (plot_variant_tables, {"d_model": 2}, ValueError, "d_model must be >= 4"),
        (plot_variant_tables, {"d_model": 7}, ValueError, "d_model"),
    ],
)
def test_bad_arguments_name_the_argument(fn, kwargs, error, message) -> None:
    with pytest.raises(error) as info:
        fn(**kwargs)
    assert message in str(info.value)


def test_binary_figure_accepts_the_largest_n_bits() -> None:
    fig = plot_binary_vs_sinusoid(12, 64)
    assert len(fig.axes[0].get_lines()) == 12


def _legend_texts(fig: Figure) -> list[str]:
    legends = [ax.get_legend() for ax in fig.axes if ax.get_legend()] + list(fig.legends)
    return [t.get_text() for legend in legends for t in legend.get_texts()]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_rounded_once_curves_are_not_labelled_as_the_library_table(lang) -> None:
    labels = _legend_texts(plot_dtype_error(max_position=100, d_model=8, lang=lang))
    labels += _legend_texts(plot_log_trick_error(8, max_position=100, per_decade=2, lang=lang))
    assert not any("pe_docs" in t or "sinusoidal_table" in t for t in labels)
    once = "rounded once" if lang == "en" else "只舍入一次"
    assert sum(once in t for t in labels) == 4  # float32 (both figures), bfloat16 and float16 casts


@pytest.mark.parametrize(("base", "note"), [(10000.0, "upper limit"), (0.5, "lower limit"), (1.0, None)])
def test_wavelength_limit_note_follows_the_base(base, note) -> None:
    fig = plot_wavelengths(16, base=base)
    notes = [t.get_text() for t in fig.axes[0].texts if "2π·base" in t.get_text()]
    if note is None:
        assert notes == []
    else:
        assert len(notes) == 1 and note in notes[0]
        limit = 2 * torch.pi * base
        low, high = fig.axes[0].get_ylim()
        assert low < limit < high


def test_thousands_are_grouped_as_each_language_writes_them() -> None:
    assert _style.grouped("en", 62831.853) == "62,832"
    assert _style.grouped("zh", 62831.853) == "62\u2009832"
    assert _style.grouped("zh", 6.2831, 1) == "6.3"
    with pytest.raises(ValueError, match="lang must be one of"):
        _style.grouped("fr", 1.0)  # type: ignore[arg-type]
