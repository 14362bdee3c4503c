"""The table of the encoding, live (formula, wavelength): ``sinusoidalTable(maxLen, dModel, base)`` ≙
``pe_docs.sinusoidal_table(..., dtype=torch.float64)`` with ``inverseFrequencies`` and ``wavelengths``; its
labels, keyboard, heatmap pixels, messages and adapted fields, both colour schemes and a 390 px phone
(``harness.live`` has the shared part).

Tolerances (``harness.live`` has the others). The table, assuming each of ``pow``,
``sin`` and ``cos`` within 1 ulp on both sides (u = 2⁻⁵³, the unit roundoff):

* ``w_i`` may differ by 2 ulps, a relative 4u; the rounded products ``p · w_i`` add u each, so the phases differ
  by at most 6u·φ, where φ ≤ max_len − 1 is the largest phase (``w_0 = 1`` exactly on both sides);
* sine and cosine have slope at most 1 and add 1 ulp of a number below 1 (≤ u) each: 2u more.

So an entry may differ by (6φ + 2)·u; the test allows ``entry_tol(n) = (8·(n − 1) + 8)·2⁻⁵³`` (at n = 2048,
about 1.8e-12) and reports how much of it was used. A wavelength ``2π / w_i`` may differ by 2 ulps of ``w`` and a
rounding of the division on each side: the test allows a relative 8u = 2⁻⁵⁰. A dot product of two rows (d terms,
each entry off by at most the bound above, summed in float64, |Σ|a_j b_j|| ≤ d/2) against the closed form
``(d/2)·neighbour_similarity`` (d/2 cosines of phases up to n·w_i): ``dot_tol(n, d) = (8·d·n + d²)·2⁻⁵³``.
"""

from __future__ import annotations

import base64
import io
import math
import re
from collections.abc import Callable

import numpy as np
import pytest
import torch
from harness.live import Visit, check_adjusted, check_error
from PIL import Image

from pe_docs import inverse_frequencies, sinusoidal_table, wavelengths
from pe_docs.analysis import neighbour_similarity
from site_tools.finish.cjk import HAN

pytestmark = pytest.mark.browser


TABLE = "table-explorer"
U = 2.0**-53  # the unit roundoff of float64


TABLE_PAGES = ["formula/", "zh/formula/", "wavelength/", "zh/wavelength/"]
# the visible labels of the controls, per language (keys are the inputs' names), in their order
LABELS = {
    "en": {
        "d_model": "d_model (even)",
        "base": "base",
        "max_len": "positions (max_len)",
        "position": "position p to inspect",
        "columns": "columns to plot (1 to 3)",
    },
    "zh": {
        "d_model": "宽度 d_model（偶数）",
        "base": "底数 base",
        "max_len": "位置数 max_len",
        "position": "查看的位置 p",
        "columns": "绘制的列（1 到 3 个）",
    },
}
ORDER = ["d_model", "base", "max_len", "position", "columns"]


def entry_tol(n: int) -> float:
    return (8 * (n - 1) + 8) * U


def dot_tol(n: int, d: int) -> float:
    return (8 * d * n + d * d) * U


TABLE_JS = """([n, d, b]) => {
  const rows = window.peDocs.sinusoidalTable(n, d, b);
  const shapeOk = Array.isArray(rows) && rows.length === n
    && rows.every(r => r instanceof Float64Array && r.length === d);
  const flat = new Float64Array(n * d);
  rows.forEach((r, p) => flat.set(r, p * d));
  const bytes = new Uint8Array(flat.buffer);
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return { shapeOk, b64: btoa(text) };
}"""


def js_table(page: object, n: int, d: int, b: float) -> np.ndarray:
    out = page.evaluate(TABLE_JS, [n, d, b])  # type: ignore[attr-defined]
    assert out["shapeOk"], f"sinusoidalTable({n}, {d}, {b}) must return {n} Float64Array rows of length {d}"
    return np.frombuffer(base64.b64decode(out["b64"]), dtype="<f8").reshape(n, d)


