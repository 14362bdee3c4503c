"""The explorers' browser tests' shared part (``tests/test_live_*.py``: the frame and one file per explorer).

The explorers (``overrides/assets/javascripts/pe-live*.js``: one frame, ``pe-live.js``, and one file per explorer)
compute what they draw in the page, in float64, and expose it as ``window.peDocs``; the tests compare it with pe_docs
in a real browser, for the settings pe_docs accepts: the fields check the settings, and only what a reader can type,
choose or open in the page's address has a check and a message (``test_live_frame.py`` raises each of them, in both
languages: pe_docs' message, word for word, where pe_docs has the check). One visit per page and language and test
file (``visits``; some pages are opened with settings in their address, ``OPENED``, which the explorers must restore)
evaluates a grid of settings in one ``page.evaluate``, then drives the controls with the keyboard and checks what
each explorer shows — its numbers against pe_docs, and against the numbers the page itself states — its messages for
bad settings in the page's language, a change that puts another field out of its range (adapted, or named beside
figures that stay), and the address it writes; an English visit per page then opens that address and finds the same
settings. No console error and no request off the site on any visit (``Visit.close``).

Tolerances. The frequencies are the same float64 operations in the same order on both sides; only ``pow``, ``log``,
``sin`` and ``cos`` may differ (ECMAScript's ``Math`` functions are "implementation-approximated"; V8 takes them
from its fdlibm port, ``v8/v8: src/base/ieee754.cc``, and ``pow`` from ``std::pow`` or that port; PyTorch's CPU
kernels have their own), by an ulp or so each: a relative ``REL`` = 1e-12 leaves room for a few of them in a row and
catches any change of formula (``test_live_table.py`` derives its own bounds).

Fixtures: ``chromium`` (one per process), ``base_url`` (the built site, served), ``visits`` (one visit per page and
language, per test file) and ``fresh`` (visits of a test's own, closed after it).
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qsl

import numpy as np
import pytest

from site_tools.browser import serve_site, shared_browser
from site_tools.finish.cjk import HAN

REL = 1e-12


@pytest.fixture(scope="module")
def base_url(site_dir: Path) -> Iterator[str]:
    with serve_site(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> object:
    return shared_browser()  # one Chromium per process, shared with the other browser tests


class Visit:
    """One page in a fresh browser context (a desktop window unless ``context`` says otherwise), recording console
    errors and every request it makes."""

    def __init__(self, chromium: object, base_url: str, path: str, **context: object) -> None:
        self.base_url = base_url
        self.ctx = chromium.new_context(**{"viewport": {"width": 1280, "height": 900}, **context})  # type: ignore[attr-defined]
        self.page = self.ctx.new_page()
        self.requests: list[str] = []
        self.errors: list[str] = []
        self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.open(path)

    def open(self, path: str) -> None:
        self.page.goto(path if path.startswith("http") else self.base_url + path, wait_until="load")
        self.page.wait_for_function("() => [...document.querySelectorAll('.pe-live')].every(e => e.dataset.state)")

    def close(self) -> None:
        """Close the context; fail on any console error or any request off the site."""
        self.ctx.close()
        offsite = [u for u in self.requests if not u.startswith((self.base_url, "data:", "blob:"))]
        assert not offsite, f"requests off the site: {offsite}"
        assert not self.errors, self.errors

    @property
    def zh(self) -> bool:
        return "/zh/" in self.page.url

    def state(self, part: str) -> dict:
        """What the explorer (or part) ``part`` computed: its settings, its data (typed arrays as lists; not the
        table's rows), its error, its summary, the note on adapted fields."""
        return self.page.evaluate(
            """part => { const root = document.getElementById(part); const s = root.peLive;
                const plain = x => x instanceof Float64Array ? Array.from(x)
                  : Array.isArray(x) ? x.map(plain)
                  : x instanceof ImageData ? [x.width, x.height]
                  : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x)
                      .filter(([k]) => k !== 'table').map(([k, v]) => [k, plain(v)]))
                  : x;
                const views = root.querySelector('.pe-live__views');
                return { kind: root.dataset.kind, values: { ...s.values }, data: plain(s.data), error: s.error,
                         rule: s.rule, state: root.dataset.state,
                         summary: root.querySelector('.pe-live__summary').textContent,
                         message: root.querySelector('.pe-live__error').textContent,
                         adjusted: root.querySelector('.pe-live__adjusted').textContent,
                         views: !views.hidden, stale: views.classList.contains('pe-live__views--stale') }; }""",
            part,
        )

    def enter(self, part: str, key: str, value: str, press: str = "Tab") -> None:
        """Focus the field ``key`` of ``part``, replace its text with ``value``, press ``press``."""
        box = self.page.locator(f"#{part}-{key}")
        box.focus()
        self.page.keyboard.press("Control+A")
        self.page.keyboard.press("Backspace")
        self.page.keyboard.type(value)
        self.page.keyboard.press(press)

    def choose(self, part: str, key: str, value: str) -> None:
        self.page.locator(f"#{part}-{key}").select_option(value)

    def toggle(self, part: str, key: str) -> None:
        self.page.locator(f"#{part}-{key}").focus()
        self.page.keyboard.press("Space")

    def again(self, kind: str, part: str, query: str | None = None) -> dict:
        """Start a second explorer of ``kind`` (id ``part``) as a page load starts one: from the page's address
        (``query`` replaces it first); return its state."""
        self.page.evaluate(
            """([kind, part, query]) => {
                 if (query !== null) history.replaceState(null, '', query);
                 const div = Object.assign(document.createElement('div'), {className: 'pe-live', id: part});
                 div.dataset.kind = kind;
                 document.querySelector('article').append(div);
                 window.peDocs.live.start(); }""",
            [kind, part, query],
        )
        return self.state(part)

    def address(self, prefix: str) -> dict[str, str]:
        """The settings of the explorer ``prefix`` in the page's address, as the page has it now (``location``:
        Playwright's ``page.url`` follows ``history.replaceState`` a moment later, which a loaded machine shows)."""
        query = self.page.evaluate("() => location.search").removeprefix("?")
        return {k.removeprefix(prefix + "."): v for k, v in parse_qsl(query) if k.startswith(prefix + ".")}


@pytest.fixture(scope="module")
def visits(chromium: object, base_url: str) -> Iterator[Callable[[str], Visit]]:
    """One visit per page and language, opened on first use with the settings of ``OPENED`` in its address."""
    opened: dict[str, Visit] = {}

    def visit(path: str) -> Visit:
        if path not in opened:
            page = path.removeprefix("zh/")
            opened[path] = Visit(chromium, base_url, path + OPENED.get(page, ""))
        return opened[path]

    yield visit
    for v in opened.values():
        v.close()


@pytest.fixture
def fresh(chromium: object, base_url: str) -> Iterator[Callable[..., Visit]]:
    """Visits of their own (another colour scheme, a phone), closed after the test."""
    opened: list[Visit] = []

    def visit(path: str, **context: object) -> Visit:
        opened.append(Visit(chromium, base_url, path, **context))
        return opened[-1]

    yield visit
    for v in opened:
        v.close()


# the address each page is first opened with: the explorers must start from these settings
OPENED = {
    "start-here/": "?clock.position=100&clock.offset=7&clock.rate=100#clock-explorer",
    "relative/": "?rope.head_dim=8&rope.base=100&rope.pairing=half&rope.vectors=random&rope.m=5&rope.n=12"
    "&rope.shift=0#rope-explorer",
    "relative-schemes/": "?t5.bidirectional=0&t5.num_buckets=32&t5.max_distance=128&t5.reach=200"
    "&scaling.method=ntk&scaling.factor=8#bias-explorer-t5",
}
LANG_PATHS = ["", "zh/"]


def raised(call: Callable[[], object]) -> str:
    """pe_docs' message for a call that must fail."""
    with pytest.raises((TypeError, ValueError)) as python:
        call()
    return str(python.value)


def check_error(v: Visit, part: str, key: str, english: str, chinese: str) -> None:
    """A bad setting: the message (in the page's language) in place of the views, the field marked."""
    s = v.state(part)
    assert s["state"] == "error" and not s["views"] and s["data"] is None, s
    assert v.page.locator(f"#{part} [role=alert]").is_visible()
    assert v.page.locator(f"#{part} [role=alert]").count() == 1
    assert v.page.locator(f"#{part}-{key}").get_attribute("aria-invalid") == "true"
    if v.zh:
        assert HAN.search(s["message"]) and chinese in s["message"], s["message"]
    else:
        assert s["message"] == english, s["message"]


def check_adjusted(v: Visit, part: str, key: str, value: str) -> dict:
    """A change that put the field ``key`` out of its range: the field now holds ``value``, the explorer says so
    (naming the field, in the page's language) and shows the figures of the new setting."""
    s = v.state(part)
    assert s["state"] == "ok" and s["views"] and not s["stale"], s
    assert s["values"][key] == value and v.page.locator(f"#{part}-{key}").input_value() == value
    assert v.page.locator(f"#{part} .pe-live__adjusted[role=status]").is_visible()
    assert key in s["adjusted"] and value in s["adjusted"] and bool(HAN.search(s["adjusted"])) == v.zh, s["adjusted"]
    assert v.address(s["kind"])[key] == value
    return s


# Arrays cross the page boundary as base64 of their bytes (Playwright's own serialisation of some 10⁵ numbers takes
# seconds): b64(typed) in the page (ARRAYS_JS also has flat(arrays), a Float64Array of them end to end), unpack here.
ARRAYS_JS = """
  const b64 = typed => {
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    let out = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(out);
  };
  const flat = (arrays) => { const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0)); let o = 0;
    for (const a of arrays) { out.set(a, o); o += a.length; } return out; };"""


def unpack(text: str, dtype: str = "<f8") -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=dtype)
