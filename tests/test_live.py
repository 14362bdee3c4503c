"""The live figures (``overrides/assets/javascripts/pe-live*.js``) in a real browser, against pe_docs.

The figures compute what they draw in the page, in float64, and expose it as ``window.peDocs``:
``ropeFrequencies(dHead, base, scaling, seqLen)`` ≙ ``pe_docs.rope_frequencies`` (``inv_freq`` and
``attention_scaling``, every ``rope_type``), ``alibiSlopes(nHeads)`` ≙ ``alibi_slopes``,
``t5RelativeBucket(relativePosition, bidirectional, numBuckets, maxDistance)`` ≙ ``t5_relative_bucket``,
``ropeRotate(x, position, base, pairing)`` ≙ ``rope_rotate``, ``ntkAwareFrequencies`` ≙ ``ntk_aware_frequencies``
and ``clockAngles`` ≙ start here's ``rad2deg(remainder(p · w, 2π))``. One visit per page and language (the pages
are opened with settings in their address, which the figures must restore) evaluates a grid of settings in one
``page.evaluate``, then drives the controls with the keyboard and checks what each figure shows — its numbers
against pe_docs, and against the numbers the page itself states — its messages for bad settings in the page's
language, and the address it writes; an English visit per page then opens that address and finds the same
settings. No console error and no request off the site on any visit.

Tolerances. The frequencies are the same float64 operations in the same order on both sides; only ``pow``, ``log``,
``sin`` and ``cos`` may differ (ECMAScript's ``Math`` functions are "implementation-approximated"; V8 takes them
from its fdlibm port, PyTorch's CPU kernels have their own), by an ulp or so each: a relative 1e-12 leaves room for
a few of them in a row and catches any change of formula. T5's buckets must be equal: a bucket is an integer.
"""

from __future__ import annotations

import base64
import json
import math
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
import torch

from pe_docs import alibi_slopes, inverse_frequencies, rope_frequencies, t5_relative_bucket
from pe_docs.analysis import ntk_aware_frequencies, rope_rotate
from site_tools.browser import serve_site, shared_browser

pytestmark = pytest.mark.browser