def test_table_matches_pe_docs_float64(visits: Callable[[str], Visit]) -> None:
    page = visits("formula/").page
    used = 0.0
    for n in (1, 7, 100, 2048):
        for d in (2, 6, 128, 1024):
            for b in (100.0, 10000.0, 1e6):
                got = js_table(page, n, d, b)
                want = sinusoidal_table(n, d, base=b, dtype=torch.float64).numpy()
                err = float(np.abs(got - want).max())
                assert err <= entry_tol(n), f"max_len={n}, d_model={d}, base={b}: off by {err:.3g}"
                used = max(used, err / entry_tol(n))
                if n == 1:
                    assert got.tolist() == want.tolist()  # row 0 is sin 0 = 0, cos 0 = 1 exactly
    print(f"largest error: {used:.1%} of the bound")


def test_frequencies_and_wavelengths_match_pe_docs(visits: Callable[[str], Visit]) -> None:
    page = visits("wavelength/").page
    for d in (2, 6, 128, 1024):
        for b in (100.0, 10000.0, 1e6):
            w = page.evaluate("([d, b]) => Array.from(window.peDocs.inverseFrequencies(d, b))", [d, b])
            lam = page.evaluate("([d, b]) => Array.from(window.peDocs.wavelengths(d, b))", [d, b])
            w_ref = inverse_frequencies(d, base=b).numpy()
            lam_ref = wavelengths(d, base=b).numpy()
            assert w[0] == 1.0
            assert np.abs(np.array(w) / w_ref - 1).max() <= 4 * U
            assert np.abs(np.array(lam) / lam_ref - 1).max() <= 8 * U


@pytest.mark.parametrize("path", TABLE_PAGES)
def test_every_control_has_a_visible_label(visits: Callable[[str], Visit], path: str) -> None:
    v = visits(path)
    lang = "zh" if path.startswith("zh/") else "en"
    assert v.state(TABLE)["state"] == "ok"
    for name, text in LABELS[lang].items():
        label = v.page.locator(f"#{TABLE} label", has_text=text)
        assert label.count() == 1 and label.is_visible(), text
        box = v.page.get_by_label(text, exact=True)
        assert box.get_attribute("name") == name
        assert box.evaluate("e => e.tagName") == "INPUT"
    captions = v.page.eval_on_selector_all(f"#{TABLE} figcaption", "els => els.map(e => e.textContent)")
    assert len(captions) == 4
    # each number field states its range: fixed, or as the other fields have it
    ranges = {"d_model": "even 2–1024", "base": "> 0", "max_len": "integer 1–2048", "position": "integer 0–{}"}
    for name, text in ranges.items():
        if lang == "zh":
            text = text.replace("even", "偶数").replace("integer", "整数")
        shown = v.page.locator(f"#{TABLE}-{name}-range").inner_text()
        assert shown == text.format(int(v.state(TABLE)["values"]["max_len"]) - 1), shown
    if lang == "zh":
        assert all(HAN.search(c) for c in captions), captions


def enter_by_label(v: Visit, name: str, value: str, key: str = "Tab") -> None:
    """Focus the input labelled for ``name`` (its visible label), replace its text, press ``key``."""
    v.page.get_by_label(LABELS["zh" if v.zh else "en"][name], exact=True).focus()
    v.page.keyboard.press("Control+A")
    v.page.keyboard.type(value)
    v.page.keyboard.press(key)


def heatmap_image(v: Visit) -> str:
    return v.page.eval_on_selector(f"#{TABLE} .pe-live__raster", "e => e.getAttribute('href')")


