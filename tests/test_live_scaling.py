"""RoPE's context extension, live (relative-schemes): ``ropeFrequencies(dHead, base, scaling, {maxPositionEmbeddings,
seqLen})`` ≙
``pe_docs.rope_frequencies`` (``inv_freq`` and ``attention_scaling``, every ``rope_type``) and
``ntkAwareFrequencies`` ≙ ``ntk_aware_frequencies`` over a grid, within ``REL``; the explorer's figures, messages
and address (``harness.live`` has the shared part).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable

import numpy as np
import pytest
import torch
from harness.live import ARRAYS_JS, LANG_PATHS, REL, Visit, check_adjusted, check_error, raised, unpack

from pe_docs import inverse_frequencies, rope_frequencies
from pe_docs.analysis import llama3_frequencies, ntk_aware_base, ntk_aware_frequencies, yarn_boundaries

pytestmark = pytest.mark.browser


def exact_frequencies(
    d: int, base: float, scaling: dict | None, max_position_embeddings: int | None = None, seq_len: int | None = None
):
    """``pe_docs.rope_frequencies`` in float64: each type's exact values."""
    return rope_frequencies(
        d,
        base=base,
        scaling=scaling,
        max_position_embeddings=max_position_embeddings,
        seq_len=seq_len,
        dtype=torch.float64,
    )


def rope_cases() -> list[tuple[int, float, dict | None, int | None, int | None]]:
    """(head_dim, base, rope_parameters, max_position_embeddings, seq_len): every rope_type, their options, small and
    large heads."""
    cases: list[tuple[int, float, dict | None, int | None, int | None]] = []
    for d in (2, 6, 64, 128, 256):
        for base in (100.0, 10000.0, 500000.0, 1e6):
            cases.append((d, base, None, None, None))
            cases.append((d, base, {"rope_type": "default", "rope_theta": base}, None, None))
            for factor in (1.0, 2.0, 8.0, 32.5):
                cases.append((d, base, {"rope_type": "linear", "factor": factor}, None, None))
            for factor in (1.0, 4.0, 8.0, 40.0):
                for length in (2048, 4096, 8192):
                    yarn = {"rope_type": "yarn", "factor": factor, "original_max_position_embeddings": length}
                    cases.append((d, base, yarn, None, None))
                    cases.append((d, base, {**yarn, "truncate": False, "beta_fast": 16, "beta_slow": 2}, None, None))
                    cases.append(
                        (d, base, {**yarn, "beta_fast": None, "beta_slow": None, "attention_factor": 0.9}, None, None)
                    )
                    cases.append((d, base, {**yarn, "mscale": 1.0, "mscale_all_dim": 0.707}, None, None))
                    cases.append((d, base, {**yarn, "mscale": 1.0, "mscale_all_dim": 0}, None, None))
            for factor, length, low, high in ((8.0, 8192, 1.0, 4.0), (32.0, 8192, 1.0, 4.0), (4.0, 2048, 0.5, 8.0)):
                llama3 = {"rope_type": "llama3", "factor": factor, "original_max_position_embeddings": length}
                cases.append((d, base, {**llama3, "low_freq_factor": low, "high_freq_factor": high}, None, None))
            if d >= 4:
                for factor in (1.0, 2.0, 8.0):
                    dynamic = {"rope_type": "dynamic", "factor": factor}
                    for seq_len in (None, 1000, 4096, 12288, 32768):
                        cases.append((d, base, dynamic, 4096, seq_len))
    return cases


ROPE_JS = (
    "text => {"
    + ARRAYS_JS
    + """
  const api = window.peDocs;
  const typed = [];
  const rope = flat(JSON.parse(text).map(([d, b, scaling, maxPositionEmbeddings, seqLen]) => {
    const r = api.ropeFrequencies(d, b, scaling, { maxPositionEmbeddings, seqLen });
    typed.push(r.invFreq instanceof Float64Array && r.invFreq.length === d / 2);
    return [...r.invFreq, r.attentionScaling];
  }));
  const ntk = flat([[128, 8, 10000], [64, 4, 500000], [4, 2, 10000]]
    .map(([d, s, b]) => api.ntkAwareFrequencies(d, s, b)));
  return { rope: b64(rope), typed, ntk: b64(ntk) };
}"""
)


@pytest.mark.parametrize("lang", LANG_PATHS, ids=["en", "zh"])
def test_frequencies_match_pe_docs(visits: Callable[[str], Visit], lang: str) -> None:
    cases = rope_cases()
    got = visits(lang + "relative-schemes/").page.evaluate(ROPE_JS, json.dumps(cases))

    assert all(got["typed"]), "ropeFrequencies must return a Float64Array of head_dim / 2 frequencies"
    rope = unpack(got["rope"])
    worst, at = 0.0, 0
    for d, base, scaling, trained, seq_len in cases:
        want = exact_frequencies(d, base, scaling, trained, seq_len)
        inv_freq, attention = rope[at : at + d // 2], rope[at + d // 2]
        at += d // 2 + 1
        rel = np.abs(inv_freq / want.inv_freq.numpy() - 1).max()
        rel_a = abs(attention / want.attention_scaling - 1)
        assert rel < REL and rel_a < REL, (d, base, scaling, trained, seq_len, rel, rel_a)
        worst = max(worst, rel, rel_a)
    assert at == len(rope)
    print(f"ropeFrequencies: {len(cases)} settings, largest relative difference {worst:.1e}")

    want_ntk = torch.cat(
        [ntk_aware_frequencies(128, 8.0), ntk_aware_frequencies(64, 4.0, base=500000.0), ntk_aware_frequencies(4, 2.0)]
    ).numpy()
    assert np.abs(unpack(got["ntk"]) / want_ntk - 1).max() < REL


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
    # Dynamic NTK at the target length: transformers' effective factor · L'/L − (factor − 1)
    v.choose(part, "method", "dynamic")
    d = v.state(part)["data"]
    dynamic = exact_frequencies(128, 500000.0, {"rope_type": "dynamic", "factor": 8.0}, 8192, 131072)
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