REL = 1e-12
KINDS = {"clock": "start-here/", "rope": "relative/", "bias": "relative-schemes/", "scaling": "relative-schemes/"}
SCRIPTS = "assets/javascripts/"
BUDGET = 110 * 1024  # bytes of script and styles the live figures add to one page (not minified)
HAN = re.compile("[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def base_url(site_dir: Path) -> Iterator[str]:
    with serve_site(site_dir) as url:
        yield url


@pytest.fixture(scope="module")
def chromium() -> object:
    return shared_browser()  # one Chromium per process, shared with the other browser tests


class Visit:
    """One page in a fresh browser context, recording console errors and every request it makes."""

    def __init__(self, chromium: object, base_url: str, path: str) -> None:
        self.base_url = base_url
        self.ctx = chromium.new_context(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
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
        self.ctx.close()
        offsite = [u for u in self.requests if not u.startswith((self.base_url, "data:", "blob:"))]
        assert not offsite, f"requests off the site: {offsite}"
        assert not self.errors, self.errors

    @property
    def zh(self) -> bool:
        return "/zh/" in self.page.url

    def state(self, part: str) -> dict:
        """What the figure (or part) ``part`` computed: its settings, its data (typed arrays as lists), its error,
        its summary."""
        return self.page.evaluate(
            """part => { const root = document.getElementById(part); const s = root.peLive;
                const plain = x => x instanceof Float64Array ? Array.from(x)
                  : Array.isArray(x) ? x.map(plain)
                  : x && typeof x === 'object' ? Object.fromEntries(Object.entries(x).map(([k, v]) => [k, plain(v)]))
                  : x;
                return { values: { ...s.values }, data: plain(s.data), error: s.error, state: root.dataset.state,
                         summary: root.querySelector('.pe-live__summary').textContent,
                         message: root.querySelector('.pe-live__error').textContent,
                         views: !root.querySelector('.pe-live__views').hidden }; }""",
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
        """Start a second figure of ``kind`` (id ``part``) as a page load starts one: from the page's address
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
        """The settings of the figure ``prefix`` in the page's address."""
        query = urlsplit(self.page.url).query
        return {k.removeprefix(prefix + "."): v for k, v in parse_qsl(query) if k.startswith(prefix + ".")}


@pytest.fixture(scope="module")
def visits(chromium: object, base_url: str) -> Iterator[dict]:
    """One visit per page and language, opened on first use with the settings of ``OPENED`` in its address."""
    opened: dict[str, Visit] = {}

    def visit(path: str) -> Visit:
        if path not in opened:
            page = path.removeprefix("zh/")
            opened[path] = Visit(chromium, base_url, path + OPENED.get(page, ""))
        return opened[path]

    yield visit  # type: ignore[misc]
    for v in opened.values():
        v.close()


# the address each page is first opened with: the figures must start from these settings
OPENED = {
    "start-here/": "?clock.position=100&clock.offset=7&clock.rate=100#clock-explorer",
    "relative/": "?rope.d_head=8&rope.base=100&rope.pairing=half&rope.vectors=random&rope.m=5&rope.n=12"
    "&rope.shift=0#rope-explorer",
    "relative-schemes/": "?t5.bidirectional=0&t5.num_buckets=32&t5.max_distance=128&t5.reach=200"
    "&scaling.method=ntk&scaling.factor=8#bias-explorer-t5",
}
LANG_PATHS = ["", "zh/"]


def check_error(v: Visit, part: str, key: str, english: str, chinese: str) -> None:
    """A bad setting: the message (in the page's language) in place of the views, the field marked."""
    s = v.state(part)
    assert s["state"] == "error" and not s["views"] and s["data"] is None, s
    assert v.page.locator(f"#{part} [role=alert]").is_visible()
    assert v.page.locator(f"#{part}-{key}").get_attribute("aria-invalid") == "true"
    if v.zh:
        assert HAN.search(s["message"]) and chinese in s["message"], s["message"]
    else:
        assert s["message"] == english, s["message"]


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
    """(d_head, base, rope_parameters, seq_len): every rope_type, their options, small and large heads."""
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


# bad settings: pe_docs' exception ↔ the script's (TypeError ↔ TypeError, ValueError ↔ RangeError)
BAD_ROPE = [
    (7, 10000.0, None, None),
    (0, 10000.0, None, None),
    (8, 0.0, None, None),
    (8, -1.0, None, None),
    (8, 10000.0, {"rope_type": "ntk"}, None),
    (8, 10000.0, {"rope_type": "linear"}, None),
    (8, 10000.0, {"rope_type": "linear", "factor": 0.5}, None),
    (8, 10000.0, {"rope_type": "linear", "factor": 2.0, "beta_fast": 4}, None),
    (8, 10000.0, {"rope_type": "linear", "factor": 2.0}, 100),
    (8, 10000.0, {"rope_type": "default", "rope_theta": 500000.0}, None),
    (8, 10000.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 0}, None),
    (8, 10000.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 4096, "truncate": 1}, None),
    (8, 1.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 4096}, None),
    (8, 10000.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 4096, "beta_slow": 64}, None),
    (8, 10000.0, {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": 4096, "beta_fast": 0}, None),
    (8, 10000.0, {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}, 0),
    (2, 10000.0, {"rope_type": "dynamic", "factor": 2.0, "original_max_position_embeddings": 4096}, None),
    (
        8,
        10000.0,
        {
            "rope_type": "llama3",
            "factor": 8.0,
            "original_max_position_embeddings": 8192,
            "low_freq_factor": 4.0,
            "high_freq_factor": 1.0,
        },
        None,
    ),
]
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
  const [ropeCases, badRope, t5Settings, [lo, hi], rotations] = JSON.parse(text);
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
  const bad = badRope.map(([d, b, scaling, seqLen]) => {
    try { api.ropeFrequencies(d, b, scaling, seqLen); return null; } catch (e) { return [e.name, e.message]; }
  });
  const slopes = flat(Array.from({length: 100}, (_, j) => api.alibiSlopes(j + 1)));
  const offsets = Array.from({length: hi - lo + 1}, (_, j) => lo + j);
  const buckets = Int32Array.from(t5Settings.flatMap(([bi, n, m]) => api.t5RelativeBucket(offsets, bi, n, m)));
  const single = api.t5RelativeBucket(-200, true, 32, 128);
  const ntk = flat([[128, 8, 10000], [64, 4, 500000], [4, 2, 10000]]
    .map(([d, s, b]) => api.ntkAwareFrequencies(d, s, b)));
  const rotated = flat(rotations.map(([x, p, b, pairing]) => api.ropeRotate(x, p, b, pairing)));
  return { rope: b64(rope), typed, bad, slopes: b64(slopes), buckets: b64(buckets), single, ntk: b64(ntk),
           rotated: b64(rotated) };
}"""


def unpack(text: str, dtype: str = "<f8") -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), dtype=dtype)


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_computations_match_pe_docs(visits: object, lang: str) -> None:
    page = visits(lang + "relative-schemes/").page  # type: ignore[operator]
    cases = rope_cases()
    gen = torch.Generator().manual_seed(0)
    rotations = [
        (torch.randn(d, generator=gen, dtype=torch.float64).tolist(), p, b, pairing)
        for d in (2, 16, 128)
        for p in (0, 7, 4095, 1_000_000)
        for b in (10000.0, 500000.0)
        for pairing in ("interleaved", "half")
    ]
    got = page.evaluate(COMPUTE_JS, json.dumps([cases, BAD_ROPE, T5_SETTINGS, [OFFSETS[0], OFFSETS[-1]], rotations]))

    assert all(got["typed"]), "ropeFrequencies must return a Float64Array of d_head / 2 frequencies"
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

    for (d, base, scaling, seq_len), thrown in zip(BAD_ROPE, got["bad"], strict=True):
        with pytest.raises((TypeError, ValueError)) as python:
            exact_frequencies(d, base, scaling, seq_len)
        assert thrown is not None, (d, base, scaling, seq_len)
        assert thrown[0] == {"TypeError": "TypeError", "ValueError": "RangeError"}[python.type.__name__], thrown
        # pe_docs' message, up to how each language prints a number or a dictionary
        words = re.findall(r"[a-z_]{4,}", thrown[1])
        assert words and all(w in str(python.value) for w in words), (thrown[1], str(python.value))

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

    rotated, at = unpack(got["rotated"]), 0
    for x, p, b, pairing in rotations:
        want = rope_rotate(torch.tensor([x], dtype=torch.float64), torch.tensor([p]), base=b, pairing=pairing)[0]
        js, at = rotated[at : at + len(x)], at + len(x)
        assert np.abs(js - want.numpy()).max() < 1e-13 * max(1.0, float(np.abs(x).max())), (p, b, pairing)


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

    # bad settings: a message in the page's language, and back
    v.enter(part, "position", "-3")
    check_error(v, part, "position", "position must be >= 0, got -3", "必须 ≥ 0")
    v.enter(part, "position", "2.5")
    check_error(v, part, "position", "position must be an integer, got 2.5", "必须是整数")
    v.enter(part, "position", "")
    check_error(v, part, "position", "position is empty or not a number", "为空")
    v.enter(part, "position", "12")
    assert v.state(part)["state"] == "ok"

    # the address round trip (relative-schemes' test opens the page again): a figure started from what the page
    # wrote has the same settings
    v.enter(part, "offset", "3")
    assert v.address("clock") == {"position": "12", "offset": "3", "rate": "100"}
    assert urlsplit(v.page.url).fragment == part
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
        "d_head": "8",
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

    v.enter(part, "d_head", "7")
    check_error(v, part, "d_head", "d_head must be even (each frequency turns one pair of features), got 7", "偶数")
    v.enter(part, "d_head", "16")
    v.choose(part, "vectors", "ones")
    ones = v.state(part)["data"]
    assert ones["q"] == [1.0] * 16 and ones["plain"] == 16

    again = v.again("rope", "rope-again")["data"]  # from the address the page wrote
    assert (again["d"], again["pairing"], again["shift"], again["q"]) == (16, "interleaved", 1_000_000, [1.0] * 16)
    assert again["score"] == v.state(part)["data"]["score"]
    # an address that names no pairing we know: a message, not an empty plot
    v.again("rope", "rope-bad", "?rope.pairing=diagonal&rope.m=2")
    check_error(v, "rope-bad", "pairing", "pairing must be one of interleaved, half, got 'diagonal'", "之一")
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
    check_error(v, t5, "num_buckets", "num_buckets must be even when bidirectional, got 33", "偶数")
    v.enter(t5, "num_buckets", "32")
    v.enter(t5, "max_distance", "8")
    check_error(v, t5, "max_distance", "max_distance must be >= 9, got 8", "必须 ≥ 9")
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
        "d_head": "128",
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
    check_error(v, part, "factor", "factor must be >= 1, got 0.5", "必须 ≥ 1")
    v.enter(part, "factor", "8")
    v.choose(part, "method", "llama3")
    v.enter(part, "high_freq_factor", "0.5")
    check_error(
        v,
        part,
        "high_freq_factor",
        "high_freq_factor must be > low_freq_factor = 1, got 0.5",
        "必须大于 low_freq_factor",
    )
    v.enter(part, "high_freq_factor", "4")
    v.choose(part, "method", "ntk")
    v.enter(part, "d_head", "2")
    check_error(v, part, "d_head", "d_head must be >= 4, got 2", "必须 ≥ 4")
    v.enter(part, "d_head", "128")
    v.enter(part, "original", "0")
    check_error(v, part, "original", "L must be >= 1, got 0", "训练长度 L 必须 ≥ 1")
    v.enter(part, "original", "4096")
    assert v.state(part)["state"] == "ok"

    if not v.zh:  # the address round trip, opened for real: every figure of the page gets its settings back
        url = v.page.url
        others = [v.state(p)["values"] for p in ("bias-explorer-alibi", "bias-explorer-t5")]
        v.open(url)
        d = v.state(part)["data"]
        assert (d["method"], d["base"], d["L"], d["T"]) == ("ntk", 500000, 4096, 131072)
        assert [v.state(p)["values"] for p in ("bias-explorer-alibi", "bias-explorer-t5")] == others  # theirs too


# ---- the pages -----------------------------------------------------------------------------------------------


def test_scripts_are_small_and_loaded_only_where_needed(site_dir: Path) -> None:
    core = (site_dir / SCRIPTS / "pe-live.js").stat().st_size + (
        site_dir / "assets/stylesheets/pe-live.css"
    ).stat().st_size
    sizes = {kind: (site_dir / SCRIPTS / f"pe-live-{kind}.js").stat().st_size for kind in set(KINDS)}
    print(f"live figures: {core} bytes shared, per figure {sizes}")
    found: dict[str, set[str]] = {}
    for html in site_dir.rglob("index.html"):
        text = html.read_text(encoding="utf-8")
        path = html.parent.relative_to(site_dir).as_posix() + "/"
        kinds = set(re.findall(r'<div class="pe-live" data-kind="(\w+)"', text))
        assert ("pe-live.js" in text) == bool(kinds) == ("pe-live.css" in text), path
        for kind in KINDS:
            assert (f"pe-live-{kind}.js" in text) == (kind in kinds), (path, kind)
        if kinds:
            assert core + sum(sizes[k] for k in kinds) <= BUDGET, path
            found[path] = kinds
            # without JavaScript the div says, in the page's language, where the still figure is
            for fallback in re.findall(r'<div class="pe-live"[^>]*><p>(.*?)</p></div>', text):
                assert "JavaScript" in fallback and bool(HAN.search(fallback)) == path.startswith("zh/"), fallback
    expected: dict[str, set[str]] = {}
    for kind, page in KINDS.items():
        for prefix in LANG_PATHS:
            expected.setdefault(prefix + page, set()).add(kind)
    assert found == expected
    assert (site_dir / "zh" / SCRIPTS / "pe-live.js").read_bytes() == (site_dir / SCRIPTS / "pe-live.js").read_bytes()
