"""The interactive explorer (``overrides/assets/javascripts/pe-explorer.js``) in a real browser, against pe_docs.

The explorer's script computes the table itself, in float64, as ``window.peDocs.sinusoidalTable(maxLen, dModel,
base)``. These tests compare it with ``pe_docs.sinusoidal_table(..., dtype=torch.float64)`` over a grid of sizes
and bases, drive the controls with the keyboard alone and check every view against ``pe_docs`` (the drawn table's
size, its pixels, the chosen columns, the wavelengths, the dot products against ``neighbour_similarity``), check
the messages for bad input in both languages and the recovery, the settings kept in the page's address (and
restored from it), both colour schemes, a 390 px wide screen, the absence of console errors and off-site requests,
and the script's size.

Tolerance. Both sides form the same float64 operations: ``w_i = base ** -(2i / d)``, the phase ``p · w_i``, its
sine and cosine. The operations ``2i / d``, the negation and ``p · w_i`` are IEEE-rounded on both sides; ``pow``,
``sin`` and ``cos`` are not required to be correctly rounded (ECMAScript calls ``Math.pow``, ``Math.sin`` and
``Math.cos`` "implementation-approximated"; V8 takes them from its fdlibm port, ``v8/v8: src/base/ieee754.cc``,
and ``pow`` from ``std::pow`` or that port, ``v8/v8: src/numbers/ieee754.cc``; PyTorch's CPU kernels have their
own). Assuming each of them is within 1 ulp on both sides (u = 2⁻⁵³, the unit roundoff):

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
import math
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
import torch

from pe_docs import inverse_frequencies, sinusoidal_table, wavelengths
from pe_docs.analysis import neighbour_similarity
from site_tools.browser import serve_site, shared_browser

pytestmark = pytest.mark.browser

U = 2.0**-53
PAGES = ["formula/", "zh/formula/", "wavelength/", "zh/wavelength/"]
SCRIPT = "assets/javascripts/pe-explorer.js"
STYLES = "assets/stylesheets/pe-explorer.css"
BUDGET = 50 * 1024  # bytes of script and styles the explorer adds to a page (not minified)

# the visible labels of the controls, per language (keys are the inputs' names)
LABELS = {
    "en": {
        "d_model": "d_model (even)",
        "base": "base",
        "max_len": "positions (max_len)",
        "position": "position p to inspect",
        "columns": "columns to plot (1 to 3)",
    },
    "zh": {
        "d_model": "维度 d_model（偶数）",
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


@pytest.fixture(scope="module")
def base_url(site_dir: Path) -> Iterator[str]:
    with serve_site(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> object:
    return shared_browser()  # one Chromium per process, shared with the other browser tests


class Visit:
    """One page in a fresh browser context, recording console errors and every request it makes."""

    def __init__(self, chromium: object, base_url: str, path: str, **context: object) -> None:
        self.base_url = base_url
        self.ctx = chromium.new_context(**context)  # type: ignore[attr-defined]
        self.page = self.ctx.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page.goto(base_url + path, wait_until="load")
        self.page.wait_for_selector(".pe-explorer[data-state]")

    def close(self) -> None:
        """Close the context; fail on any console error or any request off the site."""
        self.ctx.close()
        on_site = (self.base_url, "data:", "blob:")
        offsite = [u for u in self.requests if not u.startswith(on_site)]
        assert not offsite, f"requests off the site: {offsite}"
        assert not self.errors, self.errors

    def state(self) -> dict[str, str]:
        return self.page.eval_on_selector(".pe-explorer", "e => ({...e.dataset})")

    def enter(self, name: str, value: str, key: str = "Tab") -> None:
        """Focus the input labelled for ``name`` (its visible label), replace its text, press ``key``."""
        lang = "zh" if "/zh/" in self.page.url else "en"
        box = self.page.get_by_label(LABELS[lang][name], exact=True)
        box.focus()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.type(value)
        self.page.keyboard.press(key)

    def data(self) -> dict[str, object]:
        """What the explorer computed and drew: its parameters, columns, wavelengths, dot products."""
        return self.page.eval_on_selector(
            ".pe-explorer",
            """e => { const s = e.peExplorer.data; return s && {
                n: s.maxLen, d: s.d, base: s.base, p: s.p, columns: s.columns,
                curves: s.curves.map(c => Array.from(c)), lambda: Array.from(s.lambda),
                dots: Array.from(s.dots) }; }""",
        )


@pytest.fixture
def visit(chromium: object, base_url: str) -> Iterator[object]:
    opened: list[Visit] = []

    def open_(path: str, **context: object) -> Visit:
        v = Visit(chromium, base_url, path, **context)
        opened.append(v)
        return v

    yield open_
    for v in opened:
        v.close()


@pytest.fixture(scope="module")
def formula_page(chromium: object, base_url: str) -> Iterator[object]:
    """One visit of the formula page for the tests that only call the explorer's functions (``window.peDocs``):
    loading the page again for each call would only repeat the load."""
    v = Visit(chromium, base_url, "formula/")
    yield v.page
    v.close()


# ---- the computation, against pe_docs ------------------------------------------------------------------------

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


def test_table_matches_pe_docs_float64(formula_page: object) -> None:
    page = formula_page
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


def test_frequencies_and_wavelengths_match_pe_docs(visit: object) -> None:
    page = visit("wavelength/").page
    for d in (2, 6, 128, 1024):
        for b in (100.0, 10000.0, 1e6):
            w = page.evaluate("([d, b]) => Array.from(window.peDocs.inverseFrequencies(d, b))", [d, b])
            lam = page.evaluate("([d, b]) => Array.from(window.peDocs.wavelengths(d, b))", [d, b])
            w_ref = inverse_frequencies(d, base=b).numpy()
            lam_ref = wavelengths(d, base=b).numpy()
            assert w[0] == 1.0
            assert np.abs(np.array(w) / w_ref - 1).max() <= 4 * U
            assert np.abs(np.array(lam) / lam_ref - 1).max() <= 8 * U


BAD_ARGUMENTS = [
    (8, 7, 10000),  # odd width
    (8, 0, 10000),
    (8, -2, 10000),
    (8, 2.5, 10000),  # not an integer
    (0, 8, 10000),  # no positions
    (-3, 8, 10000),
    (2.5, 8, 10000),
    (8, 8, 0),  # base
    (8, 8, -10),
    (8, 8, math.inf),
    (8, 8, math.nan),
]


@pytest.mark.parametrize(("n", "d", "b"), BAD_ARGUMENTS, ids=str)
def test_bad_arguments_throw_pe_docs_messages(formula_page: object, n: float, d: float, b: float) -> None:
    page = formula_page
    thrown = page.evaluate(
        """([n, d, b]) => { try { window.peDocs.sinusoidalTable(n, d, b); return null; }
                           catch (e) { return [e.name, e.message, e.argument, e instanceof Error]; } }""",
        [n, d, b],
    )
    with pytest.raises((TypeError, ValueError)) as python:
        sinusoidal_table(n, d, base=b, dtype=torch.float64)  # type: ignore[arg-type]
    assert thrown is not None, f"sinusoidalTable({n}, {d}, {b}) must throw"
    name, message, argument, is_error = thrown
    assert is_error
    assert name == {"TypeError": "TypeError", "ValueError": "RangeError"}[python.type.__name__]
    # pe_docs' message, word for word; for a float where an integer is due it also names Python's type
    expected = str(python.value)
    assert message == expected or expected.startswith(message + " of type float"), (message, expected)
    assert argument in message and argument in expected


# ---- the page: labels, keyboard, views ----------------------------------------------------------------------


@pytest.mark.parametrize("path", PAGES)
def test_every_control_has_a_visible_label(visit: object, path: str) -> None:
    v = visit(path)
    lang = "zh" if path.startswith("zh/") else "en"
    assert v.state()["state"] == "ok"
    for name, text in LABELS[lang].items():
        label = v.page.locator(".pe-explorer label", has_text=text)
        assert label.count() == 1 and label.is_visible(), text
        box = v.page.get_by_label(text, exact=True)
        assert box.get_attribute("name") == name
        assert box.evaluate("e => e.tagName") == "INPUT"
    captions = v.page.eval_on_selector_all(".pe-explorer figcaption", "els => els.map(e => e.textContent)")
    assert len(captions) == 4
    if lang == "zh":
        assert all(re.search("[\u4e00-\u9fff]", c) for c in captions), captions


@pytest.mark.parametrize("path", ["formula/", "zh/formula/"])
def test_keyboard_alone_drives_every_view(visit: object, path: str) -> None:
    v = visit(path)
    page = v.page
    before = page.eval_on_selector(".pe-explorer__canvas--heatmap", "c => c.toDataURL()")
    # Tab order: the controls in reading order
    page.get_by_label(LABELS["zh" if path.startswith("zh/") else "en"]["d_model"], exact=True).focus()
    order = [page.evaluate("document.activeElement.name")]
    for _ in ORDER[1:]:
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.name"))
    assert order == ORDER
    # a visible focus ring on the focused input
    outline = page.evaluate("(s => [s.outlineStyle, s.outlineWidth])(getComputedStyle(document.activeElement))")
    assert outline[0] != "none" and float(outline[1].removesuffix("px")) >= 2, outline

    v.enter("d_model", "64")
    assert page.evaluate("document.activeElement.name") == "base"  # Tab moved on, and applied the change
    v.enter("base", "100")
    v.enter("max_len", "300")
    v.enter("columns", "1, 20 63")
    v.enter("position", "10", key="Enter")
    page.wait_for_function("() => document.querySelector('.pe-explorer').peExplorer.data.p === 10")
    assert v.state()["state"] == "ok"
    heat = page.locator(".pe-explorer__canvas--heatmap")
    assert (heat.get_attribute("data-rows"), heat.get_attribute("data-cols")) == ("300", "64")
    assert "300 × 64" in heat.get_attribute("aria-label")
    assert page.eval_on_selector(".pe-explorer__canvas--heatmap", "c => c.toDataURL()") != before

    data = v.data()
    n, d, p = 300, 64, 10
    assert (data["n"], data["d"], data["base"], data["p"], data["columns"]) == (n, d, 100, p, [1, 20, 63])
    table = sinusoidal_table(n, d, base=100, dtype=torch.float64).numpy()
    for c, curve in zip(data["columns"], data["curves"], strict=True):
        assert np.abs(np.array(curve) - table[:, c]).max() <= entry_tol(n)
    lam = wavelengths(d, base=100).numpy()
    assert np.abs(np.array(data["lambda"]) / lam - 1).max() <= 8 * U
    # PE[p]·PE[p+k] for k = -p … n-1-p, from the rows, against the closed form (d/2)·s(|k|)
    dots = np.array(data["dots"])
    assert len(dots) == n
    s = neighbour_similarity(d, max(p, n - 1 - p), base=100).numpy()
    k = np.arange(-p, n - p)
    assert np.abs(dots - (d / 2) * s[np.abs(k)]).max() <= dot_tol(n, d)
    assert page.locator(".pe-explorer__canvas--dots").get_attribute("data-kmin") == str(-p)
    assert page.locator(".pe-explorer__canvas--wavelengths").get_attribute("data-pairs") == str(d // 2)

    check_heatmap_pixels(page, sinusoidal_table(n, d, base=100, dtype=torch.float64).numpy())

    # the settings are in the page's address, and opening that address restores them
    settings = {"d_model": "64", "base": "100", "max_len": "300", "position": "10", "columns": "1, 20 63"}
    assert dict(parse_qsl(urlsplit(page.url).query)) == {f"table.{k}": x for k, x in settings.items()}
    assert urlsplit(page.url).fragment == "table-explorer"
    if not path.startswith("zh/"):  # one reload is enough: both languages run the same script
        page.goto(page.url, wait_until="load")
        page.wait_for_selector(".pe-explorer[data-state=ok]")
        again = v.data()
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


def check_heatmap_pixels(page: object, table: np.ndarray) -> None:
    """The picture the explorer drew is the table's: cell by cell against ``expected_cells``, and each cell's
    centre on the visible canvas has that cell's colour."""
    got = page.eval_on_selector(  # type: ignore[attr-defined]
        ".pe-explorer__canvas--heatmap",
        """c => { const img = c.closest('.pe-explorer').peExplorer.data.image;
                  const [x0, y1, w, h] = c.dataset.plot.split(' ').map(Number);
                  const r = c.width / c.clientWidth, ctx = c.getContext('2d');
                  const centres = [];  // the visible canvas at the centre of every cell
                  for (let y = 0; y < img.height; y++) for (let x = 0; x < img.width; x++) {
                    const px = Math.floor((x0 + (x + 0.5) * w / img.width) * r);
                    const py = Math.floor((y1 + (y + 0.5) * h / img.height) * r);
                    centres.push(...ctx.getImageData(px, py, 1, 1).data.slice(0, 3));
                  }
                  return { height: img.height, width: img.width, cells: Array.from(img.data), centres }; }""",
    )
    height, width = got["height"], got["width"]
    cells = np.array(got["cells"], dtype=float).reshape(height, width, 4)
    assert (cells[..., 3] == 255).all()
    want = expected_cells(table, height, width)
    diff = np.abs(cells[..., :3] - want)
    # a mean within the table tolerance of a colour boundary may land one colour step away (≤ 4 per channel)
    assert diff.max() <= 4 and (diff == 0).mean() > 0.99, (diff.max(), (diff == 0).mean())
    centres = np.array(got["centres"], dtype=float).reshape(height, width, 3)
    assert (centres == cells[..., :3]).all()