@pytest.mark.parametrize("path", ["formula/", "zh/formula/"])
def test_keyboard_alone_drives_every_view(visits: Callable[[str], Visit], path: str) -> None:
    v = visits(path)
    page = v.page
    before = heatmap_image(v)
    # Tab order: the controls in reading order
    page.get_by_label(LABELS["zh" if v.zh else "en"]["d_model"], exact=True).focus()
    order = [page.evaluate("document.activeElement.name")]
    for _ in ORDER[1:]:
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.name"))
    assert order == ORDER
    # a visible focus ring on the focused input
    outline = page.evaluate("(s => [s.outlineStyle, s.outlineWidth])(getComputedStyle(document.activeElement))")
    assert outline[0] != "none" and float(outline[1].removesuffix("px")) >= 2, outline

    enter_by_label(v, "d_model", "64")
    assert page.evaluate("document.activeElement.name") == "base"  # Tab moved on, and applied the change
    enter_by_label(v, "base", "100")
    enter_by_label(v, "max_len", "300")
    enter_by_label(v, "columns", "1, 20 63")
    enter_by_label(v, "position", "10", key="Enter")
    page.wait_for_function(f"() => document.getElementById('{TABLE}').peLive.data.p === 10")
    s = v.state(TABLE)
    data = s["data"]
    n, d, p = 300, 64, 10
    assert s["state"] == "ok" and (data["n"], data["d"], data["base"], data["p"], data["columns"]) == (
        n,
        d,
        100,
        p,
        [1, 20, 63],
    )
    assert "300 × 64" in page.locator(f"#{TABLE} svg[role=img]").first.get_attribute("aria-label")
    assert heatmap_image(v) != before

    table = sinusoidal_table(n, d, base=100, dtype=torch.float64).numpy()
    for c, curve in zip(data["columns"], data["curves"], strict=True):
        assert np.abs(np.array(curve) - table[:, c]).max() <= entry_tol(n)
    lam = wavelengths(d, base=100).numpy()
    assert np.abs(np.array(data["lambda"]) / lam - 1).max() <= 8 * U
    # PE[p]·PE[p+k] for k = -p … n-1-p, from the rows, against the closed form (d/2)·s(|k|)
    dots = np.array(data["dots"])
    assert len(dots) == n
    sim = neighbour_similarity(d, max(p, n - 1 - p), base=100).numpy()
    k = np.arange(-p, n - p)
    assert np.abs(dots - (d / 2) * sim[np.abs(k)]).max() <= dot_tol(n, d)
    charts = page.eval_on_selector_all(f"#{TABLE} svg[role=img]", "els => els.map(e => e.getAttribute('aria-label'))")
    assert f"{-p}" in charts[3] and f"{n - 1 - p}" in charts[3], charts[3]  # the offsets drawn: k = -p … n-1-p
    assert f"{d // 2} " in charts[2], charts[2]  # the wavelengths drawn: one per pair

    check_heatmap_pixels(v, table)

    # the settings are in the page's address, and opening that address restores them
    settings = {"d_model": "64", "base": "100", "max_len": "300", "position": "10", "columns": "1, 20 63"}
    assert v.address("table") == settings
    assert page.evaluate("() => location.hash") == "#" + TABLE
    if not v.zh:  # one reload is enough: both languages run the same script
        v.open(page.evaluate("() => location.href"))
        again = v.state(TABLE)["data"]
        assert (again["n"], again["d"], again["base"], again["p"], again["columns"]) == (n, d, 100, p, [1, 20, 63])


# RdBu_r in 11 stops, as the script and the build-time heatmap use it
STOPS = [
    "#053061",
    "#2065ab",
    "#4393c3",
    "#90c4dd",
    "#d1e5f0",
    "#f7f6f6",
    "#fddbc7",
    "#f3a481",
    "#d6604d",
    "#b1182b",
    "#67001f",
]


def expected_cells(table: np.ndarray, height: int, width: int) -> np.ndarray:
    """The colours of a ``height × width`` picture of ``table``: each pixel the mean of its block of cells
    (row p goes to pixel row floor(p·height/n), column j to floor(j·width/d)), mapped to RdBu_r (-1 … 1)."""
    n, d = table.shape
    rows = np.floor(np.arange(n) * height / n).astype(int)
    cols = np.floor(np.arange(d) * width / d).astype(int)
    sums = np.zeros((height, width))
    np.add.at(sums, (rows[:, None], cols[None, :]), table)
    means = sums / np.outer(np.bincount(rows, minlength=height), np.bincount(cols, minlength=width))
    stops = np.array([[int(h[i : i + 2], 16) for i in (1, 3, 5)] for h in STOPS], dtype=float)
    t = np.arange(256) / 255 * (len(STOPS) - 1)
    k = np.minimum(len(STOPS) - 2, np.floor(t).astype(int))
    f = (t - k)[:, None]
    lut = np.floor(stops[k] * (1 - f) + stops[k + 1] * f + 0.5)
    index = np.clip(np.floor((means + 1) / 2 * 255 + 0.5), 0, 255).astype(int)
    return lut[index]


