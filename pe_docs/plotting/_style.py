"""Shared look of every figure: language of the labels, light/dark colours, and a CJK font.

Figures are drawn for one language (``"en"`` or ``"zh"``) and one colour scheme (``"light"`` or ``"dark"``)
with transparent backgrounds, so they sit on Material's light and dark pages alike.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import matplotlib
import numpy as np
from matplotlib import font_manager
from matplotlib.figure import Figure
from matplotlib.rcsetup import cycler  # what matplotlib.cycler is; matplotlib's stub does not export it

from pe_docs._checks import check_int

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

Lang = Literal["en", "zh"]
"""Language of a figure's labels."""
Theme = Literal["light", "dark"]
"""Colour scheme of a figure (Material's light and slate pages)."""
LANGS: tuple[Lang, ...] = ("en", "zh")
"""The values of ``lang`` every plotting function accepts."""
THEMES: tuple[Theme, ...] = ("light", "dark")
"""The values of ``theme`` every plotting function accepts."""
Layout = Literal["wide", "narrow"]
"""How a figure is laid out: for a page's text column on a desktop (``"wide"``), or on a phone (``"narrow"``:
``NARROW_WIDTH`` wide, panels stacked, legends below the axes), where a page shows it instead of the wide one."""
LAYOUTS: tuple[Layout, ...] = ("wide", "narrow")
"""The values of ``layout`` every plotting function accepts."""
NARROW_WIDTH = 3.8
"""Width in inches of a figure's narrow layout. A 390 px phone shows a figure 358 CSS px wide (an admonition's box
a little less): 1.31 px per point of a 3.8-inch figure, so its smallest text, 8 points, is 10.5 px tall there; the
wide layouts (7 to 9 inches) would show text of that size at 4.5 to 6 px."""

# Foreground colours chosen to read on Material's default light (#fff) and slate (#1e2129) backgrounds.
_FOREGROUND = {"light": "#1f2328", "dark": "#e6e6e6"}
_GRID = {"light": "#d0d7de", "dark": "#4a5060"}
# The panes of 3-D axes (drawn at 35 % opacity).
_PANE = {"light": "#f3f4f6", "dark": "#2a2f3a"}
# A colour cycle that keeps contrast on both backgrounds.
CYCLE = ["#3b82f6", "#f97316", "#10b981", "#e11d48", "#a855f7", "#eab308"]

_CJK_FAMILIES = ("WenQuanYi Micro Hei", "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC")
_CJK_PATHS = (
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
)