def _error(page: object) -> tuple[bool, str]:
    return page.eval_on_selector(".pe-explorer__error", "e => [!e.hidden && e.offsetHeight > 0, e.textContent]")  # type: ignore[attr-defined]


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
def test_bad_input_shows_a_message_in_the_page_language_and_recovers(visit: object, path: str) -> None:
    v = visit(path)
    page = v.page
    zh = path.startswith("zh/")
    if path.endswith("wavelength/"):
        v.enter("max_len", "100")
    v.enter("columns", "0 10 50")
    for name, value, english, chinese in BAD_INPUT:
        v.enter(name, value)
        shown, text = _error(page)
        assert shown, (name, value)
        assert v.state()["state"] == "error"
        assert page.locator(".pe-explorer__views").is_hidden()  # no stale plot next to the message
        assert page.get_by_label(LABELS["zh" if zh else "en"][name], exact=True).get_attribute("aria-invalid") == "true"
        assert page.locator(".pe-explorer [role=alert]").count() == 1
        if zh:
            assert name in text and value.split()[-1] in text and chinese in text, text
            assert re.search("[\u4e00-\u9fff]", text)
        else:
            assert text == english
        # the fix brings the views back
        v.enter(name, GOOD[name] if name != "d_model" else "128")
        shown, _ = _error(page)
        assert not shown and v.state()["state"] == "ok", (name, value)
        assert page.locator(".pe-explorer__views").is_visible()
    # the computation's own messages, where they exist, are pe_docs' messages
    for name, value, english, _ in BAD_INPUT[:2] + BAD_INPUT[3:6]:
        kwargs = {"max_len": 8, "d_model": 8, "base": 10000.0}
        kwargs[name] = int(value)
        with pytest.raises(ValueError, match=re.escape(english)):
            sinusoidal_table(kwargs["max_len"], kwargs["d_model"], base=kwargs["base"])
    v.enter("d_model", "8")
    assert page.locator(".pe-explorer__canvas--heatmap").get_attribute("data-cols") == "8"


