"""pe_docs.plotting.intro: the start page's clock faces (their data are checked in test_figure_data.py)."""

from __future__ import annotations

import pytest

from pe_docs.plotting import plot_clock_hands
from pe_docs.plotting._style import NARROW_WIDTH


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_layout_and_labels(lang: str) -> None:
    fig = plot_clock_hands((0, 3, 7, 20), d_model=6, ncols=3, lang=lang, theme="dark")
    assert len(fig.axes) == 4  # a 2 x 3 grid with the two unused cells removed
    assert [len(ax.get_lines()) for ax in fig.axes] == [1 + 2 * 3] * 4
    title = "position 7" if lang == "en" else "位置 7"
    assert fig.axes[2].get_title() == title
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert labels[0] == "w = 1" and len(labels) == 3  # one entry per hand, from the first clock only


def test_narrow_layout_for_phones() -> None:
    """Two clocks a row, a legend in two columns, larger text: the layout start here shows below 600 px."""
    wide = plot_clock_hands(d_model=8)
    narrow = plot_clock_hands(d_model=8, ncols=2, text_size=12)
    assert [ax.get_subplotspec().colspan.start for ax in narrow.axes] == [0, 1] * 3
    assert narrow.legends[0]._ncols == 2 and wide.legends[0]._ncols == 4
    assert [t.get_fontsize() for t in narrow.legends[0].get_texts()] == [12.0] * 4
    assert narrow.axes[0].title.get_fontsize() == 13.0 and wide.axes[0].title.get_fontsize() == 10.0
    (w_wide, _), (w_narrow, h_narrow) = wide.get_size_inches(), narrow.get_size_inches()
    assert w_narrow < w_wide and h_narrow > w_narrow  # narrower than the desktop figure, and taller than wide
    # the layout start here shows below 600 px: two a row, NARROW_WIDTH wide, text of 10 points
    phone = plot_clock_hands(d_model=8, layout="narrow")
    assert [ax.get_subplotspec().colspan.start for ax in phone.axes] == [0, 1] * 3
    assert phone.legends[0]._ncols == 2
    assert [t.get_fontsize() for t in phone.legends[0].get_texts()] == [10.0] * 4
    assert phone.get_size_inches()[0] == pytest.approx(NARROW_WIDTH)


def test_decimal_frequencies_are_labelled_as_fractions() -> None:
    labels = [t.get_text() for t in plot_clock_hands((0,), d_model=8).legends[0].get_texts()]
    assert labels == ["w = 1", "w = 1/10", "w = 1/100", "w = 1/1000"]
    other = [t.get_text() for t in plot_clock_hands((0,), d_model=4, base=500.0).legends[0].get_texts()]
    assert other == ["w = 1", "w = 0.0447"]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        ({"positions": ()}, ValueError, "positions must contain at least one position"),
        ({"positions": (0, -1)}, ValueError, "positions[1] must be >= 0, got -1"),
        ({"positions": (0, 1.5)}, TypeError, "positions[1] must be an integer"),
        ({"positions": 3}, TypeError, "positions must be a sequence of integers"),
        ({"d_model": 12}, ValueError, "d_model must be <= 10 (one hand per pair, 5 at most), got 12"),
        ({"d_model": 7}, ValueError, "d_model must be even"),
        ({"ncols": 0}, ValueError, "ncols must be >= 1, got 0"),
        ({"text_size": 30}, ValueError, "text_size must be <= 20.0, got 30"),
        ({"text_size": "12"}, TypeError, "text_size must be a real number"),
        ({"base": -1.0}, ValueError, "base must be finite and > 0"),
        ({"lang": "fr"}, ValueError, "lang must be one of"),
        ({"layout": "phone"}, ValueError, "layout must be one of"),
    ],
)
def test_bad_arguments_name_the_argument(kwargs: dict, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as info:
        plot_clock_hands(**kwargs)
    assert message in str(info.value)