def check_lang(lang: object) -> Lang:
    """Validate a ``lang`` argument.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    if not isinstance(lang, str) or lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    return lang


def check_lang_theme(lang: object, theme: object) -> tuple[Lang, Theme]:
    """Validate the ``lang`` and ``theme`` arguments every plotting function takes.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS`` or ``theme`` not one of ``THEMES``.
    """
    lang = check_lang(lang)
    if not isinstance(theme, str) or theme not in THEMES:
        raise ValueError(f"theme must be one of {THEMES}, got {theme!r}")
    return lang, theme


def check_layout(layout: object) -> Layout:
    """Validate a ``layout`` argument.

    Raises:
        ValueError: ``layout`` is not one of ``LAYOUTS``.
    """
    if not isinstance(layout, str) or layout not in LAYOUTS:
        raise ValueError(f"layout must be one of {LAYOUTS}, got {layout!r}")
    return layout


def check_indices(
    name: str,
    values: object,
    *,
    what: str,
    minimum: int | None = None,
    below: int | None = None,
    below_text: str = "",
) -> list[int]:
    """Check a non-empty sequence of integers (column indices, offsets, lengths) and return it as a list.

    Args:
        name: Name of the argument, used in the messages (entries are named ``name[n]``).
        values: The sequence received.
        what: What one entry is, for the message about an empty sequence ("a column index").
        minimum: Smallest allowed entry, or ``None``.
        below: Every entry must be ``< below``, or ``None``.
        below_text: How ``below`` is described in the message (``"d_model=128"``).

    Raises:
        TypeError: ``values`` is not a sequence, or an entry is not an integer.
        ValueError: ``values`` is empty, or an entry is out of range.
    """
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"{name} must be a sequence of integers, got {values!r} of type {type(values).__name__}")
    out = [check_int(f"{name}[{n}]", v, minimum=minimum) for n, v in enumerate(values)]
    if not out:
        raise ValueError(f"{name} must contain at least one {what}, got an empty sequence")
    if below is not None:
        for n, v in enumerate(out):
            if v >= below:
                raise ValueError(f"{name} must be < {below_text or below}, got {v} ({name}[{n}])")
    return out


def text(lang: Lang, *, en: str, zh: str) -> str:
    """Pick the label for ``lang``; both translations are written side by side at the call site.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS`` (no silent fallback to English).
    """
    return zh if check_lang(lang) == "zh" else en


def theme_colours(theme: Theme) -> tuple[str, ...]:
    """The colours that depend on the colour scheme, in a fixed order: foreground (text, axes, ticks), grid,
    3-D panes. Every other colour a figure uses is the same in both schemes, so a figure drawn for one scheme
    becomes the other's by exchanging these (``site_tools.build.figures`` relies on it, and tests it figure by figure).

    Raises:
        ValueError: ``theme`` is not one of ``THEMES``.
    """
    check_lang_theme("en", theme)
    return (_FOREGROUND[theme], _GRID[theme], _PANE[theme])


def wrapped(label: str, columns: int) -> str:
    """``label`` broken into lines of at most ``columns`` columns where a line may break (after a space or a Chinese
    comma), a Chinese character counting two columns (it is about twice as wide as a Latin letter): a long legend
    entry of a narrow figure, which matplotlib does not wrap. A piece longer than ``columns`` stays whole.

    >>> wrapped("float16, float64 table rounded once to float32, then to float16", 40)
    'float16, float64 table rounded once to\\nfloat32, then to float16'
    """

    def width(piece: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in piece)

    lines, line = [], ""
    for piece in re.findall(r"[^ ，]*[ ，]|[^ ，]+$", label):  # each ends where a line may break
        if line and width((line + piece).rstrip(" ")) > columns:
            lines.append(line.rstrip(" "))
            line = ""
        line += piece
    return "\n".join([*lines, line.rstrip(" ")])


def grouped(lang: Lang, value: float, decimals: int = 0) -> str:
    """``value`` with thousands grouped as each language's text writes them: ``62,832`` in English figures,
    ``62 832`` (a thin space) in Chinese ones, as on the site's Chinese pages.

    Raises:
        ValueError: ``lang`` is not one of ``LANGS``.
    """
    out = f"{value:,.{decimals}f}"
    return out.replace(",", "\u2009") if check_lang(lang) == "zh" else out


def find_cjk_font() -> str | None:
    for path in _CJK_PATHS:
        if Path(path).is_file():
            return path
    if shutil.which("fc-match"):
        for family in _CJK_FAMILIES:
            out = subprocess.run(
                ["fc-match", "-f", "%{file}", f"{family}:lang=zh"],
                capture_output=True,
                text=True,
                check=False,
            ).stdout.strip()
            if out and Path(out).is_file() and "DejaVu" not in out:
                return out
    return None


_cjk_family: str | None = None


def cjk_family() -> str:
    """Register a Chinese font with matplotlib (once) and return its family name.

    Raises:
        RuntimeError: no CJK font is installed (on Debian: ``apt-get install fonts-wqy-microhei``).
    """
    global _cjk_family
    if _cjk_family is None:
        path = find_cjk_font()
        if path is None:
            raise RuntimeError(
                "no CJK font found for Chinese figure labels; install one, e.g. "
                "`apt-get install fonts-wqy-microhei` (Debian/Ubuntu)"
            )
        font_manager.fontManager.addfont(path)
        _cjk_family = font_manager.FontProperties(fname=path).get_name()
    return _cjk_family


@contextlib.contextmanager
def themed(lang: Lang, theme: Theme, layout: Layout = "wide") -> Iterator[None]:
    """Matplotlib settings for one language, colour scheme (transparent background) and layout (a narrow figure's
    axes titles are the size of its other text, not larger).

    They apply while the figure is built; saving options (SVG ids, fonts as paths) belong to the caller
    that saves, see ``site_tools.build.figures.render_svg``.

    Raises:
        ValueError: ``lang``, ``theme`` or ``layout`` is not one of the allowed values.
        RuntimeError: ``lang="zh"`` and no CJK font is installed.
    """
    lang, theme = check_lang_theme(lang, theme)
    layout = check_layout(layout)
    fg, grid = _FOREGROUND[theme], _GRID[theme]
    families = ["DejaVu Sans"]
    if lang == "zh":
        families.append(cjk_family())
    rc: dict[RcKeyType, Any] = {
        "font.family": families,
        "font.size": 11,
        "text.color": fg,
        "axes.labelcolor": fg,
        "axes.edgecolor": fg,
        "xtick.color": fg,
        "ytick.color": fg,
        "grid.color": grid,
        "axes.grid": True,
        "grid.linewidth": 0.6,
        "axes.prop_cycle": cycler(color=CYCLE),
        "figure.facecolor": "none",
        "axes.facecolor": "none",
        "legend.frameon": False,
        "axes.titlesize": "large" if layout == "wide" else "medium",
    }
    with matplotlib.rc_context(rc):
        yield


def new_figure(width: float = 7.0, height: float = 3.6, **subplots_kw: Any) -> tuple[Figure, Any]:
    """A figure and its axes, sized for the page's text column.

    Args:
        width: Width in inches.
        height: Height in inches.
        **subplots_kw: Passed to ``Figure.subplots`` (``nrows``, ``ncols``, ``sharey``, ``squeeze`` …).

    Returns:
        ``(fig, axes)``: a bare ``matplotlib.figure.Figure`` (constrained layout, not registered with
        pyplot) and what ``Figure.subplots`` returns — one ``matplotlib.axes.Axes`` for a single panel, else
        a NumPy object array of ``Axes`` (always 2-D with ``squeeze=False``). The second element is typed
        ``Any`` because its type depends on the arguments.
    """
    # A bare Figure, not pyplot: drawing never touches the user's backend or pyplot's figure list.
    fig = Figure(figsize=(width, height), layout="constrained")
    ax = fig.subplots(**subplots_kw)
    return fig, ax


def legend(fig: Figure, ax: Any, *, wide: bool, loc: str, fontsize: float = 8, ncols: int = 1) -> Any:
    """The legend of a one-axes figure: inside the axes at ``loc`` in the wide layout; below them, in ``ncols``
    columns, in the narrow one (a phone's width, where a legend inside would cover the curves)."""
    if wide:
        return ax.legend(loc=loc, fontsize=fontsize)
    return fig.legend(loc="outside lower center", fontsize=fontsize, ncols=ncols)


def unit_circle(ax: Any) -> None:
    """Draw the unit circle in ``ax``, faint, for scale: a panel of points on or around it (200 points from angle
    0, counter-clockwise)."""
    t = np.linspace(0, 2 * np.pi, 200)
    ax.plot(np.cos(t), np.sin(t), color=CYCLE[0], linewidth=0.8, alpha=0.5)


def outward(x: float, y: float) -> tuple[str, str]:
    """``(ha, va)`` for a label set beyond a point in the direction ``(x, y)`` (a unit vector): left-aligned to the
    right, bottom-aligned above, centred where the direction is nearly vertical or horizontal."""
    ha = "left" if x > 0.3 else "right" if x < -0.3 else "center"
    va = "bottom" if y > 0.3 else "top" if y < -0.3 else "center"
    return ha, va


def new_panels(width: float, height: float, n: int, ncols: int, **subplot_kw: Any) -> tuple[Figure, list[Any]]:
    """A figure (as ``new_figure`` makes it) with ``n`` axes in rows of ``ncols``, the last row centred if it is
    shorter: the narrow layout of a row of small panels (circles, small matrices), which a phone shows two by two.

    Args:
        width: Width in inches.
        height: Height in inches.
        n: Number of axes; an integer >= 1.
        ncols: Axes per row; an integer >= 1.
        **subplot_kw: Passed to ``Figure.add_subplot`` (``projection`` …).

    Returns:
        ``(fig, axes)``: the figure and a list of its ``n`` axes, row by row.
    """
    n, ncols = check_int("n", n, minimum=1), check_int("ncols", ncols, minimum=1)
    ncols = min(ncols, n)
    nrows = -(-n // ncols)
    fig = Figure(figsize=(width, height), layout="constrained")
    grid = fig.add_gridspec(nrows, 2 * ncols)  # half-columns, so that a shorter last row can be centred
    axes = []
    for k in range(n):
        row, col = divmod(k, ncols)
        start = 2 * col + (ncols - (n - row * ncols) if row == nrows - 1 else 0)  # the last row: centred
        axes.append(fig.add_subplot(grid[row, start : start + 2], **subplot_kw))
    return fig, axes
