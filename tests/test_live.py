"""The explorers (``overrides/assets/javascripts/pe-live*.js``: one frame, ``pe-live.js``, and one file per explorer)
in a real browser, against pe_docs.

The explorers compute what they draw in the page, in float64, and expose it as ``window.peDocs``:
``sinusoidalTable(maxLen, dModel, base)`` ≙ ``pe_docs.sinusoidal_table(..., dtype=torch.float64)`` with
``inverseFrequencies`` and ``wavelengths``, ``ropeFrequencies(dHead, base, scaling, seqLen)`` ≙
``pe_docs.rope_frequencies`` (``inv_freq`` and ``attention_scaling``, every ``rope_type``), ``alibiSlopes(nHeads)`` ≙
``alibi_slopes``, ``t5RelativeBucket(relativePosition, bidirectional, numBuckets, maxDistance)`` ≙
``t5_relative_bucket``, ``ropeRotate(x, position, base, pairing)`` ≙ ``rope_rotate``, ``ntkAwareFrequencies`` ≙
``ntk_aware_frequencies`` and ``clockAngles`` ≙ start here's ``rad2deg(remainder(p · w, 2π))``, for the settings
pe_docs accepts: the fields check the settings, and only what a reader can type, choose or open in the page's address
has a check and a message (``FIELD_MESSAGES`` raises each of them, in both languages: pe_docs' message, word for word,
where pe_docs has the check). One visit per page and language (some pages are opened with settings in their address,
which the explorers must restore) evaluates a grid of settings in one ``page.evaluate``, then drives the controls with
the keyboard and checks what each explorer shows — its numbers against pe_docs, and against the numbers the page
itself states — its messages for bad settings in the page's language, the arrow keys in every number field, a change
that puts another field out of its range (adapted, or named beside figures that stay), and the address it writes; an
English visit per page then opens that address and finds the same settings. The table's explorer is also seen in both
colour schemes and on a 390 px phone. No console error and no request off the site on any visit.

Tolerances. The frequencies are the same float64 operations in the same order on both sides; only ``pow``, ``log``,
``sin`` and ``cos`` may differ (ECMAScript's ``Math`` functions are "implementation-approximated"; V8 takes them
from its fdlibm port, ``v8/v8: src/base/ieee754.cc``, and ``pow`` from ``std::pow`` or that port; PyTorch's CPU
kernels have their own), by an ulp or so each: a relative 1e-12 leaves room for a few of them in a row and catches
any change of formula. T5's buckets must be equal: a bucket is an integer. The table, assuming each of ``pow``,
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
import json
import math
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from urllib.parse import parse_qsl

import numpy as np
import pytest
import torch
from PIL import Image

from pe_docs import (
    alibi_slopes,
    inverse_frequencies,
    rope_frequencies,
    sinusoidal_table,
    t5_relative_bucket,
    wavelengths,
)
from pe_docs._checks import check_choice, check_d_model, check_int, check_real
from pe_docs.analysis import (
    llama3_frequencies,
    neighbour_similarity,
    ntk_aware_base,
    ntk_aware_frequencies,
    rope_rotate,
    yarn_boundaries,
)
from pe_docs.rotary import PAIRINGS
from site_tools.browser import serve_site, shared_browser
from site_tools.finish.cjk import HAN

pytestmark = pytest.mark.browser

REL = 1e-12
U = 2.0**-53
KINDS = {
    "table": ("formula/", "wavelength/"),
    "clock": ("start-here/",),
    "rope": ("relative/",),
    "bias": ("relative-schemes/",),
    "scaling": ("relative-schemes/",),
}
SCRIPTS = "assets/javascripts/"
BUDGET = 110 * 1024  # bytes of script and styles the explorers add to one page (not minified)
TABLE = "table-explorer"


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


# ---- the computations, against pe_docs ------------------------------------------------------------------------


def exact_frequencies(d: int, base: float, scaling: dict | None, seq_len: int | None = None):
    """``pe_docs.rope_frequencies`` in float64 (each type's exact values) for the figures' settings, which keep the
    dynamic type's trained length under ``original_max_position_embeddings``: pe_docs takes it, as transformers
    does, as ``max_position_embeddings``."""
    scaling = None if scaling is None else dict(scaling)
    trained = None
    if scaling is not None and scaling.get("rope_type") == "dynamic":
        trained = scaling.pop("original_max_position_embeddings", None)
    return rope_frequencies(
        d, base=base, scaling=scaling, max_position_embeddings=trained, seq_len=seq_len, dtype=torch.float64
    )


def rope_cases() -> list[tuple[int, float, dict | None, int | None]]:
    """(head_dim, base, rope_parameters, seq_len): every rope_type, their options, small and large heads."""
    cases: list[tuple[int, float, dict | None, int | None]] = []
    for d in (2, 6, 64, 128, 256):
        for base in (100.0, 10000.0, 500000.0, 1e6):
            cases.append((d, base, None, None))
            cases.append((d, base, {"rope_type": "default", "rope_theta": base}, None))
            for factor in (1.0, 2.0, 8.0, 32.5):
                cases.append((d, base, {"rope_type": "linear", "factor": factor}, None))
            for factor in (1.0, 4.0, 8.0, 40.0):
                for length in (2048, 4096, 8192):
                    yarn = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": length}
                    cases.append((d, base, yarn, None))
                    cases.append((d, base, {**yarn, "truncate": False, "beta_fast": 16, "beta_slow": 2}, None))
                    cases.append(
                        (d, base, {**yarn, "beta_fast": None, "beta_slow": None, "attention_factor": 0.9}, None)
                    )
                    cases.append((d, base, {**yarn, "mscale": 1.0, "mscale_all_dim": 0.707}, None))
                    cases.append((d, base, {**yarn, "mscale": 1.0, "mscale_all_dim": 0}, None))
            for factor, length, low, high in ((8.0, 8192, 1.0, 4.0), (32.0, 8192, 1.0, 4.0), (4.0, 2048, 0.5, 8.0)):
                llama3 = {"rope_type": "llama3", "factor": factor, "original_max_position_embeddings": length}
                cases.append((d, base, {**llama3, "low_freq_factor": low, "high_freq_factor": high}, None))
            if d >= 4:
                for factor in (1.0, 2.0, 8.0):
                    dynamic = {"rope_type": "dynamic", "factor": factor, "original_max_position_embeddings": 4096}
                    for seq_len in (None, 1000, 4096, 12288, 32768):
                        cases.append((d, base, dynamic, seq_len))
    return cases


T5_SETTINGS = [
    (bidirectional, buckets, max_distance)
    for bidirectional in (True, False)
    for buckets in (4, 6, 8, 16, 32, 64, 128)
    for max_distance in (20, 128, 1000)
    if max_distance > (buckets // 2 if bidirectional else buckets) // 2
] + [(True, 32, 9), (False, 32, 17), (True, 10, 3)]
OFFSETS = list(range(-5000, 5001))

# Everything crosses the page boundary as text: JSON in, base64 of float64/int32 arrays out (Playwright's own
# serialisation of some 10⁵ numbers takes seconds).
COMPUTE_JS = """text => {
  const [ropeCases, t5Settings, [lo, hi]] = JSON.parse(text);
  const api = window.peDocs;
  const b64 = typed => {
    const bytes = new Uint8Array(typed.buffer, typed.byteOffset, typed.byteLength);
    let out = "";
    for (let i = 0; i < bytes.length; i += 0x8000) {
      out += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    }
    return btoa(out);
  };
  const flat = (arrays) => { const out = new Float64Array(arrays.reduce((n, a) => n + a.length, 0)); let o = 0;
    for (const a of arrays) { out.set(a, o); o += a.length; } return out; };
  const typed = [];
  const rope = flat(ropeCases.map(([d, b, scaling, seqLen]) => {
    const r = api.ropeFrequencies(d, b, scaling, seqLen);
    typed.push(r.invFreq instanceof Float64Array && r.invFreq.length === d / 2);
    return [...r.invFreq, r.attentionScaling];
  }));
  const slopes = flat(Array.from({length: 100}, (_, j) => api.alibiSlopes(j + 1)));
  const offsets = Array.from({length: hi - lo + 1}, (_, j) => lo + j);
  const buckets = Int32Array.from(t5Settings.flatMap(([bi, n, m]) => api.t5RelativeBucket(offsets, bi, n, m)));
  const single = api.t5RelativeBucket(-200, true, 32, 128);
  const ntk = flat([[128, 8, 10000], [64, 4, 500000], [4, 2, 10000]]
    .map(([d, s, b]) => api.ntkAwareFrequencies(d, s, b)));
  return { rope: b64(rope), typed, slopes: b64(slopes), buckets: b64(buckets), single, ntk: b64(ntk) };
}"""


def unpack(text: str, dtype: str = "<f8") -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=dtype)


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_computations_match_pe_docs(visits: object, lang: str) -> None:
    page = visits(lang + "relative-schemes/").page  # type: ignore[operator]
    cases = rope_cases()
    got = page.evaluate(COMPUTE_JS, json.dumps([cases, T5_SETTINGS, [OFFSETS[0], OFFSETS[-1]]]))

    assert all(got["typed"]), "ropeFrequencies must return a Float64Array of head_dim / 2 frequencies"
    rope = unpack(got["rope"])
    worst, at = 0.0, 0
    for d, base, scaling, seq_len in cases:
        want = exact_frequencies(d, base, scaling, seq_len)
        inv_freq, attention = rope[at : at + d // 2], rope[at + d // 2]
        at += d // 2 + 1
        rel = np.abs(inv_freq / want.inv_freq.numpy() - 1).max()
        rel_a = abs(attention / want.attention_scaling - 1)
        assert rel < REL and rel_a < REL, (d, base, scaling, seq_len, rel, rel_a)
        worst = max(worst, rel, rel_a)
    assert at == len(rope)
    print(f"ropeFrequencies: {len(cases)} settings, largest relative difference {worst:.1e}")

    want_slopes = torch.cat([alibi_slopes(n) for n in range(1, 101)]).numpy()
    assert np.abs(unpack(got["slopes"]) / want_slopes - 1).max() < REL

    offsets = torch.tensor(OFFSETS)
    buckets = unpack(got["buckets"], "<i4").reshape(len(T5_SETTINGS), len(OFFSETS))
    for (bidirectional, n, max_distance), js in zip(T5_SETTINGS, buckets, strict=True):
        want = t5_relative_bucket(offsets, bidirectional=bidirectional, num_buckets=n, max_distance=max_distance)
        assert np.array_equal(js, want.numpy()), (bidirectional, n, max_distance)
    assert got["single"] == 15  # a number gives a number (relative-schemes: offset -200 is in bucket 15)

    want_ntk = torch.cat(
        [ntk_aware_frequencies(128, 8.0), ntk_aware_frequencies(64, 4.0, base=500000.0), ntk_aware_frequencies(4, 2.0)]
    ).numpy()
    assert np.abs(unpack(got["ntk"]) / want_ntk - 1).max() < REL


# ---- the frame: messages, ranges, the arrow keys --------------------------------------------------------------

T5_ZERO = torch.tensor([0])
METHODS = ("none", "linear", "ntk", "dynamic", "yarn", "llama3")  # the scaling explorer's select

# Every message a reader can raise, by typing in a field or opening an address: (the address's settings, the field in
# error, the rule, the English message — pe_docs' own where pe_docs has the check —, words the Chinese message must
# contain). Each rule of the frame's MESSAGES is here.
FIELD_MESSAGES: list[tuple[str, str, str, str | Callable[[], object], str]] = [
    ("table.d_model=7", "d_model", "even", lambda: sinusoidal_table(8, 7), "偶数"),
    ("table.d_model=2.5", "d_model", "integer", lambda: sinusoidal_table(8, 2.5), "必须是整数"),  # type: ignore[arg-type]
    ("table.d_model=-2", "d_model", "min", lambda: sinusoidal_table(8, -2), "必须 ≥ 1"),
    ("table.d_model=2048", "d_model", "max", "d_model must be <= 1024 in this explorer, got 2048", "最大为 1024"),
    ("table.max_len=-3", "max_len", "min", lambda: sinusoidal_table(-3, 8), "必须 ≥ 1"),
    ("table.max_len=2.5", "max_len", "integer", lambda: sinusoidal_table(2.5, 8), "必须是整数"),  # type: ignore[arg-type]
    ("table.base=-10", "base", "positive", lambda: sinusoidal_table(8, 8, base=-10), "正数"),
    ("table.base=Infinity", "base", "positive", lambda: sinusoidal_table(8, 8, base=math.inf), "正数"),
    ("table.base=x", "base", "empty", "base is empty or not a number", "为空"),
    ("table.position=100", "position", "below", "position must be < max_len = 100, got 100", "必须小于"),
    ("table.columns=300", "columns", "column", "columns must be integers from 0 to d_model - 1 = 127, got 300", "列号"),
    ("table.columns=0+1+2+3", "columns", "count", "columns must list 1 to 3 column numbers, got 0 1 2 3", "列号"),
    ("clock.rate=7", "rate", "choice", lambda: check_choice("rate", "7", ("2", "10", "100")), "之一"),
    ("alibi.n_heads=4&alibi.head=5", "head", "head", "head must be between 1 and n_heads = 4, got 5", "之间"),
    ("t5.num_buckets=33", "num_buckets", "evenBuckets", lambda: t5_relative_bucket(T5_ZERO, num_buckets=33), "偶数"),
    ("t5.max_distance=8", "max_distance", "min", lambda: t5_relative_bucket(T5_ZERO, max_distance=8), "必须 ≥ 9"),
    ("scaling.factor=0.00001", "factor", "min", lambda: check_real("factor", 1e-05, minimum=1.0), "必须 ≥ 1.0"),
    ("scaling.factor=-Infinity", "factor", "finite", lambda: check_real("factor", -math.inf, minimum=1.0), "有限数"),
    ("scaling.method=rope", "method", "choice", lambda: check_choice("method", "rope", METHODS), "之一"),
    # the NTK-aware base of a factor this large overflows: the base is refused (not the factor)
    ("scaling.method=ntk&scaling.factor=1e300", "base", "positive", lambda: ntk_aware_frequencies(128, 1e300), "正数"),
    ("scaling.method=dynamic&scaling.head_dim=2", "head_dim", "ntk", lambda: ntk_aware_frequencies(2, 8.0), "必须 ≥ 4"),
    # Dynamic NTK's scale 3.3 · 3 / 3 − 2.3 rounds below 1: pe_docs' scale (the test below) is the field factor here
    (
        "scaling.method=dynamic&scaling.original=3&scaling.target=3&scaling.factor=3.3",
        "factor",
        "min",
        "factor must be >= 1.0, got 0.9999999999999996",
        "必须 ≥ 1.0",
    ),
    ("scaling.method=yarn&scaling.base=1", "base", "yarnBase", lambda: yarn_boundaries(128, 4096, base=1), "YaRN"),
    ("scaling.beta_fast=0", "beta_fast", "above", lambda: yarn_boundaries(128, 4096, beta_fast=0), "必须 > 0"),
    ("scaling.beta_slow=0", "beta_slow", "above", lambda: yarn_boundaries(128, 4096, beta_slow=0), "必须 > 0"),
    ("scaling.beta_slow=64", "beta_slow", "belowFast", lambda: yarn_boundaries(128, 4096, beta_slow=64), "不能大于"),
    (
        "scaling.method=llama3&scaling.low_freq_factor=5",
        "high_freq_factor",
        "aboveLow",
        lambda: llama3_frequencies(128, 8.0, 4096, low_freq_factor=5.0, high_freq_factor=4),
        "必须大于 low_freq_factor",
    ),
]
# an explorer's page and the kind of its div (ALiBi and T5 share one box)
EXPLORERS = {  # the box of ALiBi and T5 names its parts <id>-alibi, <id>-t5
    "table": ("formula/", "table"),
    "clock": ("start-here/", "clock"),
    "alibi": ("relative-schemes/", "bias"),
    "t5": ("relative-schemes/", "bias"),
    "scaling": ("relative-schemes/", "scaling"),
}


# Start an explorer per row (kind of its div, id, address) as a page load starts one, from the address; then read
# what each shows: its state, its message and rule, its views, its visible alerts, whether the field is marked invalid.
MOUNT_JS = """rows => rows.forEach(([kind, part, query]) => {
  history.replaceState(null, '', query);
  const div = Object.assign(document.createElement('div'), {className: 'pe-live', id: part});
  div.dataset.kind = kind;
  document.querySelector('article').append(div);
  window.peDocs.live.start(); })"""
SHOWN_JS = """rows => rows.map(([part, key]) => { const root = document.getElementById(part); const s = root.peLive;
  return [root.dataset.state, s.data, s.error, s.rule, !root.querySelector('.pe-live__views').hidden,
    [...root.querySelectorAll('[role=alert]')].filter(e => e.checkVisibility()).length,
    document.getElementById(`${part}-${key}`).getAttribute('aria-invalid')]; })"""


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_every_message_a_reader_can_raise(fresh: Callable[..., Visit], lang: str) -> None:
    """An explorer started from each address of FIELD_MESSAGES: the message in the page's language, in place of the
    views, the field in error marked; in English, pe_docs' message."""
    pages: dict[str, list[tuple[int, str, str]]] = {}  # page: (row, its explorer's kind, the explorer's id)
    for j, (query, *_) in enumerate(FIELD_MESSAGES):
        kind = query.split(".", 1)[0]
        path, div = EXPLORERS[kind]
        pages.setdefault(path, []).append((j, div, f"message-{j}-{kind}" if div == "bias" else f"message-{j}"))
    for path, rows in pages.items():
        v = fresh(lang + path)
        v.page.evaluate(MOUNT_JS, [[div, f"message-{j}", "?" + FIELD_MESSAGES[j][0]] for j, div, _ in rows])
        shown = v.page.evaluate(SHOWN_JS, [[part, FIELD_MESSAGES[j][1]] for j, _, part in rows])
        for (j, _, _), (state, data, message, rule, views, alerts, invalid) in zip(rows, shown, strict=True):
            _, _, want, english, chinese = FIELD_MESSAGES[j]
            assert (state, data, rule, views, alerts, invalid) == ("error", None, want, False, 1, "true"), j
            if v.zh:
                assert HAN.search(message) and chinese in message, message
            else:
                assert message == (english if isinstance(english, str) else raised(english)), FIELD_MESSAGES[j]
    dynamic = {"rope_type": "dynamic", "factor": 3.3}
    assert raised(
        lambda: rope_frequencies(128, scaling=dynamic, max_position_embeddings=3, seq_len=3, dtype=torch.float64)
    ) == ("scale must be >= 1.0, got 0.9999999999999996")


def test_every_rule_a_field_can_raise_has_a_chinese_text(visits: Callable[[str], Visit]) -> None:
    """The frame's messages are the rules the fields raise (FIELD_MESSAGES raises every one, the test above in both
    languages) and no other, and the Chinese table has each of them: no message falls back to English."""
    rules = visits("zh/formula/").page.evaluate(
        "() => Object.fromEntries(Object.entries(window.peDocs.live.MESSAGES).map(([k, m]) => [k, Object.keys(m)]))"
    )
    assert sorted(rules["en"]) == sorted({rule for _, _, rule, _, _ in FIELD_MESSAGES} | {"adjusted"})
    assert sorted(rules["zh"]) == sorted(rules["en"])


# a number field of each explorer (its part), its value as opened, one step up, ten steps up (the arrow keys, Shift)
STEPS = [
    ("formula/", TABLE, "d_model", "128", "130", "148"),
    ("formula/", TABLE, "base", "10000", "10001", "10010"),
    ("formula/", TABLE, "max_len", "100", "101", "110"),
    ("formula/", TABLE, "position", "0", "1", "10"),
    ("start-here/", "clock-explorer", "position", "100", "101", "110"),
    ("start-here/", "clock-explorer", "offset", "7", "8", "17"),
    ("relative/", "rope-explorer", "head_dim", "8", "10", "28"),
    ("relative/", "rope-explorer", "base", "100", "101", "110"),
    ("relative/", "rope-explorer", "m", "5", "6", "15"),
    ("relative/", "rope-explorer", "n", "12", "13", "22"),
    ("relative/", "rope-explorer", "shift", "0", "1", "10"),
    ("relative-schemes/", "bias-explorer-alibi", "n_heads", "8", "9", "18"),
    ("relative-schemes/", "bias-explorer-alibi", "seq_len", "8", "9", "18"),
    ("relative-schemes/", "bias-explorer-alibi", "head", "1", "2", "8"),  # at most n_heads = 8
    ("relative-schemes/", "bias-explorer-t5", "num_buckets", "32", "33", "42"),
    ("relative-schemes/", "bias-explorer-t5", "max_distance", "128", "129", "138"),
    ("relative-schemes/", "bias-explorer-t5", "reach", "200", "201", "210"),
    ("relative-schemes/", "scaling-explorer", "head_dim", "128", "130", "148"),
    ("relative-schemes/", "scaling-explorer", "base", "10000", "10001", "10010"),
    ("relative-schemes/", "scaling-explorer", "original", "4096", "4097", "4106"),
    ("relative-schemes/", "scaling-explorer", "target", "32768", "32769", "32778"),
    ("relative-schemes/", "scaling-explorer", "factor", "8", "9", "18"),
]


def test_every_number_field_states_its_range_and_steps_with_the_arrow_keys(fresh: Callable[..., Visit]) -> None:
    """One step up and back down in every number field (the first of each page also ten steps, with Shift)."""
    fields = 0
    now = """([part, key]) => { const root = document.getElementById(part);
               return [root.peLive.values[key], root.dataset.state, root.peLive.error]; }"""
    for path in dict.fromkeys(p for p, *_ in STEPS):
        v = fresh(path + OPENED.get(path, ""))
        shown = v.page.eval_on_selector_all(
            ".pe-live__field--number:not([hidden]) input[type=text]", "els => els.map(e => e.id)"
        )
        rows = [row for row in STEPS if row[0] == path]
        assert sorted(shown) == sorted(f"{part}-{key}" for _, part, key, *_ in rows), path
        for j, (_, part, key, opened, up, ten) in enumerate(rows):
            box = v.page.locator(f"#{part}-{key}")
            hint = v.page.locator(f"#{part}-{key}-range")
            assert hint.is_visible() and re.search(r"\d", hint.inner_text()), (part, key)
            assert f"{part}-{key}-range" in box.get_attribute("aria-describedby").split()
            assert box.input_value() == opened, (part, key)
            box.focus()
            presses = [("ArrowUp", up), ("ArrowDown", opened)]
            for press, want in presses + ([("Shift+ArrowUp", ten), ("Shift+ArrowDown", opened)] if j == 0 else []):
                v.page.keyboard.press(press)
                value, state, message = v.page.evaluate(now, [part, key])
                assert box.input_value() == want == value and state == "ok", (part, key, press, message)
            fields += 1
    # at the end of a range the arrow keys stop there (relative-schemes, the last page above)
    v.enter("bias-explorer-alibi", "seq_len", "31")
    v.page.keyboard.press("Shift+Tab")
    v.page.keyboard.press("Shift+ArrowUp")
    assert v.state("bias-explorer-alibi")["values"]["seq_len"] == "32"
    assert v.page.locator("#bias-explorer-alibi-seq_len-range").inner_text() == "integer 2–32"
    v.enter("bias-explorer-alibi", "seq_len", "8")
    assert fields == len(STEPS)


# ---- formula, wavelength: the table ----------------------------------------------------------------------------

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
    """Halving d_model on wavelength (columns 0 40 80) or shortening the table below the inspected position: the
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


# ---- start here: the clock hands ------------------------------------------------------------------------------


def clock_angles(p: int) -> np.ndarray:
    """Start here's block: where each hand of the figure points at position p, degrees clockwise from twelve."""
    return torch.rad2deg(torch.remainder(p * inverse_frequencies(8), 2 * math.pi)).numpy()


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_clock_hands_turn_by_the_same_angle_at_every_position(visits: object, lang: str) -> None:
    v = visits(lang + "start-here/")  # type: ignore[operator]
    part = "clock-explorer"
    # opened with ?clock.position=100&clock.offset=7: restored
    s = v.state(part)
    assert s["state"] == "ok" and (s["data"]["p"], s["data"]["k"], s["data"]["rate"]) == (100, 7, 100), s["values"]
    assert v.page.locator(f"#{part}-position").input_value() == "100"
    assert v.page.locator(f"#{part}-position-slider").input_value() == "100"
    for key in ("at", "next", "turns"):
        p = {"at": 100, "next": 107, "turns": 7}[key]
        assert np.abs(np.array(s["data"][key]) - clock_angles(p)).max() < 1e-9, key

    # the turn from p to p + k is k·w_i whatever p is (every p of the slider, in one evaluate)
    turns = v.page.evaluate(
        """k => { const out = [];
            for (let p = 0; p <= 1000; p++) {
              const a = window.peDocs.clockAngles(p), b = window.peDocs.clockAngles(p + k);
              out.push(a.map((x, i) => ((b[i] - x) % 360 + 360) % 360)); }
            return out; }""",
        7,
    )
    spread = np.array(turns) - clock_angles(7)
    spread = (spread + 180) % 360 - 180
    assert np.abs(spread).max() < 1e-9

    # the keyboard: the slider moves p by one, the field takes a position, the table shows start here's numbers
    v.page.locator(f"#{part}-position-slider").focus()
    v.page.keyboard.press("ArrowRight")
    assert v.state(part)["data"]["p"] == 101
    v.enter(part, "offset", "0")
    v.enter(part, "position", "1000", press="Enter")
    rows = v.page.eval_on_selector_all(
        f"#{part} tbody tr", "rows => rows.map(r => [...r.cells].map(c => c.textContent))"
    )
    assert [float(r[2].rstrip("°")) for r in rows] == [55.8, 329.6, 213.0, 57.3]  # start here's expected output
    assert [r[4] for r in rows] == ["0.0°"] * 4
    assert v.address("clock") == {"position": "1000", "offset": "0", "rate": "100"}
    summary = v.state(part)["summary"]
    assert "1000" in summary and ("每个 p" if v.zh else "every p") in summary

    # Play moves p (100 positions a second), Pause stops it and writes the address
    v.enter(part, "position", "0", press="Enter")
    v.enter(part, "offset", "10")
    button = v.page.locator(f"#{part} button")
    assert button.inner_text() == ("播放" if v.zh else "Play")
    button.focus()
    v.page.keyboard.press("Enter")
    v.page.wait_for_function(f"() => document.getElementById('{part}').peLive.data.p >= 20")
    assert button.get_attribute("aria-pressed") == "true"
    v.page.keyboard.press("Enter")
    p = v.state(part)["data"]["p"]
    assert button.get_attribute("aria-pressed") == "false" and v.address("clock")["position"] == str(p)
    # typing in a field while it plays stops it (here with a bad offset), and the button reads Play again
    button.click()
    assert button.get_attribute("aria-pressed") == "true"
    v.enter(part, "offset", "-1")
    v.page.wait_for_function(f"() => document.querySelector('#{part} button').getAttribute('aria-pressed') === 'false'")
    assert button.inner_text() == ("播放" if v.zh else "Play")
    v.enter(part, "offset", "10")

    # bad settings: a message in the page's language, and back
    v.enter(part, "position", "-3")
    check_error(v, part, "position", raised(lambda: check_int("position", -3, minimum=0)), "必须 ≥ 0")
    v.enter(part, "position", "2.5")
    check_error(v, part, "position", raised(lambda: check_int("position", 2.5)), "必须是整数")
    v.enter(part, "position", "")
    check_error(v, part, "position", "position is empty or not a number", "为空")
    v.enter(part, "position", "12")
    assert v.state(part)["state"] == "ok"

    # the address round trip (relative-schemes' test opens the page again): a figure started from what the page
    # wrote has the same settings
    v.enter(part, "offset", "3")
    assert v.address("clock") == {"position": "12", "offset": "3", "rate": "100"}
    assert v.page.evaluate("() => location.hash") == "#" + part
    again = v.again("clock", "clock-again")
    assert again["values"] == v.state(part)["values"] and again["data"]["at"] == v.state(part)["data"]["at"]


# ---- relative: RoPE -----------------------------------------------------------------------------------------------


def rope_scores(q: list[float], k: list[float], m: int, n: int, base: float, pairing: str) -> float:
    qr = rope_rotate(torch.tensor([q], dtype=torch.float64), torch.tensor([m]), base=base, pairing=pairing)
    kr = rope_rotate(torch.tensor([k], dtype=torch.float64), torch.tensor([n]), base=base, pairing=pairing)
    return float((qr * kr).sum())


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_rope_score_depends_on_the_offset_only(visits: object, lang: str) -> None:
    v = visits(lang + "relative/")  # type: ignore[operator]
    part = "rope-explorer"
    s = v.state(part)["data"]
    assert (s["d"], s["base"], s["pairing"], s["m"], s["n"]) == (8, 100, "half", 5, 12)  # from the address
    q, k = s["q"], s["k"]
    for vec, rotated, p in ((q, s["qr"], 5), (k, s["kr"], 12)):
        want = rope_rotate(torch.tensor([vec], dtype=torch.float64), torch.tensor([p]), base=100.0, pairing="half")
        assert np.abs(np.array(rotated) - want[0].numpy()).max() < 1e-13
    assert abs(s["score"] - rope_scores(q, k, 5, 12, 100.0, "half")) < 1e-12
    # the score against the offset: q at m, the key at m + offset
    for o, score in list(zip(s["offsets"], s["curve"], strict=True))[::7]:
        assert abs(score - rope_scores(q, k, 5, 5 + o, 100.0, "half")) < 1e-12, o
    assert s["change"] < 1e-12  # over the shifts 0 … 1000 of both positions
    # ropeRotate over a grid of widths, positions, bases and pairings (one evaluate)
    gen = torch.Generator().manual_seed(0)
    rotations = [
        (torch.randn(d, generator=gen, dtype=torch.float64).tolist(), p, b, pairing)
        for d in (2, 16, 128)
        for p in (0, 7, 4095, 1_000_000)
        for b in (10000.0, 500000.0)
        for pairing in ("interleaved", "half")
    ]
    rotated = v.page.evaluate(
        "cases => cases.map(([x, p, b, pairing]) => Array.from(window.peDocs.ropeRotate(x, p, b, pairing)))", rotations
    )
    for (x, p, b, pairing), js in zip(rotations, rotated, strict=True):
        want = rope_rotate(torch.tensor([x], dtype=torch.float64), torch.tensor([p]), base=b, pairing=pairing)[0]
        assert np.abs(np.array(js) - want.numpy()).max() < 1e-13 * max(1.0, float(np.abs(x).max())), (p, b, pairing)

    # shift both: every pair turns, the score stays
    v.page.locator(f"#{part}-shift-slider").focus()
    for _ in range(3):
        v.page.keyboard.press("ArrowRight")
    shifted = v.state(part)["data"]
    assert (shifted["m"], shifted["n"]) == (8, 15) and shifted["qAngles"] != s["qAngles"]
    assert abs(shifted["score"] - s["score"]) < 1e-12
    v.enter(part, "shift", "1000000", press="Enter")
    far = v.state(part)["data"]
    assert far["m"] == 1_000_005 and abs(far["score"] - s["score"]) < 1e-8  # angles of 10⁶ rounded: ~10⁻¹⁰
    assert abs(far["score"] - rope_scores(q, k, 1_000_005, 1_000_012, 100.0, "half")) < 1e-12
    # random vectors: the other pairing, another score
    v.choose(part, "pairing", "interleaved")
    other = v.state(part)["data"]
    assert abs(other["score"] - rope_scores(q, k, 1_000_005, 1_000_012, 100.0, "interleaved")) < 1e-12
    assert abs(other["score"] - far["score"]) > 1e-3
    assert v.address("rope") == {
        "head_dim": "8",
        "base": "100",
        "pairing": "interleaved",
        "vectors": "random",
        "m": "5",
        "n": "12",
        "shift": "1000000",
    }
    summary = v.state(part)["summary"]
    assert "n − m = 7" in summary
    # the language switch keeps the settings: the other language's page opens with the same address
    other_lang = v.page.evaluate(
        """() => {
             const lang = document.documentElement.lang;
             const a = document.querySelector(`a.md-select__link:not([hreflang="${lang}"])`);
             a.onclick();
             return a.href;
           }"""
    )
    assert other_lang.endswith("relative/" + v.page.evaluate("location.search + location.hash"))
    assert "rope.shift=1000000" in other_lang

    v.enter(part, "head_dim", "7")
    check_error(v, part, "head_dim", raised(lambda: check_d_model(7, "head_dim")), "偶数")
    v.enter(part, "head_dim", "16")
    v.choose(part, "vectors", "ones")
    ones = v.state(part)["data"]
    assert ones["q"] == [1.0] * 16 and ones["plain"] == 16

    again = v.again("rope", "rope-again")["data"]  # from the address the page wrote
    assert (again["d"], again["pairing"], again["shift"], again["q"]) == (16, "interleaved", 1_000_000, [1.0] * 16)
    assert again["score"] == v.state(part)["data"]["score"]
    # an address that names no pairing we know: a message, not an empty plot
    v.again("rope", "rope-bad", "?rope.pairing=diagonal&rope.m=2")
    check_error(v, "rope-bad", "pairing", raised(lambda: check_choice("pairing", "diagonal", PAIRINGS)), "之一")
    assert v.state("rope-bad")["values"]["m"] == "2" and v.state(part)["data"]["pairing"] == "interleaved"


# ---- relative-schemes: ALiBi, T5, RoPE scaling -------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_alibi_slopes_and_t5_buckets(visits: object, lang: str) -> None:
    v = visits(lang + "relative-schemes/")  # type: ignore[operator]
    alibi, t5 = "bias-explorer-alibi", "bias-explorer-t5"
    # T5 opened as the decoder (t5.bidirectional=0): relative-schemes says its last bucket starts at distance 113
    s = v.state(t5)["data"]
    assert not s["bidirectional"] and s["reach"] == 200
    offsets = torch.arange(-200, 201)
    assert s["buckets"] == t5_relative_bucket(offsets, bidirectional=False).tolist()
    assert s["last"] == 113 and s["exact"] == 16
    v.toggle(t5, "bidirectional")
    s = v.state(t5)["data"]
    encoder = t5_relative_bucket(torch.arange(-129, 130))
    assert s["last"] == 91 == int(torch.arange(-129, 130)[encoder == 15].abs().min())
    assert s["used"] == 31 and s["unused"] == [16] == sorted(set(range(32)) - set(encoder.tolist()))
    summary = v.state(t5)["summary"]
    assert all(x in summary for x in ("91", "31", "16", "0", "7")), summary
    v.enter(t5, "num_buckets", "33")
    check_error(v, t5, "num_buckets", raised(lambda: t5_relative_bucket(torch.tensor([0]), num_buckets=33)), "偶数")
    v.enter(t5, "num_buckets", "32")
    v.enter(t5, "max_distance", "8")
    check_error(
        v, t5, "max_distance", raised(lambda: t5_relative_bucket(torch.tensor([0]), max_distance=8)), "必须 ≥ 9"
    )
    # more buckets need a larger max_distance; an odd number of buckets turned bidirectional: both adapted
    v.enter(t5, "max_distance", "9")
    v.enter(t5, "num_buckets", "64")
    assert check_adjusted(v, t5, "max_distance", "17")["data"]["last"] == 17
    v.toggle(t5, "bidirectional")
    v.enter(t5, "num_buckets", "33")
    v.toggle(t5, "bidirectional")
    assert check_adjusted(v, t5, "num_buckets", "34")["data"]["bidirectional"]
    v.enter(t5, "num_buckets", "32")
    v.enter(t5, "max_distance", "128")
    assert v.address("t5") == {"bidirectional": "1", "num_buckets": "32", "max_distance": "128", "reach": "200"}

    # ALiBi: slopes for a number of heads that is not a power of two; the matrix of one head
    v.enter(alibi, "n_heads", "12")
    v.enter(alibi, "head", "9")
    a = v.state(alibi)["data"]
    assert np.abs(np.array(a["slopes"]) / alibi_slopes(12).numpy() - 1).max() < REL
    assert (a["m"], a["power"], a["h"]) == (8, False, 9)
    cells = v.page.eval_on_selector_all(f"#{alibi} .pe-live__celltext", "els => els.map(e => e.textContent)")
    assert len(cells) == 64 and cells[8] == f"−{alibi_slopes(12)[8].item():.3g}"  # row 1, column 0: −m_9
    v.enter(alibi, "head", "13")
    check_error(v, alibi, "head", "head must be between 1 and n_heads = 12, got 13", "之间")
    v.enter(alibi, "head", "9")
    v.enter(alibi, "n_heads", "4")  # fewer heads than the head shown: the last one is shown
    assert check_adjusted(v, alibi, "head", "4")["data"]["h"] == 4
    v.enter(alibi, "n_heads", "12")
    v.enter(alibi, "head", "1")
    assert v.address("alibi") == {"n_heads": "12", "seq_len": "8", "head": "1", "causal": "1"}


def ntk_beyond(d: int, length: int, target: int, factor: float) -> tuple[list[int], int, int]:
    """relative-schemes' rule: slow pairs (wavelength > L) whose largest angle over the target length is, on the
    trained ladder, the angle of a position beyond L; the farthest of them and that position."""
    w = inverse_frequencies(d)
    new = ntk_aware_frequencies(d, factor)
    farthest = (target - 1) * new / w
    slow = length * w / (2 * math.pi) < 1
    beyond = (slow & (farthest > length)).nonzero().flatten().tolist()
    worst = max(beyond, key=lambda i: farthest[i].item())
    return beyond, worst, round(farthest[worst].item())


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_rope_scaling_marks_the_pairs_that_leave_the_trained_range(visits: object, lang: str) -> None:
    v = visits(lang + "relative-schemes/")  # type: ignore[operator]
    part = "scaling-explorer"
    # opened with ?scaling.method=ntk: relative-schemes' numbers (17 of the 18 slow pairs, pair 46 to 7179)
    s = v.state(part)
    d = s["data"]
    beyond, worst, far = ntk_beyond(128, 4096, 32768, 8.0)
    assert d["method"] == "ntk" and d["slow"] == list(range(46, 64))
    assert d["beyond"] == beyond and len(beyond) == 17 and (d["worst"], worst, far) == (46, 46, 7179)
    assert np.abs(np.array(d["scaled"]) / ntk_aware_frequencies(128, 8.0).numpy() - 1).max() < REL
    assert "7179" in s["summary"] and "46–62" in s["summary"]
    assert v.page.locator(f"#{part} .pe-live__dot.pe-live__c3").count() == 17  # the marked pairs
    assert v.page.locator(f"#{part}-beta_fast").is_hidden()  # YaRN's settings only for YaRN

    # YaRN with transformers' defaults: no pair beyond, the attention scaling of the page (1.208, logits × 1.459)
    v.choose(part, "method", "yarn")
    d = v.state(part)["data"]
    yarn = exact_frequencies(
        128, 10000.0, {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "beta_fast": 32}
    )
    assert np.abs(np.array(d["scaled"]) / yarn.inv_freq.numpy() - 1).max() < REL
    assert d["beyond"] == [] and abs(d["scaling"] - yarn.attention_scaling) < REL
    summary = v.state(part)["summary"]
    assert "1.208" in summary and "1.459" in summary
    assert v.page.locator(f"#{part}-beta_fast").is_visible()
    v.toggle(part, "truncate")
    untruncated = exact_frequencies(
        128, 10000.0, {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "truncate": False}
    )
    assert np.abs(np.array(v.state(part)["data"]["scaled"]) / untruncated.inv_freq.numpy() - 1).max() < REL
    # a beta of 0 is refused with pe_docs' message (never read as the default); beta_slow follows beta_fast down
    v.enter(part, "beta_fast", "0")
    check_error(v, part, "beta_fast", raised(lambda: yarn_boundaries(128, 4096, beta_fast=0)), "必须 > 0")
    v.enter(part, "beta_fast", "32")
    v.enter(part, "beta_slow", "2")
    v.enter(part, "beta_fast", "1.5")
    yarn = {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 4096, "truncate": False}
    slower = exact_frequencies(128, 10000.0, {**yarn, "beta_fast": 1.5, "beta_slow": 1.5})
    assert (
        np.abs(
            np.array(check_adjusted(v, part, "beta_slow", "1.5")["data"]["scaled"]) / slower.inv_freq.numpy() - 1
        ).max()
        < REL
    )
    v.enter(part, "beta_fast", "32")
    v.enter(part, "beta_slow", "1")

    # Llama 3.1: base 500 000, L = 8192, factor 8, read to 131 072 tokens
    v.choose(part, "method", "llama3")
    v.enter(part, "base", "500000")
    v.enter(part, "original", "8192")
    v.enter(part, "target", "131072")
    d = v.state(part)["data"]
    llama = exact_frequencies(
        128,
        500000.0,
        {
            "rope_type": "llama3",
            "factor": 8.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 8192,
        },
    )
    assert np.abs(np.array(d["scaled"]) / llama.inv_freq.numpy() - 1).max() < REL
    assert v.address("scaling") == {
        "head_dim": "128",
        "base": "500000",
        "original": "8192",
        "target": "131072",
        "method": "llama3",
        "factor": "8",
        "low_freq_factor": "1",
        "high_freq_factor": "4",
    }
    # Dynamic NTK at the target length: transformers' scale factor · L'/L − (factor − 1)
    v.choose(part, "method", "dynamic")
    d = v.state(part)["data"]
    dynamic = exact_frequencies(
        128, 500000.0, {"rope_type": "dynamic", "factor": 8.0, "original_max_position_embeddings": 8192}, 131072
    )
    assert np.abs(np.array(d["scaled"]) / dynamic.inv_freq.numpy() - 1).max() < REL

    # bad settings, each named in the page's language
    v.enter(part, "factor", "0.5")
    check_error(v, part, "factor", "factor must be >= 1.0, got 0.5", "必须 ≥ 1")
    assert raised(lambda: rope_frequencies(8, scaling={"rope_type": "linear", "factor": 0.5})) == (
        "scaling['factor'] must be >= 1.0, got 0.5"
    )
    v.enter(part, "factor", "8")
    v.choose(part, "method", "llama3")
    v.enter(part, "high_freq_factor", "0.5")
    check_error(
        v,
        part,
        "high_freq_factor",
        raised(lambda: llama3_frequencies(128, 8.0, 8192, low_freq_factor=1.0, high_freq_factor=0.5)),
        "必须大于 low_freq_factor",
    )
    v.enter(part, "high_freq_factor", "4")
    # low_freq_factor raised above high_freq_factor: the message names the field beside it, the figures stay
    v.enter(part, "low_freq_factor", "5")
    s = v.state(part)
    assert s["state"] == "error" and s["data"] is None and s["views"] and s["stale"], s
    assert v.page.locator(f"#{part}-high_freq_factor").get_attribute("aria-invalid") == "true"
    assert v.page.locator(f"#{part} .pe-live__views svg").count() == 2  # the figures of the last good setting
    message = raised(lambda: llama3_frequencies(128, 8.0, 8192, low_freq_factor=5.0, high_freq_factor=4))
    assert "high_freq_factor" in s["message"] and (v.zh or s["message"] == message), s["message"]
    v.enter(part, "low_freq_factor", "1")
    assert v.state(part)["state"] == "ok" and not v.state(part)["stale"]
    v.choose(part, "method", "ntk")
    v.enter(part, "head_dim", "2")
    check_error(v, part, "head_dim", raised(lambda: ntk_aware_base(2, 8.0)), "必须 ≥ 4")
    v.choose(part, "method", "linear")  # a head of width 2 is fine for position interpolation …
    assert v.state(part)["state"] == "ok"
    v.choose(part, "method", "ntk")  # … not for the NTK-aware base: the width is adapted
    check_adjusted(v, part, "head_dim", "4")
    v.enter(part, "head_dim", "128")
    v.enter(part, "original", "0")
    check_error(v, part, "original", "L must be >= 1, got 0", "训练长度 L 必须 ≥ 1")
    v.enter(part, "original", "4096")
    assert v.state(part)["state"] == "ok"

    if not v.zh:  # the address round trip, opened for real: every figure of the page gets its settings back
        url = v.page.evaluate("() => location.href")
        others = [v.state(p)["values"] for p in ("bias-explorer-alibi", "bias-explorer-t5")]
        v.open(url)
        d = v.state(part)["data"]
        assert (d["method"], d["base"], d["L"], d["T"]) == ("ntk", 500000, 4096, 131072)
        assert [v.state(p)["values"] for p in ("bias-explorer-alibi", "bias-explorer-t5")] == others  # theirs too


# ---- the pages -----------------------------------------------------------------------------------------------


def test_scripts_are_small_and_loaded_only_where_needed(site_dir: Path) -> None:
    """One frame (pe-live.js, pe-live.css) and each page's explorers, on the pages that embed them and no other."""
    core = (site_dir / SCRIPTS / "pe-live.js").stat().st_size + (
        site_dir / "assets/stylesheets/pe-live.css"
    ).stat().st_size
    sizes = {kind: (site_dir / SCRIPTS / f"pe-live-{kind}.js").stat().st_size for kind in KINDS}
    print(f"explorers: {core} bytes shared, per explorer {sizes}")
    found: dict[str, set[str]] = {}
    for html in site_dir.rglob("index.html"):
        text = html.read_text(encoding="utf-8")
        path = html.parent.relative_to(site_dir).as_posix() + "/"
        kinds = set(re.findall(r'<div class="pe-live" data-kind="(\w+)"', text))
        assert ("pe-live.js" in text) == bool(kinds) == ("pe-live.css" in text), path
        assert "pe-explorer." not in text and 'class="pe-explorer' not in text, path  # one frame for every explorer
        for kind in KINDS:
            assert (f"pe-live-{kind}.js" in text) == (kind in kinds), (path, kind)
        if kinds:
            assert core + sum(sizes[k] for k in kinds) <= BUDGET, path
            found[path] = kinds
            # without JavaScript the div says, in the page's language, where the still figure is
            for fallback in re.findall(r'<div class="pe-live"[^>]*><p>(.*?)</p></div>', text):
                assert "JavaScript" in fallback and bool(HAN.search(fallback)) == path.startswith("zh/"), fallback
    expected: dict[str, set[str]] = {}
    for kind, pages in KINDS.items():
        for page in pages:
            for prefix in LANG_PATHS:
                expected.setdefault(prefix + page, set()).add(kind)
    assert found == expected
    for name in ["pe-live.js"] + [f"pe-live-{kind}.js" for kind in KINDS]:
        assert (site_dir / "zh" / SCRIPTS / name).read_bytes() == (site_dir / SCRIPTS / name).read_bytes()