def check_heatmap_pixels(v: Visit, table: np.ndarray) -> None:
    """The picture the explorer drew is the table's: cell by cell against ``expected_cells``, and each cell's
    centre on the screen (a screenshot of the page) has that cell's colour."""
    got = v.page.eval_on_selector(
        f"#{TABLE} .pe-live__raster",
        """e => { e.scrollIntoView({block: 'center'}); const img = e.closest('.pe-live').peLive.data.image;
                  const r = e.getBoundingClientRect();
                  return { height: img.height, width: img.width, cells: Array.from(img.data),
                           box: [r.left, r.top, r.width, r.height], ratio: devicePixelRatio }; }""",
    )
    height, width = got["height"], got["width"]
    cells = np.array(got["cells"], dtype=float).reshape(height, width, 4)
    assert (cells[..., 3] == 255).all()
    want = expected_cells(table, height, width)
    diff = np.abs(cells[..., :3] - want)
    # a mean within the table tolerance of a colour boundary may land one colour step away (≤ 4 per channel)
    assert diff.max() <= 4 and (diff == 0).mean() > 0.99, (diff.max(), (diff == 0).mean())
    left, top, w, h = got["box"]
    shot = np.asarray(Image.open(io.BytesIO(v.page.screenshot())).convert("RGB"), dtype=float)
    r = got["ratio"]
    xs = np.floor((left + (np.arange(width) + 0.5) * w / width) * r).astype(int)
    ys = np.floor((top + (np.arange(height) + 0.5) * h / height) * r).astype(int)
    centres = shot[ys[:, None], xs[None, :]]
    assert (centres == cells[..., :3]).all(), np.argwhere((centres != cells[..., :3]).any(axis=-1))[:5]


# (input, typed value, English message, words the Chinese message must contain besides the argument and value)
BAD_INPUT = [
    ("d_model", "7", "d_model must be even (each frequency fills one sin and one cos column), got 7", "偶数"),
    ("d_model", "0", "d_model must be >= 1, got 0", "必须 ≥ 1"),
    ("d_model", "2048", "d_model must be <= 1024 in this explorer, got 2048", "最大为 1024"),
    ("base", "-5", "base must be finite and > 0, got -5", "正数"),
    ("base", "0", "base must be finite and > 0, got 0", "正数"),
    ("max_len", "0", "max_len must be >= 1, got 0", "必须 ≥ 1"),
    ("max_len", "4096", "max_len must be <= 2048 in this explorer, got 4096", "最大为 2048"),
    ("position", "100", "position must be < max_len = 100, got 100", "必须小于 max_len = 100"),
    ("columns", "0 300", "columns must be integers from 0 to d_model - 1 = 127, got 300", "列号"),
]
GOOD = {"d_model": "8", "base": "10000", "max_len": "100", "position": "0", "columns": "0 3 7"}


@pytest.mark.parametrize("path", ["formula/", "zh/formula/", "zh/wavelength/"])
def test_bad_input_shows_a_message_in_the_page_language_and_recovers(visits: Callable[[str], Visit], path: str) -> None:
    v = visits(path)
    for name, value in (("d_model", "128"), ("max_len", "100"), ("position", "0"), ("columns", "0 10 50")):
        v.enter(TABLE, name, value)
    for name, value, english, chinese in BAD_INPUT:
        v.enter(TABLE, name, value)
        check_error(v, TABLE, name, english, chinese)
        if v.zh:
            assert name in v.state(TABLE)["message"] and value.split()[-1] in v.state(TABLE)["message"]
        # the fix brings the views back
        v.enter(TABLE, name, GOOD[name] if name != "d_model" else "128")
        s = v.state(TABLE)
        assert s["state"] == "ok" and s["views"] and not s["message"], (name, value)
    # the computation's own messages, where they exist, are pe_docs' messages
    for name, value, english, _ in BAD_INPUT[:2] + BAD_INPUT[3:6]:
        kwargs = {"max_len": 8, "d_model": 8, "base": 10000.0}
        kwargs[name] = int(value)
        with pytest.raises(ValueError, match=re.escape(english)):
            sinusoidal_table(kwargs["max_len"], kwargs["d_model"], base=kwargs["base"])
    v.enter(TABLE, "d_model", "8")
    assert v.state(TABLE)["data"]["d"] == 8


