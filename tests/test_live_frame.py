"""The explorers' one frame (``pe-live.js``), live: every message a reader can raise, in both languages, and the
rules and Chinese texts of its table; the range of every number field and its arrow keys; the scripts each page
loads (``harness.live`` has the shared part).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import pytest
import torch
from harness.live import LANG_PATHS, OPENED, Visit, raised

from pe_docs import rope_frequencies, sinusoidal_table, t5_relative_bucket
from pe_docs._checks import check_choice, check_real
from pe_docs.analysis import llama3_frequencies, ntk_aware_frequencies, yarn_boundaries
from site_tools.finish.cjk import HAN

pytestmark = pytest.mark.browser


KINDS = {
    "table": ("formula/", "wavelength/"),
    "clock": ("start-here/",),
    "rope": ("relative/",),
    "bias": ("relative-schemes/",),
    "scaling": ("relative-schemes/",),
}
SCRIPTS = "assets/javascripts/"
BUDGET = 110 * 1024  # bytes of script and styles the explorers add to one page (not minified)


T5_ZERO = torch.tensor([0])
METHODS = ("none", "linear", "ntk", "dynamic", "yarn", "llama3")  # the scaling explorer's select
NUMBER = re.compile(r"\d+(?:\.\d+)?(?:e[+-]?\d+)?")  # a number in a message, as Python prints it

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
def test_every_message_a_reader_can_raise(visits: Callable[[str], Visit], lang: str) -> None:
    """An explorer started from each address of FIELD_MESSAGES: the message in the page's language, in place of the
    views, the field in error marked; in English, pe_docs' message."""
    pages: dict[str, list[tuple[int, str, str]]] = {}  # page: (row, its explorer's kind, the explorer's id)
    for j, (query, *_) in enumerate(FIELD_MESSAGES):
        kind = query.split(".", 1)[0]
        path, div = EXPLORERS[kind]
        pages.setdefault(path, []).append((j, div, f"message-{j}-{kind}" if div == "bias" else f"message-{j}"))
    for path, rows in pages.items():
        v = visits(lang + path)  # address replaced, explorers added: the tests below read MESSAGES or open their own
        v.page.evaluate(MOUNT_JS, [[div, f"message-{j}", "?" + FIELD_MESSAGES[j][0]] for j, div, _ in rows])
        shown = v.page.evaluate(SHOWN_JS, [[part, FIELD_MESSAGES[j][1]] for j, _, part in rows])
        for (j, _, _), (state, data, message, rule, views, alerts, invalid) in zip(rows, shown, strict=True):
            _, _, want, english, chinese = FIELD_MESSAGES[j]
            assert (state, data, rule, views, alerts, invalid) == ("error", None, want, False, 1, "true"), j
            english_message = english if isinstance(english, str) else raised(english)
            if v.zh:  # its numbers are pe_docs' message's, written the same way (1.0, not 1; "> 0" may be 正数)
                assert HAN.search(message) and chinese in message, message
                assert set(NUMBER.findall(message)) <= set(NUMBER.findall(english_message)), (message, english_message)
            else:
                assert message == english_message, FIELD_MESSAGES[j]
    dynamic = {"rope_type": "dynamic", "factor": 3.3}
    assert raised(
        lambda: rope_frequencies(128, scaling=dynamic, max_position_embeddings=3, seq_len=3, dtype=torch.float64)
    ) == ("factor must be >= 1.0, got 0.9999999999999996")


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
    ("formula/", "table-explorer", "d_model", "128", "130", "148"),
    ("formula/", "table-explorer", "base", "10000", "10001", "10010"),
    ("formula/", "table-explorer", "max_len", "100", "101", "110"),
    ("formula/", "table-explorer", "position", "0", "1", "10"),
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
        # what the page loads (a page may name the files in its text: the contributor's guide does)
        scripts = set(re.findall(r'<script src="[^"]*/(pe-live[\w-]*\.js)"', text))
        styles = set(re.findall(r'<link rel="stylesheet" href="[^"]*/(pe-live\.css)"', text))
        assert ("pe-live.js" in scripts) == bool(kinds) == ("pe-live.css" in styles), path
        assert "pe-explorer." not in text and 'class="pe-explorer' not in text, path  # one frame for every explorer
        assert scripts - {"pe-live.js"} == {f"pe-live-{kind}.js" for kind in kinds}, (path, scripts, kinds)
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
