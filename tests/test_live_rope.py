"""RoPE, live (relative): ``ropeRotate(x, position, base, pairing)`` ≙ ``rope_rotate`` over a grid; the score
against the offset, the shift of both positions, the messages and the address (``harness.live`` has the shared
part).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch
from harness.live import LANG_PATHS, check_error, raised

from pe_docs._checks import check_choice, check_d_model
from pe_docs.analysis import rope_rotate
from pe_docs.rotary import PAIRINGS

pytestmark = pytest.mark.browser


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