@pytest.mark.parametrize("path", ["wavelength/", "zh/formula/"])
def test_a_smaller_table_adapts_the_columns_and_the_position(visits: Callable[[str], Visit], path: str) -> None:
    """Halving d_model on wavelength with columns 0 40 80, or shortening the table below the inspected position: the
    field the reader did not touch is adapted, the figures stay."""
    v = visits(path)
    for name, value in (("max_len", "2048"), ("d_model", "128"), ("columns", "0 40 80"), ("position", "500")):
        v.enter(TABLE, name, value)
    v.enter(TABLE, "d_model", "64")
    s = check_adjusted(v, TABLE, "columns", "0 40 63")
    assert s["data"]["columns"] == [0, 40, 63] and s["data"]["d"] == 64
    v.enter(TABLE, "d_model", "32")
    assert check_adjusted(v, TABLE, "columns", "0 31")["data"]["columns"] == [0, 31]  # 40 and 80 both become 31
    v.enter(TABLE, "max_len", "100")
    assert check_adjusted(v, TABLE, "position", "99")["data"]["p"] == 99
    assert v.page.locator(f"#{TABLE}-position-range").inner_text() == ("整数 0–99" if v.zh else "integer 0–99")
    v.enter(TABLE, "max_len", "120")  # a change that puts no other field out of range: no note
    assert v.state(TABLE)["adjusted"] == "" and v.page.locator(f"#{TABLE} .pe-live__adjusted").is_hidden()


@pytest.mark.parametrize("start", ["light", "dark"])
def test_charts_follow_the_colour_scheme(fresh: Callable[..., Visit], start: str) -> None:
    """The charts' text takes the scheme's colour when the reader switches (no redraw needed), readable on both."""
    v = fresh("zh/formula/", color_scheme=start)
    page = v.page
    colours = """() => [getComputedStyle(document.querySelector('#table-explorer svg text')).fill,
                        getComputedStyle(document.body).backgroundColor,
                        document.body.getAttribute('data-md-color-scheme')]"""
    first = page.evaluate(colours)
    assert first[2] == ("default" if start == "light" else "slate")
    page.click("label.md-header__button[for^='__palette']:visible")  # Material's scheme toggle
    page.wait_for_function(f"() => document.body.getAttribute('data-md-color-scheme') !== '{first[2]}'")
    second = page.evaluate(colours)
    assert second[0] != first[0] and second[1] != first[1]
    for fg, bg, _ in (first, second):
        assert _contrast(fg, bg) >= 4.5, (fg, bg)  # axes and labels readable (WCAG AA)


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(c: float) -> float:
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(fg: str, bg: str) -> float:
    """WCAG contrast of the colour ``fg`` (rgb/rgba, blended over ``bg``) against ``bg``."""
    f = [float(x) for x in re.findall(r"[\d.]+", fg)]
    b = [float(x) for x in re.findall(r"[\d.]+", bg)][:3]
    alpha = f[3] if len(f) > 3 else 1.0
    blended = tuple(alpha * f[i] + (1 - alpha) * b[i] for i in range(3))
    hi, lo = sorted((_luminance(blended), _luminance(tuple(b))), reverse=True)  # type: ignore[arg-type]
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("path", TABLE_PAGES)
def test_fits_a_390px_phone_screen(fresh: Callable[..., Visit], path: str) -> None:
    v = fresh(path, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = v.page
    assert v.state(TABLE)["state"] == "ok"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, r.width]; })"
    charts = page.eval_on_selector_all(f"#{TABLE} svg[role=img]", box)
    inputs = page.eval_on_selector_all(f"#{TABLE} input", box)
    assert len(charts) == 4 and len(inputs) == 5
    frame = page.eval_on_selector(f"#{TABLE}", "e => (r => [r.left, r.right])(e.getBoundingClientRect())")
    assert frame[0] >= 0 and frame[1] <= 390
    for left, right, _ in charts + inputs:
        assert frame[0] <= left and right <= frame[1]
    assert all(width > 250 for _, _, width in charts)
    # the heatmap is drawn at the device's resolution for the column's width (or the table's size, if smaller)
    raster = page.eval_on_selector(f"#{TABLE} .pe-live__raster", "e => e.getBoundingClientRect().width")
    data = v.state(TABLE)["data"]
    assert data["image"][0] == min(data["d"], math.floor(2 * raster))
    assert data["image"][1] == min(data["n"], math.floor(2 * data["plot"][3]))