# ---- colour schemes, a phone, the budget ---------------------------------------------------------------------


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


@pytest.mark.parametrize("start", ["light", "dark"])
def test_views_redraw_in_the_other_colour_scheme(visit: object, start: str) -> None:
    v = visit("zh/formula/", color_scheme=start)
    page = v.page
    first = v.state()
    first_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert first["scheme"] == ("default" if start == "light" else "slate")
    page.click("label.md-header__button[for^='__palette']:visible")  # Material's scheme toggle
    page.wait_for_function(f"() => document.querySelector('.pe-explorer').dataset.draws !== '{first['draws']}'")
    second = v.state()
    second_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert second["scheme"] == ("slate" if start == "light" else "default")
    assert second["fg"] != first["fg"] and second_bg != first_bg
    for state, bg in ((first, first_bg), (second, second_bg)):
        assert _contrast(state["fg"], bg) >= 4.5, (state, bg)  # axes and labels readable (WCAG AA)


@pytest.mark.parametrize("path", PAGES)
def test_fits_a_390px_phone_screen(visit: object, path: str) -> None:
    v = visit(path, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    page = v.page
    assert v.state()["state"] == "ok"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right, e.width, r.width]; })"
    canvases = page.eval_on_selector_all(".pe-explorer canvas", box)
    inputs = page.eval_on_selector_all(".pe-explorer input", box)
    assert len(canvases) == 4 and len(inputs) == 5
    frame = page.eval_on_selector(".pe-explorer", "e => (r => [r.left, r.right])(e.getBoundingClientRect())")
    assert frame[0] >= 0 and frame[1] <= 390
    for left, right, _, _ in canvases + inputs:
        assert frame[0] <= left and right <= frame[1]
    for _, _, pixels, width in canvases:  # drawn at the device's resolution, for the column's width
        assert abs(pixels - 2 * width) <= 2 and width > 250


def test_script_is_small_and_loaded_only_where_needed(site_dir: Path) -> None:
    script, styles = (site_dir / SCRIPT).stat().st_size, (site_dir / STYLES).stat().st_size
    print(f"explorer: {script} bytes of script, {styles} of styles")
    assert script + styles <= BUDGET
    assert (site_dir / "zh" / SCRIPT).read_bytes() == (site_dir / SCRIPT).read_bytes()
    with_explorer = set()
    for html in site_dir.rglob("index.html"):
        text = html.read_text(encoding="utf-8")
        loads = "pe-explorer.js" in text
        assert loads == ('class="pe-explorer"' in text), html
        if loads:
            with_explorer.add(html.parent.relative_to(site_dir).as_posix() + "/")
    assert with_explorer == set(PAGES)
